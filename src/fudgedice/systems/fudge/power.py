"""Power Fudge's dice options (seed 000): advantage, disadvantage, take zero.

Advantage ignores one ``-`` result per level, disadvantage one ``+``; the
levels add, equal levels cancel and at most two count. Take zero treats the
dice as all blank, and only a roll with neither advantage nor disadvantage may
take it: asking for both is an error, never a silent fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import NamedTuple

from ...errors import DiceValueError
from ...exact import dist
from ...exact.dist import Dist
from ...language.tree import Expression, Option

LEVELS = {"adv": 1, "adv2": 2, "dis": -1, "dis2": -2}
"""Each option's level: advantage counts up, disadvantage down."""

OPTIONS = (*LEVELS, "take0")


class PowerOptions(NamedTuple):
    """A Power Fudge side's options: advantage or disadvantage, and take zero."""

    advantage: int = 0
    """Net level: +1/+2 ignore that many ``-``, -1/-2 that many ``+``."""
    take_zero: bool = False
    asked: bool = False
    """Advantage or disadvantage was written, even if the levels cancel."""


def power_options(options: Sequence[Option], expression: Expression) -> PowerOptions:
    """Add up the advantage options of one side and check take zero."""
    level = 0
    asked: Option | None = None
    take_zero: Option | None = None
    for option in options:
        if option.name == "take0":
            take_zero = option
        elif option.name in LEVELS:
            level += LEVELS[option.name]
            asked = asked or option
    # Equal levels cancel and "the roll is made as normal" (seed 000): with
    # neither left, the roll may take zero.
    if take_zero is not None and asked is not None and level != 0:
        raise DiceValueError(
            "take zero is only for a roll with neither advantage nor disadvantage",
            text=expression.text,
            position=take_zero.position,
            hint="drop 'take0' to roll with advantage, or drop the advantage to take zero",
        )
    if abs(level) > 2:
        word = "advantage" if level > 0 else "disadvantage"
        raise DiceValueError(
            f"{word} stacks once at most: these options add up to level {abs(level)}",
            text=expression.text,
            position=asked.position if asked else None,
            hint="adv2 (or dis2) is the most a roll can have",
        )
    return PowerOptions(level, take_zero is not None, asked is not None)


def ignored(values: Sequence[int], level: int) -> list[int]:
    """Indexes of the dice the level ignores: the first ``-`` results rolled
    for advantage, the first ``+`` for disadvantage."""
    if level == 0:
        return []
    face = -1 if level > 0 else 1
    return [i for i, value in enumerate(values) if value == face][: abs(level)]


def advantage_dist(die: Dist, n: int, level: int) -> Dist:
    """Exact total of ``n`` Fudge-like dice (faces -1, 0, +1) with ``level``
    advantage (negative: disadvantage).

    With advantage ``a`` the total is ``P - M + min(a, M)`` (pluses, minuses):
    the plain sum shifted up by ``a``, except when fewer than ``a`` minuses
    came up. Those few cases (exactly ``k < a`` minuses: ``C(n, k)`` ways to
    place them times a binomial over the other dice) are moved back to where
    they belong. So the cost is that of the plain sum, not of every
    (pluses, minuses) pair. Disadvantage is advantage on the mirrored dice.
    """
    if level < 0:
        mirrored = Dist(-die.hi, die.counts[::-1], die.total)
        plain = advantage_dist(mirrored, n, -level)
        return Dist(-plain.hi, plain.counts[::-1], plain.total)
    weights = dict(die.items())
    plus, blank, minus = weights.get(1, 0), weights.get(0, 0), weights.get(-1, 0)
    counts = {value + level: count for value, count in dist.repeat(die, n).items()}
    for k in range(min(level - 1, n) + 1):
        placed = comb(n, k) * minus**k
        if not placed:
            continue
        rest = n - k
        others = (
            dist.repeat(Dist.from_weights({0: blank, 1: plus}), rest) if rest else Dist.constant(0)
        )
        for pluses, ways in others.items():
            moved = placed * ways
            counts[pluses - k + level] -= moved
            counts[pluses] = counts.get(pluses, 0) + moved
    return Dist.from_weights(counts, die.total**n)
