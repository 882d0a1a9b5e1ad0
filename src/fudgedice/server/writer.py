"""The one writer of rolls in a process: a group commit.

Requests hand their checked roll (a :class:`RollRequest`) to the writer and
wait. The writer takes every roll waiting, holds their rooms in one
transaction, draws each roll in arrival order (its room's next ``seq`` and
nonce), writes them all and commits once; only then is each request answered.
One commit for many rolls is what lets SQLite, with its single write lock,
keep up with a busy table: the cost of a transaction is shared, and the rooms
stay held only as long as the draws take. A roll that fails once its dice are
drawn (a division by zero, a limit reached while exploding) is kept as a failed
roll, with its ``seq`` and nonce, and answered with its error and its ``seq``
(docs/fairness.md: drawn dice are never thrown away); one refused before any
die is drawn is refused alone. If the commit fails, every roll of the batch is
refused and none is kept. Under version 2 of the dice stream each member has
nonces of their own (``member_nonces``), read and advanced in the same
transaction as the room's ``seq``.

The statements are the same for both databases: built from :mod:`.schema`
with SQLAlchemy Core and compiled once (:mod:`.prepared`, :mod:`.held`,
:func:`.store.insert_rolls`). So is the order of things: one batch at a time,
batches at least :data:`COMMIT_EVERY` apart, each with every roll that came
since the last one began, in the order they came; a heavy roll (its text
tosses many dice, told when the text was checked: :class:`.caches.Texts`)
alone, so that no batch draws for long. The database decides two things.
Where a batch runs: PostgreSQL is across a network, so there the writer's
own thread commits, and the event loop never waits for it; SQLite's commit
(a local file, WAL, no checkpoint: see :mod:`.db`) is shorter than a thread's
handoff, so there it runs on the event loop, and while another thread of the
process writes it tries again every :data:`BUSY_AGAIN`: the loop never waits
for the lock. And how long a busy process's batches wait to fill (:data:`LINGER`).
A roll's ``Idempotency-Key`` (:mod:`.keys`) is one more insert in the batch;
one kept already fails it, and the batch is drawn again, its keys looked up
first: a roll sent again is answered the roll its key made, never drawn twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy import Connection

from ..errors import DiceError
from .db import Database
from .drawing import FailedRoll, draw
from .held import HeldRoom, hold, write_back
from .kept import RollRecord, RollRequest
from .keys import Ident, Key, KeyTaken, claim, ident, kept, used_otherwise
from .metrics import Metrics
from .notices import roll_notices
from .outage import refusal, told, unreachable
from .problems import Problem, not_found
from .store import insert_rolls, notify_all, now

log = logging.getLogger("fudgedice.server")

COMMIT_EVERY = 0.004
"""Seconds from the start of one commit to the next, at least: a roll that
comes sooner waits for the rest of that time and goes with every roll that
came in it. A commit costs about as much CPU time as several rolls (its
statements, the WAL's pages, waking every answer), and a busy table's rolls
come a millisecond apart: one commit each would spend most of the process on
commits. A roll after a quiet spell is committed at once."""
LINGER = 0.04
"""PostgreSQL, while rolls come fast (the last batch held :data:`FULL_BATCH`
// 2 or more): the next commit waits for :data:`FULL_BATCH` rolls, or this
many seconds from the start of the last. A commit there costs the process
1.5 to 2.5 ms of CPU time, and each process commits on its own: two sharing
a busy table committed nearly twice as often as one (docs/performance.md).
Rolls one at a time never wait, nor rolls left over from the last batch."""
FULL_BATCH = 8
MAX_BATCH = 64
"""Rolls committed together at most: a bound on how long rooms stay held and,
on SQLite, on how long one batch holds the event loop (light rolls: about
20 ms at most, a few milliseconds as a table rolls)."""
BUSY_AGAIN = 0.001
"""Seconds after which a batch tries SQLite again while another thread of
the process writes: the event loop never waits for the lock."""
STOP_WITHIN = 10.0
"""Seconds the writer waits, when the server stops, for the rolls asked for."""
PAUSE_AFTER_COMMIT = "FUDGEDICE_TEST_PAUSE_AFTER_COMMIT"
"""A test hook, read when the writer starts (unset: 0): seconds from each commit
to its answers, for a test to kill the process between them."""


@dataclass(frozen=True)
class Replayed:
    """A roll sent again with its key: the roll it made (not handed on again)."""

    outcome: RollRecord | FailedRoll


Settled = RollRecord | Problem | Replayed
"""What became of one roll asked of the writer: kept, refused, or kept before."""
Committed = Callable[[list[RollRecord]], None]
"""Called on the event loop with the rolls of each commit, in ``seq`` order."""


@dataclass
class _Waiting:
    request: RollRequest
    future: asyncio.Future[RollRecord]
    came: float
    """When it was handed to the writer (the loop's clock)."""


class Writer:
    """Commits the rolls of one process, many to a transaction, one
    transaction at a time."""

    def __init__(self, db: Database, committed: Committed) -> None:
        self.db = db
        self.committed = committed
        self._thread: ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: list[_Waiting] = []
        self._due = False
        """A commit is called for: the rolls waiting go with it."""
        self._running = False
        """A batch is being committed on the writer's thread."""
        self._flushed = -math.inf
        """When the last commit began (the loop's clock)."""
        self._linger = LINGER if db.postgres else 0.0
        self._busy = False  # the last batch held FULL_BATCH // 2 or more: rolls come fast
        self._timer: asyncio.TimerHandle | None = None  # the next commit's, while it lingers
        self._idle = asyncio.Event()
        self._pause = float(os.environ.get(PAUSE_AFTER_COMMIT) or 0)
        self.metrics: Metrics | None = None
        """Told of each commit's rolls (/metrics), if set."""

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="fudgedice-writer")
        self._idle.set()

    async def stop(self) -> None:
        """Once every roll asked for is committed (or refused), end the thread."""
        if self._thread is None:
            return
        try:
            await asyncio.wait_for(self._idle.wait(), STOP_WITHIN)
        except TimeoutError:  # the server stops all the same: a roll not yet drawn is in no log
            log.warning("the writer stopped with rolls still waiting")
        await asyncio.to_thread(self._thread.shutdown)

    async def roll(self, request: RollRequest) -> RollRecord:
        """The roll, once committed; or the :class:`Problem` that refused it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[RollRecord] = loop.create_future()
        self._waiting.append(_Waiting(request, future, loop.time()))
        if self._timer is not None and len(self._waiting) >= FULL_BATCH:
            self._timer.cancel()  # a full batch lingers no longer
            self._timer, self._due = None, False
        self._next()
        return await future

    def _next(self) -> None:
        """Call for the next commit, if rolls wait and none is called for or
        under way: :data:`COMMIT_EVERY` after the last one began, with every
        roll that comes until then; while rolls come fast, on PostgreSQL,
        once :data:`FULL_BATCH` wait or :data:`LINGER` after the last began."""
        if self._due or self._running:
            return
        if not self._waiting:
            self._idle.set()
            return
        assert self._loop is not None
        self._idle.clear()
        self._due = True
        now = self._loop.time()
        wait = self._flushed + COMMIT_EVERY - now
        fresh = self._waiting[0].came >= self._flushed  # none left over: they waited already
        lingering = self._linger > 0 and self._busy and fresh and len(self._waiting) < FULL_BATCH
        if lingering:
            wait = max(wait, self._flushed + self._linger - now)
        if wait > 0:
            timer = self._loop.call_later(wait, self._flush)
            self._timer = timer if lingering else None
        else:  # after this turn of the loop, with all that came in it
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Commit the next batch: on the event loop on SQLite (a local file,
        whose commit is shorter than a thread's handoff), on the writer's
        thread on PostgreSQL (across a network)."""
        assert self._loop is not None
        self._due, self._timer = False, None
        self._flushed = self._loop.time()
        batch = self._take()
        self._busy = len(batch) >= FULL_BATCH // 2
        if self.db.postgres:
            self._running = True
            done = self._loop.run_in_executor(self._thread, self._commit, batch)
            done.add_done_callback(lambda finished: self._committed(batch, finished.result()))
            return
        outcomes = self._commit(batch, wait=False)
        if outcomes is None:  # another thread of the process is writing: the loop never waits
            self._waiting[:0] = batch
            self._due = True
            self._loop.call_later(BUSY_AGAIN, self._flush)
            return
        self._committed(batch, outcomes)

    def _take(self) -> list[_Waiting]:
        """The next batch, in the order the rolls came: up to
        :data:`MAX_BATCH` of them, but a heavy one (its text tosses many dice:
        ``RollRequest.heavy``) alone, so that no batch draws for long."""
        count = 1
        if not self._waiting[0].request.heavy:
            most = min(MAX_BATCH, len(self._waiting))
            while count < most and not self._waiting[count].request.heavy:
                count += 1
        batch, self._waiting = self._waiting[:count], self._waiting[count:]
        return batch

    def _commit(self, batch: list[_Waiting], wait: bool = True) -> list[Settled] | None:
        """The outcome of each roll of ``batch``, drawn and committed; None at
        once if ``wait`` is false and another thread of the process is writing."""
        try:
            return _stored(self.db, [waiting.request for waiting in batch], wait)
        except Exception as error:  # nothing of the batch is kept: every roll is refused
            if unreachable(error):
                told(error)
                return [refusal()] * len(batch)
            log.exception("rolls could not be stored")
            return [Problem(503, "the roll could not be stored: try again")] * len(batch)

    def _committed(self, batch: list[_Waiting], outcomes: list[Settled] | None) -> None:
        assert outcomes is not None and self._loop is not None
        if self._pause:  # the test hook: committed, not yet answered
            self._loop.call_later(self._pause, self._answer, batch, outcomes)
        else:
            self._answer(batch, outcomes)

    def _answer(self, batch: list[_Waiting], outcomes: list[Settled]) -> None:
        self._running = False
        self._settle(batch, outcomes)
        self._next()

    def _settle(self, batch: list[_Waiting], outcomes: list[Settled]) -> None:
        """On the event loop: answer each request, then hand on what was kept."""
        kept = []
        failed = 0
        for waiting, settled in zip(batch, outcomes, strict=True):
            outcome = settled.outcome if isinstance(settled, Replayed) else settled
            if settled is outcome:  # a roll replayed was handed on when it was made
                if isinstance(outcome, RollRecord):
                    kept.append(outcome)
                elif isinstance(outcome, FailedRoll):
                    kept.append(outcome.record)
                    failed += 1
            if waiting.future.done():  # its request was cancelled: the roll is kept all the same
                continue
            if isinstance(outcome, Problem):
                waiting.future.set_exception(outcome)
            else:
                waiting.future.set_result(outcome)
        if self.metrics is not None:
            answered = asyncio.get_running_loop().time()
            self.metrics.settled([answered - waiting.came for waiting in batch], len(kept), failed)
        if kept:
            self.committed(kept)


def append_rolls(db: Database, requests: Sequence[RollRequest]) -> list[Settled]:
    """Draw and store the rolls in one transaction; the outcome of each in order."""
    outcomes = _stored(db, requests)
    assert outcomes is not None  # a batch that waits gets its connection
    return outcomes


def _stored(
    db: Database, requests: Sequence[RollRequest], wait: bool = True
) -> list[Settled] | None:
    """:func:`append` in a transaction of its own; None at once if ``wait``
    is false and another thread of the process is writing."""
    try:
        with db.batch(wait) as connection:
            return None if connection is None else append(connection, requests, last=True)
    except KeyTaken:  # a roll sent again, kept already: drawn again, its keys looked up first
        with db.batch(wait) as connection:
            return None if connection is None else append(connection, requests, True, last=True)


def append(
    connection: Connection,
    requests: Sequence[RollRequest],
    careful: bool = False,
    *,
    last: bool = False,
) -> list[Settled]:
    """The rolls drawn and written in the transaction of ``connection``; if
    ``careful``, their keys looked up first (else :class:`KeyTaken` for one
    kept). If ``last`` (nothing follows in the transaction), on PostgreSQL
    it is committed with the writes (:func:`_commit_with_them`)."""
    held = hold(connection, requests)
    at = now()  # one time for the rolls of one commit: they are kept at one moment
    earlier: _Earlier | None = None
    if careful:
        wanted = [ident(r.room, r.member, r.key) for r in requests if r.key is not None]
        earlier = {**kept(connection, wanted)}
    outcomes, records, keyed = _drawn(held, requests, at, earlier)
    if keyed:  # before the pipeline: a key kept already fails its insert here (KeyTaken)
        claim(connection, keyed)
    if not records:
        return outcomes
    postgres = connection.dialect.name == "postgresql"
    with _pipelined(connection) if postgres else contextlib.nullcontext():
        insert_rolls(connection, records)
        advanced = write_back(connection, held.values(), at)
        if postgres:  # every process's live feed hears of them, the rolls with them where they fit
            told = {room.id for room in advanced}
            notify_all(connection, roll_notices([r for r in records if r.room in told]))
            if last:
                _commit_with_them(connection)
    return outcomes


_Earlier = dict[Ident, tuple[str, Settled]]
"""The keys kept already or asked earlier in the batch: what each asked, its outcome."""


def _pipelined(connection: Connection) -> contextlib.AbstractContextManager[Any]:
    """PostgreSQL: the batch's writes sent together, one round trip for all
    (psycopg's pipeline mode), not one a statement. The rooms stay held from
    their read to the commit, and each round trip the writer's thread makes
    is a wait for the server and then for the interpreter's lock, which the
    event loop holds while it answers requests: on a busy process several
    milliseconds each, through which another process wanting the same rooms
    waits. Nothing here reads, so nothing needs an answer before the end."""
    driver = connection.connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    return driver.pipeline()


def _commit_with_them(connection: Connection) -> None:
    """PostgreSQL: the ``COMMIT`` sent in the writes' pipeline, in their
    round trip, not one of its own after them (the transaction's own commit
    then finds it done and sends nothing). A commit that fails fails the
    pipeline, and with it the batch, as it would have alone."""
    cursor = connection.connection.cursor()
    try:
        cursor.execute("COMMIT")
    finally:
        cursor.close()


def _drawn(
    held: dict[str, HeldRoom],
    requests: Sequence[RollRequest],
    at: str,
    earlier: _Earlier | None,
) -> tuple[list[Settled], list[RollRecord], list[tuple[RollRecord, Key]]]:
    """Each request's outcome in order, made ``at``, the rolls among them, and
    their keys; a key found in ``earlier`` (a careful batch) answered by :func:`_again`."""
    outcomes: list[Settled] = []
    for request in requests:
        key = request.key
        if earlier is not None and key is not None:
            found = earlier.get(ident(request.room, request.member, key))
            if found is not None:
                outcomes.append(_again(key, *found))
                continue
        room = held.get(request.room)
        try:
            if room is None:
                raise not_found()
            outcomes.append(draw(room, request, at))
        except Problem as problem:
            outcomes.append(problem)
        if earlier is not None and key is not None:
            earlier[ident(request.room, request.member, key)] = (key.request, outcomes[-1])
    records: list[RollRecord] = []
    keyed: list[tuple[RollRecord, Key]] = []
    for request, outcome in zip(requests, outcomes, strict=True):
        if isinstance(outcome, RollRecord | FailedRoll):
            record = outcome.record if isinstance(outcome, FailedRoll) else outcome
            records.append(record)
            if request.key is not None:
                keyed.append((record, request.key))
    return outcomes, records, keyed


def _again(key: Key, asked: str, settled: Settled) -> Settled:
    """A key's request sent again: what it was answered, if it asks the same."""
    if key.request != asked:
        return used_otherwise()
    if isinstance(settled, RollRecord) and settled.error is not None:  # as stored: failed
        settled = FailedRoll(settled, DiceError(settled.error, text=settled.text))
    if isinstance(settled, RollRecord | FailedRoll):
        return Replayed(settled)
    return settled  # refused, as the first was (nothing kept: no key stored)
