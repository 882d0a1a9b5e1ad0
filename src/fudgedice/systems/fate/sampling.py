"""Fate rolls sampled with NumPy, with their events: each side's 4dF drawn
as one of its 81 equally likely faces' combinations, and the left side's
reroll invokes spent as :mod:`.measure` counts them (all four dice again,
up to the policy's times, while the result is short of its mark)."""

from __future__ import annotations

import numpy as np

from ...dice.sampling import Array, Flags, bounded
from .checking import FatePlan
from .measure import DICE_COUNTS, LOWEST, REROLL, WAYS

_DICE = np.repeat(np.arange(LOWEST, LOWEST + len(DICE_COUNTS)), DICE_COUNTS)
"""4dF's total for each of its 81 combinations."""


def _dice(rng: np.random.Generator, rows: int) -> Array:
    drawn: Array = _DICE[rng.integers(0, WAYS, size=rows)]
    return drawn


def sample_fate(plan: FatePlan, n: int, rng: np.random.Generator) -> tuple[Array, dict[str, Flags]]:
    """Results (shifts, when both sides roll) of ``n`` rolls, and which of
    them spent a reroll invoke (the program's declaration names the events)."""
    left = plan.left
    right = None if plan.right is None else plan.right.modifier
    bounded(left.modifier, right, plan.opposition, left.policy.below)
    dice = _dice(rng, n)
    against: Array | int | None = plan.opposition
    if plan.right is not None:
        against = plan.right.modifier + _dice(rng, n)
    spent = np.zeros(n, dtype=np.bool_)
    if against is not None and left.policy.times:
        # the dice the mark asks of them: the result less the opposition reaches `below`
        threshold = left.policy.below + against - left.modifier
        short = dice < threshold
        spent = short.copy()
        for _ in range(left.policy.times):
            again = np.flatnonzero(short)
            if not again.size:
                break
            dice[again] = _dice(rng, again.size)
            limit = threshold if isinstance(threshold, int) else threshold[again]
            short[again] = dice[again] < limit
    result = left.modifier + dice
    if plan.right is None or against is None:  # a result, against a passive opposition if any
        return result, {REROLL: spent}
    return result - against, {REROLL: spent}  # shifts
