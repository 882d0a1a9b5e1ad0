"""The margin's core when one side cancels (``crit=cancel``) and the other,
of as many dice, does not: powers of small polynomials instead of one wide
product.

:func:`~fudgedice.systems.d6.margin.margin_dist` multiplies the cancelling
side's numerator by the other side's, mirrored. Packed into big integers, two
100D sides make numbers of a quarter of a million bits, most of the odds'
time. But with ``n`` plain dice a side every part of that product is a power.
With ``G_m = 1 + x + ... + x**(m-1)``:

* the plain dice against the plain dice, ``G_6**n`` times ``G_6**n``
  mirrored, is ``G_6**(2n)`` shifted (``-d6`` has the law of ``d6 - 7``);
  the Wild Die's chain ``E`` multiplies it by two linear passes;
* the dice less their highest, when the highest is ``m``: the dice show at
  most ``m`` and not all below it, ``G_m**n - G_(m-1)**n``; against the
  other side, ``(G_m G_6)**n - (G_(m-1) G_6)**n``, each one power of a
  short polynomial (Miller's recurrence, linear in the outcomes).

The counts are the product's, entry for entry and over the same range
(``tests/systems/d6/test_cancelling.py`` compares them). Sides of unequal
dice, or both cancelling, keep the product: each would need products of
their own (``K`` against ``K`` is as wide as the whole).
"""

from __future__ import annotations

from math import log2

from ... import budget
from ...budget import pass_work
from ...exact.kernels import PowerPlan, convolve, power, power_plan
from .measure import SIDES, SideShape, explode_counts, plain_dice


def cancels(shape: SideShape) -> bool:
    """Whether a side's numerator carries the cancelled branch."""
    return shape.wild and shape.crit == "cancel"


SAME_DICE_FROM = 50
"""Equal sides of at least this many plain dice are measured here: timed
against the product (decimal's for wide ones), 99 dice a side took 6 ms
against 10, 50 about the same, 30 a third more. Unequal sides leave a long
product of their own (``G_m**a`` times a power of the difference), up to
three times slower: they keep the product."""


def worth_it(cancelling: SideShape, other: SideShape) -> bool:
    """Whether :func:`against_plain` beats the product for these two sides."""
    return (
        cancels(cancelling)
        and not cancels(other)
        and cancelling.plain == other.plain >= SAME_DICE_FROM
    )


def numerator_span(shape: SideShape, depth: int) -> tuple[int, int]:
    """Lowest and highest value listed by ``margin.numerator`` for ``shape``
    (zeros at the ends included), without building it."""
    plain, modifier = shape.plain, shape.modifier
    if not cancels(shape):
        return plain + modifier, SIDES * plain + modifier
    # the dice less their highest start at plain - 1; the Wild Die's shift of
    # 6 * depth, and the one it adds, end the listing
    return plain - 1 + modifier, SIDES * plain + modifier + SIDES * depth + 1


def _planned_powers(dice: int) -> list[tuple[list[int], PowerPlan]]:
    """``G_m G_6`` for m from 2 to 5, each with the plan of its power
    ``dice``: planned together, so that the whole is charged (or refused)
    before any of it is raised."""
    planned = []
    for faces in range(2, SIDES):
        base = convolve([1] * faces, [1] * SIDES)
        planned.append((base, power_plan(base, dice)))
    return planned


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
    dice = cancelling.plain
    assert other.plain == dice, "equal sides only: see worth_it"
    low, high = numerator_span(cancelling, depth)
    other_low, other_high = numerator_span(other, depth)
    lo = low - other_high
    width = high - other_low - lo + 1
    # the four powers of G_m G_6 and the passes over the counts, charged
    # first: refused here, before any work, if too much
    planned = _planned_powers(dice)
    budget.charge(
        sum(work for _, (_, work) in planned)
        + (2 * SIDES + 4) * pass_work(width, (2 * dice + 2 * depth) * log2(SIDES)),
        f"exact odds of {dice}D less the highest against {dice}D",
    )
    out = [0] * width
    # P R: G_6**(2 dice), its first value the lowest dice less the other's highest
    both = list(plain_dice(2 * dice).counts)
    start = dice + cancelling.modifier - (SIDES * dice + other.modifier)
    wild_lo, wild, _ = explode_counts(start, both, SIDES ** (2 * dice), 1, depth)
    _place(out, lo, wild_lo, wild, SIDES)
    # K R - x P R, from its lowest value down to where highest 6 starts
    difference = [0] * (len(out) + SIDES + 1)
    base = start - SIDES
    below: list[int] = []
    for highest in range(1, SIDES + 1):
        if highest == 1:
            current = list(plain_dice(dice).counts)
        elif highest == SIDES:
            current = both
        else:
            joint, (kernel, _) = planned[highest - 2]
            current = power(joint, dice, planned=(kernel, 0.0))
        exact = [ways - less for ways, less in zip(current, below, strict=False)]
        exact += current[len(below) :]
        offset = SIDES - highest
        end = offset + len(exact)
        difference[offset:end] = [x + y for x, y in zip(difference[offset:end], exact, strict=True)]
        below = current
    offset = start + 1 - base
    difference[offset : offset + len(both)] = [
        x - y for x, y in zip(difference[offset : offset + len(both)], both, strict=True)
    ]
    _place(out, lo, base, difference, SIDES**depth)
    _place(out, lo, base + SIDES * depth, difference, -1)
    return lo, out
