"""The margin's core when one side cancels (``crit=cancel``) and the other
does not, as powers of small polynomials instead of one wide product.

:func:`~fudgedice.systems.d6.margin.margin_dist` multiplies the cancelling
side's numerator by the other side's plain dice, mirrored. Packed into big
integers, two 100D sides make numbers of a quarter of a million bits, and
CPython's Karatsuba took two thirds of the whole odds on that one product.
But every part of that product is a known power. With ``G_m = 1 + x + ... +
x**(m-1)``, ``a`` dice on the cancelling side and ``b`` on the other:

* the plain dice against the plain dice, ``G_6**a`` times ``G_6**b``
  mirrored, is ``G_6**(a+b)`` shifted (``-d6`` has the law of ``d6 - 7``);
  the Wild Die's chain ``E`` multiplies it by two linear passes;
* the dice less their highest, when the highest is ``m``: the dice show at
  most ``m`` and not all below it, ``G_m**a - G_(m-1)**a``; against the
  other side, ``G_m**a G_6**b - G_(m-1)**a G_6**b``, and ``G_m**a G_6**b``
  is one power of ``G_m G_6`` when ``a == b`` (Miller's recurrence, linear in
  the outcomes), else that power times a short one.

The counts are the product's, entry for entry and over the same range
(``tests/systems/d6/test_cancelling.py`` compares them with the product).
"""

from __future__ import annotations

from ... import budget
from ...budget import pass_work
from ...exact.kernels import convolve, power
from .measure import SIDES, SideShape, explode_counts, plain_dice


def cancels(shape: SideShape) -> bool:
    """Whether a side's numerator carries the cancelled branch."""
    return shape.wild and shape.crit == "cancel"


def numerator_span(shape: SideShape, depth: int) -> tuple[int, int]:
    """Lowest and highest value listed by ``margin.numerator`` for ``shape``
    (zeros at the ends included), without building it."""
    plain, modifier = shape.plain, shape.modifier
    if not cancels(shape):
        return plain + modifier, SIDES * plain + modifier
    # the dice less their highest start at plain - 1; the Wild Die's shift of
    # 6 * depth, and the one it adds, end the listing
    return plain - 1 + modifier, SIDES * plain + modifier + SIDES * depth + 1


def _power_with(faces: int, dice: int, others: int) -> list[int]:
    """Coefficients of ``G_faces**dice G_6**others``."""
    if faces == 1:
        return list(plain_dice(others).counts)
    if faces == SIDES:
        return list(plain_dice(dice + others).counts)
    both = convolve([1] * faces, [1] * SIDES)
    shared = min(dice, others)
    joint = power(both, shared, f"{dice}D less the highest") if shared else [1]
    if dice == others:
        return joint
    rest = power([1] * (faces if dice > others else SIDES), abs(dice - others))
    return convolve(joint, rest)


def _place(out: list[int], out_lo: int, lo: int, values: list[int], factor: int) -> None:
    """Add ``factor * values`` (from value ``lo``) into ``out`` (from ``out_lo``);
    what falls outside ``out`` must be zero."""
    start = lo - out_lo
    begin, end = max(0, -start), min(len(values), len(out) - start)
    assert not any(values[:begin]) and not any(values[end:]), "a count outside the listing"
    if factor == 1:
        out[start + begin : start + end] = [
            x + y for x, y in zip(out[start + begin : start + end], values[begin:end], strict=True)
        ]
    else:
        out[start + begin : start + end] = [
            x + factor * y
            for x, y in zip(out[start + begin : start + end], values[begin:end], strict=True)
        ]


def against_plain(cancelling: SideShape, other: SideShape, depth: int) -> tuple[int, list[int]]:
    """(lowest value, counts) of the cancelling side's numerator times the
    other side's, mirrored: the same list as convolving the two.

    The numerator is ``6 E P + (6**depth - z)(K - x P)`` (``P`` the plain
    dice, ``K`` those less the highest, ``z = x**(6 depth)``), so against the
    other side's mirrored dice ``R`` it is ``6 E (P R) + (6**depth - z)(K R -
    x P R)``, every product a power (see the module's note).
    """
    dice, others = cancelling.plain, other.plain
    low, high = numerator_span(cancelling, depth)
    other_low, other_high = numerator_span(other, depth)
    lo = low - other_high
    out = [0] * (high - other_low - lo + 1)
    # P R: G_6**(dice + others), its first value the lowest dice less the other's highest
    both = list(plain_dice(dice + others).counts)
    start = dice + cancelling.modifier - (SIDES * others + other.modifier)
    budget.charge(
        (2 * SIDES + 4) * pass_work(len(out), (dice + others + 2 * depth) * 2.6),
        "cancelling the highest die against the other side",
    )
    wild_lo, wild, _ = explode_counts(start, both, SIDES ** (dice + others), 1, depth)
    _place(out, lo, wild_lo, wild, SIDES)
    # K R - x P R, from its lowest value down to where highest 6 starts
    difference = [0] * (len(out) + SIDES + 1)
    base = start - SIDES
    below: list[int] = []
    for highest in range(1, SIDES + 1):
        current = _power_with(highest, dice, others)
        offset = SIDES - highest
        for index, ways in enumerate(current):
            exact = ways - (below[index] if index < len(below) else 0)
            if exact:
                difference[offset + index] += exact
        below = current
    offset = start + 1 - base
    difference[offset : offset + len(both)] = [
        x - y for x, y in zip(difference[offset : offset + len(both)], both, strict=True)
    ]
    _place(out, lo, base, difference, SIDES**depth)
    _place(out, lo, base + SIDES * depth, difference, -1)
    return lo, out
