"""Exact distributions of integers as integer counts over a common total.

A :class:`Dist` is an immutable, dense table: ``counts[i]`` ways to get
``lo + i`` out of ``total`` equally likely ways. ``total`` may exceed the sum
of the counts: the difference is probability that was cut off on purpose (the
far tail of exploding dice) and is reported, never hidden. Where the cut-off
outcomes lie is carried along as :class:`Cut` bounds ("every one of them is
99 or more"), derived soundly through every operation, so that a chance on the
known side of a bound stays exact; what no bound covers is cut off with no
known side. Fractions appear only at the edge (:mod:`.odds`). The polynomial
kernels behind the algebra are in :mod:`.kernels`, keep/drop in :mod:`.keep`.

Big pools stay fast and exact by never convolving one die at a time:

* ``repeat`` raises a die to the n-th power with J. C. P. Miller's recurrence
  for the coefficients of a power of a polynomial, O(outcomes x faces), and
  only half of them when the die is symmetric (``10000dF`` is 10 001 steps);
* wide pools and general sums use Kronecker substitution: pack a polynomial
  into one big integer, let CPython's multiplication do the convolution, and
  unpack. Both are checked against naive convolution in the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from math import gcd, log2
from typing import NamedTuple

from .. import budget
from ..budget import STEP, mul_work, pass_work
from ..errors import DiceValueError, LimitError
from ..limits import DEFAULT_LIMITS
from . import kernels
from .kernels import convolve, power

Bound = int | None
"""One end of a range of values; None: no bound that way."""


@dataclass(frozen=True, slots=True)
class Cut:
    """``count`` cut-off ways whose outcomes all lie from ``low`` to ``high``.

    A bound is None where nothing is known that way: ``Cut(n, 99, None)`` is
    "99 or more". A :class:`Dist` lists at most one cut of each shape (from,
    up to, from-to); cut-off ways that no cut covers have no known side.
    """

    count: int
    low: Bound = None
    high: Bound = None

    def contains(self, low: Bound, high: Bound) -> bool | None:
        """Do all these outcomes lie from ``low`` to ``high`` (True), none of
        them (False), or can't that be told (None)?"""
        if (low is None or (self.low is not None and self.low >= low)) and (
            high is None or (self.high is not None and self.high <= high)
        ):
            return True
        if (low is not None and self.high is not None and self.high < low) or (
            high is not None and self.low is not None and self.low > high
        ):
            return False
        return None


def _shape_of(cut: Cut) -> int:
    """Cuts are kept in this order: up to, from-to, from."""
    return 0 if cut.low is None else 1 if cut.high is not None else 2


def normal(cuts: Iterable[Cut]) -> tuple[Cut, ...]:
    """One cut of each shape, each the hull of those merged into it; cuts
    with no bound at all are dropped (the ways left over have no known side)."""
    merged: dict[int, Cut] = {}
    for cut in cuts:
        if not cut.count or (cut.low is None and cut.high is None):
            continue
        shape = _shape_of(cut)
        seen = merged.get(shape)
        if seen is not None:
            cut = Cut(
                seen.count + cut.count,
                None if seen.low is None or cut.low is None else min(seen.low, cut.low),
                None if seen.high is None or cut.high is None else max(seen.high, cut.high),
            )
        merged[shape] = cut
    return tuple(merged[shape] for shape in sorted(merged))


def _plus(x: Bound, y: Bound) -> Bound:
    return None if x is None or y is None else x + y


class Shape(NamedTuple):
    """What the tail algebra needs of a distribution: its range, its listed
    mass, its total and its cuts (for sums built without building the sum)."""

    lo: int
    hi: int
    mass: int
    total: int
    cuts: tuple[Cut, ...]

    def parts(self) -> list[Cut]:
        """The listed outcomes first, then each cut, then the ways cut off
        with no known side: every way of the total, once."""
        unplaced = self.total - self.mass - sum(cut.count for cut in self.cuts)
        return [Cut(self.mass, self.lo, self.hi), *self.cuts, Cut(unplaced)]


def shape_sum(a: Shape, b: Shape) -> Shape:
    """The shape of the sum of two independent values: a sum is cut off when
    either part is, and lies where the two parts' ranges add up to."""
    if a.total == a.mass == 1 and a.lo == a.hi == 0:
        return b  # the sum of nothing
    lo, hi, mass, total = a.lo + b.lo, a.hi + b.hi, a.mass * b.mass, a.total * b.total
    if a.total == a.mass or b.total == b.mass:
        # one part whole: the other's cuts, moved by the whole part's range
        whole, other = (a, b) if a.total == a.mass else (b, a)
        moved = tuple(
            Cut(cut.count * whole.mass, _plus(cut.low, whole.lo), _plus(cut.high, whole.hi))
            for cut in other.cuts
        )
        return Shape(lo, hi, mass, total, moved)
    if (
        len(a.cuts) == len(b.cuts) == 1
        and a.cuts[0].high is None is b.cuts[0].high
        and a.cuts[0].count == a.total - a.mass
        and b.cuts[0].count == b.total - b.mass
    ):
        # the common case of exploding dice: both cut off "from N up" only
        start_a, start_b = a.cuts[0].low, b.cuts[0].low
        assert start_a is not None and start_b is not None
        start = min(start_a + b.lo, a.lo + start_b, start_a + start_b)
        return Shape(lo, hi, mass, total, (Cut(total - mass, start, None),))
    cuts: list[Cut] = []
    if a.total != a.mass or b.total != b.mass:
        for i, x in enumerate(a.parts()):
            for j, y in enumerate(b.parts()):
                if (i or j) and x.count and y.count:
                    cuts.append(Cut(x.count * y.count, _plus(x.low, y.low), _plus(x.high, y.high)))
    return Shape(lo, hi, mass, total, normal(cuts))


def shape_power(die: Shape, n: int) -> Shape:
    """The shape of the sum of ``n`` copies (square and multiply: each step is
    a sound bound, so the result is)."""
    if n == 1:
        return die
    result = Shape(0, 0, 1, 1, ())
    square = die
    while n:
        if n & 1:
            result = shape_sum(result, square)
        n >>= 1
        if n:
            square = shape_sum(square, square)
    return result


def negated_cuts(cuts: tuple[Cut, ...]) -> tuple[Cut, ...]:
    return normal(
        Cut(
            cut.count,
            None if cut.high is None else -cut.high,
            None if cut.low is None else -cut.low,
        )
        for cut in cuts
    )


def scaled_cuts(cuts: tuple[Cut, ...], factor: int, shift: int = 0) -> tuple[Cut, ...]:
    """The cuts with every count times ``factor`` and every outcome moved by ``shift``."""
    return tuple(
        Cut(cut.count * factor, _plus(cut.low, shift), _plus(cut.high, shift)) for cut in cuts
    )


Image = Callable[[Bound, Bound], tuple[Bound, Bound]]
"""Where a mapping sends a range of values: a range holding all their images."""


@dataclass(frozen=True, slots=True)
class Dist:
    """An exact distribution of integers: ``counts[i]`` ways of ``lo + i`` out of
    ``total`` ways (those not counted are cut off: ``cuts``)."""

    lo: int
    counts: tuple[int, ...]
    total: int
    cuts: tuple[Cut, ...] = ()
    """Where the cut-off ways lie (:func:`normal` form); the ways cut off
    beyond them, ``total - mass - sum of their counts``, have no known side."""

    @staticmethod
    def constant(value: int) -> Dist:
        return Dist(value, (1,), 1)

    @staticmethod
    def from_weights(
        weights: dict[int, int], total: int | None = None, cuts: tuple[Cut, ...] = ()
    ) -> Dist:
        """From ``{outcome: count}``; ``total`` defaults to the sum of counts."""
        present = {value: count for value, count in weights.items() if count}
        if not present:
            raise DiceValueError("no outcome is possible")
        lo, hi = min(present), max(present)
        check_span(lo, hi)
        if hi - lo > 1000:  # a table of the whole span is built, zeros and all
            budget.charge((hi - lo) * 15 + len(present) * 8 * STEP, "exact odds of a wide range")
        counts = [0] * (hi - lo + 1)
        for value, count in present.items():
            counts[value - lo] = count
        return Dist(lo, tuple(counts), sum(present.values()) if total is None else total, cuts)

    @property
    def hi(self) -> int:
        return self.lo + len(self.counts) - 1

    @property
    def mass(self) -> int:
        """Sum of the counts: ``total`` less what was cut off."""
        return sum(self.counts)

    def shape(self) -> Shape:
        return Shape(self.lo, self.hi, self.mass, self.total, self.cuts)

    def extent(self) -> tuple[Bound, Bound]:
        """The least and the greatest value possible, cut-off outcomes
        included (None: no bound that way)."""
        parts = self.shape().parts()
        if parts[-1].count:
            return None, None
        lows = [part.low for part in parts[:-1]]
        highs = [part.high for part in parts[:-1]]
        return (
            None if None in lows else min(low for low in lows if low is not None),
            None if None in highs else max(high for high in highs if high is not None),
        )

    def items(self) -> Iterator[tuple[int, int]]:
        """(outcome, count) for every possible outcome, lowest first."""
        lo = self.lo
        for offset, count in enumerate(self.counts):
            if count:
                yield lo + offset, count

    def support(self) -> list[int]:
        return [value for value, _ in self.items()]


def trimmed(lo: int, counts: list[int], total: int, cuts: tuple[Cut, ...] = ()) -> Dist:
    """A Dist from counts that may begin or end with zeros."""
    start = 0
    while start < len(counts) and not counts[start]:
        start += 1
    end = len(counts)
    while end > start and not counts[end - 1]:
        end -= 1
    if start == end:
        raise DiceValueError("no outcome is possible")
    return Dist(lo + start, tuple(counts[start:end]), total, cuts)


def check_size(outcomes: int, bits: float, what: str) -> None:
    """Refuse, before any work, a distribution too big to hold exactly:
    ``outcomes`` counts of about ``bits`` bits each."""
    limit = DEFAULT_LIMITS.max_measure_bits
    if outcomes * bits > limit:
        raise LimitError(
            f"exact odds of {what} would need {outcomes} outcomes of about "
            f"{int(bits)} bits each, more than the limit of {limit // 8_000_000} MB"
        )


def check_total(bits: float, what: str) -> None:
    """Refuse, before any work, a distribution whose ways number ``2**bits``."""
    limit = DEFAULT_LIMITS.max_total_bits
    if bits > limit:
        raise LimitError(
            f"exact odds of {what} would be fractions over a number of {int(bits):,} bits, "
            f"more than the limit of {limit:,} (the roll can still be rolled or sampled)"
        )


def check_span(lo: int, hi: int) -> None:
    """Refuse a dense table from ``lo`` to ``hi`` too long to hold."""
    limit = DEFAULT_LIMITS.max_span
    if hi - lo >= limit:
        raise LimitError(
            f"exact odds would list every value from {lo} to {hi}, more than "
            f"the limit of {limit} values"
        )


def add(a: Dist, b: Dist) -> Dist:
    check_total(a.total.bit_length() + b.total.bit_length() - 2, "a sum of dice")
    if len(a.counts) == 1 and not a.cuts:
        a, b = b, a
    if len(b.counts) == 1 and not b.cuts and b.counts[0] == b.total:
        factor = b.counts[0]
        if factor != 1:
            budget.charge(
                len(a.counts) * (4 * STEP + mul_work(a.total.bit_length(), factor.bit_length())),
                "exact odds of a sum",
            )
        counts = a.counts if factor == 1 else tuple(c * factor for c in a.counts)
        return Dist(a.lo + b.lo, counts, a.total * b.total, scaled_cuts(a.cuts, factor, b.lo))
    check_span(a.lo + b.lo, a.hi + b.hi)
    if len(a.counts) + len(b.counts) > 1000:
        # the passes around the product: masses, shapes, trimming
        bits = a.total.bit_length() + b.total.bit_length()
        budget.charge(2 * pass_work(len(a.counts) + len(b.counts), bits), "exact odds of a sum")
    cuts = shape_sum(a.shape(), b.shape()).cuts
    return trimmed(a.lo + b.lo, convolve(a.counts, b.counts), a.total * b.total, cuts)


def reduced(a: Dist) -> Dist:
    """The same chances over the smallest total: every count (cut-off ones
    too) divided by what they and the total have in common."""
    common = gcd(a.total, *a.counts, *(cut.count for cut in a.cuts))
    if common == 1:
        return a
    cuts = tuple(Cut(cut.count // common, cut.low, cut.high) for cut in a.cuts)
    return Dist(a.lo, tuple(count // common for count in a.counts), a.total // common, cuts)


def negate(a: Dist) -> Dist:
    if len(a.counts) > 1000:
        budget.charge(len(a.counts) * 20, "exact odds of a difference")
    return Dist(-a.hi, a.counts[::-1], a.total, negated_cuts(a.cuts))


def check_repeat(die: Shape, n: int, what: str) -> None:
    """Refuse, before any work, ``n`` dice of ``die`` too big to hold exactly."""
    check_span(n * die.lo, n * die.hi)
    try:
        check_total(n * log2(die.total), what)
    except LimitError as error:
        most = int(DEFAULT_LIMITS.max_total_bits // log2(die.total))
        error.hint = f"{most} such dice is the most whose exact odds fit" if most else None
        raise
    check_size(n * (die.hi - die.lo) + 1, n * log2(die.total), what)


def repeat(die: Dist, n: int, what: str = "the pool") -> Dist:
    """The sum of ``n`` independent copies of ``die``."""
    if n == 0:
        return Dist.constant(0)
    counts = list(die.counts)
    total, width = die.total, n * (len(counts) - 1)
    bits, limits = n * total.bit_length(), DEFAULT_LIMITS  # bit_length >= log2
    if (
        width >= limits.max_span
        or bits > limits.max_total_bits
        or ((width + 1) * bits > limits.max_measure_bits)
    ):
        # near a limit: the checks themselves, to refuse with their message
        # (a small pool is plainly inside them, and a few comparisons say so)
        check_repeat(die.shape(), n, what)
    try:
        # one die is no power (nothing charged), but refused as one would be
        planned = kernels.power_plan(counts, n, n > 1) if len(counts) > 1 else None
    except LimitError as error:
        largest = kernels.largest_power(counts, n)
        error.hint = (
            f"{largest} such dice is the most whose exact odds fit in about a second"
            if largest
            else None
        )
        raise
    cuts = shape_power(die.shape(), n).cuts if total != die.mass else ()
    # a Dist's end counts are non-zero, so the power's are too: no trimming
    return Dist(n * die.lo, tuple(power(counts, n, what, planned)), total**n, cuts)


def mapped_cuts(cuts: tuple[Cut, ...], image: Image | None) -> tuple[Cut, ...]:
    """Cuts sent through a mapping whose ``image`` of a range is known; with
    no image, nothing is known of where they land."""
    if image is None:
        return ()
    return normal(Cut(cut.count, *image(cut.low, cut.high)) for cut in cuts)


def apply(a: Dist, function: Callable[[int], int], image: Image | None = None) -> Dist:
    """Map every outcome through ``function`` (many may land on one); the cuts
    go where ``image`` says, or lose their side without one."""
    budget.charge(len(a.counts) * 5 * STEP, "exact odds of a mapped value")
    weights: dict[int, int] = {}
    for value, count in a.items():
        key = function(value)
        weights[key] = weights.get(key, 0) + count
    return Dist.from_weights(weights, a.total, mapped_cuts(a.cuts, image))
