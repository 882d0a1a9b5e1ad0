"""What a commit on PostgreSQL tells every process's live feed (``NOTIFY``),
and how a listener reads it back.

A commit's rolls travel in the notification itself where they fit:
``rolls ROOM FIRST [ROLL,...] LAST``, each roll the fields the live feed
shows (:data:`CARRIED`): each watcher is then shown it as they may see it,
:meth:`.kept.RollRecord.frame_for`, as a roll read from the database would
be. What only the log needs stays behind: the entry, and a hidden roll's
salt and opening (the secret a reveal opens); a roll heard so is for the
live feed alone. Only the server's processes ``LISTEN`` on the channel, with
the same access to the database as the rows themselves. A
notification's payload is at most :data:`MOST` bytes (PostgreSQL refuses
8,000): rolls too many for one go in several, in order; a roll too big for
one alone, or one whose JSON only the standard library writes (an integer
past 64 bits), goes bare, ``rolls ROOM FIRST LAST``, and a listener that
wants it reads it from the database. The notices of one commit's rooms go
together, a line each, in as few notifications as hold them: each
notification costs every listening process a wake-up and a parse, whatever
it carries, and a commit of a busy table holds several rooms' rolls. Other
notices: ``reveal ROOM EPOCH``, ``member ROOM ID``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from .kept import RollRecord

MOST = 7900
"""Bytes of a notification's payload at most: PostgreSQL's limit is 8,000."""


def roll_notices(records: Sequence[RollRecord]) -> list[str]:
    """The payloads telling of one commit's ``records`` (each room's in
    ``seq`` order): each room's notices, a line each, packed into as few
    payloads as hold them."""
    rooms: dict[str, list[RollRecord]] = {}
    for record in records:
        rooms.setdefault(record.room, []).append(record)
    payloads: list[list[bytes]] = []  # the lines of each, as bytes: their sizes are PostgreSQL's
    size = MOST + 1  # none begun
    for room, its in rooms.items():
        for line in _room_notices(room, its):
            if size + 1 + len(line) > MOST:
                payloads.append([line])
                size = len(line)
            else:
                payloads[-1].append(line)
                size += 1 + len(line)
    return [b"\n".join(lines).decode() for lines in payloads]


def _room_notices(room: str, records: Sequence[RollRecord]) -> list[bytes]:
    """The notices telling of one room's ``records`` (in ``seq`` order):
    as few as hold them, a run of rolls that do not fit told bare."""
    payloads: list[bytes] = []
    head = len(f"rolls {room} ") + 2 * 21 + 3  # two seqs, a space and the brackets, at most
    run: list[tuple[int, bytes | None]] = []  # rolls alike (all carried, or all bare)
    size = head
    for record in records:
        encoded = _encoded(record)
        if encoded is not None and head + len(encoded) > MOST:
            encoded = None  # too big to carry: read where it is wanted
        alike = not run or (run[0][1] is None) == (encoded is None)
        if not alike or (encoded is not None and size + len(encoded) + 1 > MOST):
            payloads.append(_payload(room, run))
            run, size = [], head
        run.append((record.seq, encoded))
        size += 0 if encoded is None else len(encoded) + 1
    if run:
        payloads.append(_payload(room, run))
    return payloads


def _payload(room: str, run: list[tuple[int, bytes | None]]) -> bytes:
    first, last = run[0][0], run[-1][0]
    if run[0][1] is None:
        return f"rolls {room} {first} {last}".encode()
    # the rolls between the two seqs (processes sharing a database run one version)
    rolls = b",".join(encoded or b"" for _, encoded in run)
    return b"rolls %b %d [%b] %d" % (room.encode(), first, rolls, last)


CARRIED = (
    "seq", "member", "name", "visibility", "epoch", "commitment", "nonce", "client_seed",
    "text", "label", "faces", "result", "at", "hash", "verified", "error",
)  # fmt: skip
"""A roll's fields a notification carries, in order: those its frames are made
of. The log's entry (about a third of a roll's size) and a hidden roll's salt
and opening are left out: a notification then holds about eight rolls, not
five, and each listening process reads less of each."""


def _encoded(record: RollRecord) -> bytes | None:
    """The roll's :data:`CARRIED` fields as JSON, or None where orjson does not
    write them (then orjson would not read them back as they were)."""
    try:
        return orjson.dumps([getattr(record, field) for field in CARRIED])
    except TypeError:
        return None


@dataclass(frozen=True)
class Notice:
    """One notification heard, its rolls not yet read."""

    kind: str
    room: str
    first: int = 0
    last: int = 0
    body: str = ""
    """The rolls' fields (``rolls``), or what follows the room."""


def read_notices(payload: str) -> list[Notice | None]:
    """The notices of one notification, a line each (None: a line not one of the table's)."""
    return [read_notice(line) for line in payload.split("\n")]


def read_notice(payload: str) -> Notice | None:
    """The notice, its body left as it is (None: not one of the table's)."""
    parts = payload.split(" ", 3)
    try:
        if parts[0] == "rolls":  # "rolls ROOM FIRST [ROLLS] LAST"
            body, _, last = parts[3].rpartition(" ")
            return Notice("rolls", parts[1], int(parts[2]), int(last), body)
        if parts[0] in ("reveal", "member", "deleted", "token"):
            return Notice(parts[0], parts[1], body=" ".join(parts[2:]))
    except (IndexError, ValueError):
        pass
    return None


def carried(notice: Notice) -> list[RollRecord] | None:
    """The rolls a ``rolls`` notice carries, for the live feed (no entry, salt
    or opening), or None if they went bare or are not as :data:`CARRIED`
    says (then they are read from the database)."""
    if not notice.body:
        return None
    try:
        rows: list[list[Any]] = orjson.loads(notice.body)
        if any(len(row) != len(CARRIED) for row in rows):
            return None
        # by position, as CARRIED lists them: no salt after ``at``, no entry or
        # opening before the error (by keyword, a listener spent a third more
        # CPU time a roll: 15 µs, not 11)
        return [
            RollRecord(*[notice.room, *row[:13], None, *row[13:15], None, None, row[15]])
            for row in rows
        ]
    except (orjson.JSONDecodeError, TypeError):
        return None
