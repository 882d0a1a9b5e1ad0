"""Exact distributions of Fate rolls, reroll invokes included.

4dF shows -4..+4 in 1, 4, 10, 16, 19, 16, 10, 4, 1 ways of 81. A side's
result is its dice plus a fixed modifier (:mod:`.checking` makes sure of it),
so the only question is which dice are kept. With a reroll policy, all four
dice are rerolled while the result is short of the policy's mark, so the
dice kept after ``j`` rerolls are

    f_0 = D,   f_j(v) = D(v) [v >= t] + P(D < t) f_(j-1)(v)

for the dice ``t`` the mark asks of them: integer counts over ``81**(j+1)``.
In an opposed roll the mark depends on what the other side rolled, so the
margin sums that over the other side's nine results. Both are a few hundred
integer operations.
"""

from __future__ import annotations

from fractions import Fraction

from ...exact.dist import Dist, trimmed
from .checking import DICE_RANGE, FateSide, RerollPolicy
from .ladders import OUTCOMES, FateOutcome, outcome

DICE_COUNTS = (1, 4, 10, 16, 19, 16, 10, 4, 1)
"""Ways of 4dF to show -4..+4, out of 81."""
WAYS = 3**4
LOWEST = DICE_RANGE.start
REROLL = "reroll"
"""The fact a roll shows when its policy spent a reroll invoke."""
REROLL_EVENT = "reroll invoke spent"
"""The odds' event: the chance the left side's policy spends a reroll."""


def kept_dice(threshold: int, times: int) -> tuple[list[int], int]:
    """Counts of the dice that stand (-4..+4) and their total, when all four
    are rerolled, up to ``times`` times, while they show less than ``threshold``."""
    counts = list(DICE_COUNTS)
    total = WAYS
    short = _short(threshold)
    for _ in range(times):
        counts = [
            (ways * total if LOWEST + index >= threshold else 0) + short * counts[index]
            for index, ways in enumerate(DICE_COUNTS)
        ]
        total *= WAYS
    return counts, total


def _short(threshold: int) -> int:
    """Ways of 4dF, of 81, to show less than ``threshold``."""
    return sum(DICE_COUNTS[: max(0, min(len(DICE_COUNTS), threshold - LOWEST))])


def _threshold(policy: RerollPolicy, modifier: int, opposition: int) -> int:
    """The dice a side must show to be past its policy's mark: its result
    (dice + modifier) less the opposition reaches ``policy.below``."""
    return policy.below + opposition - modifier


def side_dist(side: FateSide, opposition: int | None) -> Dist:
    """The side's result; its reroll policy acts against ``opposition``."""
    if opposition is None or not side.policy.times:
        return Dist(side.modifier + LOWEST, DICE_COUNTS, WAYS)
    counts, total = kept_dice(_threshold(side.policy, side.modifier, opposition), side.policy.times)
    return trimmed(side.modifier + LOWEST, counts, total)


def opposed_dist(left: FateSide, right: FateSide) -> Dist:
    """Shifts of the left side over the right (both roll; the left side's
    reroll policy acts against what the right side rolled)."""
    lowest = left.modifier - right.modifier + 2 * LOWEST
    width = 2 * len(DICE_COUNTS) - 1
    counts = [0] * width
    total = WAYS
    for right_index, right_ways in enumerate(DICE_COUNTS):
        right_result = right.modifier + LOWEST + right_index
        kept, total = (
            kept_dice(_threshold(left.policy, left.modifier, right_result), left.policy.times)
            if left.policy.times
            else (list(DICE_COUNTS), WAYS)
        )
        for left_index, left_ways in enumerate(kept):
            counts[left_index - right_index + len(DICE_COUNTS) - 1] += right_ways * left_ways
    return trimmed(lowest, counts, total * WAYS)


def outcome_counts(exact: Dist, opposition: int) -> dict[FateOutcome, int]:
    """Ways of each outcome, of ``exact.total``, for results against ``opposition``
    (shifts against 0)."""
    ways = dict.fromkeys(OUTCOMES, 0)
    for value, count in exact.items():
        ways[outcome(value - opposition)] += count
    return ways


def reroll_chance(left: FateSide, opposition: int | None, right: FateSide | None) -> Fraction:
    """The chance the left side spends its reroll invoke (at least once): its
    first roll is short of the policy's mark."""
    if not left.policy.times:
        return Fraction(0)
    results = (
        [(opposition, 1)]
        if right is None
        else [(right.modifier + LOWEST + index, ways) for index, ways in enumerate(DICE_COUNTS)]
    )
    short = 0
    for against, ways in results:
        assert against is not None
        threshold = _threshold(left.policy, left.modifier, against)
        short += ways * _short(threshold)
    return Fraction(short, WAYS * (1 if right is None else WAYS))
