"""One budget of work for each request.

A request (one call of the Python API, one view of an :class:`~fudgedice.Odds`,
one command of the CLI) may do about ``max_request_work`` of work in all. Every
step that may cost more than a few microseconds estimates its work before it
starts and charges it here (:func:`charge`); a step that would pass what is left
stops the whole request with an :class:`~fudgedice.errors.OverBudget` (a
``LimitError``) that names the bound and, where the step knows it, the largest
size that fits. So cheap
steps can't add up past the bound, and nothing is refused after long work.

Work is counted in nanoseconds of CPU on the reference machine (CPython 3.11 on
a 2-core x86 server), estimated from sizes alone with the costs of CPython's
big-integer operations below. The estimates are deterministic: a request is
accepted or refused the same way on every machine and every time, whatever ran
before it. A step whose result is cached charges its cost again when the cache
serves it (:func:`costed_cache`), for the same reason.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, Generic, ParamSpec, TypeVar, cast

from .errors import OverBudget
from .limits import DEFAULT_LIMITS
from .memory import USED, VALUE, SizedCache, estimate

F = TypeVar("F", bound=Callable[..., Any])
P = ParamSpec("P")
R = TypeVar("R")

Fits = Callable[[int], str | None]
"""Given the work left, a hint naming the largest size that would fit (or None)."""

Charge = tuple[float, str, Fits | None]


class Budget:
    """The work one request may still do, and what it has charged so far."""

    __slots__ = ("limit", "recorders", "spent")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.spent = 0.0
        self.recorders: list[list[Charge]] = []
        """Charges being recorded for a cached result (innermost last)."""

    @property
    def left(self) -> float:
        return self.limit - self.spent


_CURRENT: ContextVar[Budget | None] = ContextVar("fudgedice_budget", default=None)


current: Callable[[], Budget | None] = _CURRENT.get
"""The budget of the request under way in this thread (None: no request):
the context variable's own ``get``, since every roll asks."""


def within_budget(function: F) -> F:
    """Run ``function`` as one request, or as part of the request under way.

    A request runs with Python's cyclic garbage collector paused: it builds
    thousands of objects with no cycle among them (rows, dice, Fractions),
    and in a process with a large heap (a server, a fuzzer's worker, a
    notebook) each collection they set off scans all of it (10000dF's rows
    took twice as long beside two million other objects). A request is
    bounded, and what it leaves is collected after it."""

    @wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        if _CURRENT.get() is not None:
            return function(*args, **kwargs)
        token = _CURRENT.set(Budget(DEFAULT_LIMITS.max_request_work))
        # collector_paused() written out: a roll is a request, and the
        # context manager's generator took a tenth of a plain roll's time
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if paused:
                gc.enable()
            _CURRENT.reset(token)

    return cast(F, run)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused inside (and left as it was
    found, if a caller paused it already): see :func:`within_budget`."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class capped:
    """Steps inside may do at most ``cap`` of work (nor more than the request
    has left): for optional work that has a cheaper way round it (sampling
    from the exact odds, else tossing the dice; a note a roll can do
    without). Work done inside counts against the request all the same."""

    __slots__ = ("cap", "parent", "token")

    def __init__(self, cap: float) -> None:
        self.cap = cap

    def __enter__(self) -> Budget:
        parent = _CURRENT.get() or Budget(DEFAULT_LIMITS.max_request_work)
        child = Budget(int(parent.spent + min(parent.left, self.cap)))
        child.spent = parent.spent
        child.recorders = parent.recorders
        self.parent = parent
        self.token = _CURRENT.set(child)
        return child

    def __exit__(self, *exc: object) -> None:
        child = _CURRENT.get()
        _CURRENT.reset(self.token)
        if child is not None:
            self.parent.spent = child.spent


class paid:
    """Steps inside charge nothing: their work was charged as a whole before
    (a log's verification, by its entries and faces). The budget under way
    is left as it was."""

    __slots__ = ("token",)

    def __enter__(self) -> None:
        self.token = _CURRENT.set(Budget(2**62))

    def __exit__(self, *exc: object) -> None:
        _CURRENT.reset(self.token)


class recorded:
    """Every charge made inside, noted in the list it gives (and charged as
    ever): for a step that must know what the steps inside it charged."""

    __slots__ = ("budget", "charges")

    def __enter__(self) -> list[Charge]:
        self.budget = _CURRENT.get()
        self.charges: list[Charge] = []
        if self.budget is not None:
            self.budget.recorders.append(self.charges)
        return self.charges

    def __exit__(self, *exc: object) -> None:
        if self.budget is not None:
            _forget(self.budget.recorders, self.charges)


def seconds(work: float) -> str:
    """Work as the seconds it takes, for messages."""
    return f"{work / 1e9:.2g} s"


def charge(work: float, what: str, fits: Fits | None = None) -> None:
    """Charge ``work`` for ``what`` (a phrase: "exact odds of 3d6"), before it
    is done; past what the request has left, refuse it. Outside any request the
    step is measured against the whole budget alone."""
    budget = _CURRENT.get()
    limit = DEFAULT_LIMITS.max_request_work
    # Budget.left written out: every step of every request charges
    left = budget.limit - budget.spent if budget is not None else limit
    if work > left:
        _refuse(work, what, fits, left, limit)
    if budget is not None:
        budget.spent += work
        for recorder in budget.recorders:
            recorder.append((work, what, fits))


def check(work: float, what: str, fits: Fits | None = None) -> None:
    """Refuse ``work`` that would not fit in what is left, without charging it
    (its steps charge themselves as they go)."""
    budget = _CURRENT.get()
    limit = DEFAULT_LIMITS.max_request_work
    left = budget.left if budget is not None else limit
    if work > left:
        _refuse(work, what, fits, left, limit)


def _refuse(work: float, what: str, fits: Fits | None, left: float, limit: int) -> None:
    if left >= limit:
        room = f"more than the limit of {seconds(limit)} for one request"
    else:
        room = (
            f"more than the {seconds(max(left, 0))} left of the limit of "
            f"{seconds(limit)} for one request"
        )
    raise OverBudget(
        f"{what} would take about {seconds(work)} of work, {room}",
        hint=fits(int(max(left, 0))) if fits is not None else None,
    )


class CostedCache(Generic[P, R]):
    """``functools.lru_cache`` for a step that charges work: a result served
    from the cache charges again every charge that built it, so that the
    request is refused (with the same message) exactly when it would have
    been without the cache. Positional, hashable arguments only. Its entries
    are charged by the bytes they hold to the process's one memory ledger
    (:mod:`fudgedice.memory`), besides ``maxsize``."""

    def __init__(self, function: Callable[P, R], maxsize: int, name: str | None = None) -> None:
        self.function = function
        self.maxsize = maxsize
        self.store: SizedCache[Hashable, tuple[R, list[Charge]]] = SizedCache(
            name or str(getattr(function, "__qualname__", "costed")), maxsize, _result_size
        )
        wraps(function)(self)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        budget = _CURRENT.get()
        if budget is None:
            return within_budget(self.__call__)(*args, **kwargs)
        entry = self.store.find(args)
        if entry is not None:
            entry[USED] = True
            hit: tuple[R, list[Charge]] = entry[VALUE]
            result, charges = hit
            for work, what, fits in charges:
                charge(work, what, fits)
            return result
        recorder: list[Charge] = []
        budget.recorders.append(recorder)
        try:
            result = self.function(*args, **kwargs)
        finally:
            recorders = budget.recorders
            if recorders and recorders[-1] is recorder:  # the usual case: no search
                del recorders[-1]
            else:
                _forget(recorders, recorder)
        self.store.put(args, (result, recorder))
        return result

    def cache_clear(self) -> None:
        self.store.clear()


def _result_size(entry: tuple[Any, list[Charge]]) -> int:
    """A cached result's bytes, and its charges' (a few tuples each)."""
    return estimate(entry[0]) + 120 * len(entry[1])


def _forget(recorders: list[list[Charge]], recorder: list[Charge]) -> None:
    """Take ``recorder`` itself off the stack: ``list.remove`` compares by
    value, and a cache nested in another records the same charges as it, so
    it would take the outer recorder off in the inner one's place."""
    for index in range(len(recorders) - 1, -1, -1):
        if recorders[index] is recorder:
            del recorders[index]
            return


def costed_cache(
    maxsize: int, name: str | None = None
) -> Callable[[Callable[P, R]], CostedCache[P, R]]:
    """Decorate a function as a :class:`CostedCache` of ``maxsize`` results."""

    def decorate(function: Callable[P, R]) -> CostedCache[P, R]:
        return CostedCache(function, maxsize, name)

    return decorate


# ------------------------------------------------------------- what work costs
#
# Measured with time.process_time on the reference machine (the best of
# several runs, random operands); each estimate errs on the high side.

DIGIT_BITS = 30
"""CPython stores an integer in digits of 30 bits."""
STEP = 60.0
"""One step of a Python loop that does a little arithmetic on small numbers."""
KARATSUBA = 70
"""Digits from which CPython multiplies by Karatsuba rather than schoolbook."""


def digits(bits: float) -> float:
    """CPython digits of a number of ``bits`` bits (at least one)."""
    return bits / DIGIT_BITS + 1


def linear_work(bits: float) -> float:
    """Adding, subtracting, shifting or copying a number: one pass."""
    return 40 + (bits / DIGIT_BITS + 1)  # 40 + digits(bits), written out


def pass_work(length: int, bits: float) -> float:
    """One pass of a Python loop over ``length`` numbers of about ``bits``
    bits, each added, scaled by a small number or copied."""
    return length * (3 * STEP + 2 * digits(bits))


def mul_work(bits_a: float, bits_b: float) -> float:
    """Multiplying: schoolbook for short factors (about 1.6 ns a digit pair);
    Karatsuba (about 9 n**1.585) for long ones, cut into pieces of the shorter
    factor's length when lopsided."""
    # digits() written out, and no sorted(): the estimate runs for every step
    a, b = bits_a / DIGIT_BITS + 1, bits_b / DIGIT_BITS + 1
    short, long = (a, b) if a <= b else (b, a)
    schoolbook = 1.6 * short * long
    if short < KARATSUBA:
        return 60 + schoolbook
    karatsuba: float = 9 * (long / short) * short**1.585
    return 60 + min(schoolbook, karatsuba)


def div_work(bits_a: float, bits_b: float) -> float:
    """Dividing (or the remainder): one pass at about 7.4 ns a digit by a
    one-digit divisor, else schoolbook: about 25 ns for each digit of the
    quotient (its estimate and correction, measured at 13-21 ns for divisors
    of two or three digits, where a cost of 1.6 ns per digit pair alone was
    a fifth of the truth), 1.6 ns per digit of the quotient and of the
    divisor, and a pass over the divisor (normalising it)."""
    top, bottom = digits(bits_a), digits(bits_b)
    if bottom <= 2:
        return 60 + 7.4 * top
    return 60 + max(top - bottom + 1, 1) * (25 + 1.6 * bottom) + 2 * bottom


def str_work(bits: float) -> float:
    """Writing a number out in decimal: quadratic, about 1.3 ns a digit squared."""
    return 100 + 1.3 * digits(bits) ** 2


def gcd_work(bits: float) -> float:
    """A gcd of two numbers of about ``bits`` bits (Lehmer: quadratic)."""
    return 100 + 2.2 * digits(bits) ** 2


def power_work(bits: float) -> float:
    """Raising to a power whose result has ``bits`` bits: squarings, the last
    one dominant (each before it costs a third as much)."""
    return 1.5 * mul_work(bits / 2, bits / 2)


def largest(fits: Callable[[int], bool], most: int) -> int:
    """The largest size from 1 to ``most`` for which ``fits`` holds (costs grow
    with size), 0 if none: for a refusal's hint."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


__all__ = [
    "Budget",
    "CostedCache",
    "capped",
    "charge",
    "check",
    "collector_paused",
    "costed_cache",
    "current",
    "digits",
    "div_work",
    "gcd_work",
    "largest",
    "linear_work",
    "mul_work",
    "paid",
    "pass_work",
    "power_work",
    "recorded",
    "seconds",
    "str_work",
    "within_budget",
]
