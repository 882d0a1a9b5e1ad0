"""The live feed: each new roll (and each reveal) to every member watching.

One process: the API hands each committed roll to :class:`Hub`, which wakes
every watcher of its room. Several processes on one PostgreSQL: a roll's
transaction sends ``NOTIFY`` (delivered at commit, in commit order), and each
process's :class:`Listener` reads the roll it names and hands it to its own
hub; the process that made the roll hears it the same way, so there is one
path. A watcher that sees a ``seq`` jump (or was told the listener
reconnected) reads what it missed from the database: the database, not the
feed, is the record.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg

from .db import NOTIFY_CHANNEL, Database
from .records import RollRecord

log = logging.getLogger("fudgedice.server")

WATCHER_QUEUE = 1000
"""Events a slow watcher may fall behind by before it is told to catch up
from the database instead."""


@dataclass(frozen=True)
class Event:
    kind: str
    """"roll", "reveal", or "resync" (read from the database what you missed)."""
    roll: RollRecord | None = None
    data: dict[str, Any] | None = None


@dataclass(eq=False)
class Watcher:
    room: str
    queue: asyncio.Queue[Event] = field(default_factory=lambda: asyncio.Queue(WATCHER_QUEUE))


class Hub:
    """Watchers by room, on the server's event loop."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Watcher]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    def watch(self, room: str) -> Watcher:
        watcher = Watcher(room)
        self._rooms.setdefault(room, set()).add(watcher)
        return watcher

    def leave(self, watcher: Watcher) -> None:
        watchers = self._rooms.get(watcher.room)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._rooms[watcher.room]

    def watching(self) -> int:
        return sum(map(len, self._rooms.values()))

    def publish(self, room: str, event: Event) -> None:
        """On the loop's thread: hand ``event`` to each watcher of ``room``."""
        for watcher in self._rooms.get(room, ()):
            try:
                watcher.queue.put_nowait(event)
            except asyncio.QueueFull:
                _resync(watcher)

    def publish_threadsafe(self, room: str, event: Event) -> None:
        """From a worker thread (after a commit)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.publish, room, event)

    def resync_all(self) -> None:
        for watchers in self._rooms.values():
            for watcher in watchers:
                _resync(watcher)


def _resync(watcher: Watcher) -> None:
    # a full queue holds nothing the database can't give again: empty it and
    # leave one word, "catch up"
    while not watcher.queue.empty():
        watcher.queue.get_nowait()
    watcher.queue.put_nowait(Event("resync"))


class Listener:
    """LISTENs on PostgreSQL and feeds the hub; reconnects when the link drops."""

    def __init__(
        self,
        db: Database,
        hub: Hub,
        fetch: Callable[[str, int], Any],
        reveal: Callable[[str], Any],
    ) -> None:
        self.db = db
        self.hub = hub
        self.fetch = fetch
        self.reveal = reveal
        self.ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        url = self.db.url.set(drivername="postgresql").render_as_string(hide_password=False)
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.ready.set()
                    if not first:
                        self.hub.resync_all()  # what was said while away is in the database
                    first = False
                    async for notice in conn.notifies():
                        await self._heard(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the link dropped: say so, wait, listen again
                log.warning("live feed: PostgreSQL listener lost (%s); reconnecting", error)
                await asyncio.sleep(0.5)

    async def _heard(self, payload: str) -> None:
        kind, room, number = payload.split()
        if kind == "roll":
            record = await self.fetch(room, int(number))
            if record is not None:
                self.hub.publish(room, Event("roll", record))
        elif kind == "reveal":
            self.hub.publish(room, Event("reveal", data=await self.reveal(room)))
