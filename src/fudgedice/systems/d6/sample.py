"""D6 System rolls sampled with NumPy: many rolls at once, from the same
:class:`~.measure.SideShape` the measurer reads."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...dice.sample import exploded
from .measure import EXPLODES, SideShape

Array = npt.NDArray[np.int64]
_SAMPLE_CELLS = 1 << 22
"""Tosses held in memory at once while sampling."""


def _explode(first: Array, rng: np.random.Generator, what: str) -> Array:
    """Exploding d6 totals from their first tosses: add tosses while 6s come up."""
    return exploded(first, lambda k: rng.integers(1, 7, size=k), EXPLODES.on, what=what)


def _sample_side(shape: SideShape, rng: np.random.Generator, rows: int) -> Array:
    totals = np.full(rows, shape.modifier, dtype=np.int64)
    highest = np.zeros(rows, dtype=np.int64)
    if shape.plain:
        faces = rng.integers(1, 7, size=(rows, shape.plain))
        totals += faces.sum(axis=1)
        highest = faces.max(axis=1)
    if shape.wild:
        first = rng.integers(1, 7, size=rows)
        wild = _explode(first, rng, "the Wild Die")
        if shape.crit == "cancel":
            cancelled = first == 1
            wild[cancelled] = 0
            totals[cancelled] -= highest[cancelled]
        totals += wild
    if shape.character_points:
        first = rng.integers(1, 7, size=rows * shape.character_points)
        totals += (
            _explode(first, rng, "a Character Point die")
            .reshape(rows, shape.character_points)
            .sum(axis=1)
        )
    return totals


def sample_sides(
    left: SideShape, right: SideShape | None, n: int, rng: np.random.Generator
) -> Array:
    """Totals of ``n`` rolls (margins, when there is a ``right`` side), in
    chunks that keep memory bounded."""
    shapes = [left] if right is None else [left, right]
    dice = sum(shape.plain + int(shape.wild) + shape.character_points for shape in shapes)
    per_chunk = max(1, _SAMPLE_CELLS // max(dice, 1))
    chunks = []
    for start in range(0, n, per_chunk):
        rows = min(per_chunk, n - start)
        totals = _sample_side(left, rng, rows)
        if right is not None:
            totals -= _sample_side(right, rng, rows)
        chunks.append(totals)
    return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)
