"""A room's history as a reader may see it: the hash-chained log of
FAIRNESS.md (for ``fudgedice verify``), and the rolls as JSON or CSV."""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..log.canonical import FORMAT, GENESIS
from . import fair
from .problems import Problem
from .records import Member, RollRecord


def log_entries(
    records: Iterable[RollRecord], viewer: Member, revealed: set[int]
) -> Iterator[dict[str, Any]]:
    """Every entry of the chain, in order, as it was made. A hidden roll is its
    placeholder; its opening (salt and whole entry) is added for a reader who
    may see it, and for everyone once its seed is revealed (docs/fairness.md),
    so that it can be checked."""
    for record in records:
        if record.entry is None:
            raise Problem(500, f"roll {record.seq} was made before rolls kept their log entry")
        entry = dict(record.entry)
        if record.opening is not None and (record.visible_to(viewer) or record.epoch in revealed):
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
    listed = [
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
    last = records[-1] if records else None
    return {
        "format": FORMAT,
        "room": room,
        "seeds": listed,
        "entries": list(log_entries(records, viewer, revealed)),
        "head": {"seq": 0, "hash": GENESIS}
        if last is None
        else {"seq": last.seq, "hash": last.hash},
    }


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


def csv_rows(records: Sequence[RollRecord], viewer: Member) -> Iterator[str]:
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
