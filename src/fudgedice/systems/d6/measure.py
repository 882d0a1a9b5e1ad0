"""Exact distributions of D6 System rolls: the Wild Die, Character Point dice,
the crit rules and the dice-reduction bonus, as integer counts.

A roll is a sum of independent parts, so its distribution is a product of
small generating functions; each part is built in closed form rather than by
walking the explanation tree, which keeps ``odds`` of 10D well under a
millisecond. The only dependence between parts is the critical failure: the
Wild Die's first toss decides whether the crit rule applies, so each side is
measured as two branches over one common total (no critical failure, and
after one, already resolved by the rule) and the events are read off the
branches. The brute-force enumerator in ``tests/test_d6_brute.py`` checks
every rule against this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import log2
from typing import Literal

from ... import budget
from ...budget import STEP, digits, pass_work
from ...dice.pools import chain_depth, die_dist
from ...exact import dist
from ...exact.dist import Cut, Dist, Shape, normal, scaled_cuts, shape_power, shape_sum
from ...exact.kernels import power
from ...language.tree import D6, Compare, Explode

CritRule = Literal["complication", "cancel", "ignore"]

SIDES = len(D6.faces)
EXPLODE_CHANCE = Fraction(1, SIDES)
"""A D6 System die explodes on its 6."""
EXPLODES = Explode("!", Compare("=", SIDES))
"""The same in the language's terms: the Wild Die and each Character Point die
roll and sample as a one-die pool ``d6!``."""
CRITICAL_CHANCE = Fraction(1, SIDES)
"""A critical failure is a 1 on the Wild Die's first toss: exactly 1/6, not the
critical branch's mass, which lacks the cut-off tails of Character Point dice."""

_ONE_DIE = die_dist(D6)


def depth_for(exploding_dice: int) -> int:
    """Tosses followed per exploding die: the engine's rule (``pools.chain_depth``),
    so that every exploding die of the roll shares the same 1e-12 budget."""
    return chain_depth(EXPLODE_CHANCE, exploding_dice)


def exploding_counts(depth: int) -> list[int]:
    """Counts of an exploding d6 over ``6**depth``, for the values 1, 2, ...

    A chain of ``j`` sixes and a last face ``r`` (1..5) has chance
    ``6**-(j+1)``, so its value ``6j + r`` gets ``6**(depth-1-j)`` counts;
    chains longer than ``depth`` tosses are the cut-off tail, exactly as
    ``measure._chain`` cuts them (a test holds the two equal).
    """
    counts: list[int] = []
    for sixes in range(depth):
        weight = SIDES ** (depth - 1 - sixes)
        counts.extend([weight] * (SIDES - 1))
        if sixes < depth - 1:
            counts.append(0)  # a multiple of 6 always goes on exploding
    return counts


def exploding_die(depth: int) -> Dist:
    """One Character Point die (or a Wild Die ignoring critical failures); the
    one chain cut off, ``depth`` sixes, goes on to at least ``6 * depth + 1``."""
    return Dist(1, tuple(exploding_counts(depth)), SIDES**depth, _chain_cuts(depth))


def _chain_cuts(depth: int) -> tuple[Cut, ...]:
    return (Cut(1, SIDES * depth + 1, None),)


def plain_dice(count: int) -> Dist:
    """The sum of ``count`` ordinary d6."""
    return dist.repeat(_ONE_DIE, count, f"{count}D")


def all_but_highest(count: int, dice: Dist | None = None) -> Dist:
    """The sum of ``count`` d6 less the highest of them (``crit=cancel``).

    With ``S_m = x + ... + x**m``, the dice all show at most ``m`` and at least
    one shows ``m`` in ``S_m**n - S_(m-1)**n`` ways; dropping that highest die
    shifts those sums down by ``m``. Six polynomial powers (Miller's
    recurrence, as for any pool) instead of a keep-highest walk: linear in the
    number of outcomes, so 100D cancels as fast as it sums. ``dice``: the
    sum of the same ``count`` d6 (``plain_dice(count)``), when the caller has
    it: the last of the six powers.
    """
    if count == 0:
        return Dist.constant(0)
    lo = count - 1  # every die a 1, one of them dropped
    counts = [0] * ((SIDES - 1) * (count - 1) + 1)
    budget.charge(
        SIDES * pass_work(len(counts), count * log2(SIDES)), f"cancelling the highest of {count}D"
    )
    below: list[int] = []
    for highest in range(1, SIDES + 1):
        # coefficient i of (1 + x + ... + x**(m-1))**n: the dice sum to n + i;
        # those that reach the highest m are the difference from m - 1
        if highest == SIDES and dice is not None:
            current = list(dice.counts)
        else:
            current = power([1] * highest, count)
        # (the first m - 1 are none: some die shows m, each at least 1)
        exact = [ways - less for ways, less in zip(current, below, strict=False)]
        exact += current[len(below) :]
        del exact[: highest - 1]
        start = count - 1 - lo
        end = start + len(exact)
        counts[start:end] = [x + y for x, y in zip(counts[start:end], exact, strict=True)]
        below = current
    return Dist(lo, tuple(counts), SIDES**count)


def merge(a: Dist, b: Dist) -> Dist:
    """Outcomes of either branch: ``a`` and ``b`` are disjoint parts of one total."""
    assert a.total == b.total
    budget.charge(
        pass_work(len(a.counts) + len(b.counts), a.total.bit_length()), "merging two branches"
    )
    lo = min(a.lo, b.lo)
    counts = [0] * (max(a.hi, b.hi) - lo + 1)
    for part in (a, b):
        offset = part.lo - lo
        for index, count in enumerate(part.counts):
            counts[offset + index] += count
    cuts = normal(a.cuts + b.cuts) if a.cuts and b.cuts else a.cuts or b.cuts
    return Dist(lo, tuple(counts), a.total, cuts)


@dataclass(frozen=True, slots=True)
class SideShape:
    """What one side rolls, after Fate Points and dice reduction."""

    plain: int
    """Ordinary dice (not the Wild Die, not Character Point dice)."""
    wild: bool
    character_points: int
    modifier: int
    """Pips plus the reduction bonus."""
    crit: CritRule
    """The rule in force for a Wild Die 1 (``complication`` when only the Wild
    Die is rolled: then a critical failure never changes the total)."""

    @property
    def exploding(self) -> int:
        return int(self.wild) + self.character_points


@dataclass(frozen=True, slots=True)
class SideDist:
    """One side's distribution, split by the Wild Die's first toss."""

    steady: Dist
    """Outcomes without a critical failure (or with one ignored)."""
    critical: Dist | None
    """Outcomes after a critical failure, resolved by the crit rule; None when
    no critical failure is flagged (no Wild Die, or ``crit=ignore``)."""

    @property
    def total(self) -> int:
        return self.steady.total

    def combined(self) -> Dist:
        return self.steady if self.critical is None else merge(self.steady, self.critical)


def with_exploding(base: Dist, dice: int, depth: int) -> Dist:
    """``base`` plus ``dice`` exploding d6, chains cut at ``depth`` tosses; the
    cut-off outcomes lie where the sum's cuts say (:func:`~fudgedice.exact.dist.shape_sum`).
    """
    if not dice:
        return base
    lo, counts, total = explode_counts(base.lo, base.counts, base.total, dice, depth)
    mass = base.mass
    total_die = SIDES**depth
    # a chain cut off adds 6 * depth + 1 or more, the others 1 or more: the
    # common cases at once, any other through the sum of shapes
    start = base.lo + SIDES * depth + dice
    if mass == base.total or (
        len(base.cuts) == 1
        and base.cuts[0].high is None
        and base.cuts[0].count == base.total - mass
    ):
        if base.cuts and base.cuts[0].low is not None:
            start = min(start, base.cuts[0].low + dice)
        cut = total - mass * (total_die - 1) ** dice
        return Dist(lo, tuple(counts), total, (Cut(cut, start, None),))
    die = Shape(1, SIDES * depth - 1, total_die - 1, total_die, _chain_cuts(depth))
    shape = shape_sum(base.shape(), shape_power(die, dice))
    return Dist(lo, tuple(counts), total, shape.cuts)


def explode_counts(
    lo: int, counts: tuple[int, ...] | list[int], total: int, dice: int, depth: int
) -> tuple[int, list[int], int]:
    """The counts of ``counts`` plus ``dice`` exploding d6 (the listed part:
    chains cut at ``depth`` tosses), as (lowest value, counts, total).

    An exploding d6 is ``E(x) = (x + ... + x**5) G(x**6)`` with
    ``G(y) = sum 6**(depth-1-j) y**j`` (``j`` sixes, then a face 1..5), so
    adding one is two linear passes instead of a convolution of big integers:
    a sliding window of five faces, then the geometric recurrence
    ``R_k = 6**(depth-1) W_k + (R_(k-6) - W_(k-6 depth)) / 6`` (the division
    is exact, for any integer counts: the passes are linear). This keeps 100D,
    and Character Point dice, cheap.
    """
    # refused before any work, on the same bound as any other pool
    dist.check_size(
        len(counts) + dice * (SIDES * depth - 1),
        log2(total) + dice * depth * log2(SIDES),
        f"{dice} exploding dice",
    )
    budget.charge(
        explode_work(len(counts), total.bit_length(), dice, depth), f"{dice} exploding dice"
    )
    counts = list(counts)
    top = SIDES ** (depth - 1)
    reach = SIDES * depth
    for _ in range(dice):
        size = len(counts)
        window = [0] * (size + SIDES - 2)
        running = 0
        for k in range(size + SIDES - 2):
            if k < size:
                running += counts[k]
            if k >= SIDES - 1:
                running -= counts[k - SIDES + 1]
            window[k] = running
        width = len(window)
        out = [0] * (width + SIDES * (depth - 1))
        for k in range(len(out)):
            value = top * window[k] if k < width else 0
            if k >= SIDES:
                carried = out[k - SIDES]
                if 0 <= k - reach < width:
                    carried -= window[k - reach]
                value += carried // SIDES
            out[k] = value
        lo, counts, total = lo + 1, out, total * SIDES**depth
    return lo, counts, total


def explode_work(size: int, bits: int, dice: int, depth: int) -> float:
    """Estimated work of :func:`explode_counts`: two passes per die over the
    counts as they grow, each value a few additions, a product by a small
    number and a one-digit division."""
    work = 0.0
    for _ in range(dice):
        size += SIDES * depth - 1
        bits += int(depth * log2(SIDES)) + 1
        work += size * (6 * STEP + 18 * digits(bits))
    return work


def _scaled(base: Dist, shift: int, factor: int, total: int) -> Dist:
    budget.charge(pass_work(len(base.counts), total.bit_length()), "scaling a branch")
    counts = tuple(count * factor for count in base.counts)
    return Dist(base.lo + shift, counts, total, scaled_cuts(base.cuts, factor, shift))


def _less(whole: Dist, part: Dist) -> Dist:
    """``whole`` without the outcomes of ``part`` (a branch of it). The part's
    cut-off outcomes are some of the whole's, so the whole's bounds still hold
    for what is left (a side's cuts are all "N or more": one of them)."""
    budget.charge(pass_work(len(whole.counts), whole.total.bit_length()), "splitting a branch")
    counts = list(whole.counts)
    offset = part.lo - whole.lo
    for index, count in enumerate(part.counts):
        counts[offset + index] -= count
    cuts = whole.cuts
    if part.cuts:
        assert len(whole.cuts) == len(part.cuts) == 1
        (mine,), (theirs,) = whole.cuts, part.cuts
        cuts = normal([Cut(mine.count - theirs.count, mine.low, mine.high)])
    return dist.trimmed(whole.lo, counts, whole.total, cuts)


def side_dist(shape: SideShape, depth: int) -> SideDist:
    """Exact distribution of one side; exploding chains cut at ``depth`` tosses.

    Everything but the Wild Die is summed first (``others``); the Wild Die's
    first toss then splits the roll: a 1 (``6**(depth-1)`` counts of
    ``6**depth``) is the critical failure branch, resolved by the crit rule,
    and the steady branch is all the rest.
    """
    dice = plain_dice(shape.plain)
    base = dist.add(dice, Dist.constant(shape.modifier))
    others = with_exploding(base, shape.character_points, depth)
    if not shape.wild:
        return SideDist(others, None)
    full = with_exploding(others, 1, depth)
    if shape.crit == "ignore":
        return SideDist(full, None)
    one = SIDES ** (depth - 1)
    wild_one = _scaled(others, 1, one, full.total)
    steady = _less(full, wild_one)
    if shape.crit == "cancel":
        # the Wild Die's 1 and the highest other die are both removed
        kept = dist.add(all_but_highest(shape.plain, dice), Dist.constant(shape.modifier))
        kept = with_exploding(kept, shape.character_points, depth)
        return SideDist(steady, _scaled(kept, 0, one, full.total))
    return SideDist(steady, wild_one)
