"""Float odds of a D6 System roll of one side (``d6: 100000D+2``, with or
without ``vs``): the ordinary dice, the Wild Die and Character Point dice as
parts of one sum (:mod:`fudgedice.dice.spectral`), and under ``crit=cancel``
the branch after a critical failure as a mixture of sums.

After a critical failure the Wild Die counts nothing and the highest
ordinary die is removed: ``n`` dice that all show at most ``m``, one of them
``m``, less that die, are ``S_m**n - S_(m-1)**n`` shifted down by ``m``
(``S_m = x + ... + x**m``, as in :func:`.measure.all_but_highest`): each
power is ``(m/6)**n`` times ``n`` dice of ``m`` sides, a term of the mixture.
"""

from __future__ import annotations

import math

from ...dice.floats import float_odds, part_of
from ...dice.spectral import UNIT, Part, Term
from ...exact.dist import Dist
from ...results.float_odds import FloatOdds
from .measure import CRITICAL_CHANCE, SIDES, SideShape, depth_for, exploding_counts
from .outcomes import DEGREES, event, ranges


def _uniform(sides: int, count: int) -> Part:
    return Part(1, (1,) * sides, sides, count)


def side_terms(shape: SideShape) -> list[Term]:
    """One side's total as a mixture of sums of parts."""
    depth = depth_for(shape.exploding)
    counts = exploding_counts(depth)
    exploding = part_of(Dist(1, tuple(counts), SIDES**depth), 1)
    points = [part_of(Dist(1, tuple(counts), SIDES**depth), shape.character_points)]
    points = points if shape.character_points else []
    plain = [_uniform(SIDES, shape.plain)] if shape.plain else []
    if not shape.wild or shape.crit != "cancel":
        wild = [exploding] if shape.wild else []
        return [Term((*plain, *wild, *points), shape.modifier)]
    # no critical failure: the Wild Die's first toss is not a 1 (5 chances in 6)
    steady = Dist(2, tuple(counts[1:]), SIDES**depth - SIDES ** (depth - 1))
    terms = [
        Term((*plain, part_of(steady, 1), *points), shape.modifier, 1 - float(CRITICAL_CHANCE))
    ]
    dice = shape.plain
    for highest in range(1, SIDES + 1):
        for sides, sign in ((highest, 1.0), (highest - 1, -1.0)):
            if sides == 0:
                continue
            # (sides/6)**dice / 6, and the relative error of making it in floats
            exponent = dice * math.log(sides / SIDES)
            weight = sign * math.exp(exponent) / SIDES
            if weight == 0:
                continue  # below 1e-308: float_sum's bound covers what it leaves out
            error = (2 * abs(exponent) + 4) * UNIT
            parts = (_uniform(sides, dice), *points)
            terms.append(Term(parts, shape.modifier - highest, weight, error))
    return terms


def d6_float_odds(notation: str, shape: SideShape, difficulty: int | None) -> FloatOdds:
    """Float odds of one side, its events named as :meth:`D6Program.odds` names them."""
    result = float_odds(notation, "d6", side_terms(shape), value_title="total")
    events: dict[str, float] = {}
    if difficulty is not None:
        events["success"] = result.chance_between(difficulty, None)
        events["failure"] = result.chance_between(None, difficulty - 1)
        for tier, lowest, highest in ranges(DEGREES):
            top = None if highest is None else difficulty + highest
            events[event(tier.name)] = result.chance_between(difficulty + lowest, top)
    if shape.wild and shape.crit != "ignore":
        events["critical failure"] = float(CRITICAL_CHANCE)
        if shape.crit == "complication":
            events["complication"] = float(CRITICAL_CHANCE)
    result.events = events
    return result
