"""Exact distributions of integers as integer counts over a common total.

A :class:`Dist` is an immutable, dense table: ``counts[i]`` ways to get
``lo + i`` out of ``total`` equally likely ways. ``total`` may exceed the sum
of the counts: the difference is probability that was cut off on purpose (the
far tail of exploding dice) and is reported, never hidden. Fractions appear
only at the edge (:mod:`.odds`). The polynomial kernels behind the algebra
are in :mod:`.kernels`, keep/drop in :mod:`.keep`.

Big pools stay fast and exact by never convolving one die at a time:

* ``repeat`` raises a die to the n-th power with J. C. P. Miller's recurrence
  for the coefficients of a power of a polynomial, O(outcomes x faces), and
  only half of them when the die is symmetric (``10000dF`` is 10 001 steps);
* wide pools and general sums use Kronecker substitution: pack a polynomial
  into one big integer, let CPython's multiplication do the convolution, and
  unpack. Both are checked against naive convolution in the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from math import log2

from ..errors import DiceValueError, LimitError
from ..limits import DEFAULT_LIMITS
from . import kernels
from .kernels import convolve, power


@dataclass(frozen=True, slots=True)
class Dist:
    lo: int
    counts: tuple[int, ...]
    total: int

    @staticmethod
    def constant(value: int) -> Dist:
        return Dist(value, (1,), 1)

    @staticmethod
    def from_weights(weights: dict[int, int], total: int | None = None) -> Dist:
        """From ``{outcome: count}``; ``total`` defaults to the sum of counts."""
        present = {value: count for value, count in weights.items() if count}
        if not present:
            raise DiceValueError("no outcome is possible")
        lo, hi = min(present), max(present)
        check_span(lo, hi)
        counts = [0] * (hi - lo + 1)
        for value, count in present.items():
            counts[value - lo] = count
        return Dist(lo, tuple(counts), sum(present.values()) if total is None else total)

    @property
    def hi(self) -> int:
        return self.lo + len(self.counts) - 1

    @property
    def mass(self) -> int:
        """Sum of the counts: ``total`` less what was cut off."""
        return sum(self.counts)

    def items(self) -> Iterator[tuple[int, int]]:
        """(outcome, count) for every possible outcome, lowest first."""
        lo = self.lo
        for offset, count in enumerate(self.counts):
            if count:
                yield lo + offset, count

    def support(self) -> list[int]:
        return [value for value, _ in self.items()]


def trimmed(lo: int, counts: list[int], total: int) -> Dist:
    """A Dist from counts that may begin or end with zeros."""
    start = 0
    while start < len(counts) and not counts[start]:
        start += 1
    end = len(counts)
    while end > start and not counts[end - 1]:
        end -= 1
    if start == end:
        raise DiceValueError("no outcome is possible")
    return Dist(lo + start, tuple(counts[start:end]), total)


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
    if len(a.counts) == 1:
        a, b = b, a
    if len(b.counts) == 1:
        factor = b.counts[0]
        counts = a.counts if factor == 1 else tuple(c * factor for c in a.counts)
        return Dist(a.lo + b.lo, counts, a.total * b.total)
    check_span(a.lo + b.lo, a.hi + b.hi)
    return trimmed(a.lo + b.lo, convolve(a.counts, b.counts), a.total * b.total)


def negate(a: Dist) -> Dist:
    return Dist(-a.hi, a.counts[::-1], a.total)


def repeat(die: Dist, n: int, what: str = "the pool") -> Dist:
    """The sum of ``n`` independent copies of ``die``."""
    if n == 0:
        return Dist.constant(0)
    check_span(n * die.lo, n * die.hi)
    try:
        check_total(n * log2(die.total), what)
    except LimitError as error:
        most = int(DEFAULT_LIMITS.max_total_bits // log2(die.total))
        error.hint = f"{most} such dice is the most whose exact odds fit" if most else None
        raise
    check_size(n * (len(die.counts) - 1) + 1, n * log2(die.total), what)
    try:
        kernels.power_kernel(list(die.counts), n)
    except LimitError as error:
        largest = kernels.largest_power(list(die.counts), n)
        error.hint = (
            f"{largest} such dice is the most whose exact odds fit in about a second"
            if largest
            else None
        )
        raise
    # a Dist's end counts are non-zero, so the power's are too: no trimming
    return Dist(n * die.lo, tuple(power(die.counts, n)), die.total**n)


def apply(a: Dist, function: Callable[[int], int]) -> Dist:
    """Map every outcome through ``function`` (many may land on one)."""
    weights: dict[int, int] = {}
    for value, count in a.items():
        key = function(value)
        weights[key] = weights.get(key, 0) + count
    return Dist.from_weights(weights, a.total)


def combine(a: Dist, b: Dist, function: Callable[[int, int], int], what: str) -> Dist:
    """Outcomes ``function(x, y)`` over every pair: for ``*`` and ``/``."""
    check_total(a.total.bit_length() + b.total.bit_length() - 2, what)
    pairs = sum(1 for c in a.counts if c) * sum(1 for c in b.counts if c)
    if pairs > DEFAULT_LIMITS.max_pairs:
        raise LimitError(
            f"exact odds of {what} would pair {pairs} outcomes; the limit is "
            f"{DEFAULT_LIMITS.max_pairs}"
        )
    weights: dict[int, int] = {}
    right = list(b.items())
    for x, cx in a.items():
        for y, cy in right:
            key = function(x, y)
            weights[key] = weights.get(key, 0) + cx * cy
    return Dist.from_weights(weights, a.total * b.total)
