"""A room's row while a batch of rolls holds it (:mod:`.writer`), its
statements, and each member's nonce counter under version 2 of the dice
stream (``member_nonces``): read for the members of the batch, advanced roll
by roll, written back in the same transaction as the room's ``seq``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, insert, select, tuple_, update

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


def held_rooms(found: Iterable[Sequence[Any]]) -> dict[str, HeldRoom]:
    """The rooms read by ``HOLD``, by id."""
    return {
        room_id: HeldRoom(
            room_id, epoch, bytes.fromhex(seed), commitment, nonce, seq, last, stream, seq + 1
        )
        for room_id, epoch, seed, commitment, nonce, seq, last, stream in found
    }


def drawing(held: dict[str, HeldRoom], requests: Sequence[RollRequest]) -> list[list[Any]]:
    """The nonce counters to read, as ``NONCES`` takes them: the room, member
    and seed of each member of the batch who draws in a held room of version
    2 (dice read by hand draw nothing)."""
    wanted = {
        (room.id, request.member.id, room.epoch)
        for request in requests
        if (room := held.get(request.room)) is not None
        and room.stream == 2
        and request.faces is None
    }
    return [list(key) for key in sorted(wanted)]


def counted(held: dict[str, HeldRoom], found: Iterable[Sequence[Any]]) -> None:
    """Each counter read by ``NONCES``, in its held room."""
    for room_id, member, nonce in found:
        room = held[room_id]
        room.nonces[member] = nonce
        room.stored.add(member)


def counters_of(
    rooms_advanced: Iterable[HeldRoom],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The nonce counters a batch advanced, as parameters of ``NEW_NONCE``
    (a member's first roll under the seed) and of ``NEXT_NONCE`` (the rest).
    Which is which is known from ``NONCES``, read while the room is held:
    nothing else writes a room's counters meanwhile."""
    new: list[dict[str, Any]] = []
    counted: list[dict[str, Any]] = []
    for room in rooms_advanced:
        for member in sorted(room.advanced):
            row = {"room": room.id, "member": member, "at": room.epoch, "next": room.nonces[member]}
            (counted if member in room.stored else new).append(row)
    return new, counted


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
NONCES = select(
    member_nonces.c.room_id, member_nonces.c.member_id, member_nonces.c.next_nonce
).where(
    # the counters of every room of the batch in one statement, by the table's key
    tuple_(member_nonces.c.room_id, member_nonces.c.member_id, member_nonces.c.epoch).in_(
        bindparam("keys", expanding=True)
    )
)
NEW_NONCE = insert(member_nonces).values(
    room_id=bindparam("room"),
    member_id=bindparam("member"),
    epoch=bindparam("at"),
    next_nonce=bindparam("next"),
)
NEXT_NONCE = (
    update(member_nonces)
    .where(
        member_nonces.c.room_id == bindparam("room"),
        member_nonces.c.member_id == bindparam("member"),
        member_nonces.c.epoch == bindparam("at"),
    )
    .values(next_nonce=bindparam("next"))
)


def advance(room: HeldRoom) -> dict[str, Any]:
    return {
        "to_seq": room.last_seq,
        "to_hash": room.last_hash,
        "to_nonce": room.nonce,
        "room_id": room.id,
    }
