"""A distribution's shape on one line of text: a long odds table ends with
it, so the whole of a roll is seen without scrolling through its rows."""

from __future__ import annotations

from collections.abc import Sequence

from .. import budget
from ..budget import pass_work
from ..exact.odds import Odds
from .numbers import signed

BLOCKS = "▁▂▃▄▅▆▇█"
"""Eight heights; a value with any chance at all gets at least the lowest."""
WIDTH = 60
"""Marks on the line at most: past that, each mark stands for several values."""
SHOWN = 100_000
"""Values rarer than one in this many are left off both ends of the line,
as the table leaves them out."""


def heights(counts: Sequence[int], width: int = WIDTH) -> list[int]:
    """``counts`` gathered into at most ``width`` marks of equal spans, each
    a height from 0 (none) to 8 (the tallest), rounded to the nearest but at
    least 1: a mark with any ways at all shows."""
    per_mark = -(-len(counts) // width)
    sums = [sum(counts[start : start + per_mark]) for start in range(0, len(counts), per_mark)]
    peak = max(sums)
    levels = len(BLOCKS)
    return [max(1, (2 * levels * total + peak) // (2 * peak)) if total else 0 for total in sums]


def sparkline(counts: Sequence[int], width: int = WIDTH) -> str:
    """The marks of :func:`heights` as block characters (a space for none)."""
    return "".join(BLOCKS[height - 1] if height else " " for height in heights(counts, width))


def shape_line(odds: Odds) -> str:
    """``shape: 3 ▁▂▄▆██▆▄▂▁ 43``: the distribution from its lowest value
    to its highest that is not negligible, one line."""
    dist = odds.dist
    counts, total = dist.counts, dist.total
    budget.charge(2 * pass_work(len(counts), total.bit_length()), f"the shape of {odds.notation}")
    kept = [index for index, count in enumerate(counts) if count * SHOWN >= total]
    first, last = kept[0], kept[-1]
    shown = counts[first : last + 1]
    fudge_like = odds.low < 0 or odds.value_name is not None
    name = signed if fudge_like else str
    per_mark = -(-len(shown) // WIDTH)
    each = f" (each mark {per_mark} values)" if per_mark > 1 else ""
    low, high = name(dist.lo + first), name(dist.lo + last)
    return f"shape: {low} {sparkline(shown)} {high}{each}"
