"""The live feed: each new roll (and each reveal) to every member watching.

One process: the writer hands the rolls of each commit to :class:`Hub`,
which wakes every watcher of their rooms once. Several processes on one
PostgreSQL: a commit tells of its rooms' rolls by ``NOTIFY`` (delivered at
commit, in commit order: :mod:`.notices`), and each process's listener
(:mod:`.listener`) hands the rolls it names to its own hub; the process that
made the roll hears it the same way, so there is one path. A watcher that
sees a ``seq`` jump (or was told the listener reconnected) reads what it
missed from the database: the database, not the feed, is the record.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .kept import RollRecord, Shown
from .problems import Problem, not_found

log = logging.getLogger("fudgedice.server")

WATCHER_QUEUE = 1000
"""Rolls (or other events) a watcher may have waiting, not yet written to its
reader: one that falls further behind is dropped (its feed ends, or its
connection is closed) and resumes with ``after``, reading what it missed from
the database. So a reader that stops reading holds a bounded backlog."""
FEEDS_PER_MEMBER = 4
"""Live feeds one member may hold in one process: opening one more closes the
member's oldest (a phone that changed networks leaves a feed that may look
open for minutes; the new one must not wait for it)."""
MAX_FEEDS = 5000
"""Live feeds one process holds at most: past it a new one is refused, 503."""
DELETED_KEPT = 10_000
"""Rooms deleted lately that the hub remembers, so that a feed whose member
was found just before the room's deletion, and which asks to watch just after
it, is refused rather than left open on nothing (a room's id is never used again)."""
LIVE_EVERY = 0.02
"""Seconds between two deliveries of one room's rolls, at most as often: the
rolls of a room's commits within this time go out to its watchers together.
A roll after a quiet spell goes out at once; a busy room (hundreds of rolls
a second) sends each watcher one write every 20 ms, not one a commit, each
write costing the server about 80 µs of CPU time, as much as a small roll."""
SHARED_EVERY = 0.05
""":data:`LIVE_EVERY` on PostgreSQL, where several processes may share a
room: each hears the commits of all of them, so that a room's commits come
more often the more processes take its rolls; at most one write every 50 ms
keeps a busy room's writes to a watcher as few with two processes as with
one (measured: docs/performance.md). A live roll may come 30 ms later."""


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

    def __init__(self, room: str, member: str = "", limit: int = WATCHER_QUEUE) -> None:
        self.room = room
        self.member = member
        self.limit = limit
        self.closed = False
        self.ended: str | None = None
        """Why the server ended the feed ("behind", "replaced", "deleted"), if it did."""
        self.on_end: Callable[[], object] | None = None
        """Called when the server ends the feed (its answer then has a while
        to write its last words)."""
        self._pending: list[Event] = []
        self._weight = 0
        self._waiter: asyncio.Future[None] | None = None

    def put(self, event: Event) -> None:
        """On the loop's thread. Past ``limit`` rolls waiting, the reader is
        dropped: what it missed is in the database, for its next feed."""
        if self.closed:
            return
        self._weight += max(len(event.rolls), 1)
        if self._weight > self.limit:
            self.end("behind")
            return
        self._pending.append(event)
        self._wake()

    def end(self, why: str) -> None:
        """The server ends the feed: its backlog goes, the reader is told why."""
        self.ended = why
        self._pending, self._weight = [], 0
        self.close()
        if self.on_end is not None:
            self.on_end()

    def close(self) -> None:
        """The reader went away (or was dropped): the feed ends at its next wait."""
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
        events, self._pending, self._weight = self._pending, [], 0
        return events


class Hub:
    """Watchers by room, on the server's event loop."""

    def __init__(
        self,
        every: float = LIVE_EVERY,
        *,
        per_member: int = FEEDS_PER_MEMBER,
        most: int = MAX_FEEDS,
        queue: int = WATCHER_QUEUE,
    ) -> None:
        self._rooms: dict[str, set[Watcher]] = {}
        self._members: dict[tuple[str, str], list[Watcher]] = {}
        """Each member's feeds, the oldest first."""
        self._count = 0
        self.per_member, self.most, self.queue = per_member, most, queue
        self.loop: asyncio.AbstractEventLoop | None = None
        self.every = every
        self._held: dict[str, list[RollRecord]] = {}
        """Rolls of a room waiting for its next delivery, in ``seq`` order."""
        self._sent: dict[str, float] = {}
        """When each watched room's rolls last went out (the loop's clock)."""
        self._deleted: dict[str, None] = {}
        """Rooms deleted lately, the oldest first (:data:`DELETED_KEPT`)."""
        self.delivered: Callable[[str], object] | None = None
        """Told, as a room's rolls go out, the oldest one's time (``at``): /metrics."""

    def watch(self, room: str, member: str = "") -> Watcher:
        """A new feed of ``member`` in ``room``: the member's oldest closed if
        they hold :attr:`per_member` already; refused (503) when the process
        holds :attr:`most`, and (404) for a room deleted since its member was found."""
        if room in self._deleted:
            raise not_found()
        mine = self._members.setdefault((room, member), [])
        if len(mine) >= self.per_member:
            self._end(mine[0], "replaced")
        elif self._count >= self.most:
            if not mine:
                del self._members[room, member]
            raise Problem(503, f"the server holds its most live feeds ({self.most}): try later")
        watcher = Watcher(room, member, self.queue)
        self._rooms.setdefault(room, set()).add(watcher)
        self._members.setdefault((room, member), []).append(watcher)
        self._count += 1
        return watcher

    def leave(self, watcher: Watcher) -> None:
        """The feed is over: it no longer counts (called again, nothing happens)."""
        watchers = self._rooms.get(watcher.room)
        if watchers is None or watcher not in watchers:
            return
        watchers.discard(watcher)
        self._count -= 1
        if not watchers:
            del self._rooms[watcher.room]
            self._sent.pop(watcher.room, None)
        key = (watcher.room, watcher.member)
        mine = self._members.get(key, [])
        if watcher in mine:
            mine.remove(watcher)
        if not mine:
            self._members.pop(key, None)

    def end_room(self, room: str) -> None:
        """On the loop's thread: the room was deleted; each of its feeds is
        told so and ends, and what was held for it goes."""
        self._held.pop(room, None)
        self._deleted[room] = None
        if len(self._deleted) > DELETED_KEPT:
            del self._deleted[next(iter(self._deleted))]
        for watcher in list(self._rooms.get(room, ())):
            self._end(watcher, "deleted")

    def _end(self, watcher: Watcher, why: str) -> None:
        watcher.end(why)
        self.leave(watcher)

    def watching(self) -> int:
        return self._count

    def watches(self, room: str) -> bool:
        """Whether some feed of this process follows ``room``."""
        return room in self._rooms

    def _give(self, watchers: Iterable[Watcher], event: Event) -> None:
        """``event`` to each of ``watchers``; those it put too far behind leave."""
        behind = []
        for watcher in watchers:
            watcher.put(event)
            if watcher.closed:
                behind.append(watcher)
        for watcher in behind:
            self.leave(watcher)

    def publish(self, room: str, event: Event) -> None:
        """On the loop's thread: hand ``event`` to each watcher of ``room``,
        after the rolls held for it (they came first)."""
        self._deliver(room)
        self._give(self._rooms.get(room, ()), event)

    def publish_all(self, event: Event) -> None:
        for room in list(self._held):
            self._deliver(room)
        self._give([w for watchers in self._rooms.values() for w in watchers], event)

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
            self._give(self._rooms[room], event)
            if self.delivered is not None:
                self.delivered(min(record.at for record in rolled))

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
