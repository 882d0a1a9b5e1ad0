"""How many dice a roll tosses, told from its text before a die is drawn.

A roll tosses each die of its pools at least once (twice when ``ro`` rerolls
every face); explosions and rerolls toss more as the dice fall. One roll may
toss at most ``max_dice`` dice. :func:`check_tosses` refuses a roll that would
pass that bound on every draw, or on draws whose chance is above
``chain_epsilon`` (the chance the limits already allow a die of running into
``max_chain``): the one rule, applied to every program a text compiles to, so
that rolling, reading by hand, measuring and sampling accept and refuse the
same texts with the same message. A roll the rule accepts passes the bound
only on draws rarer than that; the roller still stops it there.

The chance is bounded from above, never estimated: the number of tosses is a
sum of independent dice, and Chernoff's bound ``P(T > L) <= E[z**T] / z**(L+1)``
for every ``z > 1`` holds whatever the sizes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from ..errors import TooManyDice
from ..language.tree import Pool
from ..limits import DEFAULT_LIMITS
from .pools import die_dist


class Law(NamedTuple):
    """How many tosses one die of a pool makes.

    A kept toss (one toss, or two with ``ro``, or a run of ``r`` rerolls)
    stops the die or explodes; its generating functions are
    ``stop(z) = (stop1 z + stop2 z**2) / (1 - again z)`` and the same for
    ``go``, and the die's is ``stop(z) / (1 - go(z))``."""

    stop1: float
    stop2: float
    go1: float
    go2: float
    again: float
    """Chance a toss is rerolled by ``r`` (0 without)."""
    least: int
    """The fewest tosses one die makes."""
    mean: float

    def log_mgf(self, z: float) -> float:
        """``log E[z**tosses]`` for ``z > 1`` (inf where it diverges)."""
        if self.again * z >= 1:
            return math.inf
        runs = 1 - self.again * z
        go = (self.go1 * z + self.go2 * z * z) / runs
        if go >= 1:
            return math.inf
        stop = (self.stop1 * z + self.stop2 * z * z) / runs
        return math.log(stop) - math.log1p(-go)

    def edge(self) -> float:
        """Where :meth:`log_mgf` starts to diverge (inf: nowhere)."""
        if self.again == 0 and self.go1 == self.go2 == 0:
            return math.inf
        low, high = 1.0, 1 / self.again if self.again else 2.0
        while self.again == 0 and math.isfinite(self.log_mgf(high)):
            high *= 2
        for _ in range(60):
            middle = (low + high) / 2
            if math.isfinite(self.log_mgf(middle)):
                low = middle
            else:
                high = middle
        return low


def law(pool: Pool) -> Law:
    """How many tosses one die of ``pool`` makes, by its rules (those
    :func:`~.pools.plan` has checked), from the ways its faces come up."""
    faces = die_dist(pool.die)
    ways = dict(faces.items())
    total = faces.total
    reroll, explode = pool.reroll, pool.explode

    def explodes(value: int) -> bool:
        return explode is not None and explode.on.matches(value)

    def stays(value: int) -> bool:
        return reroll is None or not reroll.on.matches(value)

    stands = {value: n for value, n in ways.items() if stays(value)}
    rerolled = total - sum(stands.values())
    if reroll is None or not reroll.once:
        # a kept toss: a run of rerolls, then a face that stands
        again = rerolled / total
        go = sum(n for value, n in stands.items() if explodes(value)) / (total - rerolled)
        stop1, stop2, go1, go2 = (1 - go) * (1 - again), 0.0, go * (1 - again), 0.0
        per_kept = 1 / (1 - again)
    else:
        # a face that stands, or one rerolled once and kept whatever comes
        again = 0.0
        boom = sum(n for value, n in ways.items() if explodes(value)) / total
        go1 = sum(n for value, n in stands.items() if explodes(value)) / total
        stop1 = sum(stands.values()) / total - go1
        go2, stop2 = rerolled / total * boom, rerolled / total * (1 - boom)
        go = go1 + go2
        per_kept = 1 + rerolled / total
    return Law(stop1, stop2, go1, go2, again, 1 if stop1 > 0 else 2, per_kept / (1 - go))


def check_tosses(pools: Iterable[Pool], limit: int = DEFAULT_LIMITS.max_dice) -> None:
    """Refuse the roll of ``pools`` (every pool it tosses, as the roller
    tosses them) if it would toss more than ``limit`` dice on every draw or
    with a chance above ``chain_epsilon``."""
    pools = list(pools)
    if sum(pool.count * _most_tossed(pool) for pool in pools) <= limit:
        return  # the chain limits stop every die first: nothing to weigh
    once, counts = _laws(pools)
    least = once + sum(each.least * count for each, count in counts.items())
    if least > limit:
        raise TooManyDice(
            f"this roll tosses at least {least} dice, more than the limit of {limit} in one roll",
            hint=HINT,
        )
    epsilon = DEFAULT_LIMITS.chain_epsilon
    if _log_tail(counts, limit - once) > math.log(epsilon):
        mean = once + sum(each.mean * count for each, count in counts.items())
        raise TooManyDice(
            f"this roll tosses about {mean:.0f} dice on average, and more than the limit of "
            f"{limit} in one roll with a chance above {float(epsilon):g} "
            "(explosions and rerolls included)",
            hint=HINT,
        )


HINT = (
    "every die tossed counts: both sides of the roll, the dice a trait rolls unwritten, "
    "the dice a technique reads, rerolls and explosions"
)


def tail_bound(pools: Iterable[Pool], limit: int) -> float:
    """An upper bound on the chance that a roll of ``pools`` tosses more than
    ``limit`` dice (what :func:`check_tosses` holds to ``chain_epsilon``)."""
    once, counts = _laws(pools)
    if not counts:
        return float(once > limit)
    return math.exp(_log_tail(counts, limit - once))


def _most_tossed(pool: Pool) -> int:
    """The most tosses the roller lets one die of ``pool`` make before the
    chain limit stops it."""
    chain = DEFAULT_LIMITS.max_chain
    reroll = pool.reroll
    kept = 1 if reroll is None else 2 if reroll.once else chain
    return kept * (chain if pool.explode is not None else 1)


def _laws(pools: Iterable[Pool]) -> tuple[int, Counter[Law]]:
    """The dice tossed once each (no reroll, no explosion: most pools, told
    apart without working out a law), and how many toss by each other law."""
    once = 0
    counts: Counter[Law] = Counter()
    for pool in pools:
        if pool.reroll is None and pool.explode is None:
            once += pool.count
        elif pool.count:
            counts[law(pool)] += pool.count
    return once, counts


def _log_tail(counts: Counter[Law], limit: int) -> float:
    """An upper bound on ``log P(tosses > limit)``: Chernoff's, at its best ``z``."""
    edge = min(each.edge() for each in counts)
    high = math.log(edge) if math.isfinite(edge) else 50.0

    def bound(theta: float) -> float:
        z = math.exp(theta)
        return sum(each.log_mgf(z) * count for each, count in counts.items()) - (limit + 1) * theta

    # the bound is convex in theta = log z: a golden-section search finds its least
    low, top = 0.0, high
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        left, right = top - ratio * (top - low), low + ratio * (top - low)
        if bound(left) <= bound(right):
            top = right
        else:
            low = left
    return min(bound((low + top) / 2), 0.0)
