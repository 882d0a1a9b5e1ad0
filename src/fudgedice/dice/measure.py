"""The measuring interpreter: a parse tree to its exact distribution.

It walks the same tree the roller walks and follows the same rules
(:mod:`.pools`), so a value the roller can produce always has a
non-zero probability here. Pool distributions are memoised by node;
:func:`clear_caches` empties every memo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..budget import costed_cache
from ..errors import DiceValueError
from ..exact import dist, exploding, pairs
from ..exact.dist import Bound, Cut, Dist, Image, normal
from ..exact.keep import keep_extreme
from ..language.tree import BinOp, Count, Group, Neg, Node, Number, Pool, Word, walk
from .arithmetic import WordValue
from .pools import chain_depth, plan


def exploding_dice(node: Node) -> int:
    """How many dice in an expression can explode: they share the 1e-12 budget."""
    if isinstance(node, Pool):  # the roll of one pool, the commonest, without a walk
        return node.count if node.explode is not None else 0
    return sum(sub.count for sub in walk(node) if isinstance(sub, Pool) and sub.explode is not None)


Contribution = Callable[[int, bool], int]
"""What a toss adds to its die, given its face and whether it is the first."""

Split = tuple[dict[int, int], dict[int, int], dict[int, int], dict[int, int]]


def _split(pool: Pool, contribution: Contribution) -> Split:
    """What a toss that stops, and one that explodes, adds (-> ways): for the
    first toss of a chain, then for every later one."""
    toss = plan(pool).toss
    explode = pool.explode
    assert explode is not None

    def split(first: bool) -> tuple[dict[int, int], dict[int, int]]:
        stop: dict[int, int] = {}
        go: dict[int, int] = {}
        for face, count in toss.items():
            side = go if explode.on.matches(face) else stop
            key = contribution(face, first)
            side[key] = side.get(key, 0) + count
        return stop, go

    return (*split(True), *split(False))


def _chain(pool: Pool, depth: int, contribution: Contribution) -> Dist:
    """One die with its explosion chain, followed ``depth`` tosses deep.

    ``contribution(face, first)`` is what a toss adds to the die: its face, the
    face less one after the first toss of ``!p``, or a success score. Built
    from the deepest toss back (Horner's scheme) so each step is one small
    convolution; every term is scaled to the common total ``T**depth``.

    The chains cut off are those whose ``depth`` tosses all exploded; each
    goes on with any number of later tosses that explode, then one that stops.
    When no later exploding toss adds less than 0, a cut-off chain adds at
    least the least its ``depth`` exploding tosses can add, plus the least of
    a stopping toss (and likewise at most, when none adds more than 0): that
    bound is the chain's :class:`~fudgedice.exact.dist.Cut`.
    """
    total = plan(pool).toss.total
    stop_first, go_first, stop_next, go_next = _split(pool, contribution)
    # R_depth = stop; R_d = stop * T**(depth-d) + go (x) R_{d+1}; answer R_1.
    chain = stop_next if depth > 1 else stop_first
    for level in range(depth - 1, 0, -1):
        stop, go = (stop_first, go_first) if level == 1 else (stop_next, go_next)
        scale = total ** (depth - level)
        following = {value: count * scale for value, count in stop.items()}
        if go and chain:
            both = dist.add(Dist.from_weights(go), Dist.from_weights(chain))
            for value, count in both.items():
                following[value] = following.get(value, 0) + count
        chain = following
    cut = sum(go_first.values()) * sum(go_next.values()) ** (depth - 1)
    cuts: tuple[Cut, ...] = ()
    if cut:
        low = high = None
        if min(go_next) >= 0:
            low = min(go_first) + (depth - 1) * min(go_next) + min(stop_next)
        if max(go_next) <= 0:
            high = max(go_first) + (depth - 1) * max(go_next) + max(stop_next)
        cuts = normal([Cut(cut, low, high)])
    return Dist.from_weights(chain, total**depth, cuts)


def _exploding_pool(pool: Pool, depth: int, contribution: Contribution) -> Dist | None:
    """A pool of dice whose every toss stops or explodes alike, the explosion
    adding one amount (at least 1): measured by
    :func:`~fudgedice.exact.exploding.exploding_pool`, without the power of
    each die's long counts (None: not such a pool)."""
    stop_first, go_first, stop_next, go_next = _split(pool, contribution)
    if stop_first != stop_next or go_first != go_next or len(go_next) != 1 or not stop_next:
        return None
    ((step, ways),) = go_next.items()
    if step < 1:
        return None
    total = plan(pool).toss.total
    return exploding.exploding_pool(stop_next, step, ways, total, depth, pool.count, pool.source)


def count_image(counting: Count) -> Image:
    """Bounds of a success count's score over a range of values: the score is
    constant between its compare points, so a few values stand for all."""
    points = [counting.success.value]
    if counting.failure is not None:
        points.append(counting.failure.value)
    below, above = min(points) - 2, max(points) + 2

    def image(low: Bound, high: Bound) -> tuple[Bound, Bound]:
        start = low if low is not None else below if high is None else min(below, high)
        stop = high if high is not None else above if low is None else max(above, low)
        near = {start, stop} | {point + step for point in points for step in (-1, 0, 1)}
        scores = [counting.score(value) for value in near if start <= value <= stop]
        return min(scores), max(scores)

    return image


@costed_cache(maxsize=512)
def pool_dist(pool: Pool, depth: int) -> Dist:
    """Exact distribution of a pool; explosion chains cut at ``depth`` tosses
    (memoised: a pool served again charges what it cost, :mod:`fudgedice.budget`)."""
    pool_plan = plan(pool)
    if pool_plan.plain:  # NdX and nothing more: the power of one toss
        return dist.repeat(pool_plan.toss, pool.count, pool.source)
    counting = pool.counting
    explode = pool.explode
    penetrate = explode is not None and explode.mode == "!p"

    def face_value(face: int, first: bool) -> int:
        return face - 1 if penetrate and not first else face

    counts_dice = counting is not None and not pool_plan.counts_tosses
    contribution: Contribution = face_value
    if pool_plan.counts_tosses:
        assert counting is not None
        score_toss = counting.score

        def contribution(face: int, first: bool) -> int:
            return score_toss(face_value(face, first))

    if explode is not None and pool.keep is None and not counts_dice and pool.count > 0:
        fast = _exploding_pool(pool, depth, contribution)
        if fast is not None:
            return fast
    per_die = pool_plan.toss if explode is None else _chain(pool, depth, contribution)
    score: Callable[[int], int] = counting.score if counting is not None and counts_dice else _same
    image = count_image(counting) if counting is not None and counts_dice else _same_range
    if pool.keep is not None:
        highest, kept = pool.keep.kept(pool.count)
        return keep_extreme(per_die, pool.count, kept, highest, score, image)
    if counts_dice:
        # a count scores few values: 6 ways in 6 may be 3 in 3 twice, and a
        # pool of 2**n is cheaper to measure and to read than one of 6**n
        per_die = dist.reduced(dist.apply(per_die, score, image))
    return dist.repeat(per_die, pool.count, pool.source)


def _same(value: int) -> int:
    return value


def _same_range(low: Bound, high: Bound) -> tuple[Bound, Bound]:
    return low, high


def _times(factor: int) -> Image:
    """Where multiplying by a constant sends a range."""

    def image(low: Bound, high: Bound) -> tuple[Bound, Bound]:
        if factor == 0:
            return 0, 0
        ends = (None if low is None else low * factor, None if high is None else high * factor)
        return ends if factor > 0 else (ends[1], ends[0])

    return image


def _over(divisor: int) -> Image:
    """Where floor division by a constant sends a range (it is monotone)."""

    def image(low: Bound, high: Bound) -> tuple[Bound, Bound]:
        ends = (None if low is None else low // divisor, None if high is None else high // divisor)
        return ends if divisor > 0 else (ends[1], ends[0])

    return image


def _divide(x: int, y: int) -> int:
    return x // y


def measure_pool(pool: Pool, exploding: int) -> Dist:
    """Exact distribution of one pool of the generic language, memoised;
    ``exploding`` dice of the whole roll share the truncation budget."""
    # a pool that can't explode is one toss a die (no chance to work out)
    depth = 1 if pool.explode is None else chain_depth(plan(pool).explode_chance, exploding)
    return pool_dist(pool, depth)


PoolMeasure = Callable[[Pool], Dist]


def measure(
    node: Node,
    word_value: WordValue,
    exploding: int,
    pool_measure: PoolMeasure | None = None,
) -> Dist:
    """Exact distribution of an expression node. A system that reads some
    pools its own way (a Fudge technique, advantage) passes ``pool_measure``;
    the arithmetic around the pools stays this one walk."""
    if isinstance(node, Number):
        return Dist.constant(node.value)
    if isinstance(node, Pool):
        if pool_measure is not None:
            return pool_measure(node)
        return measure_pool(node, exploding)
    if isinstance(node, Group):
        return measure(node.inner, word_value, exploding, pool_measure)
    if isinstance(node, Neg):
        return dist.negate(measure(node.operand, word_value, exploding, pool_measure))
    if isinstance(node, Word):
        return Dist.constant(word_value(node))
    if node.op in ("+", "-"):
        total = Dist.constant(0)
        for sign, term in _merged_terms(node, pool_measure is None):
            part = measure(term, word_value, exploding, pool_measure)
            total = dist.add(total, part if sign > 0 else dist.negate(part))
        return total
    left = measure(node.left, word_value, exploding, pool_measure)
    right = measure(node.right, word_value, exploding, pool_measure)
    # By a constant, the cut-off tail keeps a known side; between two random
    # values it does not (it has none: it lands where nothing is known).
    if node.op == "*":
        if len(right.counts) == 1 and right.total == 1:
            return dist.apply(left, lambda value: value * right.lo, _times(right.lo))
        if len(left.counts) == 1 and left.total == 1:
            return dist.apply(right, lambda value: value * left.lo, _times(left.lo))
        return pairs.combine(left, right, lambda x, y: x * y, "a product of dice")
    if any(value == 0 for value in right.support()):
        raise DiceValueError("division by zero: the divisor can come up 0")
    if len(right.counts) == 1 and right.total == 1:
        return dist.apply(left, lambda value: value // right.lo, _over(right.lo))
    return pairs.combine(left, right, _divide, "a quotient of dice")


def _terms(node: Node, sign: int, out: list[tuple[int, Node]]) -> None:
    """The terms of a sum or difference, each with its sign, in order."""
    if isinstance(node, BinOp) and node.op in ("+", "-"):
        _terms(node.left, sign, out)
        _terms(node.right, sign if node.op == "+" else -sign, out)
    else:
        out.append((sign, node))


def _merged_terms(node: Node, merge: bool) -> list[tuple[int, Node]]:
    """The terms of a sum, pools alike but for their count (and added with one
    sign) merged into one pool: ``3d3!!+3d3!!`` is ``6d3!!``, one power of a
    die rather than a chain of ever longer products. Pools that keep or drop
    are not sums of their dice, and are left alone (as when ``merge`` is off:
    a system reads some pools its own way)."""
    terms: list[tuple[int, Node]] = []
    _terms(node, 1, terms)
    if not merge:
        return terms
    merged: dict[tuple[object, ...], int] = {}
    out: list[tuple[int, Node]] = []
    for sign, term in terms:
        if not isinstance(term, Pool) or term.keep is not None or term.technique or term.count == 0:
            out.append((sign, term))
            continue
        key = (sign, term.die, term.reroll, term.explode, term.counting, term.die_code)
        at = merged.get(key)
        if at is None:
            merged[key] = len(out)
            out.append((sign, term))
            continue
        pool = out[at][1]
        assert isinstance(pool, Pool)
        count = pool.count + term.count
        source = f"{count}{pool.source.lstrip('0123456789')}"
        out[at] = (sign, replace(pool, count=count, source=source))
    return out


def clear_caches() -> None:
    pool_dist.cache_clear()
