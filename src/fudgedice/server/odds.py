"""``GET /api/odds`` at the table: anyone may ask, without a token, so the
table bounds what one request may cost more tightly than the engine does for
a user on their own machine, and never measures many at once.

The engine's own limits keep one measure to about a second of CPU; a
measure cannot be stopped once it runs, so what bounds the table is that at
most ``at_once`` measures run at a time (more are refused with 503 at once,
never queued), each client address has its own allowance, and the texts
that cost most (many Character Points, answers of megabytes) are refused
before or instead of being written out. The measures run in a process of
their own: on a thread of the server's, a second of pure-Python work would
hold the interpreter's lock against the event loop, and every room's
requests would wait their turn behind it.
"""

from __future__ import annotations

import asyncio
import json
import math
import multiprocessing
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

from starlette.concurrency import run_in_threadpool

from ..budget import within_budget
from ..dice.program import Program
from ..errors import DiceError, LimitError
from ..exact.odds import Odds
from . import rolling
from .guards import RateLimit
from .problems import Problem

R = TypeVar("R")

MAX_CHARACTER_POINTS = 5
"""Character Points on one side of a D6 roll the table measures: each is an
exploding die of its own; the engine's 20 a side took seconds of CPU."""
MAX_ANSWER = 1_000_000
"""Bytes of one odds answer: its fractions are written out exactly, and
``140d100``'s took 9 MB."""

_CHARACTER_POINTS = re.compile(r"\bcp\s*=?\s*([0-9]+)", re.IGNORECASE)


def measured(text: str, system: str) -> bytes:
    """The odds of ``text`` as JSON, or the Problem that refuses it (400 for
    a bad text, 413 past a limit: never an error of the server's own)."""
    program = rolling.program(text, system)
    for points in _CHARACTER_POINTS.finditer(text):
        if int(points.group(1)) > MAX_CHARACTER_POINTS:
            raise Problem(
                413,
                f"the table measures at most cp{MAX_CHARACTER_POINTS} on a side, "
                f"not cp{points.group(1)}",
                position=points.start(),
                hint="fudgedice odds on your own machine measures up to cp20",
            )
    try:
        body = _written(program)
    except LimitError as error:
        raise Problem(413, error.message, position=error.position, hint=error.hint) from None
    except DiceError as error:
        raise Problem.from_dice(error) from None
    if len(body) > MAX_ANSWER:
        raise _too_long(text, len(body))
    return body


@within_budget
def _written(program: Program) -> bytes:
    """The odds as JSON: measuring and writing them out are one request, with
    one budget of work (:mod:`fudgedice.budget`)."""
    odds = program.odds()
    _check_size(odds)
    return json.dumps(odds.to_dict()).encode()


def _check_size(odds: Odds) -> None:
    """Refuse, before writing them, fractions that would pass :data:`MAX_ANSWER`."""
    digits = int(odds.dist.total.bit_length() * math.log10(2)) + 1
    size = len(odds.dist.counts) * digits * 2
    if size > MAX_ANSWER:
        raise _too_long(odds.notation, size)


def _too_long(text: str, size: int) -> Problem:
    return Problem(
        413,
        f"the exact odds of {text} would take about {size:,} bytes; "
        f"the table answers at most {MAX_ANSWER:,}",
        hint="fudgedice odds on your own machine shows them",
    )


def _outcome(function: Callable[..., R], *args: Any) -> tuple[bool, Any]:
    """In the measuring process: the result, or the refusal's parts (a
    Problem's keyword arguments do not survive pickling)."""
    try:
        return True, function(*args)
    except Problem as problem:
        return False, (problem.status, problem.error, problem.position, problem.hint)


def _answer(outcome: tuple[bool, Any]) -> Any:
    done, value = outcome
    if not done:
        status, error, position, hint = value
        raise Problem(status, error, position=position, hint=hint)
    return value


class OddsGate:
    """At most ``at_once`` measures at a time (the odds of ``/api/odds`` and
    those of character sheets alike), and each client address's requests
    counted by ``limiter``. ``isolated``: each measure in the gate's
    measuring process (the server's way), else on a worker thread."""

    def __init__(
        self, limiter: RateLimit, at_once: int = 1, *, isolated: bool = False, waiting: int = 8
    ) -> None:
        self.limiter = limiter
        self.at_once = at_once
        self.isolated = isolated
        self.most_waiting = waiting
        """Requests that may wait for a place at once (each on a worker thread)."""
        self._running = self._waiting = 0
        self.busy = 0
        """Measures refused (503) so far because the gate was full."""
        self._lock = threading.Lock()
        self._free = threading.Condition(self._lock)
        self._pool: ProcessPoolExecutor | None = None

    @contextmanager
    def slot(self, address: str, wait: float = 0.0) -> Iterator[None]:
        """One measure's place, from any thread: 429 past the address's
        allowance; while ``at_once`` run, a wait of at most ``wait`` seconds
        (for at most :attr:`most_waiting` requests together), else 503."""
        self.limiter.take(f"odds {address}")
        with self._lock:
            if self._running >= self.at_once:
                self._wait_for_place(wait)
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1
                self._free.notify()

    def _wait_for_place(self, wait: float) -> None:
        """Holding the lock: until a place is free, ``wait`` seconds at most."""
        busy = Problem(503, "the table is busy measuring odds: try again in a moment")
        if wait <= 0 or self._waiting >= self.most_waiting:
            self.busy += 1
            raise busy
        self._waiting += 1
        try:
            if not self._free.wait_for(lambda: self._running < self.at_once, wait):
                self.busy += 1
                raise busy
        finally:
            self._waiting -= 1

    def _submit(self, function: Callable[..., R], *args: Any) -> Future[tuple[bool, Any]]:
        """``function(*args)`` in the measuring process (started at the first
        measure, and again if it died)."""
        with self._lock:
            if self._pool is None:
                spawn = multiprocessing.get_context("spawn")  # no copy of the server's threads
                self._pool = ProcessPoolExecutor(
                    self.at_once,
                    mp_context=spawn,
                    initializer=_follow_server,
                    initargs=(os.getpid(),),
                )
            pool = self._pool
        try:
            return pool.submit(_outcome, function, *args)
        except BrokenProcessPool:
            self._lost(pool)

    def start(self) -> None:
        """Starts the measuring process now, in the background: started at the
        first measure instead, that measure (and every one refused meanwhile)
        would wait seconds for a new interpreter to load the engine."""
        if self.isolated:
            self._submit(measured, "4dF", "fudge")  # its answer is not wanted

    def run(
        self,
        function: Callable[..., R],
        *args: Any,
        within: float | None = None,
        later: Callable[[R], object] | None = None,
    ) -> R:
        """``function(*args)``, from a worker thread holding a :meth:`slot`.
        Not done ``within`` seconds (the measuring process still starting on
        a loaded machine, say): 503 now, and the measure goes on holding a
        place of its own until it ends, its result then handed to ``later``."""
        if not self.isolated:
            return function(*args)
        future = self._submit(function, *args)
        try:
            outcome = future.result(within)
        except BrokenProcessPool:
            self._lost(None)
        except TimeoutError:
            self._finish_later(future, later)
            raise Problem(503, "the odds are still being measured: ask again in a moment") from None
        result: R = _answer(outcome)
        return result

    def _finish_later(
        self, future: Future[tuple[bool, Any]], later: Callable[[R], object] | None
    ) -> None:
        """A place of the gate held until ``future`` ends (one measure at a
        time still), and its result, if any, handed to ``later``."""
        with self._lock:
            self._running += 1

        def ended(done: Future[tuple[bool, Any]]) -> None:
            try:  # its result kept before its place is free: the next reader finds it
                if later is not None and not done.cancelled() and done.exception() is None:
                    finished, value = done.result()
                    if finished:
                        later(value)
            finally:
                with self._lock:
                    self._running -= 1
                    self._free.notify()

        future.add_done_callback(ended)

    async def answer(self, text: str, system: str, address: str) -> bytes:
        body: bytes = await self.call(address, measured, text, system)
        return body

    async def call(self, address: str, function: Callable[..., R], *args: Any) -> R:
        """``function(*args)`` (a module's function, picklable, that raises a
        :class:`Problem` to refuse) in a place of the gate, as a measure: in
        the measuring process, never on the event loop."""
        with self.slot(address):
            if not self.isolated:
                return await run_in_threadpool(function, *args)
            try:
                outcome = await asyncio.wrap_future(self._submit(function, *args))
            except BrokenProcessPool:
                self._lost(None)
            result: R = _answer(outcome)
            return result

    def _lost(self, pool: ProcessPoolExecutor | None) -> NoReturn:
        """The measuring process died (killed for its memory, say): the next
        measure starts another; this one is refused."""
        with self._lock:
            if pool is None or self._pool is pool:
                self._pool = None
        raise Problem(503, "the table lost its measuring process: try again in a moment")

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)  # a measure ends within a second


def _follow_server(server: int) -> None:
    """In the measuring process: end it once the server that started it is gone.
    A server killed outright (SIGKILL, a crash) never shuts its pool down, and
    its measuring process would wait on the pool's queue for ever, holding its
    memory and the output of whoever started the server."""

    def watch() -> None:
        while os.getppid() == server:  # a process whose parent dies gets another
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="follow-server", daemon=True).start()
