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
from collections.abc import Callable, Iterable
from fractions import Fraction

from ..errors import TooManyDice
from ..language.tree import Pool
from ..limits import DEFAULT_LIMITS
from ..records import dataclass
from .pools import die_dist, plan


@dataclass(frozen=True, slots=True)
class Law:
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
    most: int | None
    """The most (None: explosions or ``r`` rerolls bound it only by the chain limit)."""
    mean: float
    cap: int
    """The most the roller lets one die toss before the chain limit stops it."""

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
        for _ in range(200):
            middle = (low + high) / 2
            if math.isfinite(self.log_mgf(middle)):
                low = middle
            else:
                high = middle
        return low


def law(pool: Pool) -> Law:
    """How many tosses one die of ``pool`` makes, by its rules (:func:`plan`)."""
    pool_plan = plan(pool)
    base = die_dist(pool.die)
    reroll, explode = pool.reroll, pool.explode
    chain = DEFAULT_LIMITS.max_chain

    def explodes(value: int) -> bool:
        return explode is not None and explode.on.matches(value)

    def share(test: Callable[[int], bool]) -> Fraction:
        ways = sum(count for value, count in base.items() if test(value))
        return Fraction(ways, base.total)

    if reroll is None or not reroll.once:
        again = share(reroll.on.matches) if reroll is not None else Fraction(0)
        go = pool_plan.explode_chance
        stop1, stop2, go1, go2 = (1 - go) * (1 - again), Fraction(0), go * (1 - again), Fraction(0)
        per_kept = 1 / (1 - again)
        kept_cap = chain if reroll is not None else 1
    else:
        on = reroll.on.matches
        again = Fraction(0)
        rerolled = share(on)
        boom = share(explodes)
        go1 = share(lambda value: not on(value) and explodes(value))
        stop1 = 1 - rerolled - go1
        go2, stop2 = rerolled * boom, rerolled * (1 - boom)
        per_kept = 1 + rerolled
        kept_cap = 2
    bounded = explode is None and again == 0
    least = 1 if stop1 else 2
    return Law(
        float(stop1),
        float(stop2),
        float(go1),
        float(go2),
        float(again),
        least,
        (2 if stop2 or go2 else 1) if bounded else None,
        float(per_kept / (1 - pool_plan.explode_chance)),
        kept_cap * (chain if explode is not None else 1),
    )


def check_tosses(pools: Iterable[Pool], limit: int = DEFAULT_LIMITS.max_dice) -> None:
    """Refuse the roll of ``pools`` (every pool it tosses, as the roller
    tosses them) if it would toss more than ``limit`` dice on every draw or
    with a chance above ``chain_epsilon``."""
    counts = _laws(pools)
    least = sum(each.least * count for each, count in counts.items())
    if least > limit:
        raise TooManyDice(
            f"this roll tosses at least {least} dice, more than the limit of {limit} in one roll",
            hint=HINT,
        )
    capped = sum(
        (each.most if each.most is not None else each.cap) * count for each, count in counts.items()
    )
    if capped <= limit:
        return
    epsilon = DEFAULT_LIMITS.chain_epsilon
    if _log_tail(counts, limit) > math.log(epsilon):
        mean = sum(each.mean * count for each, count in counts.items())
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
    counts = _laws(pools)
    return math.exp(_log_tail(counts, limit)) if counts else 0.0


def _laws(pools: Iterable[Pool]) -> Counter[Law]:
    """How many dice toss by each law."""
    counts: Counter[Law] = Counter()
    for pool in pools:
        if pool.count:
            counts[law(pool)] += pool.count
    return counts


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
