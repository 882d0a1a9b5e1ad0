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

Where the batch runs: PostgreSQL is across a network, so there a thread of the
writer's own commits, and the event loop never waits for it. SQLite is a local
file whose commit (WAL, no checkpoint: see :mod:`.db`) is shorter than handing
the batch to a thread and back, and a thread holding the GIL makes the event
loop wait for it in turn: there the batch runs on the event loop, collected
from every roll that arrived since the last commit began, commits being at
least :data:`COMMIT_EVERY` apart. Only when another thread
of the process is writing (a reveal re-checking a seed's rolls, a member
joining) does that batch go to a worker thread, so the loop never waits for a
lock; and a roll whose text draws long (:class:`.caches.Texts`) always goes to
one, so that it never holds the loop.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert

from ..errors import DiceError
from ..log import roll_entry
from . import rolling
from .db import Database
from .held import (
    ADVANCE,
    ADVANCE_SQL,
    HOLD,
    NONCE_KEYS,
    NONCES,
    UPSERT_NONCE,
    UPSERT_NONCE_SQL,
    HeldRoom,
    advance,
    counters_of,
    held_rooms,
    hold_sql,
    members_of,
    nonces_sql,
)
from .kept import RollRecord, RollRequest, json_text
from .problems import Problem, not_found
from .schema import rolls
from .store import notify, now

log = logging.getLogger("fudgedice.server")

COMMIT_EVERY = 0.004
"""Seconds from the start of one commit on the event loop (SQLite) to the
next, at least: a roll that comes sooner waits for the rest of that time and
goes with every roll that came in it. A commit costs about as much CPU time as
several rolls (its statements, the WAL's pages, waking every answer), and a
busy table's rolls come a millisecond apart: one commit each would spend most
of the process on commits. A roll after a quiet spell is committed at once."""

MAX_BATCH = 64
"""Rolls committed together at most: a bound on how long rooms stay held and,
on SQLite, on how long one batch holds the event loop (a few milliseconds)."""


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
    """Commits the rolls of one process, many to a transaction."""

    def __init__(self, db: Database, committed: Committed) -> None:
        self.db = db
        self.committed = committed
        self.on_loop = not db.postgres
        self._queue: queue.SimpleQueue[_Waiting | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: list[_Waiting] = []
        self._flush_due = False
        self._flushed = -math.inf
        """When the last commit on the event loop began (the loop's clock)."""

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if not self.on_loop:
            self._thread = threading.Thread(target=self._run, name="fudgedice-writer", daemon=True)
            self._thread.start()

    async def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            await asyncio.to_thread(self._thread.join, 10)

    async def roll(self, request: RollRequest) -> RollRecord:
        """The roll, once committed; or the :class:`Problem` that refused it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[RollRecord] = loop.create_future()
        waiting = _Waiting(request, future)
        if not self.on_loop:
            self._queue.put(waiting)
        elif request.heavy:  # a long draw: on a worker thread, never holding the loop
            self._on_thread([waiting])
        else:
            self._waiting.append(waiting)
            if not self._flush_due:  # with all that comes until then
                self._flush_due = True
                wait = self._flushed + COMMIT_EVERY - loop.time()
                if wait > 0:
                    loop.call_later(wait, self._flush)
                else:  # after this turn of the loop, with all that came in it
                    loop.call_soon(self._flush)
        return await future

    def _on_thread(self, batch: list[_Waiting]) -> None:
        """Commit ``batch`` on a worker thread, then answer it on the loop."""
        assert self._loop is not None
        done = self._loop.run_in_executor(None, self._commit, batch)
        done.add_done_callback(lambda finished: self._settle(batch, finished.result()))

    def _flush(self) -> None:
        """On the event loop: commit the rolls waiting (SQLite)."""
        batch, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
        self._flush_due = bool(self._waiting)
        assert self._loop is not None
        self._flushed = self._loop.time()
        if self._waiting:
            self._loop.call_soon(self._flush)
        requests = [waiting.request for waiting in batch]
        try:
            with self.db.write_if_free() as connection:
                if connection is not None:
                    outcomes = _append(connection, False, requests)
        except Exception:
            outcomes = _refused(batch)
        else:
            if connection is None:  # another thread is writing: wait for it on one
                self._on_thread(batch)
                return
        self._settle(batch, outcomes)

    def _commit(self, batch: list[_Waiting]) -> list[Settled]:
        try:
            return append_rolls(self.db, [waiting.request for waiting in batch])
        except Exception:
            return _refused(batch)

    def _run(self) -> None:
        while (first := self._queue.get()) is not None:
            batch = [first]
            stopping = False
            while len(batch) < MAX_BATCH:
                try:
                    waiting = self._queue.get_nowait()
                except queue.Empty:
                    break
                if waiting is None:
                    stopping = True
                    break
                batch.append(waiting)
            outcomes = self._commit(batch)
            assert self._loop is not None
            self._loop.call_soon_threadsafe(self._settle, batch, outcomes)
            if stopping:
                return

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


def _refused(batch: list[_Waiting]) -> list[Settled]:
    """The commit failed: nothing of the batch is kept, every roll is refused."""
    log.exception("rolls could not be stored")
    return [Problem(503, "the roll could not be stored: try again")] * len(batch)


def append_rolls(db: Database, requests: Sequence[RollRequest]) -> list[Settled]:
    """Draw and store the rolls in one transaction; the outcome of each in order."""
    with db.write() as connection:
        return _append(connection, db.postgres, requests)


def _append(
    connection: Connection | sqlite3.Connection, postgres: bool, requests: Sequence[RollRequest]
) -> list[Settled]:
    """The rolls drawn and written in the transaction of ``connection``."""
    if isinstance(connection, sqlite3.Connection):
        return _on_sqlite(connection, requests)
    if not postgres:  # SQLite's statements go to its driver, in the same transaction:
        # SQLAlchemy spent more CPU time on each batch's parameters than SQLite on the batch
        driver = connection.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        return _on_sqlite(driver, requests)
    wanted = sorted({request.room for request in requests})
    held = held_rooms(connection.execute(HOLD, {"ids": wanted}))
    for room, members in members_of(held, requests):
        found = connection.execute(NONCES, {"room": room.id, "epoch": room.epoch, "ids": members})
        room.nonces.update((member, nonce) for member, nonce in found)
    outcomes, records = _drawn(held, requests)
    if records:
        connection.execute(_INSERT, [_row(record) for record in records])
        advanced = [room for room in held.values() if room.last_seq >= room.first_seq]
        connection.execute(ADVANCE, [advance(room) for room in advanced])
        if counters := counters_of(advanced):
            connection.execute(
                UPSERT_NONCE, [dict(zip(NONCE_KEYS, c, strict=True)) for c in counters]
            )
        for room in advanced:
            notify(connection, f"rolls {room.id} {room.first_seq} {room.last_seq}")
    return outcomes


def _on_sqlite(driver: sqlite3.Connection, requests: Sequence[RollRequest]) -> list[Settled]:
    """:func:`_append` through SQLite's own driver."""
    wanted = sorted({request.room for request in requests})
    held = held_rooms(driver.execute(hold_sql(len(wanted)), wanted))
    for room, members in members_of(held, requests):
        found = driver.execute(nonces_sql(len(members)), [room.id, room.epoch, *members])
        room.nonces.update(found.fetchall())
    outcomes, records = _drawn(held, requests)
    if records:
        rows = [_row(record) for record in records]
        driver.executemany(_insert_sql(tuple(rows[0])), [tuple(row.values()) for row in rows])
        advanced = [room for room in held.values() if room.last_seq >= room.first_seq]
        driver.executemany(ADVANCE_SQL, [tuple(advance(room).values()) for room in advanced])
        if counters := counters_of(advanced):
            driver.executemany(UPSERT_NONCE_SQL, counters)
    return outcomes


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


_INSERT = insert(rolls)


@functools.cache
def _insert_sql(columns: tuple[str, ...]) -> str:
    """``_INSERT`` for SQLite's driver, of the columns :func:`_row` fills."""
    return f"INSERT INTO rolls ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


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


def _row(record: RollRecord) -> dict[str, Any]:
    opening = None if record.opening is None else json_text(record.opening)
    return {
        "room_id": record.room, "seq": record.seq, "member_id": record.member,
        "name": record.name, "visibility": record.visibility, "epoch": record.epoch,
        "commitment": record.commitment, "nonce": record.nonce,
        "client_seed": record.client_seed, "text": record.text, "label": record.label,
        "faces": None if record.faces is None else json_text(record.faces),
        "error": record.error,
        "result": json_text(record.result), "at": record.at, "salt": record.salt,
        "hash": record.hash, "entry": json_text(record.entry),
        "opening": opening,
    }  # fmt: skip
