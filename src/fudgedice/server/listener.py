"""Several processes on one PostgreSQL: each process's :class:`Listener`
LISTENs for what every commit tells (:mod:`.notices`: the rolls carried where
they fit, else their range; a reveal, a member, a room deleted) and hands it
to its own :class:`.live.Hub`, reading from the database only what a
notification did not carry and only for rooms the process has watchers of.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from .db import CONNECT_TIMEOUT, NOTIFY_CHANNEL, Database
from .kept import RollRecord
from .live import Event, Hub
from .notices import carried, read_notices

log = logging.getLogger("fudgedice.server")

MOST_READ = 2000
"""Rolls of one room the listener reads at most in one batch: past that (a
process that fell far behind) its watchers are told to read what they
missed themselves, a page at a time."""


Ranges = dict[str, tuple[int, int]]
"""Rolls to read, by room: the first and last ``seq`` wanted."""


@dataclass
class Heard:
    """What a listener has done, counted (tests and operators read it)."""

    notices: int = 0
    """Notifications heard."""
    skipped: int = 0
    """Notices (a line of a notification each) about rooms no one in this
    process watches: neither read nor decoded."""
    carried: int = 0
    """Rolls delivered as their notification carried them."""
    reads: int = 0
    """Reads of rolls from the database (one for every room that wanted one in a batch)."""
    batches: int = 0
    """Batches of notifications handled (all those heard while the last was handled)."""


class Listener:
    """LISTENs on PostgreSQL and feeds the hub; reconnects when the link drops.

    Notifications heard are handled in batches: every one that came while
    the last batch was handled, at once. A notice about a room no one here
    watches is dropped unread (a feed opened later reads what came before it
    from the database: :func:`.feed.live_feed` watches first, then catches
    up); rolls the notification carries are delivered as they are; the
    others are read, one read a room for the whole batch, on one trip to a
    worker thread."""

    def __init__(
        self,
        db: Database,
        hub: Hub,
        fetch: Callable[[Ranges], Awaitable[dict[str, list[RollRecord]]]],
        reveal: Callable[[str], Awaitable[dict[str, Any]]],
        forget: Callable[[str], object] = lambda _: None,
        forget_token: Callable[[str], object] = lambda _: None,
    ) -> None:
        self.db = db
        self.hub = hub
        self.fetch = fetch
        self.reveal = reveal
        self.forget = forget
        self.forget_token = forget_token
        """Called with the hash of a token replaced (by any process): no longer good."""
        """Called with a room deleted (by any process): what the process
        keeps of it in memory goes."""
        self.ready = asyncio.Event()
        self.heard = Heard()
        self._pending: list[str] = []
        self._woken = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._run()), asyncio.create_task(self._handling())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        given = self.db.url.set(drivername="postgresql")
        if "connect_timeout" not in given.query:  # bounded as the pools' are: a silent
            # address is given up on and tried again, not waited on for ever
            given = given.update_query_dict({"connect_timeout": str(CONNECT_TIMEOUT)})
        url = given.render_as_string(hide_password=False)
        first, lost = True, False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.ready.set()
                    if lost:
                        log.warning("live feed: PostgreSQL listener back")
                    lost = False
                    if not first:
                        self.hub.publish_all(
                            Event("resync")
                        )  # what was said while away is in the database
                    first = False
                    await self._hear(conn)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the link dropped: say so once, wait, listen again
                if not lost:
                    why = str(error).splitlines()[0] if str(error) else type(error).__name__
                    log.warning("live feed: PostgreSQL listener lost (%s); reconnecting", why)
                lost = True
                await asyncio.sleep(0.5)

    async def _hear(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Until the link drops, every notification the socket holds, taken
        each time it is readable; they pile up until the loop turns, and are
        handled together. Hand-written where psycopg's ``notifies()`` would
        serve, because at each wait that one registers the socket with the
        loop, arms a timer, then removes both: with it the loop spent about
        370 µs a notification heard, with this reader about 250 (measured,
        docs/performance.md), and a busy table's processes hear hundreds a
        second. This reader stays registered while the link lasts and reads
        with libpq's own calls, as ``notifies()`` does."""
        loop = asyncio.get_running_loop()
        pgconn, encoding = conn.pgconn, conn.info.encoding
        socket = pgconn.socket  # kept: libpq forgets it once the link is lost
        dropped: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            try:
                pgconn.consume_input()  # raises once the server is gone
                while (notice := pgconn.notifies()) is not None:
                    self.heard.notices += 1
                    self._pending.append(notice.extra.decode(encoding))
            except Exception as error:
                if not dropped.done():
                    dropped.set_exception(error)
                return
            if self._pending:
                self._woken.set()

        loop.add_reader(socket, readable)
        try:
            await dropped
        finally:
            loop.remove_reader(socket)

    async def _handling(self) -> None:
        while True:
            await self._woken.wait()
            self._woken.clear()
            batch, self._pending = self._pending, []
            self.heard.batches += 1
            try:
                await self._heard(batch)
            except Exception as error:  # the database is down: every feed reads what it missed
                log.warning("live feed: could not read what was notified (%s)", error)
                self.hub.publish_all(Event("resync"))

    async def _heard(self, payloads: list[str]) -> None:
        """One batch: what it carries delivered, what it does not read at
        once, then everything handed on in the order it was committed."""
        notices = []
        for notice in (notice for payload in payloads for notice in read_notices(payload)):
            if notice is not None and notice.kind == "token":  # "token MEMBER HASH"
                self.forget_token(notice.body)
                continue
            if notice is not None and notice.kind == "deleted":
                # what the process keeps of the room goes, its feeds or not
                self.forget(notice.room)
                self.hub.end_room(notice.room)
                continue
            if notice is None or not self.hub.watches(notice.room):
                self.heard.skipped += 1
                continue
            notices.append(notice)
        told = [carried(notice) if notice.kind == "rolls" else None for notice in notices]
        wanted: Ranges = {}
        for notice, records in zip(notices, told, strict=True):
            if notice.kind == "rolls" and records is None:  # bare: read, one range a room
                low, high = wanted.get(notice.room, (notice.first, notice.last))
                wanted[notice.room] = (min(low, notice.first), max(high, notice.last))
        too_many = {room for room, (low, high) in wanted.items() if high - low >= MOST_READ}
        for room in too_many:  # its watchers read what they missed, a page at a time
            del wanted[room]
            self.hub.publish(room, Event("resync"))
        read = await self.fetch(wanted) if wanted else {}
        self.heard.reads += len(wanted)
        by_seq = {(record.room, record.seq): record for found in read.values() for record in found}
        for notice, records in zip(notices, told, strict=True):
            if notice.kind == "rolls" and notice.room not in too_many:
                if records is None:
                    span = range(notice.first, notice.last + 1)
                    records = [
                        by_seq[notice.room, seq] for seq in span if (notice.room, seq) in by_seq
                    ]
                else:
                    self.heard.carried += len(records)
                if records:
                    self.hub.publish_rolls(records)
            elif notice.kind == "reveal":
                self.hub.publish(notice.room, Event("reveal", data=await self.reveal(notice.room)))
            elif notice.kind == "member":  # "member ROOM ID": one joined
                self.hub.publish(notice.room, Event("member", data={"member": notice.body}))
