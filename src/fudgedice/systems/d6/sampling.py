"""D6 System rolls sampled with NumPy: many rolls at once, from the same
:class:`~.measure.SideShape` the measurer reads.

An exploding die's first five tosses are one draw of their ``6**5`` equally
likely sequences, read from a table (what the die adds, whether it first
came up 1, whether it goes on); only the one die in 7776 that showed five
6s draws again. A few ordinary dice are drawn likewise, as one of their
``6**n`` combinations, from a table of sums (and highest dice, for
``crit=cancel``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...dice.sampling import Array, Flags
from ...errors import LimitError
from ...limits import DEFAULT_LIMITS
from ...memory import reserve
from .measure import SIDES, SideShape

_SAMPLE_CELLS = 1 << 22
"""Tosses held in memory at once while sampling."""
_TABLE_DICE = 6
"""Ordinary dice drawn from a table of every combination (6**6 = 46656 rows)."""

reserve("D6 sampling tables", 1, 2 * 2**20)  # 6**5 chains; 6**1 .. 6**6 rows of two int64


_CHAIN = 5
"""Tosses of an exploding die read from one draw (6**5 = 7776 table rows)."""


@lru_cache(maxsize=1)
def _chains() -> tuple[Array, Flags, Flags]:
    """For each of the 6**_CHAIN sequences of tosses: what the die adds (up to
    and including its first face other than 6), whether its first toss is a 1,
    and whether all of them are 6s (the die goes on)."""
    codes = np.arange(SIDES**_CHAIN)
    faces = codes[:, None] // SIDES ** np.arange(_CHAIN) % SIDES + 1
    # a toss counts while every toss before it was a 6
    counted = np.cumprod(faces == SIDES, axis=1)
    counted = np.hstack([np.ones((len(codes), 1), dtype=counted.dtype), counted[:, :-1]])
    return (faces * counted).sum(axis=1), faces[:, 0] == 1, counted[:, -1] * faces[:, -1] == SIDES


def exploding(rng: np.random.Generator, size: int, what: str) -> tuple[Array, Flags]:
    """``size`` exploding d6 totals, and which of them first came up 1: the
    first five tosses of each die in one draw from a table, then the few
    dice that showed five 6s go on."""
    added, first_one, going = _chains()
    drawn = rng.integers(0, len(added), size=size)
    totals: Array = added[drawn]
    live = np.flatnonzero(going[drawn])
    tosses = _CHAIN
    limit = DEFAULT_LIMITS.max_chain
    while live.size:
        if tosses >= limit:
            raise LimitError(f"{what} exploded more than {limit} times")
        more = rng.integers(0, len(added), size=live.size)
        totals[live] += added[more]
        live = live[going[more]]
        tosses += _CHAIN
    return totals, first_one[drawn]


@lru_cache(maxsize=_TABLE_DICE)
def _table(dice: int) -> tuple[Array, Array]:
    """Sum and highest die of each of the 6**dice combinations of ``dice`` d6."""
    codes = np.arange(SIDES**dice)
    faces = codes[:, None] // SIDES ** np.arange(dice) % SIDES + 1
    return faces.sum(axis=1), faces.max(axis=1)


def _plain(rng: np.random.Generator, dice: int, rows: int) -> tuple[Array, Array]:
    """Sums and highest dice of ``rows`` rolls of ``dice`` ordinary d6."""
    if dice <= _TABLE_DICE:
        sums, highest = _table(dice)
        drawn = rng.integers(0, len(sums), size=rows)
        return sums[drawn], highest[drawn]
    faces = rng.integers(1, SIDES + 1, size=(rows, dice))
    return faces.sum(axis=1), faces.max(axis=1)


def _sample_side(shape: SideShape, rng: np.random.Generator, rows: int) -> tuple[Array, Flags]:
    """Totals of one side, and which rolls were critical failures (a Wild Die
    first came up 1, under a rule that flags it)."""
    totals = np.full(rows, shape.modifier, dtype=np.int64)
    critical = np.zeros(rows, dtype=np.bool_)
    highest = np.zeros(rows, dtype=np.int64)
    if shape.plain:
        sums, highest = _plain(rng, shape.plain, rows)
        totals += sums
    if shape.wild:
        wild, first_one = exploding(rng, rows, "the Wild Die")
        if shape.crit == "cancel":
            # the Wild Die's 1 and the highest other die count nothing
            wild = np.where(first_one, -highest, wild)
        totals += wild
        if shape.crit != "ignore":
            critical = first_one
    if shape.character_points:
        points, _ = exploding(rng, rows * shape.character_points, "a Character Point die")
        totals += points.reshape(rows, shape.character_points).sum(axis=1)
    return totals, critical


def sample_sides(
    left: SideShape, right: SideShape | None, n: int, rng: np.random.Generator
) -> tuple[Array, Flags, Flags | None]:
    """Totals of ``n`` rolls (margins, when there is a ``right`` side), and
    each side's critical failures, in chunks that keep memory bounded."""
    shapes = [left] if right is None else [left, right]
    dice = sum(shape.plain + int(shape.wild) + shape.character_points for shape in shapes)
    per_chunk = max(1, _SAMPLE_CELLS // max(dice, 1))
    chunks: list[tuple[Array, Flags, Flags | None]] = []
    for start in range(0, n, per_chunk):
        rows = min(per_chunk, n - start)
        totals, critical = _sample_side(left, rng, rows)
        other = None
        if right is not None:
            against, other = _sample_side(right, rng, rows)
            totals -= against
        chunks.append((totals, critical, other))
    if len(chunks) == 1:
        return chunks[0]
    if not chunks:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.astype(np.bool_), None if right is None else empty.astype(np.bool_)
    others = [chunk[2] for chunk in chunks]
    return (
        np.concatenate([chunk[0] for chunk in chunks]),
        np.concatenate([chunk[1] for chunk in chunks]),
        None if right is None else np.concatenate([o for o in others if o is not None]),
    )
