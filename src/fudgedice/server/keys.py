"""Idempotent requests: the ``Idempotency-Key`` header of a roll, a spend or a
message (docs/table.md, "Retries").

A client that sends a request and hears no answer (the connection dropped,
the process killed between its commit and its answer) cannot tell whether
the entry was made. Sent again with the same key, by the same member in the
same room, the request is answered the entry the key first made, on any
process: the key is kept in the database, in the transaction that made the
entry, never in a process's memory. The same key asking for something else
is refused (422), as Stripe and the IETF's draft refuse it: a key names one
request. Keys are each member's own (a row's key includes the member), so
one member's key never answers another's request.

A key is kept :data:`KEEP` (a day: longer than any client retries one
request), then swept by the process that next stores a key; the rows are few
besides, for each is one entry of a member's, and a member's entries are rate
limited. The key is stored as its SHA-256, so that a row has one width
whatever a client sends, and the request as the SHA-256 of what it asked.

The writer's path (:mod:`.writer`) stores a batch's keys with one insert,
in the batch's transaction; a key already kept makes that insert fail, and
only then is the batch drawn again, its keys looked up first (:func:`kept`).
Rows of the keys are written only while the room they name is held, so a
lookup made while holding the room sees every key of it committed before.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, bindparam, delete, insert, select, tuple_

from .db import Database
from .kept import Member, RollRecord, json_bytes
from .prepared import Prepared
from .problems import Problem, unprocessable
from .schema import roll_keys, rolls
from .store import record_of

HEADER = "Idempotency-Key"
LONGEST = 200
"""Characters of a key at most: a UUID is 36; Stripe takes up to 255."""
KEEP = timedelta(hours=24)
"""How long a key is kept: past it, the same key makes a new entry."""
SWEEP_EVERY = 60.0
"""Seconds between a process's sweeps of the keys past :data:`KEEP`, at
least: each deletes a minute's keys or so, never a day's at once."""


@dataclass(frozen=True)
class Key:
    """A request's key, as stored: its SHA-256, and that of what it asked."""

    hash: str
    request: str


def key_of(header: str | None, *asked: Any) -> Key | None:
    """The request's key (None without the header), ``asked`` the values
    that make the request what it is (its text, visibility, label, seed ...):
    sent again with other values, the key is refused (:func:`again`)."""
    if header is None:
        return None
    if not 1 <= len(header) <= LONGEST or not all(" " <= char <= "~" for char in header):
        raise unprocessable(
            f"the {HEADER} header is 1 to {LONGEST} printable ASCII characters",
            hint="send a fresh random one (a UUID) with each new request",
        )
    fingerprint = hashlib.sha256(json_bytes(list(asked))).hexdigest()
    return Key(hashlib.sha256(header.encode("ascii")).hexdigest(), fingerprint)


def used_otherwise() -> Problem:
    return unprocessable(
        f"this {HEADER} was used for another request",
        hint="send a new key with each new request, and the same one only to send it again",
    )


class KeyTaken(Exception):
    """A key of the batch is kept already: the batch is rolled back and drawn
    again, its keys looked up first."""


Ident = tuple[str, str, str]
"""A key's row: its room, its member and its hash."""


def ident(room: str, member: Member, key: Key) -> Ident:
    return (room, member.id, key.hash)


_CLAIM = Prepared(
    insert(roll_keys).values(
        room_id=bindparam("room"),
        member_id=bindparam("member"),
        key=bindparam("key"),
        request=bindparam("request"),
        seq=bindparam("seq"),
        at=bindparam("at"),
    )
)


def claim(connection: Connection, made: Sequence[tuple[RollRecord, Key]]) -> None:
    """Store each key with the entry it made, in the transaction of
    ``connection``: one statement for them all. :class:`KeyTaken` if one is
    kept already (the transaction is then to be rolled back)."""
    rows = [
        {"room": record.room, "member": record.member, "key": key.hash,
         "request": key.request, "seq": record.seq, "at": record.at}
        for record, key in made
    ]  # fmt: skip
    try:
        _CLAIM.run(connection, rows)
    except connection.dialect.loaded_dbapi.IntegrityError:
        raise KeyTaken from None
    sweep(connection, made[0][0].at)


def kept(connection: Connection, wanted: Iterable[Ident]) -> dict[Ident, tuple[str, RollRecord]]:
    """The keys of ``wanted`` already kept: what each asked, and the entry it made."""
    idents = sorted(set(wanted))
    if not idents:
        return {}
    found = connection.execute(
        select(roll_keys.c.key, roll_keys.c.request, rolls)
        .join(
            rolls,
            and_(rolls.c.room_id == roll_keys.c.room_id, rolls.c.seq == roll_keys.c.seq),
        )
        .where(tuple_(roll_keys.c.room_id, roll_keys.c.member_id, roll_keys.c.key).in_(idents))
    )
    return {(row.room_id, row.member_id, row.key): (row.request, record_of(row)) for row in found}


def again(connection: Connection, room: str, member: Member, key: Key | None) -> RollRecord | None:
    """The entry ``key`` made, if it is kept (and asked what it asks now:
    else 422); None without a key, or for a key not kept."""
    if key is None:
        return None
    found = kept(connection, [ident(room, member, key)]).get(ident(room, member, key))
    if found is None:
        return None
    if found[0] != key.request:
        raise used_otherwise()
    return found[1]


def answered(db: Database, room: str, member: Member, key: Key | None) -> RollRecord | None:
    """:func:`again`, read before a request that holds its room (a spend, a
    message): the entry a retry is answered, if its first request made it."""
    if key is None:
        return None
    with db.read() as connection:
        return again(connection, room, member, key)


def claim_one(connection: Connection, record: RollRecord, key: Key | None) -> None:
    """Store ``key`` with the entry it made (a spend, a message). Sent twice
    at once, the second finds the first's key stored and is refused, to be
    sent again once the first is answered: then :func:`answered` answers it."""
    if key is None:
        return
    try:
        claim(connection, [(record, key)])
    except KeyTaken:
        raise Problem(
            409,
            f"a request with this {HEADER} is under way",
            hint="send it again once it is answered",
        ) from None


_swept = -float("inf")
"""When this process last swept the keys (``time.monotonic``)."""


def sweep(connection: Connection, at: str) -> None:
    """Delete the keys past :data:`KEEP` (``at`` the time now, as the
    entries keep it), at most once every :data:`SWEEP_EVERY` in a process."""
    global _swept
    if time.monotonic() - _swept < SWEEP_EVERY:
        return
    _swept = time.monotonic()
    connection.execute(delete(roll_keys).where(roll_keys.c.at < before(at)))


def before(at: str) -> str:
    """The time :data:`KEEP` before ``at``, written as entries write it."""
    then = datetime.fromisoformat(at.replace("Z", "+00:00")) - KEEP
    return then.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
