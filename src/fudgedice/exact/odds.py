"""Exact odds of a roll: probabilities as Fractions, derived on demand.

An :class:`Odds` holds the exact integer distribution; everything else
(outcome rows, cumulative columns, mean, spread) is computed the first time it
is asked for, so measuring ``10000dF`` does not pay for Fractions nobody reads.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import cached_property
from itertools import accumulate
from typing import Any

from ..errors import LimitError
from .dist import Dist
from .ratios import Reducer, _ratio, complement

MAX_EXACT_CHARACTERS = 15_000_000
"""Digits of exact fractions one document of odds (JSON, or a table with
``--exact --all``) may hold: writing out long integers is quadratic in
CPython, and this many take about a second."""
MAX_DIGIT_WORK = 10**10
"""Digits written times the digits of each number: CPython writes an integer
out in time quadratic in its length, so a few rows of numbers of 20,000 digits
cost as much as thousands of short ones."""


def exact_text(p: Fraction) -> str:
    """``"n/d"`` however long: Python refuses to print integers of more than
    4300 digits unless asked, and 10000dF's chances have thousands."""
    if p.denominator.bit_length() < 14_000:
        return f"{p.numerator}/{p.denominator}"
    with _long_numbers():
        return f"{p.numerator}/{p.denominator}"


@contextmanager
def _long_numbers() -> Iterator[None]:
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def decimal(value: Fraction) -> Decimal:
    """``value`` to 28 significant digits, however large (no float overflow)."""
    with localcontext() as context:
        context.prec = 28
        return Decimal(value.numerator) / Decimal(value.denominator)


def approximate(value: Decimal, digits: int = 4) -> str:
    """``value`` to ``digits`` significant digits, as a float would print it;
    in scientific form past the float range."""
    as_float = float(value)
    if math.isfinite(as_float):
        return f"{as_float:.{digits}g}"
    return f"{value:.{digits - 1}e}"


def json_number(value: Decimal) -> float | str:
    """A float for JSON, or past the float range the number in scientific
    form as text (JSON parsers read floats; none reads 1e+309)."""
    as_float = float(value)
    return as_float if math.isfinite(as_float) else f"{value:.16e}"


@dataclass(frozen=True, slots=True)
class Outcome:
    value: int
    p: Fraction
    at_least: Fraction
    at_most: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "p": float(self.p),
            "exact": exact_text(self.p),
            "at_least": float(self.at_least),
            "at_most": float(self.at_most),
        }


_SMALL_BITS = 256
"""Denominators up to this size are reduced by gcd; longer ones by their primes."""


class Odds:
    """The exact distribution of a roll's result, and its special events."""

    def __init__(
        self,
        notation: str,
        system: str,
        dist: Dist,
        events: dict[str, Fraction] | None = None,
        *,
        value_name: Callable[[int], str] | None = None,
        value_title: str = "value",
    ) -> None:
        self.notation = notation
        self.system = system
        self.dist = dist
        self.events: dict[str, Fraction] = dict(events or {})
        self.value_name = value_name
        """How a system names a value (``+1 Good``); None: the number alone."""
        self.value_title = value_title
        """What the values are (``rolled degree``, ``margin``), for headings."""
        self._above: list[int] | None = None
        self._reducer: Reducer | None = None

    def _fraction(self, count: int) -> Fraction:
        """``count`` out of every way, in lowest terms."""
        total = self.dist.total
        if total.bit_length() <= _SMALL_BITS:
            return _ratio(count, total)  # gcd of machine-sized numbers is cheapest
        # built on first use, by hand: a small pool's odds should cost little
        if self._reducer is None:
            self._reducer = Reducer(total)
        return self._reducer(count)

    def outcome_at(self, value: int) -> Outcome:
        """One row of :attr:`outcomes`, without building the others."""
        offset = value - self.dist.lo
        return Outcome(
            value,
            self._fraction(self.dist.counts[offset]),
            self._fraction(self._at_least_counts[offset]),
            self._fraction(self._at_most_counts[offset]),
        )

    @property
    def denominator(self) -> int:
        """The common denominator of every count (all the equally likely ways)."""
        return self.dist.total

    @cached_property
    def truncated(self) -> Fraction:
        """Probability left out with the far tails of exploding dice (at most 1e-12)."""
        return self._fraction(self.dist.total - self.dist.mass)

    def probability(self, value: int) -> Fraction:
        offset = value - self.dist.lo
        if 0 <= offset < len(self.dist.counts):
            return self._fraction(self.dist.counts[offset])
        return Fraction(0)

    def at_least_counts(self) -> list[int]:
        """Ways of each value or more, lowest value first (the integer column
        behind :meth:`at_least`)."""
        return self._at_least_counts

    @property
    def _at_least_counts(self) -> list[int]:
        # memoised by hand and summed by itertools: the at-least table of a
        # small pool is built often and should cost little more than its
        # Fractions (functools.cached_property locks before Python 3.12)
        if self._above is None:
            self._above = list(accumulate(reversed(self.dist.counts)))[::-1]
        return self._above

    @cached_property
    def _at_most_counts(self) -> list[int]:
        return list(accumulate(self.dist.counts))

    def at_least(self, value: int) -> Fraction:
        """Chance of ``value`` or more ("X or better")."""
        offset = max(value - self.dist.lo, 0)
        if offset >= len(self.dist.counts):
            return Fraction(0)
        return self._fraction(self._at_least_counts[offset])

    def at_most(self, value: int) -> Fraction:
        """Chance of ``value`` or less ("X or worse")."""
        offset = value - self.dist.lo
        if offset < 0:
            return Fraction(0)
        offset = min(offset, len(self.dist.counts) - 1)
        return self._fraction(self._at_most_counts[offset])

    def at_least_table(self) -> dict[int, Fraction]:
        """``{value: chance of value or more}`` for every possible value."""
        lo, counts = self.dist.lo, self.dist.counts
        fraction = self._fraction
        return {
            lo + index: fraction(at_least)
            for index, at_least in enumerate(self._at_least_counts)
            if counts[index]
        }

    @cached_property
    def outcomes(self) -> list[Outcome]:
        """Every possible value with its exact chance, lowest first."""
        counts, lo = self.dist.counts, self.dist.lo
        fraction = self._fraction
        above = self._at_least_counts
        whole = fraction(self.dist.mass)
        # a symmetric distribution (every Fudge pool) has each chance twice,
        # and at least v is everything less at least (its mirror + 1)
        symmetric = counts == counts[::-1]
        complete = self.dist.mass == self.dist.total
        size = len(counts)
        at_least = [whole] * size
        for index in range(size):
            mirror = size - index
            if symmetric and complete and 0 < mirror < index:
                at_least[index] = complement(at_least[mirror])
            else:
                at_least[index] = fraction(above[index])
        if complete:
            # at most v is everything less at least v+1; the whole mass at the top
            at_most = [complement(at_least[index + 1]) for index in range(size - 1)]
            at_most.append(whole)
        else:
            # part of the mass was cut off: "everything" is not 1
            at_most = [fraction(count) for count in self._at_most_counts]
        chances: dict[int, Fraction] = {}
        rows = []
        for index, count in enumerate(counts):
            if not count:
                continue
            twin = len(counts) - 1 - index
            chance = chances.get(twin) if symmetric else None
            if chance is None:
                chance = fraction(count)
                chances[index] = chance
            rows.append(Outcome(lo + index, chance, at_least[index], at_most[index]))
        return rows

    @cached_property
    def _moments(self) -> tuple[int, int, int]:
        first = second = 0
        for value, count in self.dist.items():
            weighted = value * count
            first += weighted
            second += value * weighted
        return self.dist.mass, first, second

    @cached_property
    def mean(self) -> Fraction:
        """Exact mean over the outcomes listed (the cut-off tail, if any, is left out)."""
        _, first, _ = self._moments
        return self._fraction(first)

    @cached_property
    def variance(self) -> Fraction:
        _, first, second = self._moments
        total = self.dist.total
        return Fraction(second * total - first * first, total * total)

    @cached_property
    def spread(self) -> Decimal:
        """The standard deviation to 28 significant digits: a float overflows
        past 1e308, and a roll's values have no such bound."""
        with localcontext() as context:
            context.prec = 28
            return decimal(self.variance).sqrt()

    @property
    def stdev(self) -> float:
        """The standard deviation as a float (infinite past the float range:
        :attr:`spread` holds it then)."""
        return float(self.spread)

    @property
    def low(self) -> int:
        return self.dist.lo

    @property
    def high(self) -> int:
        return self.dist.hi

    def to_dict(self) -> dict[str, Any]:
        # every outcome's exact fraction is written out: refuse, before
        # building them, a document too long for anyone to read or parse
        digits = int(self.dist.total.bit_length() * math.log10(2)) + 1
        size = len(self.dist.counts) * digits * 2
        if size > MAX_EXACT_CHARACTERS or size * digits > MAX_DIGIT_WORK:
            raise LimitError(
                f"the exact odds of {self.notation} as JSON would take about "
                f"{size // 1_000_000} MB of fractions; the table (without --json) and "
                "the Python API give any value's exact chance"
            )
        return {
            "notation": self.notation,
            "system": self.system,
            "value_title": self.value_title,
            "mean": json_number(decimal(self.mean)),
            "stdev": json_number(self.spread),
            "truncated": float(self.truncated),
            "outcomes": [self._outcome_dict(outcome) for outcome in self.outcomes],
            "events": {
                name: {"p": float(p), "exact": exact_text(p)} for name, p in self.events.items()
            },
        }

    def _outcome_dict(self, outcome: Outcome) -> dict[str, Any]:
        out = outcome.to_dict()
        out["name"] = None if self.value_name is None else self.value_name(outcome.value)
        return out

    def __eq__(self, other: object) -> bool:
        """The same roll measured twice is the same odds."""
        if not isinstance(other, Odds):
            return NotImplemented
        return (self.notation, self.system, self.dist, self.events, self.value_title) == (
            other.notation,
            other.system,
            other.dist,
            other.events,
            other.value_title,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable views: not a dict key

    def __repr__(self) -> str:
        return (
            f"Odds({self.notation!r}, mean={approximate(decimal(self.mean))}, "
            f"stdev={approximate(self.spread)})"
        )
