"""The table of float odds (``fudgedice odds --float``): the exact table's
columns but the fractions, the rows that hold the probability, and the
bound every chance is within."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .numbers import percent, signed

if TYPE_CHECKING:  # a roll loads this module's command, never float odds
    from ..results.float_odds import FloatOdds

_BAR_WIDTH = 32
_MAX_ROWS = 61
_SHOWN = 1e-5
"""Rows with at least this chance are shown (as the exact table does)."""


def float_odds_text(odds: FloatOdds, *, all_rows: bool = False) -> str:
    """Value, chance, at least, at most and a bar; the mean and spread; the
    events; and the error bound, said first so nobody reads floats as exact."""
    chances = odds.chances
    peak = float(chances.max()) if len(chances) else 0.0
    present = [int(index) for index in chances.nonzero()[0]]
    shown = present
    if not all_rows:
        shown = [index for index in present if chances[index] >= _SHOWN]
        if len(shown) > _MAX_ROWS:
            middle = max(range(len(shown)), key=lambda i: chances[shown[i]])
            half = _MAX_ROWS // 2
            start = max(0, min(middle - half, len(shown) - _MAX_ROWS))
            shown = shown[start : start + _MAX_ROWS]
    fudge_like = odds.lo < 0 or odds.value_name is not None
    texts = []
    for index in shown:
        value = odds.lo + index
        text = signed(value) if fudge_like else str(value)
        if odds.value_name is not None:
            text = f"{text} {odds.value_name(value)}"
        texts.append(text)
    width = max([len(odds.value_title), *map(len, texts)])
    lines = [
        odds.notation,
        f"({odds.bound_text()})",
        f"{odds.value_title:>{width}}  {'chance':>8}  {'at least':>8}  {'at most':>8}",
    ]
    for index, text in zip(shown, texts, strict=True):
        value = odds.lo + index
        chance = float(chances[index])
        blocks = max(1, round(chance / peak * _BAR_WIDTH)) if peak else 0
        lines.append(
            f"{text:>{width}}  {percent(chance):>8}  {percent(odds.at_least(value)):>8}  "
            f"{percent(odds.at_most(value)):>8}  {'█' * blocks}"
        )
    hidden = len(present) - len(shown)
    if hidden:
        lines.append(f"({hidden:,} rarer outcomes not shown; --all shows every one)")
    lines.append(f"mean {odds.mean:.6g}, stdev {odds.stdev:.6g}")
    if odds.truncated:
        lines.append(
            f"exploding dice followed until a chance of {odds.truncated:.2g} was left "
            "(above the values listed)"
        )
    lines.extend(f"{name}: {percent(p)}" for name, p in odds.events.items())
    return "\n".join(lines)
