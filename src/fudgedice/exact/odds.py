"""Exact odds of a roll: probabilities as Fractions, derived on demand.

An :class:`Odds` holds the exact integer distribution; everything else
(outcome rows, cumulative columns, mean, spread) is computed the first time it
is asked for, so measuring ``10000dF`` does not pay for Fractions nobody reads.

Exploding dice are followed only so far: what lies beyond is one or more
:class:`Tail` rows ("99 or more", with its exact chance), and a chance that a
tail surely belongs to (or surely not) counts it, so it is exact. Only a tail
that straddles the question (a value inside its range, or a tail whose side is
unknown) leaves a chance uncertain, by at most that tail's chance; every such
chance counts what surely belongs to it, and says how much more there may be.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import cached_property
from itertools import accumulate
from math import gcd

from .. import budget
from ..budget import within_budget
from .dist import Bound, Cut, Dist
from .figures import (
    approximate,
    chance_table,
    decimal,
    exact_text,
    in_lowest_terms,
)
from .ratios import Reducer
from .rows import Chance, OddsRow, Tail, exact_rows
from .views import Viewed

__all__ = ["Chance", "Odds", "OddsRow", "Tail", "approximate", "decimal", "exact_text"]


PRIMES = 1229
"""Primes up to the largest die (10,000 sides): those a denominator may hold."""
_SMALL_BITS = 256
"""Denominators up to this size are reduced by gcd; longer ones by their primes."""


class Odds(Viewed):
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
        uncertain: dict[str, Fraction] | None = None,
    ) -> None:
        self.notation = notation
        self.system = system
        self.dist = dist
        self.events: dict[str, Fraction] = dict(events or {})
        self.uncertain: dict[str, Fraction] = (
            {name: p for name, p in uncertain.items() if p} if uncertain else {}
        )
        """For an event whose chance is not exact (a tail straddles it): how
        much more it may be. The chance in :attr:`events` is what surely
        belongs; an event not named here is exact."""
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
            # gcd of machine-sized numbers is cheapest (figures.ratio, inlined)
            common = gcd(count, total)
            return in_lowest_terms(count // common, total // common)
        return self._reduce()(count)

    def _fractions(self, counts: list[int]) -> list[Fraction]:
        """:meth:`_fraction` of each count, in one loop when the total is short."""
        total = self.dist.total
        if total.bit_length() > _SMALL_BITS:
            return [self._fraction(count) for count in counts]
        return [in_lowest_terms(count // (c := gcd(count, total)), total // c) for count in counts]

    def _reduce(self) -> Reducer:
        # built on first use, by hand: a small pool's odds should cost little
        if self._reducer is None:
            # at worst a remainder by every prime a die's size may hold
            bits = self.dist.total.bit_length()
            what = f"the exact chances of {self.notation}"
            budget.charge(PRIMES * budget.div_work(bits, 30), what)
            self._reducer = Reducer(self.dist.total, what)
        return self._reducer

    def fraction_work(self) -> float:
        """Estimated work of one chance as a Fraction in lowest terms."""
        bits = self.dist.total.bit_length()  # and some 3 microseconds of Python around
        if bits <= _SMALL_BITS:
            return 3_000 + budget.gcd_work(bits)
        return 3_000 + self._reduce().work()

    def _charge_rows(self, rows: int, fractions: float, what: str, more: float = 0) -> None:
        """Charge ``rows`` rows of ``fractions`` Fractions each (and a few
        passes, and ``more`` work done with them), naming the view in a refusal."""
        # a row's Fractions, a few passes over its counts, and the Python steps
        # around them (about 3 microseconds, measured)
        digits = self.dist.total.bit_length() / 30
        each = fractions * self.fraction_work() + 8 * digits + 3_000

        def fits(left: int) -> str | None:
            most = int(left // each) if each else 0
            return (
                f"at most {most:,} such rows fit; at_least(v), at_most(v) and "
                "probability(v) give any one value's chance"
            )

        work = rows * each + budget.pass_work(len(self.dist.counts), 0) + more
        budget.charge(work, f"{what} of {self.notation}", fits)

    def at_least_counts(self) -> list[int]:
        """Ways of each listed value or more, lowest first (tails not counted):
        the integer column behind the at-least chances, for charts."""
        return self._at_least_counts

    def at_most_counts(self) -> list[int]:
        """Ways of each listed value or less, lowest first (tails not counted)."""
        return self._at_most_counts

    def tail_counts(self, low: Bound, high: Bound) -> int:
        """Cut-off ways that surely lie from ``low`` to ``high``."""
        return self._tail_counts(low, high)[0] if self._cuts else 0

    def rows(self) -> int:
        """How many values have a chance (the rows of :attr:`outcomes`)."""
        return len(self.dist.counts) - self.dist.counts.count(0)

    @property
    def denominator(self) -> int:
        """The common denominator of every count (all the equally likely ways)."""
        return self.dist.total

    @cached_property
    def truncated(self) -> Fraction:
        """Probability of the tails: the outcomes past the point where exploding
        dice stop being followed (at most 1e-12), the sum of :attr:`tails`."""
        return self._fraction(self.dist.total - self.dist.mass)

    @cached_property
    def _cuts(self) -> list[Cut]:
        """Every cut-off way once: the bounded cuts, then those of no known side."""
        cuts = list(self.dist.cuts)
        unplaced = self.dist.total - self.dist.mass - sum(cut.count for cut in cuts)
        if unplaced:
            cuts.append(Cut(unplaced))
        return cuts

    @cached_property
    def tails(self) -> list[Tail]:
        """The cut-off outcomes as rows: where each part lies, and its chance
        (none when nothing was cut off)."""
        return [Tail(cut.low, cut.high, self._fraction(cut.count)) for cut in self._cuts]

    def _tail_counts(self, low: Bound, high: Bound) -> tuple[int, int]:
        """Cut-off ways surely from ``low`` to ``high``, and those that may be."""
        surely = maybe = 0
        for cut in self._cuts:
            inside = cut.contains(low, high)
            if inside:
                surely += cut.count
            elif inside is None:
                maybe += cut.count
        return surely, maybe

    def straddled(self, low: int | None = None, high: int | None = None) -> bool:
        """Does a tail straddle the range from ``low`` to ``high`` (so that
        :meth:`chance_between` is not exact there)?"""
        return any(cut.contains(low, high) is None for cut in self._cuts)

    def _between_counts(self, low: Bound, high: Bound) -> tuple[int, int]:
        """Ways surely from ``low`` to ``high`` (listed, or a tail wholly
        inside), and cut-off ways that may be."""
        counts, lo = self.dist.counts, self.dist.lo
        start = 0 if low is None else max(low - lo, 0)
        stop = len(counts) - 1 if high is None else min(high - lo, len(counts) - 1)
        listed = 0
        if start <= stop:
            above = self._at_least_counts
            listed = above[start] - (above[stop + 1] if stop + 1 < len(counts) else 0)
        surely, maybe = self._tail_counts(low, high)
        return listed + surely, maybe

    def chance_between(self, low: int | None = None, high: int | None = None) -> Chance:
        """The chance of a value from ``low`` to ``high`` (None: no bound), as
        far as it is known: exact unless a tail straddles the range."""
        surely, maybe = self._between_counts(low, high)
        return Chance(self._fraction(surely), self._fraction(maybe))

    def chance_where(self, test: Callable[[int], bool]) -> Chance:
        """The chance of a value passing ``test``: exact unless there are tails
        (a tail of one value counts if it passes)."""
        counted = sum(count for value, count in self.dist.items() if test(value))
        surely = maybe = 0
        for cut in self._cuts:
            if cut.low is not None and cut.low == cut.high:
                surely += cut.count if test(cut.low) else 0
            else:
                maybe += cut.count
        return Chance(self._fraction(counted + surely), self._fraction(maybe))

    def probability(self, value: int) -> Fraction:
        """The chance of ``value`` among the outcomes listed (a tail that may
        hold ``value`` is not added: see :attr:`tails`)."""
        offset = value - self.dist.lo
        if 0 <= offset < len(self.dist.counts):
            return self._fraction(self.dist.counts[offset])
        return Fraction(0)

    @property
    def _at_least_counts(self) -> list[int]:
        # memoised by hand and summed by itertools: the at-least table of a
        # small pool is built often and should cost little more than its
        # Fractions (functools.cached_property locks before Python 3.12)
        if self._above is None:
            self._charge_sums()
            self._above = list(accumulate(reversed(self.dist.counts)))[::-1]
        return self._above

    @cached_property
    def _at_most_counts(self) -> list[int]:
        self._charge_sums()
        return list(accumulate(self.dist.counts))

    def _charge_sums(self) -> None:
        budget.charge(self._sums_work(), f"the cumulative chances of {self.notation}")

    def _sums_work(self) -> float:
        return budget.pass_work(len(self.dist.counts), self.dist.total.bit_length())

    def at_least(self, value: int) -> Fraction:
        """Chance of ``value`` or more ("X or better"): exact up to where the
        tails begin (a tail "99 or more" counts in full for ``value <= 99``);
        past that, what surely counts (low by at most :attr:`truncated`)."""
        return self._fraction(self._between_counts(value, None)[0])

    def at_most(self, value: int) -> Fraction:
        """Chance of ``value`` or less ("X or worse"): exact where no tail
        straddles ``value``; otherwise what surely counts."""
        return self._fraction(self._between_counts(None, value)[0])

    @within_budget
    def at_least_table(self) -> dict[int, Fraction]:
        """``{value: chance of value or more}`` for every possible value."""
        dist = self.dist
        lo, counts, total = dist.lo, dist.counts, dist.total
        short = total.bit_length() <= _SMALL_BITS
        # a short total: one charge for the sums and the rows, before either
        # is built (a small pool's table cost more in charges than in Fractions)
        sums = self._sums_work() if short and self._above is None else 0.0
        self._charge_rows(self.rows(), 1, "the at-least table", sums)
        if sums:
            self._above = list(accumulate(reversed(counts)))[::-1]
        if total != dist.mass:
            return {
                lo + index: self.at_least(lo + index) for index, count in enumerate(counts) if count
            }
        if short:
            return chance_table(lo, counts, self._at_least_counts, total)
        present = [index for index, count in enumerate(counts) if count]
        above = self._at_least_counts
        chances = self._fractions([above[index] for index in present])
        return {lo + index: chance for index, chance in zip(present, chances, strict=True)}

    @cached_property
    def outcomes(self) -> list[OddsRow]:
        """Every listed value with its exact chance, lowest first (the tails
        are :attr:`tails`)."""
        return self._outcomes()

    @within_budget
    def _outcomes(self) -> list[OddsRow]:
        counts = self.dist.counts
        # a chance per row, and its at-least and at-most: a symmetric pool
        # builds half of them and mirrors the rest, and with no tail at most
        # is 1 less the next at least (:func:`~.rows.exact_rows`)
        fractions = 1 if counts == counts[::-1] else 2
        self._charge_rows(self.rows(), fractions + (1 if self._cuts else 0), "the exact rows")
        tails = self.tail_counts if self._cuts else None
        below = self._at_most_counts if self._cuts else []
        return exact_rows(
            self.dist, self._fraction, self._at_least_counts, below, tails, self._fractions
        )

    @cached_property
    def _moments(self) -> tuple[int, int, int]:
        bits = self.dist.total.bit_length()
        if len(self.dist.counts) > 100:
            budget.charge(
                2 * budget.pass_work(len(self.dist.counts), bits), f"the mean of {self.notation}"
            )
        first = second = 0
        for value, count in self.dist.items():
            weighted = value * count
            first += weighted
            second += value * weighted
        return self.dist.mass, first, second

    @cached_property
    @within_budget
    def mean(self) -> Fraction:
        """Exact mean over the outcomes listed (the cut-off tail, if any, is left out)."""
        _, first, _ = self._moments
        return self._fraction(first)

    @cached_property
    @within_budget
    def variance(self) -> Fraction:
        _, first, second = self._moments
        total = self.dist.total
        bits = 2 * total.bit_length() + 64
        budget.charge(
            2 * budget.mul_work(bits / 2, bits / 2) + budget.gcd_work(bits),
            f"the variance of {self.notation}",
        )
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

    def _key(self) -> tuple[object, ...]:
        return (self.notation, self.system, self.dist, self.events, self.uncertain)

    def __eq__(self, other: object) -> bool:
        """The same roll measured twice is the same odds."""
        if not isinstance(other, Odds):
            return NotImplemented
        return (self._key(), self.value_title) == (other._key(), other.value_title)

    __hash__ = None  # type: ignore[assignment]  # mutable views: not a dict key

    def __repr__(self) -> str:
        return (
            f"Odds({self.notation!r}, mean={approximate(decimal(self.mean))}, "
            f"stdev={approximate(self.spread)})"
        )
