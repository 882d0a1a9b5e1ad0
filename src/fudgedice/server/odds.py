"""``GET /api/odds`` at the table: anyone may ask, without a token, so the
table bounds what one request may cost more tightly than the engine does for
a user on their own machine, and never measures many at once.

The engine's own limits keep one measure to about a second of CPU; a thread
cannot be stopped once it runs, so what bounds the table is that at most
``at_once`` measures run in a process (more are refused with 503 at once,
never queued), each client address has its own allowance, and the texts
that cost most (many Character Points, answers of megabytes) are refused
before or instead of being written out.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from starlette.concurrency import run_in_threadpool

from ..budget import within_budget
from ..dice.program import Program
from ..errors import DiceError, LimitError
from ..exact.odds import Odds
from . import rolling
from .guards import RateLimit
from .problems import Problem

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


class OddsGate:
    """At most ``at_once`` measures at a time in this process (the odds of
    ``/api/odds`` and those of character sheets alike), and each client
    address's requests counted by ``limiter``."""

    def __init__(self, limiter: RateLimit, at_once: int = 1) -> None:
        self.limiter = limiter
        self.at_once = at_once
        self._running = 0
        self._lock = threading.Lock()

    @contextmanager
    def slot(self, address: str) -> Iterator[None]:
        """One measure's place, from any thread: refused at once (429 past the
        address's allowance, 503 while ``at_once`` run), never queued."""
        self.limiter.take(f"odds {address}")
        with self._lock:
            if self._running >= self.at_once:
                raise Problem(503, "the table is busy measuring odds: try again in a moment")
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1

    async def answer(self, text: str, system: str, address: str) -> bytes:
        with self.slot(address):
            return await run_in_threadpool(measured, text, system)
