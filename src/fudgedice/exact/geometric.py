"""Exact odds past the cut-off of chains that explode with the same chance at
every toss.

Such a chain, cut after ``depth`` tosses that all went on, continues exactly
as a fresh chain would, shifted by the ``step`` those tosses added: with
``A = chance ** depth``, its generating function is ``E = E_listed / (1 - A z)``,
``z = x ** step``. A sum of ``left`` such chains less ``right`` others, with
anything independent of their cut-offs, is therefore a listed numerator ``N``
times ``(1 - A z) ** -left * (1 - A / z) ** -right``. :func:`complete` expands
that product where ``N`` lives, exactly: what lies beyond is two tails, one
on each side, each of an exact chance.

The product is split into one-sided parts with ``U W = (U + W - 1) / (1 - A**2)``
(``U = 1 / (1 - A z)``, ``W = 1 / (1 - A / z)``), so that ``U**i`` is ``i``
forward passes of the recurrence ``F(v) = N(v) + A F(v - step)`` and ``W**j``
``j`` backward passes: each pass is linear in the number of outcomes, and
needs nothing from outside the listed range.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb, gcd, lcm

from .. import budget
from ..budget import STEP, digits, mul_work
from .dist import Cut, Dist, normal, trimmed

Terms = dict[tuple[str, int], Fraction]
"""Coefficients of ``U**i`` (``("U", i)``), ``W**j`` and 1 (``("1", 0)``)."""


@lru_cache(maxsize=64)
def partial_fractions(left: int, right: int, factor: int) -> Terms:
    """``U**left W**right`` as a sum of powers of ``U`` alone, of ``W`` alone
    and a constant, where ``A = 1 / factor``.

    In closed form: near the pole of ``U`` write ``u = 1 - A z``, so that
    ``U = 1 / u`` and ``W = 1 + r / (1 - u / s)`` with ``s = 1 - A**2`` and
    ``r = A**2 / s``. Then ``U**left W**right = u**-left sum_j C(right, j)
    r**j (1 - u / s)**-j``, and the coefficient of ``U**i`` is the series'
    coefficient of ``u**k``, ``k = left - i``: ``[k = 0] + sum_{j >= 1}
    C(right, j) C(k + j - 1, k) r**j s**-k``. The powers of ``W`` likewise,
    by symmetry; the constant is what makes the whole vanish as ``z`` grows
    (``U`` -> 0, ``W`` -> 1). A few products per term, where expanding
    ``U W = (U + W - 1) / (1 - A**2)`` step by step took seconds for 21 by 21.
    """
    if left == 0 and right == 0:
        return {("1", 0): Fraction(1)}
    if right == 0:
        return {("U", left): Fraction(1)}
    if left == 0:
        return {("W", right): Fraction(1)}
    square = factor * factor
    below = square - 1  # r = 1 / below, 1 / s = square / below
    out: Terms = {}
    for name, own, other in (("U", left, right), ("W", right, left)):
        for i in range(1, own + 1):
            k = own - i
            series = sum(
                comb(other, j) * comb(k + j - 1, k) * below ** (other - j)
                for j in range(1, other + 1)
            )
            numerator = series * square**k + (below**other if k == 0 else 0)
            value = Fraction(numerator, below ** (other + k))
            if value:
                out[(name, i)] = value
    constant = -sum((value for (name, _), value in out.items() if name == "W"), Fraction(0))
    if constant:
        out[("1", 0)] = constant
    return out


def _forward(values: list[int], step: int, factor: int) -> list[int]:
    """``F(v) = values(v) + F(v - step) / factor``: exact when ``values`` were
    scaled by ``factor`` to the power of the most steps any sum takes. A block
    of ``step`` values at a time: each depends only on the block before. The
    division is a shift and a one-digit division when it can be (``6**d`` is
    ``2**d 3**d``), several times faster than dividing by a long number."""
    twos = (factor & -factor).bit_length() - 1
    odd = factor >> twos
    out = values[:step]
    for start in range(step, len(values), step):
        before = out[start - step : start]
        block = values[start : start + step]
        if odd < 1 << 30:
            out.extend(
                [
                    value + (carried >> twos) // odd
                    for value, carried in zip(block, before, strict=False)
                ]
            )
        else:
            out.extend(
                [value + carried // factor for value, carried in zip(block, before, strict=False)]
            )
    return out


def _backward(values: list[int], step: int, factor: int) -> list[int]:
    return _forward(values[::-1], step, factor)[::-1]


def _accumulate(into: list[int] | None, values: list[int], multiple: int) -> list[int]:
    """``into + multiple * values`` (``into`` None: nothing yet)."""
    if into is None:
        return values if multiple == 1 else [multiple * value for value in values]
    if multiple == 1:
        return [total + value for total, value in zip(into, values, strict=True)]
    if multiple == -1:
        return [total - value for total, value in zip(into, values, strict=True)]
    return [total + multiple * value for total, value in zip(into, values, strict=True)]


def complete(
    lo: int, counts: list[int], total: int, left: int, right: int, factor: int, step: int
) -> Dist:
    """The distribution ``N / ((1 - z / factor) ** left (1 - 1 / (z factor)) ** right)``,
    ``z = x ** step``, ``N`` the (possibly signed) ``counts`` from ``lo`` over
    ``total``: exact from ``lo`` to the top of ``counts``; what lies above and
    below is one cut each, of its exact chance."""
    width = len(counts)
    blocks = (width - 1) // step + 1
    scale = factor**blocks
    scaled = [count * scale for count in counts]
    terms = partial_fractions(left, right, factor)
    common = lcm(*(value.denominator for value in terms.values()))
    multiples = {key: int(value * common) for key, value in terms.items()}
    # the multiples' common factor is left out of the counts, and of their total
    shared = gcd(*multiples.values())
    value_bits = max(map(abs, counts)).bit_length() + scale.bit_length()
    multiple_bits = max(abs(value) for value in multiples.values()).bit_length()
    # each pass: a shift, a one-digit division and an addition per value; each
    # term kept: a long product per value
    budget.charge(
        width
        * (
            (left + right) * (3 * STEP + 10 * digits(value_bits))
            + len(multiples) * (STEP + mul_work(multiple_bits, value_bits))
        ),
        "exact odds past the cut-off of the exploding dice",
    )
    denominator = scale * common * total
    if denominator % shared:
        shared = 1
    denominator //= shared
    listed: list[int] | None = None
    # a pass's whole mass is N's over (1 - 1/factor)**power; the rest lies
    # beyond the listed range, on the pass's own side: counted over the
    # listed counts' denominator times (factor - 1)**most
    most = max(left, right)
    mass, less = sum(counts), factor - 1
    beyond = {"U": 0, "W": 0}
    for direction, passes in (("U", left), ("W", right)):
        current = scaled
        for power in range(1, passes + 1):
            if direction == "U":
                current = _forward(current, step, factor)
            else:
                current = _backward(current, step, factor)
            multiple = multiples.get((direction, power), 0) // shared
            if not multiple:
                continue
            listed = _accumulate(listed, current, multiple)
            whole = mass * factor**power * scale - sum(current) * less**power
            beyond[direction] += multiple * whole * less ** (most - power)
    constant = multiples.get(("1", 0), 0) // shared
    if constant:
        listed = _accumulate(listed, scaled, constant)
    # the tails over the listed counts' denominator, once (factor - 1)**most
    # is divided out as far as it goes
    spread = less**most
    extra = spread // gcd(beyond["U"], beyond["W"], spread)
    assert listed is not None
    if extra > 1:
        listed = [value * extra for value in listed]
    whole_total = denominator * extra
    above, below = (beyond[side] * extra // spread for side in ("U", "W"))
    cuts = [Cut(above, lo + width, None), Cut(below, None, lo - 1)]
    return trimmed(lo, listed, whole_total, normal(cuts))
