"""The live feed: each new roll (and each reveal) to every member watching.

One process: the writer hands the rolls of each commit to :class:`Hub`,
which wakes every watcher of their rooms once. Several processes on one
PostgreSQL: a commit sends one ``NOTIFY`` a room (delivered at commit, in
commit order), and each process's :class:`Listener` reads the rolls it names
and hands them to its own hub; the process that made the roll hears it the same way, so there is one
path. A watcher that sees a ``seq`` jump (or was told the listener
reconnected) reads what it missed from the database: the database, not the
feed, is the record.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from .db import NOTIFY_CHANNEL, Database
from .records import RollRecord, Shown

log = logging.getLogger("fudgedice.server")

WATCHER_QUEUE = 1000
"""Events a slow watcher may fall behind by before it is told to catch up
from the database instead."""
LIVE_EVERY = 0.02
"""Seconds between two deliveries of one room's rolls, at most as often: the
rolls of a room's commits within this time go out to its watchers together.
A roll after a quiet spell goes out at once; a busy room (hundreds of rolls
a second) sends each watcher one write every 20 ms, not one a commit, each
write costing the server as much as a small roll."""


@dataclass(frozen=True)
class Event:
    kind: str
    """"rolls", "reveal", "member" (one joined: ``data`` names them),
    "keep-alive", or "resync" (read from the database what you missed)."""
    rolls: Sequence[RollRecord] = ()
    """Rolls of one room, as they were committed: in ``seq`` order but for
    rolls committed on a worker thread, whose answer may come late."""
    data: dict[str, Any] | None = None

    @functools.cached_property
    def in_order(self) -> list[RollRecord]:
        return sorted(self.rolls, key=lambda record: record.seq)

    @functools.cached_property
    def _unbroken(self) -> bool:
        """The rolls are in order, each ``seq`` the one after the last."""
        rolls = self.rolls
        return all(rolls[n].seq == rolls[n - 1].seq + 1 for n in range(1, len(rolls)))

    def next_after(self, last: int) -> bool:
        """Whether the rolls are the ``seq`` after ``last`` and on, in order:
        then a reader who had up to ``last`` sends them as they are."""
        return bool(self.rolls) and self.rolls[0].seq == last + 1 and self._unbroken

    @functools.cached_property
    def shown(self) -> Shown:
        """The rolls as each reader sees them, made once for all."""
        return Shown(self.rolls)


class Watcher:
    """One member's live feed: the events not yet sent, and a way to wait."""

    def __init__(self, room: str) -> None:
        self.room = room
        self.closed = False
        self._pending: list[Event] = []
        self._waiter: asyncio.Future[None] | None = None

    def put(self, event: Event) -> None:
        """On the loop's thread. A full backlog holds nothing the database
        can't give again: it becomes one word, "catch up"."""
        if len(self._pending) >= WATCHER_QUEUE:
            self._pending = [Event("resync")]
        else:
            self._pending.append(event)
        self._wake()

    def close(self) -> None:
        """The reader went away: the feed ends at its next wait."""
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def next(self) -> list[Event]:
        """Every event waiting (at least one), or none once closed: a watcher
        sends all that came while it was busy at once."""
        while not self._pending and not self.closed:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        events, self._pending = self._pending, []
        return events


class Hub:
    """Watchers by room, on the server's event loop."""

    def __init__(self, every: float = LIVE_EVERY) -> None:
        self._rooms: dict[str, set[Watcher]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.every = every
        self._held: dict[str, list[RollRecord]] = {}
        """Rolls of a room waiting for its next delivery, in ``seq`` order."""
        self._sent: dict[str, float] = {}
        """When each watched room's rolls last went out (the loop's clock)."""

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
                self._sent.pop(watcher.room, None)

    def watching(self) -> int:
        return sum(map(len, self._rooms.values()))

    def publish(self, room: str, event: Event) -> None:
        """On the loop's thread: hand ``event`` to each watcher of ``room``,
        after the rolls held for it (they came first)."""
        self._deliver(room)
        for watcher in self._rooms.get(room, ()):
            watcher.put(event)

    def publish_all(self, event: Event) -> None:
        for room in list(self._held):
            self._deliver(room)
        for watchers in self._rooms.values():
            for watcher in watchers:
                watcher.put(event)

    def publish_rolls(self, records: Sequence[RollRecord]) -> None:
        """On the loop's thread: the rolls of one commit, to each watcher of
        their rooms at once, or with the room's next delivery (:data:`LIVE_EVERY`)."""
        loop = self.loop or asyncio.get_running_loop()
        now = loop.time()
        for record in records:
            if record.room not in self._rooms:
                continue  # no one watches
            held = self._held.get(record.room)
            if held is not None:  # a delivery is due: the roll goes with it
                held.append(record)
                continue
            self._held[record.room] = [record]
            wait = self._sent.get(record.room, -math.inf) + self.every - now
            if wait <= 0:  # after the room's other rolls of this commit
                loop.call_soon(self._deliver, record.room)
            else:
                loop.call_later(wait, self._deliver, record.room)

    def _deliver(self, room: str) -> None:
        rolled = self._held.pop(room, None)
        if rolled and room in self._rooms:
            self._sent[room] = (self.loop or asyncio.get_running_loop()).time()
            event = Event("rolls", rolled)  # one for all: each reader's chunk is made once
            for watcher in self._rooms[room]:
                watcher.put(event)

    def publish_threadsafe(self, room: str, event: Event) -> None:
        """From a worker thread (after a commit)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.publish, room, event)

    async def keep_alive(self, every: float) -> None:
        """Runs while the server does: a word to every watcher after each
        ``every`` seconds, so that proxies keep the connection and a vanished
        reader is noticed (one timer for all, none per wait)."""
        while True:
            await asyncio.sleep(every)
            self.publish_all(Event("keep-alive"))


class Listener:
    """LISTENs on PostgreSQL and feeds the hub; reconnects when the link drops."""

    def __init__(
        self,
        db: Database,
        hub: Hub,
        fetch: Callable[[str, int, int], Awaitable[list[RollRecord]]],
        reveal: Callable[[str], Awaitable[dict[str, Any]]],
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
                        self.hub.publish_all(
                            Event("resync")
                        )  # what was said while away is in the database
                    first = False
                    async for notice in conn.notifies():
                        await self._heard(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the link dropped: say so, wait, listen again
                log.warning("live feed: PostgreSQL listener lost (%s); reconnecting", error)
                await asyncio.sleep(0.5)

    async def _heard(self, payload: str) -> None:
        kind, room, *numbers = payload.split()
        if kind == "rolls":  # "rolls ROOM FIRST LAST": the rolls of one commit
            first, last = int(numbers[0]), int(numbers[-1])
            records = await self.fetch(room, first, last)
            if records:
                self.hub.publish_rolls(records)
        elif kind == "reveal":
            self.hub.publish(room, Event("reveal", data=await self.reveal(room)))
        elif kind == "member":  # "member ROOM ID": one joined
            self.hub.publish(room, Event("member", data={"member": numbers[0]}))
