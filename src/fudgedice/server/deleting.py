"""A room deleted whole: by its GM (``DELETE /api/rooms/{room}``), or when no
entry was made in it for longer than ``fudgedice serve --keep-days`` allows.

Every row of the room goes in one transaction that holds the room (as a
roll's does, so no roll is drawn into a room half deleted), from every table
that has a ``room_id``: a table added later is deleted from without a word
here. Once committed, the live feeds of the room end with a ``deleted`` event
(on PostgreSQL through a ``NOTIFY``, in every process) and the process forgets
the room's members' tokens (:class:`.caches.Members`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, Table, delete, select

from .caches import Members
from .db import Database
from .live import Hub
from .schema import metadata, rooms
from .store import notify, room_row

log = logging.getLogger("fudgedice.server")

ROOM_TABLES: tuple[Table, ...] = tuple(
    table for table in reversed(metadata.sorted_tables) if "room_id" in table.c
)
"""Every table holding rows of a room, each before the tables it refers to
(a roll before its member), so that no foreign key is left dangling."""

KEEP_EVERY = 3600.0
"""Seconds between two passes of ``--keep-days`` (the first at start)."""
EXPIRE_AT_ONCE = 20
"""Idle rooms one pass deletes at most, each in a transaction of its own: a
pass that found more runs again after :data:`EXPIRE_AGAIN`, so that the
rolls of the rooms in use never wait long behind it."""
EXPIRE_AGAIN = 1.0
"""Seconds before the next pass when the last one found more idle rooms."""


def delete_room(db: Database, room_id: str, idle_before: str | None = None) -> bool:
    """Delete the room and everything of it; False if there is no such room
    (or, with ``idle_before``, if it was active since then: it stays)."""
    with db.write() as connection:
        row = room_row(connection, room_id, lock=True)
        if row is None or (idle_before is not None and (row.active_at or "") >= idle_before):
            return False
        _delete_rows(connection, room_id)
        if db.postgres:  # every process's live feeds and caches hear of it at the commit
            notify(connection, f"deleted {room_id}")
    return True


def _delete_rows(connection: Connection, room_id: str) -> None:
    for table in ROOM_TABLES:
        connection.execute(delete(table).where(table.c.room_id == room_id))
    connection.execute(delete(rooms).where(rooms.c.id == room_id))


def forget(db: Database, hub: Hub, members: Members, room_id: str) -> None:
    """From any thread, once the room's deletion is committed: this process
    no longer knows its members' tokens, and on SQLite its hub ends the
    room's feeds (on PostgreSQL the ``NOTIFY`` tells every process's)."""
    members.forget_room(room_id)
    if not db.postgres and hub.loop is not None:
        hub.loop.call_soon_threadsafe(hub.end_room, room_id)


def idle_since(keep_days: float, now: datetime | None = None) -> str:
    """The time (as entries write it) before which a room's last activity
    makes it idle too long."""
    moment = (now or datetime.now(UTC)) - timedelta(days=keep_days)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def idle_rooms(db: Database, before: str, most: int = EXPIRE_AT_ONCE) -> list[str]:
    """Up to ``most`` rooms last active before ``before``, the longest idle first."""
    query = (
        select(rooms.c.id).where(rooms.c.active_at < before).order_by(rooms.c.active_at).limit(most)
    )
    with db.read() as connection:
        return list(connection.execute(query).scalars())


def expire(
    db: Database, keep_days: float, gone: Callable[[str], None], now: datetime | None = None
) -> tuple[list[str], bool]:
    """One pass: the idle rooms deleted (each told to ``gone``), and whether
    more may be waiting."""
    before = idle_since(keep_days, now)
    found = idle_rooms(db, before)
    deleted = [room for room in found if delete_room(db, room, idle_before=before)]
    for room in deleted:
        gone(room)
    if deleted:
        log.info("deleted %d rooms idle for %s days or more", len(deleted), keep_days)
    return deleted, len(found) == EXPIRE_AT_ONCE and bool(deleted)


async def keep_days(db: Database, days: float, gone: Callable[[str], None]) -> None:
    """Runs while the server does: a pass at start, then every
    :data:`KEEP_EVERY` seconds (sooner while idle rooms remain); the work of
    each on a worker thread. A database out of reach is tried at the next pass."""
    while True:
        try:
            _, more = await asyncio.to_thread(expire, db, days, gone)
        except Exception as error:  # a database out of reach: the next pass tries again
            log.warning("--keep-days: idle rooms not deleted (%s)", error)
            more = False
        await asyncio.sleep(EXPIRE_AGAIN if more else KEEP_EVERY)
