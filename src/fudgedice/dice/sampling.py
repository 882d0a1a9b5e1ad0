"""The sampling interpreter: many rolls at once as NumPy arrays.

The same tree and the same pool rules as the roller, but vectorised: a pool
is an (n, dice) array of tosses, modifiers are masks, and no Python loop runs
once per roll. Work is cut into chunks so memory stays bounded.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .. import budget
from ..errors import DiceValueError, LimitError
from ..exact.dist import Dist
from ..language.tree import (
    BinOp,
    Compare,
    Count,
    Die,
    Group,
    Neg,
    Node,
    Number,
    Pool,
    Word,
    walk,
)
from ..limits import DEFAULT_LIMITS, INT64_SAFE
from ..results.sampled import Sampled as Sampled
from .arithmetic import WordValue
from .pools import plan

Array = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]


_CHUNK_CELLS = 1 << 22
"""Tosses held in memory at once (32 MiB of int64)."""


def _matches(compare: Compare, values: Array) -> npt.NDArray[np.bool_]:
    op, target = compare.op, compare.value
    result: npt.NDArray[np.bool_]
    if op == ">=":
        result = values >= target
    elif op == "<=":
        result = values <= target
    elif op == ">":
        result = values > target
    elif op == "<":
        result = values < target
    else:
        result = values == target
    return result


def _score(counting: Count, values: Array) -> Array:
    score = _matches(counting.success, values).astype(np.int64)
    if counting.failure is not None:
        score -= _matches(counting.failure, values)
    return score


def _tosser(die: Die, rng: np.random.Generator) -> Callable[[tuple[int, ...]], Array]:
    lo, hi = die.lowest, die.highest
    if die.faces == tuple(range(lo, hi + 1)):
        return lambda shape: rng.integers(lo, hi + 1, size=shape)
    faces = np.asarray(die.faces, dtype=np.int64)
    return lambda shape: faces[rng.integers(0, len(faces), size=shape)]


def exploded(
    first: Array,
    toss: Callable[[int], Array],
    on: Compare,
    worth: Callable[[Array], Array] | None = None,
    *,
    start: Array | None = None,
    what: str,
    limit: int = DEFAULT_LIMITS.max_chain,
) -> Array:
    """The one vectorised explosion walk: exploding dice from their first tosses.

    A die whose toss matches ``on`` tosses again; ``toss(k)`` gives ``k`` more
    tosses, for the live dice in the order they lie in ``first`` (row by row),
    and each adds ``worth`` of itself (the toss itself by default; one less for
    ``!p``, a success count). ``start`` is what the first tosses are worth when
    that is not the tosses themselves. Returns a new array shaped as ``first``;
    a chain longer than ``limit`` tosses is a :class:`LimitError` naming ``what``.
    Live dice are kept as flat indices, so each pass costs only its live dice."""
    values = (first if start is None else start).copy()
    flat = values.reshape(-1)  # a view: the copy is C-contiguous
    live = np.flatnonzero(_matches(on, first))
    depth = 1
    while live.size:
        depth += 1
        if depth > limit:
            raise LimitError(f"{what} exploded more than {limit} times")
        new = toss(live.size)
        flat[live] += new if worth is None else worth(new)
        live = live[_matches(on, new)]
    return values


def _sample_pool(pool: Pool, rng: np.random.Generator, rows: int) -> Array:
    pool_plan = plan(pool)
    toss_raw = _tosser(pool.die, rng)
    reroll = pool.reroll
    limit = DEFAULT_LIMITS.max_chain

    def toss(shape: tuple[int, ...]) -> Array:
        values = toss_raw(shape)
        if reroll is None:
            return values
        # the dice still to reroll as flat indices, in order (the same draws
        # as masking the whole array again after each pass, which cost a pass
        # over every die for each of the dozens a likely reroll takes)
        flat = values.reshape(-1)  # a view: a fresh toss is C-contiguous
        again = np.flatnonzero(_matches(reroll.on, flat))
        tosses = 1
        while again.size:
            if tosses > limit:
                raise LimitError(f"{pool.source} rerolled more than {limit} times")
            new = toss_raw((again.size,))
            flat[again] = new
            tosses += 1
            if reroll.once:
                break
            again = again[_matches(reroll.on, new)]
        return values

    faces = toss((rows, pool.count))
    counting = pool.counting
    explode = pool.explode
    if explode is None:
        values = faces
    else:
        penetrate = explode.mode == "!p"
        scoring = counting if pool_plan.counts_tosses else None
        worth: Callable[[Array], Array] | None = None
        if penetrate or scoring is not None:

            def worth(new: Array) -> Array:
                value = new - 1 if penetrate else new
                return value if scoring is None else _score(scoring, value)

        start = None if scoring is None else _score(scoring, faces)
        values = exploded(
            faces,
            lambda k: toss((k,)),
            explode.on,
            worth,
            start=start,
            what=pool.source,
            limit=limit,
        )
    if pool.keep is not None:
        highest, kept = pool.keep.kept(pool.count)
        ordered = np.sort(values, axis=1)
        values = ordered[:, pool.count - kept :] if highest else ordered[:, :kept]
    if counting is not None and not pool_plan.counts_tosses:
        values = _score(counting, values)
    totals: Array = values.sum(axis=1, dtype=np.int64)
    return totals


CHAIN_TOSS_WORK = 40.0
"""Estimated work of a toss in a pool that rerolls or explodes: each pass
over the live dice scatters its tosses back by index (22 ns a toss for
1000d4!>=2 and 1000d4r<=3 in arrays of a million, 33 to 37 ns for d4!>=2
and 100d4!!>=2 in arrays of four million, measured on a busy machine)."""
SORT_WORK = 0.6
"""Estimated work of sorting, per die and per halving of its pool, for a
pool that keeps or drops (1000d6kh500: 4.5 ns a die more than 1000dF)."""


def expected_tosses(node: Node) -> float:
    """Tosses one roll of ``node`` makes on average: each die of a pool
    that rerolls tosses 1/(1 - q) times (1 + q for ``ro``) for a reroll
    chance q, and an exploding one 1/(1 - p) dice for an explosion chance p
    (four for d4!>=2, where one trial roll may toss one)."""
    return sum(sub.count * _tosses_per_die(sub) for sub in walk(node) if isinstance(sub, Pool))


def extra_work(node: Node, toss_work: float) -> float:
    """Work of one roll of ``node`` past ``toss_work`` a toss: the tosses
    of pools that reroll or explode (at :data:`CHAIN_TOSS_WORK`), and the
    sorting of pools that keep or drop."""
    work = 0.0
    for sub in walk(node):
        if not isinstance(sub, Pool):
            continue
        if sub.reroll is not None or sub.explode is not None:
            work += sub.count * _tosses_per_die(sub) * max(CHAIN_TOSS_WORK - toss_work, 0.0)
        if sub.keep is not None:
            work += sub.count * SORT_WORK * math.log2(sub.count + 1)
    return work


def _tosses_per_die(pool: Pool) -> float:
    pool_plan = plan(pool)
    each = 1.0
    if pool.reroll is not None:
        on = pool.reroll.on
        faces = pool.die.faces
        chance = sum(1 for face in faces if on.matches(face)) / len(faces)
        each = 1 + chance if pool.reroll.once else 1 / (1 - chance)
    return each / (1 - float(pool_plan.explode_chance))


def _too_large() -> LimitError:
    return LimitError(
        "this roll reaches totals of 2**62 (about 4.6e18) or more, too large to sample; "
        "roll it or measure its odds instead"
    )


def bounded(*values: int | None) -> None:
    """Refuse a roll whose fixed numbers (a modifier, a difficulty) a NumPy
    sampler could not hold below :data:`INT64_SAFE`."""
    if any(value is not None and abs(value) >= INT64_SAFE for value in values):
        raise _too_large()


def _bounded(values: Array) -> Array:
    if values.size and int(np.abs(values).max()) >= INT64_SAFE:
        raise _too_large()
    return values


DRAW_WORK = 40
"""Estimated work of one roll drawn from the exact odds (ten million of 3d6:
0.4 s)."""
_DIRECT_TABLE = 1 << 16
"""Totals up to this size get a lookup table with one entry per way."""


def sample_dist(exact: Dist, rows: int, rng: np.random.Generator) -> Array:
    """``rows`` draws from an exact distribution whose total fits in int64.

    Each draw is a uniform integer below the total, mapped to its outcome, so
    every outcome comes up with exactly its count / total chance."""
    if max(abs(exact.lo), abs(exact.hi)) >= INT64_SAFE:
        raise _too_large()
    # a draw and its lookup a roll (a search past the direct table); the
    # table of every value between
    draw = DRAW_WORK if exact.total <= _DIRECT_TABLE else 1.5 * DRAW_WORK
    budget.charge(
        rows * draw + len(exact.counts) * 20, f"sampling {rows:,} rolls from the exact odds"
    )
    values = np.arange(exact.lo, exact.hi + 1, dtype=np.int64)
    counts = np.array(exact.counts, dtype=np.int64)
    if exact.total <= _DIRECT_TABLE:
        table = np.repeat(values, counts)
        return table[rng.integers(0, exact.total, size=rows)]
    bounds = np.cumsum(counts)
    draws = rng.integers(0, exact.total, size=rows, dtype=np.int64)
    return values[np.searchsorted(bounds, draws, side="right")]


EXACT_SAMPLE_WORK = 100_000_000
"""Work a sample may spend measuring the exact odds to draw from them (a
total below 2**62 takes far less); past it, the dice are tossed."""


def sample_exactly(
    exact_dist: Callable[[], Dist], rows: int, rng: np.random.Generator
) -> Array | None:
    """``rows`` draws from the exact distribution when it is small enough to
    hold and to draw from with int64 (one integer draw a roll: as exact as
    tossing each die, and far faster); None when it is not."""
    try:
        # a small total is cheap to measure; past this, tossing is the way
        with budget.capped(EXACT_SAMPLE_WORK):
            exact = exact_dist()
    except LimitError:
        return None
    if exact.total > INT64_SAFE or exact.mass != exact.total:
        # a cut-off tail has no listed outcome to draw: toss the dice instead
        return None
    return sample_dist(exact, rows, rng)


def sample_node(node: Node, rng: np.random.Generator, rows: int, word_value: WordValue) -> Array:
    if isinstance(node, (Number, Word)):
        value = node.value if isinstance(node, Number) else word_value(node)
        if abs(value) >= INT64_SAFE:
            raise _too_large()
        return np.full(rows, value, dtype=np.int64)
    if isinstance(node, Pool):
        per_chunk = max(1, _CHUNK_CELLS // max(node.count, 1))
        if rows <= per_chunk:
            return _sample_pool(node, rng, rows)
        parts = [
            _sample_pool(node, rng, min(per_chunk, rows - start))
            for start in range(0, rows, per_chunk)
        ]
        return np.concatenate(parts)
    if isinstance(node, Group):
        return sample_node(node.inner, rng, rows, word_value)
    if isinstance(node, Neg):
        return -sample_node(node.operand, rng, rows, word_value)
    assert isinstance(node, BinOp)
    left = sample_node(node.left, rng, rows, word_value)
    right = sample_node(node.right, rng, rows, word_value)
    # Every array stays below INT64_SAFE, so + and - cannot wrap before the check;
    # a product is checked in floating point before it is trusted.
    if node.op == "+":
        return _bounded(left + right)
    if node.op == "-":
        return _bounded(left - right)
    if node.op == "*":
        approx = left.astype(np.float64) * right.astype(np.float64)
        if approx.size and float(np.abs(approx).max()) >= INT64_SAFE:
            raise _too_large()
        return left * right
    if (right == 0).any():
        raise DiceValueError("division by zero: the divisor came up 0")
    return np.floor_divide(left, right)
