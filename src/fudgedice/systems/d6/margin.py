"""The margin of a D6 System opposed roll (left total less right total), exactly.

Cutting every exploding chain off after ``depth`` tosses, as a single side is
measured, would leave outcomes where both sides ran away: their margin can
fall anywhere, and with them neither the margin's odds nor ``success`` could
be exact. But an exploding d6 is memoryless: a chain cut off after ``depth``
sixes goes on exactly as a fresh chain, ``6 * depth`` higher. So each side is
a listed numerator over ``(1 - z / 6**depth) ** m``, ``z = x ** (6 * depth)``,
``m`` its exploding dice, and the margin is the numerators' convolution over
both sides' factors; :func:`~fudgedice.exact.geometric.complete` expands that
exactly, leaving one tail above and one below, each of an exact chance.

The Wild Die of a ``crit=cancel`` side is tied to the other dice by its first
toss: past the cut-off that toss was a 6, so no cancel. Its numerator is
``C - (z / 6**depth) (C - P E)``: the side as listed ``C`` less the part of it
that is not "plain dice ``P`` plus an exploding die ``E``", which is the
critical-failure branch alone (cancelled, less not cancelled). It can be
negative; the exact odds it gives are not.
"""

from __future__ import annotations

from math import ceil, log

from ...exact import dist
from ...exact.dist import Dist
from ...exact.geometric import complete
from ...exact.kernels import convolve_signed
from ...limits import DEFAULT_LIMITS
from .cancelling import against_plain, cancels, worth_it
from .measure import SIDES, SideShape, all_but_highest, depth_for, explode_counts, plain_dice

Counts = tuple[int, list[int], int]
"""(lowest value, counts that may be negative, total)."""


def _sum(parts: list[tuple[int, tuple[int, ...], int]]) -> tuple[int, list[int]]:
    """``sum factor * counts`` over (lowest value, counts, factor) parts."""
    lo = min(start for start, _, _ in parts)
    hi = max(start + len(counts) - 1 for start, counts, _ in parts)
    out = [0] * (hi - lo + 1)
    for start, counts, factor in parts:
        offset = start - lo
        end = offset + len(counts)
        if factor == 1:
            out[offset:end] = [x + y for x, y in zip(out[offset:end], counts, strict=True)]
        elif factor == -1:
            out[offset:end] = [x - y for x, y in zip(out[offset:end], counts, strict=True)]
        else:
            out[offset:end] = [x + factor * y for x, y in zip(out[offset:end], counts, strict=True)]
    return lo, out


def numerator(shape: SideShape, depth: int) -> tuple[Counts, int]:
    """A side's numerator less its exploding dice that can be added by linear
    passes afterwards, and how many those are.

    For ``crit=cancel``, with ``P`` the plain dice and pips, ``K`` those less
    the highest die, ``E`` the Wild Die's chain and ``a = 6**(depth-1)`` the
    counts of a first toss: the side as listed is ``C = P E - a x P + a K``
    (the 1 that explodes nothing is cancelled instead), and the numerator
    ``6 C - z (K - x P)``, ``z = x**(6 depth)``, over ``6`` times ``C``'s total.
    """
    dice = plain_dice(shape.plain)
    base = dist.add(dice, Dist.constant(shape.modifier))
    if not (shape.wild and shape.crit == "cancel"):
        return (base.lo, list(base.counts), base.total), shape.exploding
    cancelled = dist.add(all_but_highest(shape.plain, dice), Dist.constant(shape.modifier))
    full_lo, full, total = explode_counts(base.lo, base.counts, base.total, 1, depth)
    # K - x P, then 6 P E + 6**depth (K - x P) - z (K - x P)
    lo, difference = _sum([(cancelled.lo, cancelled.counts, 1), (base.lo + 1, base.counts, -1)])
    first = SIDES**depth
    reach = SIDES * depth
    lo, counts = _sum(
        [
            (full_lo, tuple(full), SIDES),
            (lo, tuple(difference), first),
            (lo + reach, tuple(difference), -1),
        ]
    )
    return (lo, counts, SIDES * total), shape.character_points


def _total(shape: SideShape, depth: int) -> int:
    """The total of a side's numerator (:func:`numerator`'s third number)."""
    dice: int = SIDES**shape.plain
    return SIDES * dice * SIDES**depth if cancels(shape) else dice


def margin_dist(left: SideShape, right: SideShape, depth: int) -> Dist:
    """Left total less right total, exactly: listed where the numerator lives,
    and one tail on each side beyond (when anything explodes).

    A convolution of two wide distributions of big counts is the costly step,
    so the exploding dice are left out of it and added afterwards by linear
    passes (``-E`` on the mirrored counts); when neither side cancels, the
    cores are plain dice, and ``-d6`` has the law of ``d6 - 7``, so the whole
    core is one power of the d6.
    """
    if not (left.wild and left.crit == "cancel") and not (right.wild and right.crit == "cancel"):
        core = dist.add(
            plain_dice(left.plain + right.plain),
            Dist.constant(left.modifier - right.modifier - (SIDES + 1) * right.plain),
        )
        lo, counts, total = core.lo, list(core.counts), core.total
        left_passes, right_passes = left.exploding, right.exploding
    elif worth_it(left, right):
        lo, counts = against_plain(left, right, depth)
        total = _total(left, depth) * _total(right, depth)
        left_passes, right_passes = left.character_points, right.exploding
    elif worth_it(right, left):
        # the mirror of the same product: left against right is right against left, reversed
        mirrored, counts = against_plain(right, left, depth)
        lo, counts = -(mirrored + len(counts) - 1), counts[::-1]
        total = _total(left, depth) * _total(right, depth)
        left_passes, right_passes = left.exploding, right.character_points
    else:
        (left_lo, left_counts, left_total), left_passes = numerator(left, depth)
        # two sides alike (100D against 100D) have one numerator: built once
        (right_lo, right_counts, right_total), right_passes = (
            ((left_lo, left_counts, left_total), left_passes)
            if right == left
            else numerator(right, depth)
        )
        counts = convolve_signed(left_counts, right_counts[::-1])
        lo = left_lo - (right_lo + len(right_counts) - 1)
        total = left_total * right_total
    lo, counts, total = explode_counts(lo, counts, total, left_passes, depth)
    mirrored, counts, total = explode_counts(
        -(lo + len(counts) - 1), counts[::-1], total, right_passes, depth
    )
    lo, counts = -(mirrored + len(counts) - 1), counts[::-1]
    if not left.exploding and not right.exploding:
        return dist.trimmed(lo, counts, total)
    return complete(lo, counts, total, left.exploding, right.exploding, SIDES**depth, SIDES * depth)


_NEAR_THE_TOP = sum(SIDES ** (-step / SIDES) for step in range(SIDES)) / SIDES
"""About 0.54: by how much each plain die of a side shrinks the chance that
the side passes the top of what it lists (it must roll near its highest)."""


def opposed_dist(left: SideShape, right: SideShape) -> Dist:
    """The margin, its exploding dice followed no deeper than needed.

    The margin is exact however deep the chains are followed; the depth only
    sets where the listing stops, and the tails beyond must hold at most
    ``chain_epsilon``. Following ``depth_for`` tosses always does (a margin
    past the listing needs some chain past ``depth`` sixes). Big pools list a
    wide range anyway, and their tails are far smaller: each plain die must
    also roll near its highest. So a shallower depth is tried first when the
    plain dice promise it (``m 6**-d 0.54**n`` per side), and kept when the
    tails it leaves are small enough: narrower numerators, a cheaper
    convolution, the same exact odds.
    """
    epsilon = DEFAULT_LIMITS.chain_epsilon
    exploding = left.exploding + right.exploding
    guaranteed = depth_for(exploding)
    estimate = (
        left.exploding * _NEAR_THE_TOP**left.plain + right.exploding * _NEAR_THE_TOP**right.plain
    )
    if estimate:
        shallow = max(1, ceil(log(estimate / float(epsilon), SIDES)) + 1)
        if shallow < guaranteed:
            made = margin_dist(left, right, shallow)
            if sum(cut.count for cut in made.cuts) <= epsilon * made.total:
                return made
    return margin_dist(left, right, guaranteed)
