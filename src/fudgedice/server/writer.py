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
alone, so that no batch draws for long. Where a batch runs is the one thing
the database decides: PostgreSQL is across a network, so there the writer's
own thread commits, and the event loop never waits for it; SQLite is a local
file whose commit (WAL, no checkpoint: see :mod:`.db`) is shorter than
handing the batch to a thread and back, and a thread holding the GIL makes
the event loop wait for it in turn, so there the batch runs on the event
loop. While another thread of the process writes to SQLite (a member
joining, a reveal re-checking a seed's rolls), the batch waits on the loop,
trying again every :data:`BUSY_AGAIN`: the loop never waits for the lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy import Connection

from ..errors import DiceError
from ..log import roll_entry
from . import rolling
from .db import Database
from .held import HeldRoom, hold, write_back
from .kept import RollRecord, RollRequest
from .notices import roll_notices
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

MAX_BATCH = 64
"""Rolls committed together at most: a bound on how long rooms stay held and,
on SQLite, on how long one batch holds the event loop (light rolls: about
20 ms at most, a few milliseconds as a table rolls)."""
BUSY_AGAIN = 0.001
"""Seconds after which a batch tries SQLite again while another thread of
the process writes (a member joining, a reveal): the event loop never waits
for the lock."""
STOP_WITHIN = 10.0
"""Seconds the writer waits, when the server stops, for the rolls asked for."""


class FailedRoll(Problem):
    """A roll that failed once its dice were drawn: refused with its error, as
    a bad text is (400), and with its ``seq``, for it is kept all the same."""

    def __init__(self, record: RollRecord, error: DiceError) -> None:
        super().__init__(400, error.message, position=error.position, hint=error.hint)
        self.record = record

    def body(self) -> dict[str, Any]:
        return {**super().body(), "seq": self.record.seq}


Settled = RollRecord | Problem
"""What became of one roll asked of the writer: kept, or refused."""
Committed = Callable[[list[RollRecord]], None]
"""Called on the event loop with the rolls of each commit, in ``seq`` order."""


@dataclass
class _Waiting:
    request: RollRequest
    future: asyncio.Future[RollRecord]


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
        self._idle = asyncio.Event()

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
        future: asyncio.Future[RollRecord] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Waiting(request, future))
        self._next()
        return await future

    def _next(self) -> None:
        """Call for the next commit, if rolls wait and none is called for or
        under way: :data:`COMMIT_EVERY` after the last one began, with every
        roll that comes until then."""
        if self._due or self._running:
            return
        if not self._waiting:
            self._idle.set()
            return
        assert self._loop is not None
        self._idle.clear()
        self._due = True
        wait = self._flushed + COMMIT_EVERY - self._loop.time()
        if wait > 0:
            self._loop.call_later(wait, self._flush)
        else:  # after this turn of the loop, with all that came in it
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Commit the next batch: on the event loop on SQLite (a local file,
        whose commit is shorter than a thread's handoff), on the writer's
        thread on PostgreSQL (across a network)."""
        assert self._loop is not None
        self._due = False
        self._flushed = self._loop.time()
        batch = self._take()
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
            with self.db.batch(wait) as connection:
                if connection is None:
                    return None
                return append(connection, [waiting.request for waiting in batch])
        except Exception:
            log.exception("rolls could not be stored")
            # nothing of the batch is kept: every roll is refused
            return [Problem(503, "the roll could not be stored: try again")] * len(batch)

    def _committed(self, batch: list[_Waiting], outcomes: list[Settled] | None) -> None:
        assert outcomes is not None
        self._running = False
        self._settle(batch, outcomes)
        self._next()

    def _settle(self, batch: list[_Waiting], outcomes: list[Settled]) -> None:
        """On the event loop: answer each request, then hand on what was kept."""
        kept = []
        for waiting, outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, RollRecord):
                kept.append(outcome)
            elif isinstance(outcome, FailedRoll):
                kept.append(outcome.record)
            if waiting.future.done():  # its request was cancelled: the roll is kept all the same
                continue
            if isinstance(outcome, Problem):
                waiting.future.set_exception(outcome)
            else:
                waiting.future.set_result(outcome)
        if kept:
            self.committed(kept)


def append_rolls(db: Database, requests: Sequence[RollRequest]) -> list[Settled]:
    """Draw and store the rolls in one transaction; the outcome of each in order."""
    with db.batch() as connection:
        assert connection is not None  # a batch that waits gets its connection
        return append(connection, requests)


def append(connection: Connection, requests: Sequence[RollRequest]) -> list[Settled]:
    """The rolls drawn and written in the transaction of ``connection``."""
    held = hold(connection, requests)
    outcomes, records = _drawn(held, requests)
    if not records:
        return outcomes
    postgres = connection.dialect.name == "postgresql"
    with _pipelined(connection) if postgres else contextlib.nullcontext():
        insert_rolls(connection, records)
        advanced = write_back(connection, held.values())
        if postgres:  # every process's live feed hears of them
            notify_all(connection, [  # the rolls with them, where they fit
                payload
                for room in advanced
                for payload in roll_notices(room.id, [r for r in records if r.room == room.id])
            ])  # fmt: skip
    return outcomes


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


def _drawn(
    held: dict[str, HeldRoom], requests: Sequence[RollRequest]
) -> tuple[list[Settled], list[RollRecord]]:
    """Each request's outcome in order, and the rolls among them."""
    outcomes: list[Settled] = []
    at = now()  # one time for the rolls of one commit: they are kept at one moment
    for request in requests:
        room = held.get(request.room)
        try:
            if room is None:
                raise not_found()
            outcomes.append(_draw(room, request, at))
        except Problem as problem:
            outcomes.append(problem)
    records = [
        outcome.record if isinstance(outcome, FailedRoll) else outcome
        for outcome in outcomes
        if isinstance(outcome, RollRecord | FailedRoll)
    ]
    return outcomes, records


def _draw(room: HeldRoom, request: RollRequest, at: str) -> RollRecord | FailedRoll:
    """The room's next roll: drawn from its seed (or read from the faces given)
    and made into its entry of the log (``fudgedice.log.roll_entry``); a roll
    that failed once its dice were drawn is kept, as a :class:`FailedRoll`."""
    member = request.member
    seq = room.last_seq + 1
    text = rolling.log_text(request.text, request.system)
    try:
        logged = roll_entry(
            server_seed=room.seed,
            commitment=room.commitment,
            room=room.id,
            seq=seq,
            nonce=room.next_nonce(member.id),
            prev=room.last_hash,
            text=text,
            roller=member.name,
            visibility=request.visibility,
            client_seed=request.client_seed,
            member=member.id,
            stream=room.stream,
            at=at,
            read=request.faces,
            extra=None if request.label is None else {"label": request.label},
        )
    except DiceError as error:
        raise Problem.from_dice(rolling.as_typed(error, request.text, request.system)) from None
    nonce = None if request.faces is not None else room.next_nonce(member.id)
    opening = logged.opening
    fields = logged.entry if opening is None else opening["entry"]
    result = logged.roll.to_dict() if logged.roll is not None else failed_result(text, fields)
    record = RollRecord(
        room.id, seq, member.id, member.name, request.visibility, room.epoch, room.commitment,
        nonce, request.client_seed, request.text, request.label, request.faces,
        result, at, None if opening is None else opening["salt"], logged.hash,
        None, logged.entry, opening, None if logged.error is None else logged.error.message,
        request.via,
    )  # fmt: skip
    room.last_seq = seq
    room.last_hash = record.hash
    if nonce is not None:
        room.take_nonce(member.id)
    if logged.error is not None:
        return FailedRoll(record, rolling.as_typed(logged.error, request.text, request.system))
    return record


def failed_result(text: str, fields: dict[str, Any]) -> dict[str, Any]:
    """A failed roll's JSON: its text, the faces it drew, its error; no total."""
    faces = " ".join(str(face) for face in fields["faces"])
    return {
        "notation": text, "total": None, "verdict": None, "result": "failed",
        "dice": [], "tosses": fields["faces"], "failed": True, "error": fields["error"],
        "text": f"{text}: failed after drawing {faces or 'nothing'}: {fields['error']}",
    }  # fmt: skip
