"""The exact distribution of one checked side of a Fudge roll.

Plain pools are measured by the generic interpreter; a pool the side treats
specially (a dice technique, advantage or take zero) by its closed form, the
same reading :mod:`.rolling` rolls, so odds and rolls always agree.
"""

from __future__ import annotations

from ...dice.arithmetic import WordValue
from ...dice.measure import measure, measure_pool
from ...dice.pools import die_dist
from ...exact import dist
from ...exact.dist import Dist
from ...language.tree import D6, Pool
from . import power
from .checking import SidePlan
from .techniques import D100Table, four_d6_dist, fudge_from_d6, technique_name, three_d6_dist


def side_dist(side: SidePlan, word_value: WordValue, d100: D100Table) -> Dist:
    """The distribution of ``side``'s total, reading ``@d%`` on ``d100``."""

    def measure_one(pool: Pool) -> Dist:
        if side.special(pool):
            return _special_dist(pool, side, d100)
        return measure_pool(pool, side.exploding)

    return measure(side.expr, word_value, side.exploding, measure_one)


def _special_dist(pool: Pool, side: SidePlan, d100: D100Table) -> Dist:
    options = side.options_for(pool)
    if options.take_zero:
        return Dist.constant(0)
    technique = technique_name(pool.technique) if pool.technique else None
    if technique == "3d6":
        return three_d6_dist()
    if technique == "d%":
        return d100.dist()
    if technique == "4d6":
        return four_d6_dist()
    die = dist.apply(die_dist(D6), fudge_from_d6) if technique == "d6" else die_dist(pool.die)
    if options.advantage:
        return power.advantage_dist(die, pool.count, options.advantage)
    return dist.repeat(die, pool.count, pool.source)
