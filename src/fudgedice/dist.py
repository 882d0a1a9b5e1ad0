"""Exact distributions of integers as integer counts over a common total.

A :class:`Dist` is an immutable, dense table: ``counts[i]`` ways to get
``lo + i`` out of ``total`` equally likely ways. ``total`` may exceed the sum
of the counts: the difference is probability that was cut off on purpose (the
far tail of exploding dice) and is reported, never hidden. Fractions appear
only at the edge (:mod:`fudgedice.odds`).

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
from math import comb, log2

from .errors import DiceValueError, LimitError
from .limits import DEFAULT_LIMITS
from .tree import Die


@dataclass(frozen=True, slots=True, eq=False)
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

    @staticmethod
    def of_die(die: Die) -> Dist:
        """One toss of ``die``, from the counts its parse-tree node carries."""
        return Dist(die.low, die.counts, len(die.faces))

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


# --- polynomial kernels ------------------------------------------------------------

_NAIVE_WORK = 2048
"""Below this many coefficient products, plain loops beat packing big integers."""


def _pack(coefficients: list[int] | tuple[int, ...], slot: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(slot, "little") for c in coefficients), "little")


def _unpack(number: int, slot: int, length: int) -> list[int]:
    raw = number.to_bytes(slot * length, "little")
    return [int.from_bytes(raw[i : i + slot], "little") for i in range(0, slot * length, slot)]


def convolve(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> list[int]:
    """Coefficients of the product of two polynomials with non-negative coefficients."""
    if len(a) < len(b):
        a, b = b, a
    length = len(a) + len(b) - 1
    if len(a) * len(b) <= _NAIVE_WORK:
        out = [0] * length
        for j, y in enumerate(b):
            if y:
                for i, x in enumerate(a):
                    out[i + j] += x * y
        return out
    bound = max(a) * max(b) * len(b)
    slot = bound.bit_length() // 8 + 1
    _check_product(slot * 8 * len(a))
    return _unpack(_pack(a, slot) * _pack(b, slot), slot, length)


def _check_product(bits: int) -> None:
    limit = DEFAULT_LIMITS.max_product_bits
    if bits > limit:
        raise LimitError(
            f"exact odds here would multiply numbers of {bits:,} bits, more than the "
            f"limit of {limit:,} (the roll can still be rolled or sampled)"
        )


def _power_miller(base: list[int], n: int) -> list[int]:
    """Coefficients of base(x)**n by Miller's recurrence; ``base[0]`` must be non-zero.

    From P = f**n: f P' = n f' P, so for k >= 1
    k f0 c_k = sum_{i=1..min(k,d)} ((n + 1) i - k) f_i c_{k-i}, and the division
    is exact because every c_k is an integer.
    """
    degree = len(base) - 1
    length = n * degree + 1
    if degree == 2:
        return _power_three_faces(base, n)
    f0 = base[0]
    terms = [(i, fi) for i, fi in enumerate(base) if i and fi]
    coefficients = [0] * length
    coefficients[0] = f0**n
    symmetric = base == base[::-1]
    # A palindromic die gives a palindromic pool: compute the lower half only.
    stop = length // 2 + 1 if symmetric else length
    n1 = n + 1
    for k in range(1, stop):
        acc = 0
        for i, fi in terms:
            if i > k:
                break
            acc += (n1 * i - k) * fi * coefficients[k - i]
        coefficients[k] = acc // (k * f0)
    if symmetric:
        for k in range(stop, length):
            coefficients[k] = coefficients[length - 1 - k]
    return coefficients


def _power_three_faces(base: list[int], n: int) -> list[int]:
    """Miller's recurrence unrolled for three faces (Fudge dice: the hot case).

    Same recurrence as ``_power_miller``; the big-integer division dominates,
    so the loop carries the two previous coefficients in locals."""
    f0, f1, f2 = base
    length = 2 * n + 1
    coefficients = [0] * length
    previous, current = f0**n, n * f1 * f0 ** (n - 1)
    coefficients[0], coefficients[1] = previous, current
    symmetric = f0 == f2
    stop = n + 1 if symmetric else length
    n1, n2 = n + 1, 2 * n + 2
    if f0 == 1 and f1 == 1 and f2 == 1:
        for k in range(2, stop):
            previous, current = current, ((n1 - k) * current + (n2 - k) * previous) // k
            coefficients[k] = current
    else:
        for k in range(2, stop):
            previous, current = (
                current,
                ((n1 - k) * f1 * current + (n2 - k) * f2 * previous) // (k * f0),
            )
            coefficients[k] = current
    if symmetric:
        coefficients[stop:] = coefficients[length - stop - 1 :: -1]
    return coefficients


def _power_kronecker(base: list[int], n: int) -> list[int]:
    slot = (sum(base) ** n).bit_length() // 8 + 1
    length = n * (len(base) - 1) + 1
    return _unpack(_pack(base, slot) ** n, slot, length)


def power(base: list[int] | tuple[int, ...], n: int) -> list[int]:
    """Coefficients of base(x)**n (``base[0]`` non-zero), choosing the faster kernel."""
    base = list(base)
    if n == 0:
        return [1]
    if n == 1 or len(base) == 1:
        return [c**n for c in base] if len(base) == 1 else base
    if len(base) == 3 and n <= 64:
        return _power_three_faces(base, n)  # dF and d3 pools: the common case
    terms = sum(1 for c in base[1:] if c)
    length = n * (len(base) - 1) + 1
    slot_bits = ((sum(base) ** n).bit_length() // 8 + 1) * 8
    # Miller costs about outcomes x terms big-integer steps (half the outcomes
    # for a symmetric die); packing wins when the die has many faces (exploded
    # dice, d100) and the pool is small. Either is refused past about a second.
    miller_work = (length // 2 + 1) * terms * (slot_bits // 64 + 1)
    kronecker_bits = slot_bits * length
    if terms <= 8 or n > 64 or kronecker_bits > DEFAULT_LIMITS.max_product_bits:
        if miller_work > DEFAULT_LIMITS.max_recurrence_work:
            _check_product(kronecker_bits)
            return _power_kronecker(base, n)
        return _power_miller(base, n)
    return _power_kronecker(base, n)


# --- distribution algebra ------------------------------------------------------------


def check_size(outcomes: int, bits: float, what: str) -> None:
    """Refuse, before any work, a distribution too big to hold exactly:
    ``outcomes`` counts of about ``bits`` bits each."""
    limit = DEFAULT_LIMITS.max_measure_bits
    if outcomes * bits > limit:
        raise LimitError(
            f"exact odds of {what} would need {outcomes} outcomes of about "
            f"{int(bits)} bits each, more than the limit of {limit // 8_000_000} MB"
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
    check_size(n * (len(die.counts) - 1) + 1, n * log2(die.total), what)
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


def keep_extreme(die: Dist, n: int, kept: int, highest: bool, score: Callable[[int], int]) -> Dist:
    """Sum of ``score`` over the ``kept`` highest (or lowest) of ``n`` dice.

    Walks the faces from the favoured end, holding for each number of dice
    placed so far (fewer than ``kept``) the polynomial of the kept score, as
    one big integer (Kronecker substitution: a coefficient a slot). Placing
    ``j`` dice on a face shifts a polynomial by ``j`` times the face's score.
    Once ``kept`` dice are placed the score is settled and the other dice can
    only show less favoured faces, so every way of finishing folds into one
    factor ``sum_j C(free, j) w**j below**(free - j)``. Each face then costs a
    few big-integer operations per number of dice placed.
    """
    total = die.total**n
    if kept == 0:
        return Dist(0, (die.mass**n,), total)
    faces = list(die.items())
    if highest:
        faces.reverse()
    gains = [score(value) for value, _ in faces]
    least = min(gains)
    length = kept * (max(gains) - least) + 1
    check_span(0, length)
    # every count is at most ``total``, so a slot of its width never carries
    slot = total.bit_length() // 8 + 1
    bits = slot * 8
    # each face shifts and scales about kept**2 / 2 states of length x slot bytes
    work = len(faces) * (kept * (kept + 3) // 2) * (slot * length // 8 + 1)
    if work > DEFAULT_LIMITS.max_keep_work:
        raise LimitError(
            f"exact odds of keeping {kept} of {n} dice with {len(faces)} faces would "
            f"take too long (about {work:.2g} operations; the limit is "
            f"{DEFAULT_LIMITS.max_keep_work:.2g})"
        )
    # C(n - placed, j) for the j < kept - placed dice that leave a state short
    binomials = [[comb(n - placed, j) for j in range(kept - placed)] for placed in range(kept)]
    below = sum(weight for _, weight in faces)
    states = [0] * kept
    states[0] = 1
    result = 0
    for (_, weight), gain in zip(faces, gains, strict=True):
        below -= weight  # weight of the faces less favoured than this one
        step = (gain - least) * bits
        both = weight + below
        following = [0] * kept
        for placed, current in enumerate(states):
            if not current:
                continue
            free = n - placed
            short = kept - placed
            row = binomials[placed]
            # finishing: j >= short dice on this face, the rest below it; the
            # binomial theorem gives that sum as everything less j < short
            finish = both**free
            for j in range(short):
                ways = row[j] * weight**j
                following[placed + j] += (current << (step * j)) * ways
                finish -= ways * below ** (free - j)
            if finish:
                result += (current << (step * short)) * finish
        states = following
    return trimmed(kept * least, _unpack(result, slot, length), total)
