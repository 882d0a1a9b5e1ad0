"""The rules of one pool that rolling and measuring must agree on.

What a single toss can show after rerolls, how likely a toss is to explode,
how deep the exact measure follows an explosion chain, and which modifier
combinations are refused: decided here once, so the roller and the measurer
cannot drift apart.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from ..errors import DiceValueError, LimitError
from ..exact.dist import Dist
from ..language.tree import Die, Pool
from ..limits import DEFAULT_LIMITS
from ..memory import memoize


def die_dist(die: Die) -> Dist:
    """One toss of ``die``, from the counts its parse-tree node carries."""
    return Dist(die.low, die.counts, len(die.faces))


class PoolPlan(NamedTuple):
    """How one pool is measured and rolled: its die's toss, how it explodes, what it counts."""

    toss: Dist
    """One toss of the die, rerolls already applied (exact)."""
    explode_chance: Fraction
    """Chance that one toss explodes (0 without ``!``)."""
    counts_tosses: bool
    """Success counting looks at every toss of a chain (``!`` and ``!p``)
    rather than at each die's total (``!!`` or no explosion)."""
    plain: bool
    """No modifier at all: the roller takes its fast path."""


_NEVER = Fraction(0)


def _chance_too_high(chance: Fraction) -> bool:
    limits = DEFAULT_LIMITS
    return chance**limits.max_chain > limits.chain_epsilon


@memoize("pool plans", 1024)
def plan(pool: Pool) -> PoolPlan:
    """Check a pool's modifiers and work out what both interpreters need."""
    base = die_dist(pool.die)
    if pool.reroll is None and pool.explode is None and pool.keep is None:
        # nothing to check (a count of successes alone is read die by die)
        return PoolPlan(base, _NEVER, False, pool.counting is None)
    toss = base
    if pool.reroll is not None:
        on = pool.reroll.on
        matched = sum(count for value, count in base.items() if on.matches(value))
        if matched == base.total and not pool.reroll.once:
            raise DiceValueError(
                f"{pool.source} rerolls every face, so it would never stop",
                position=pool.position,
            )
        if not pool.reroll.once and _chance_too_high(Fraction(matched, base.total)):
            raise LimitError(
                f"{pool.source} rerolls {matched} faces of {base.total}: a run of "
                f"{DEFAULT_LIMITS.max_chain} rerolls would not be rare enough to ignore",
                position=pool.position,
            )
        if matched:
            weights: dict[int, int] = {}
            for value, count in base.items():
                if pool.reroll.once:
                    # kept at once, or rerolled once and kept whatever comes
                    weights[value] = (
                        0 if on.matches(value) else count * base.total
                    ) + matched * count
                elif not on.matches(value):
                    weights[value] = count
            total = base.total**2 if pool.reroll.once else base.total - matched
            toss = Dist.from_weights(weights, total)
    chance = _NEVER
    if pool.explode is not None:
        on = pool.explode.on
        exploding = sum(count for value, count in toss.items() if on.matches(value))
        chance = Fraction(exploding, toss.total)
        if chance == 1:
            raise DiceValueError(
                f"{pool.source} explodes on every face, so it would never stop",
                position=pool.position,
            )
        if _chance_too_high(chance):
            raise LimitError(
                f"{pool.source} explodes too often (chance {chance} a toss) for a "
                f"chain of {DEFAULT_LIMITS.max_chain} tosses to be negligible",
                position=pool.position,
            )
    counts_tosses = (
        pool.counting is not None and pool.explode is not None and pool.explode.mode != "!!"
    )
    if counts_tosses and pool.keep is not None:
        raise DiceValueError(
            f"{pool.source}: keeping or dropping dice while counting successes on "
            "every toss of an explosion is ambiguous; use !! (compound) to count "
            "each die once",
            position=pool.position,
        )
    plain = (
        pool.reroll is None and pool.explode is None and pool.keep is None and pool.counting is None
    )
    return PoolPlan(toss, chance, counts_tosses, plain)


def chain_depth(chance: Fraction, dice: int) -> int:
    """Tosses per chain that the exact measure follows: the fewest that leave
    at most ``chain_epsilon`` of probability unaccounted across ``dice`` dice."""
    if chance == 0:
        return 1
    # lost = chance**depth > epsilon / dice, kept in integers (Fractions would
    # reduce by a gcd at every step: this runs for every measure)
    epsilon = DEFAULT_LIMITS.chain_epsilon
    lost = chance.numerator * epsilon.denominator * max(dice, 1)
    budget = epsilon.numerator * chance.denominator
    depth = 1
    while lost > budget:
        depth += 1
        lost *= chance.numerator
        budget *= chance.denominator
    return depth
