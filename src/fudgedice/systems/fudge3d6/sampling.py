"""3d6 Fudge rolls sampled with NumPy, with their events: each side's roll
drawn as one of its 216 equally likely ordered rolls and read from a table
that :func:`.rules.read_3d6` (and, opposed, :func:`.rules.resolve_round`)
filled, so a sample reads the dice exactly as a roll does."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ... import budget
from ...dice.sampling import DRAW_WORK, Array, Flags
from ...memory import reserve
from .rules import (
    ALL_ROLLS,
    CRITICALS,
    Read,
    read_3d6,
    resolve_round,
)

reserve("3d6 Fudge sampling tables", 128, 8192)  # arrays of 216 rolls, or read pairs


@lru_cache(maxsize=64)
def _readings(skill: int) -> tuple[tuple[Read, ...], Array]:
    """The distinct reads at ``skill``, and which one each of the 216 rolls gives."""
    reads: list[Read] = []
    which: dict[Read, int] = {}
    index = np.zeros(len(ALL_ROLLS), dtype=np.int64)
    for position, dice in enumerate(ALL_ROLLS):
        read = read_3d6(dice, skill).read
        index[position] = which.setdefault(read, len(which))
        if index[position] == len(reads):
            reads.append(read)
    return tuple(reads), index


def _drawn(skill: int, rng: np.random.Generator, n: int) -> tuple[tuple[Read, ...], Array]:
    reads, index = _readings(skill)
    drawn: Array = index[rng.integers(0, len(ALL_ROLLS), size=n)]
    return reads, drawn


def sample_3d6(
    left: int, right: int | None, n: int, rng: np.random.Generator
) -> tuple[Array, dict[str, Flags]]:
    """Margins (round margins, opposed) of ``n`` rolls against skills ``left``
    (and ``right``), and which of a lone roll's showed each critical."""
    budget.charge(n * 3 * DRAW_WORK, f"sampling {n:,} rolls of 3d6 Fudge")
    reads, mine = _drawn(left, rng, n)
    if right is None:
        margins = np.array([read.margin for read in reads])[mine]
        facts: dict[str, Flags] = {}
        for critical in CRITICALS:
            facts[critical] = np.array([o.critical == critical for o in reads])[mine]
        return margins, facts
    _, theirs = _drawn(right, rng, n)
    return _rounds(left, right)[mine, theirs], {}


@lru_cache(maxsize=64)
def _rounds(left: int, right: int) -> Array:
    """The round's margin for each pair of the two sides' reads."""
    mine, theirs = _readings(left)[0], _readings(right)[0]
    return np.array([[resolve_round(a, b).margin for b in theirs] for a in mine])
