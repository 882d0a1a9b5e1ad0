"""A room's row while a batch of rolls holds it (:mod:`.writer`), its
statements, and each member's nonce counter under version 2 of the dice
stream (``member_nonces``): read for the members of the batch, advanced roll
by roll, written back in the same transaction as the room's ``seq``."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, tuple_, update

from .kept import RollRequest
from .prepared import Prepared, read_together
from .schema import member_nonces, rooms


@dataclass
class HeldRoom:
    """A room's row while the batch holds it, advanced roll by roll."""

    id: str
    epoch: int
    seed: bytes
    commitment: str
    nonce: int
    last_seq: int
    last_hash: str
    stream: int
    first_seq: int = 0
    nonces: dict[str, int] = field(default_factory=dict)
    """Version 2: the next nonce of each member of the batch, as advanced."""
    advanced: set[str] = field(default_factory=set)
    """Members whose nonce the batch advanced."""
    stored: set[str] = field(default_factory=set)
    """Members whose counter under the current seed is in the database."""

    def next_nonce(self, member: str) -> int:
        return self.nonce if self.stream == 1 else self.nonces.get(member, 0)

    def take_nonce(self, member: str) -> None:
        if self.stream == 1:
            self.nonce += 1
        else:
            self.nonces[member] = self.nonces.get(member, 0) + 1
            self.advanced.add(member)


def hold(connection: Connection, requests: Sequence[RollRequest]) -> dict[str, HeldRoom]:
    """The rooms of the batch, read and held, by id; with the nonce counter
    of each member who draws in one of version 2. Both read at once (one
    round trip on PostgreSQL: :func:`.prepared.read_together`), the counters
    after the rooms are held, under the epoch each room has then."""
    wanted = sorted({request.room for request in requests})
    keys = sorted({
        (request.room, request.member.id)
        for request in requests
        if request.faces is None  # dice read by hand draw nothing
    })  # fmt: skip
    reads = [(_holding(len(wanted)), {f"v{i}": room for i, room in enumerate(wanted)})]
    if keys:
        numbered = {f"v{i}_{j}": part for i, key in enumerate(keys) for j, part in enumerate(key)}
        reads.append((_counters(len(keys)), numbered))
    found, *counters = read_together(connection, reads)
    held = {
        room_id: HeldRoom(
            room_id, epoch, bytes.fromhex(seed), commitment, nonce, seq, last, stream, seq + 1
        )
        for room_id, epoch, seed, commitment, nonce, seq, last, stream in found
    }
    for room_id, member, nonce in counters[0] if counters else ():
        room = held.get(room_id)
        if room is not None and room.stream == 2:
            room.nonces[member] = nonce
            room.stored.add(member)
    return held


def write_back(connection: Connection, held: Iterable[HeldRoom], at: str) -> list[HeldRoom]:
    """Each room the batch advanced: its ``last_seq``, ``last_hash`` and
    nonces (version 1: the room's; version 2: each member's who drew), and
    ``at``, when its rolls were made, as its last activity (in the same
    statement: no more work a roll)."""
    advanced = [room for room in held if room.last_seq >= room.first_seq]
    _ADVANCE.run(connection, [
        {"room": room.id, "seq": room.last_seq, "hash": room.last_hash, "nonce": room.nonce,
         "at": at}
        for room in advanced
    ])  # fmt: skip
    new: list[dict[str, Any]] = []
    known: list[dict[str, Any]] = []
    for room in advanced:
        for member in sorted(room.advanced):
            row = {"room": room.id, "member": member, "at": room.epoch, "next": room.nonces[member]}
            # stored or not is known from the read: nothing else writes a held room's counters
            (known if member in room.stored else new).append(row)
    if new:
        _NEW_NONCE.run(connection, new)
    if known:
        _NEXT_NONCE.run(connection, known)
    return advanced


# The statements are built once (one for each number of rooms or counters a
# batch reads, at most MAX_BATCH each): building them anew took longer than
# running them, and an IN whose list SQLAlchemy expands at each execution is
# compiled again each time.
HELD = ("id", "epoch", "seed", "commitment", "nonce", "last_seq", "last_hash", "stream")
"""The columns of a room a batch reads, in the order of :class:`HeldRoom`'s fields."""


@functools.cache
def _holding(count: int) -> Prepared:
    """``count`` rooms read and held (PostgreSQL: ``FOR UPDATE``; SQLite's
    ``BEGIN IMMEDIATE`` holds them all), locked in the order of their ids, so
    that two processes on one PostgreSQL never wait for each other in a circle."""
    return Prepared(
        select(*(rooms.c[name] for name in HELD))
        .where(rooms.c.id.in_([bindparam(f"v{i}") for i in range(count)]))
        .order_by(rooms.c.id)
        .with_for_update()
    )


@functools.cache
def _counters(count: int) -> Prepared:
    """``count`` nonce counters read, by room and member, under each room's
    current epoch (read after the rooms are held, so the epoch is theirs)."""
    pairs = tuple_(member_nonces.c.room_id, member_nonces.c.member_id)
    theirs = (rooms.c.id == member_nonces.c.room_id) & (rooms.c.epoch == member_nonces.c.epoch)
    return Prepared(
        select(member_nonces.c.room_id, member_nonces.c.member_id, member_nonces.c.next_nonce)
        .join(rooms, theirs)
        .where(pairs.in_([
            tuple_(*(bindparam(f"v{i}_{j}") for j in range(2))) for i in range(count)
        ]))
    )  # fmt: skip


_ADVANCE = Prepared(
    update(rooms)
    .where(rooms.c.id == bindparam("room"))
    .values(
        last_seq=bindparam("seq"),
        last_hash=bindparam("hash"),
        nonce=bindparam("nonce"),
        active_at=bindparam("at"),
    )
)
_NEW_NONCE = Prepared(
    insert(member_nonces).values(
        room_id=bindparam("room"),
        member_id=bindparam("member"),
        epoch=bindparam("at"),
        next_nonce=bindparam("next"),
    )
)
_NEXT_NONCE = Prepared(
    update(member_nonces)
    .where(
        member_nonces.c.room_id == bindparam("room"),
        member_nonces.c.member_id == bindparam("member"),
        member_nonces.c.epoch == bindparam("at"),
    )
    .values(next_nonce=bindparam("next"))
)
