"""Each Discord channel's room and each Discord user's member of it, kept in
the database (``discord_channels``, ``discord_users``): a channel keeps its
room, seed, history and log across restarts. The first command that rolls
or asks for the room binds the channel, and its user is the room's GM."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError

from .. import rolling, store
from ..db import Database
from ..kept import Member, Room
from ..problems import Problem
from ..schema import discord_channels, discord_users, members

ROOM_NAME = "Discord channel"
"""A channel's room's name when the channel's own is not sent or not a name."""
TRIES = 6
"""Names tried for a new member (the user's, then numbered) before one of the ID's."""


@dataclass(frozen=True)
class Seat:
    """Where a user's command acts: the channel's room, the user's member,
    and the Discord user who bound the channel (its GM)."""

    room: Room
    member: Member
    gm_user: str
    joined: bool = False
    """The member was made by this command (the room's feeds are told)."""


def bound(db: Database, channel: str) -> tuple[str, str] | None:
    """The channel's room and its binding user, if it has one."""
    with db.read() as connection:
        row = connection.execute(
            select(discord_channels.c.room_id, discord_channels.c.gm_user_id).where(
                discord_channels.c.channel_id == channel
            )
        ).first()
    return None if row is None else (row.room_id, row.gm_user_id)


def seat(
    db: Database,
    channel: str,
    guild: str | None,
    user: str,
    shown: str,
    *,
    room_name: str | None = None,
    system: str | None = None,
    charge: Callable[[str], None] = lambda _: None,
) -> Seat:
    """The user's seat in the channel's room: the room made (in ``system``)
    and bound on the channel's first use, the member made on the user's;
    ``charge("rooms")`` or ``charge("joins")`` first (an allowance's, which
    may refuse), as the API's making of a room or a member is charged."""
    binding = bound(db, channel)
    if binding is None:
        charge("rooms")
        made = _bind(db, channel, guild, user, shown, room_name, system)
        if made is not None:
            return made
        binding = bound(db, channel)  # another command bound it meanwhile
        if binding is None:
            raise Problem(503, "the channel's room could not be made: try again")
    room_id, gm_user = binding
    room = store.room(db, room_id)
    member = _member(db, room_id, user)
    if member is not None:
        return Seat(room, member, gm_user)
    charge("joins")
    return Seat(room, _join(db, room_id, user, shown), gm_user, joined=True)


def _bind(
    db: Database,
    channel: str,
    guild: str | None,
    user: str,
    shown: str,
    room_name: str | None,
    system: str | None,
) -> Seat | None:
    """The channel's new room, its GM the user; None if another bound it first."""

    def binding(connection: Connection, gm: Member) -> None:
        connection.execute(
            insert(discord_channels).values(
                channel_id=channel, guild_id=guild, room_id=gm.room, gm_user_id=user,
                created_at=store.now(),
            )
        )  # fmt: skip
        _seat_row(connection, gm, user)

    name = _name(room_name, ROOM_NAME)
    try:
        room, gm, _ = store.create_room(
            db, name, rolling.system_name(system), _name(shown, "GM"), then=binding
        )
    except IntegrityError:
        return None
    return Seat(room, gm, user, joined=True)


def _seat_row(connection: Connection, member: Member, user: str) -> None:
    connection.execute(
        insert(discord_users).values(room_id=member.room, user_id=user, member_id=member.id)
    )


def _member(db: Database, room: str, user: str) -> Member | None:
    with db.read() as connection:
        row = connection.execute(
            select(members)
            .join(discord_users, discord_users.c.member_id == members.c.id)
            .where(discord_users.c.room_id == room, discord_users.c.user_id == user)
        ).first()
    return None if row is None else Member(row.id, row.room_id, row.name, row.gm)


def _join(db: Database, room: str, user: str, shown: str) -> Member:
    """The user's new member, under the first of their names not taken."""
    base = _name(shown, "Player", rolling.MAX_NAME - 8)  # room for a number
    tries = [base, *(f"{base} {n}" for n in range(2, TRIES)), f"{base} {user[-6:]}"]
    for name in tries:
        try:
            member, _ = store.join(
                db, room, name, then=lambda connection, new: _seat_row(connection, new, user)
            )
            return member
        except Problem as problem:
            if problem.status != 409:
                raise
        except IntegrityError:  # the same user's other command made it meanwhile
            found = _member(db, room, user)
            if found is not None:
                return found
            raise
    raise Problem(409, "no name of yours is free in this channel's room")


def _name(given: str | None, fallback: str, most: int = rolling.MAX_NAME) -> str:
    """``given`` as a name the table takes (cut to ``most``), else ``fallback``."""
    try:
        return rolling.name((given or "").strip()[:most], "a name")
    except Problem:
        return fallback


def is_gm(seat: Seat, user: str, roles: frozenset[str], gm_roles: frozenset[str]) -> bool:
    """Whether ``user`` acts as the channel's GM: they bound it, or hold a
    role the table was told is a GM's (``serve --discord-gm-role``)."""
    return user == seat.gm_user or bool(roles & gm_roles)
