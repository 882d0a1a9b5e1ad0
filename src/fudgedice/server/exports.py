"""A room's history as a reader may see it: the hash-chained log of
docs/contracts/fairness.md (for ``fudgedice verify``), and the rolls as JSON or CSV.

Each is written out as it is read, a page of rolls at a time (on a worker
thread: the answer's body is a generator), so that a history of any length
costs the server a page's memory; the bytes are those of the whole document
written at once. The rolls are those the room had when the answer began."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic_core import to_json
from sqlalchemy import func, select

from ..log.canonical import FORMAT, GENESIS
from . import fair, store
from .db import Database
from .kept import Member, RollRecord, Room
from .problems import Problem, not_found
from .schema import rolls as rolls_table

PAGE = 500
"""Rolls read from the database at once."""


def log_entries(
    records: Iterable[RollRecord], viewer: Member, revealed: set[int]
) -> Iterator[dict[str, Any]]:
    """Every entry of the chain, in order, as it was made. A hidden roll is its
    placeholder; its opening (salt and whole entry) is added for a reader who
    may see it, and for everyone once its seed is revealed (docs/fairness.md),
    so that it can be checked; hidden talk's, only for its readers."""
    for record in records:
        if record.entry is None:
            raise Problem(500, f"roll {record.seq} was made before rolls kept their log entry")
        entry = dict(record.entry)
        if record.opened_to(viewer, revealed):
            entry["opening"] = record.opening
        yield entry


def log_document(
    room: str, seeds: Sequence[dict[str, Any]], records: Sequence[RollRecord], viewer: Member
) -> dict[str, Any]:
    """The room's log as ``fudgedice verify`` reads it: its seeds in order (a
    revealed one with the seed and how many rolls it made), every entry, and
    the head."""
    revealed = {seed["epoch"] for seed in seeds if seed["server_seed"] is not None}
    rolls = Counter(record.epoch for record in records if record.nonce is not None)
    last = records[-1] if records else None
    return {
        "format": FORMAT,
        "room": room,
        "seeds": seed_list(seeds, rolls),
        "entries": list(log_entries(records, viewer, revealed)),
        "head": _head(last),
    }


def _head(last: RollRecord | None) -> dict[str, Any]:
    return {"seq": 0, "hash": GENESIS} if last is None else {"seq": last.seq, "hash": last.hash}


def seed_list(seeds: Sequence[dict[str, Any]], rolls: Counter[int]) -> list[dict[str, Any]]:
    """The seeds as the log lists them: a revealed one with how many rolls
    drew from it (``rolls``, by epoch)."""
    revealed = {seed["epoch"] for seed in seeds if seed["server_seed"] is not None}
    return [
        {
            "commitment": seed["commitment"],
            "server_seed": seed["server_seed"],
            "rolls": rolls[seed["epoch"]] if seed["epoch"] in revealed else None,
            "epoch": seed["epoch"],
            "revealed_at": seed["revealed_at"],
            "stream": seed["stream"],
        }
        for seed in seeds
    ]


CSV_COLUMNS = (
    "seq", "at", "member", "name", "visibility", "hidden", "text", "label", "total",
    "result", "verdict", "faces", "by_hand", "nonce", "client_seed", "commitment", "verified",
)  # fmt: skip

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_OPAQUE = frozenset({"member", "commitment"})
"""Columns of ids the server makes (URL-safe base64, hex): copied as they are,
since a member id may start with '-' and a quote would make it another id."""


def _cell(value: Any, opaque: bool = False) -> str:
    """A spreadsheet reads a cell that starts with '=' (or '+', '-', '@') as a
    formula: such text, typed by a user, is kept text by a leading quote (an
    ``opaque`` id of the server's is copied as it is)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    if opaque:
        return text
    return "'" + text if text.startswith(_FORMULA_STARTS) and not _number(text) else text


def _number(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def csv_rows(records: Iterable[RollRecord], viewer: Member) -> Iterator[str]:
    """The header, then one line a roll; a hidden roll has only who and when."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")

    def line(values: Iterable[Any]) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow(
            [
                _cell(value, column in _OPAQUE)
                for column, value in zip(CSV_COLUMNS, values, strict=True)
            ]
        )
        return buffer.getvalue()

    yield line(CSV_COLUMNS)
    for record in records:
        shown = record.for_viewer(viewer)
        shown["hidden"] = not record.visible_to(viewer)
        if not shown["hidden"]:
            shown["text"] = record.text
            shown["faces"] = " ".join(str(face) for face in fair.faces(record.result))
        yield line(shown.get(column) for column in CSV_COLUMNS)


def pages(
    db: Database, room: str, last: int, member: str | None = None
) -> Iterator[list[RollRecord]]:
    """The room's rolls up to ``last`` (of ``member`` alone, if given), a page at a time."""
    after = 0
    while after < last:
        page = store.list_rolls(db, room, after=after, limit=PAGE, member=member)
        page = [record for record in page if record.seq <= last]
        if not page:
            return
        yield page
        after = page[-1].seq


@dataclass(frozen=True)
class LogStart:
    """What the log says before its entries, read together when it begins."""

    room: str
    last: int
    seeds: list[dict[str, Any]]
    revealed: set[int]


def log_start(db: Database, room: str) -> LogStart:
    """The room's last ``seq``, its seeds and how many rolls each revealed one
    made: read before a byte is written, so that a log that can't be written
    is refused with its status."""
    with db.read() as connection:
        row = store.room_row(connection, room)
        if row is None:
            raise not_found()
        last = row.last_seq
        mine = rolls_table.c.room_id == room, rolls_table.c.seq <= last
        counted = select(rolls_table.c.epoch, func.count()).where(
            *mine, rolls_table.c.nonce.is_not(None)
        )
        counts: Counter[int] = Counter(
            dict(connection.execute(counted.group_by(rolls_table.c.epoch)).all())
        )
        unkept = select(func.min(rolls_table.c.seq)).where(*mine, rolls_table.c.entry.is_(None))
        missing = connection.execute(unkept).scalar()
    if missing is not None:
        raise Problem(500, f"roll {missing} was made before rolls kept their log entry")
    seeds = [seed for seed in store.seed_list(db, room) if seed["epoch"] <= row.epoch]
    revealed = {seed["epoch"] for seed in seeds if seed["server_seed"] is not None}
    return LogStart(room, last, seed_list(seeds, counts), revealed)


def log_bytes(db: Database, start: LogStart, viewer: Member) -> Iterator[bytes]:
    """The log document's bytes, as the whole document would be written
    (compact JSON, as pydantic writes it), a page of entries at a time."""
    yield b'{"format":%b,"room":%b,"seeds":%b,"entries":[' % (
        to_json(FORMAT),
        to_json(start.room),
        to_json(start.seeds),
    )
    last: RollRecord | None = None
    for page in pages(db, start.room, start.last):
        entries = b",".join(map(to_json, log_entries(page, viewer, start.revealed)))
        yield entries if last is None else b"," + entries
        last = page[-1]
    yield b'],"head":%b}' % to_json(_head(last))


def rolls_json(db: Database, room: Room, viewer: Member, member: str | None) -> Iterator[bytes]:
    """The export as JSON: ``json.dumps`` of the room and its rolls, a page at a time."""
    about = {"room": room.id, "name": room.name, "system": room.system}
    yield (json.dumps(about, ensure_ascii=False)[:-1] + ', "rolls": [').encode()
    first = True
    for page in pages(db, room.id, room.last_seq, member):
        shown = ", ".join(json.dumps(r.for_viewer(viewer), ensure_ascii=False) for r in page)
        yield (shown if first else ", " + shown).encode()
        first = False
    yield b"]}"


def rolls_csv(db: Database, room: Room, viewer: Member, member: str | None) -> Iterator[bytes]:
    """The export as CSV: its header, then a page of lines at a time."""
    lines = csv_rows(_each(pages(db, room.id, room.last_seq, member)), viewer)
    yield next(lines).encode()
    while chunk := "".join(line for _, line in zip(range(PAGE), lines, strict=False)):
        yield chunk.encode()


def _each(paged: Iterable[list[RollRecord]]) -> Iterator[RollRecord]:
    for page in paged:
        yield from page
