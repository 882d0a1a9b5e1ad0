"""A room's row while a batch of rolls holds it (:mod:`.writer`), its
statements, and each member's nonce counter under version 2 of the dice
stream (``member_nonces``): read for the members of the batch, advanced roll
by roll, written back in the same transaction as the room's ``seq``."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, select, text, update

from .kept import RollRequest
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

    def next_nonce(self, member: str) -> int:
        return self.nonce if self.stream == 1 else self.nonces.get(member, 0)

    def take_nonce(self, member: str) -> None:
        if self.stream == 1:
            self.nonce += 1
        else:
            self.nonces[member] = self.nonces.get(member, 0) + 1
            self.advanced.add(member)


def held_rooms(found: Iterable[Sequence[Any]]) -> dict[str, HeldRoom]:
    """The rooms read by ``HOLD``, by id."""
    return {
        room_id: HeldRoom(
            room_id, epoch, bytes.fromhex(seed), commitment, nonce, seq, last, stream, seq + 1
        )
        for room_id, epoch, seed, commitment, nonce, seq, last, stream in found
    }


def members_of(
    held: dict[str, HeldRoom], requests: Sequence[RollRequest]
) -> list[tuple[HeldRoom, list[str]]]:
    """Each held room of version 2 and the members of the batch who draw in it
    (dice read by hand draw nothing): whose nonces to read."""
    drawing: dict[str, set[str]] = {}
    for request in requests:
        room = held.get(request.room)
        if room is not None and room.stream == 2 and request.faces is None:
            drawing.setdefault(room.id, set()).add(request.member.id)
    return [(held[room], sorted(members)) for room, members in drawing.items()]


def counters_of(rooms_advanced: Iterable[HeldRoom]) -> list[tuple[str, str, int, int]]:
    """The nonce counters a batch advanced: room, member, epoch, next nonce."""
    return [
        (room.id, member, room.epoch, room.nonces[member])
        for room in rooms_advanced
        for member in sorted(room.advanced)
    ]


# The statements are built once: building them anew took longer than running them.
HELD = ("id", "epoch", "seed", "commitment", "nonce", "last_seq", "last_hash", "stream")
"""The columns of a room a batch reads, in the order of :class:`HeldRoom`'s fields."""
HOLD = (
    select(*(rooms.c[name] for name in HELD))
    .where(rooms.c.id.in_(bindparam("ids", expanding=True)))
    # rooms are locked in the order of their ids, so that two processes on
    # one PostgreSQL never wait for each other in a circle
    .order_by(rooms.c.id)
    .with_for_update()
)
ADVANCE = (
    update(rooms)
    .where(rooms.c.id == bindparam("room_id"))
    .values(
        last_seq=bindparam("to_seq"), last_hash=bindparam("to_hash"), nonce=bindparam("to_nonce")
    )
)
ADVANCE_SQL = "UPDATE rooms SET last_seq = ?, last_hash = ?, nonce = ? WHERE id = ?"
"""``ADVANCE`` for SQLite's driver, its parameters in :func:`advance`'s order."""
NONCES = select(member_nonces.c.member_id, member_nonces.c.next_nonce).where(
    member_nonces.c.room_id == bindparam("room"),
    member_nonces.c.epoch == bindparam("epoch"),
    member_nonces.c.member_id.in_(bindparam("ids", expanding=True)),
)
NONCE_KEYS = ("room", "member", "epoch", "next")
UPSERT = (
    "INSERT INTO member_nonces (room_id, member_id, epoch, next_nonce) VALUES ({}) "
    "ON CONFLICT (room_id, member_id, epoch) DO UPDATE SET next_nonce = excluded.next_nonce"
)
"""A member's nonce counter written, whether it is new or not: the same SQL
for SQLite and PostgreSQL."""
UPSERT_NONCE = text(UPSERT.format(", ".join(f":{key}" for key in NONCE_KEYS)))
UPSERT_NONCE_SQL = UPSERT.format("?, ?, ?, ?")


@functools.cache
def nonces_sql(members_drawing: int) -> str:
    """``NONCES`` for SQLite's driver."""
    marks = ", ".join("?" * members_drawing)
    return (
        "SELECT member_id, next_nonce FROM member_nonces "
        f"WHERE room_id = ? AND epoch = ? AND member_id IN ({marks})"
    )


@functools.cache
def hold_sql(rooms_held: int) -> str:
    """``HOLD`` for SQLite's driver (whose ``BEGIN IMMEDIATE`` holds every room)."""
    marks = ", ".join("?" * rooms_held)
    return f"SELECT {', '.join(HELD)} FROM rooms WHERE id IN ({marks}) ORDER BY id"


def advance(room: HeldRoom) -> dict[str, Any]:
    return {
        "to_seq": room.last_seq,
        "to_hash": room.last_hash,
        "to_nonce": room.nonce,
        "room_id": room.id,
    }
