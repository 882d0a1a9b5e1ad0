"""The table of odds a player reads: each value's chance, at least, at most,
a bar, then the mean, the spread and the events."""

from __future__ import annotations

from fractions import Fraction

from ..errors import LimitError
from ..exact.odds import MAX_DIGIT_WORK, MAX_EXACT_CHARACTERS, Odds, approximate, decimal
from .numbers import digits, exact, percent, signed

_BAR_WIDTH = 32
_MAX_ROWS = 61


def odds_text(odds: Odds, *, show_exact: bool = False, all_rows: bool = False) -> str:
    """The table a player reads: value, chance (percent and fraction),
    at least, at most and a bar; then mean and spread."""
    # Rows are chosen from the integer counts, and Fractions built only for
    # the rows shown: 10000dF has 20001 outcomes of thousands of digits each.
    counts, lo, total = odds.dist.counts, odds.dist.lo, odds.dist.total
    present = [index for index, count in enumerate(counts) if count]
    shown = present
    if not all_rows and len(present) > _MAX_ROWS:
        # Wide pools: keep the rows that hold almost all the probability.
        shown = [index for index in present if counts[index] * 100_000 >= total]
        if len(shown) > _MAX_ROWS:
            middle = max(range(len(shown)), key=lambda i: counts[shown[i]])
            half = _MAX_ROWS // 2
            start = max(0, min(middle - half, len(shown) - _MAX_ROWS))
            shown = shown[start : start + _MAX_ROWS]
    hidden = len(present) - len(shown)
    # at most every digit of the denominator twice a row: refuse before any is written
    widest = 2 * digits(total) + 1
    if show_exact and (
        len(shown) * widest > MAX_EXACT_CHARACTERS
        or len(shown) * widest * widest > 2 * MAX_DIGIT_WORK
    ):
        raise LimitError(
            f"the exact fractions of {len(shown):,} rows would take up to "
            f"{len(shown) * widest // 1_000_000} MB of digits, more than the limit of "
            f"{MAX_EXACT_CHARACTERS // 1_000_000} MB",
            hint="without --all the table shows the rows that hold the probability; "
            "without --exact, percentages",
        )
    rows = [odds.outcome_at(lo + index) for index in shown]
    peak = Fraction(max(counts), total)
    # degrees and margins carry their sign (+1 Good) even when none is negative
    fudge_like = odds.low < 0 or odds.value_name is not None
    value_text = [signed(o.value) if fudge_like else str(o.value) for o in rows]
    if odds.value_name is not None:
        naming = odds.value_name
        value_text = [f"{text} {naming(o.value)}" for text, o in zip(value_text, rows, strict=True)]
    # digits known from bit lengths, before any long number is written out
    longest = max(digits(o.p.numerator) + digits(o.p.denominator) + 1 for o in rows)
    exact_column = show_exact or longest <= 24
    fractions = [exact(o.p) for o in rows] if exact_column else [""] * len(rows)
    fraction_width = max(len(f) for f in fractions)
    width = max(len(odds.value_title), max(len(v) for v in value_text))
    header = f"{odds.value_title:>{width}}  {'chance':>8}"
    if exact_column:
        header += f"  {'exact':>{fraction_width}}"
    header += f"  {'at least':>8}  {'at most':>8}"
    lines = [odds.notation, header]
    for outcome, value, fraction in zip(rows, value_text, fractions, strict=True):
        bar = "█" * max(1, round(float(outcome.p / peak) * _BAR_WIDTH)) if outcome.p else ""
        line = f"{value:>{width}}  {percent(outcome.p):>8}"
        if exact_column:
            line += f"  {fraction:>{fraction_width}}"
        line += f"  {percent(outcome.at_least):>8}  {percent(outcome.at_most):>8}  {bar}"
        lines.append(line)
    if hidden:
        lines.append(f"({hidden} rarer outcomes not shown; --all shows every one)")
    if not exact_column:
        lines.append("(exact fractions are long here; --exact shows them)")
    lines.append(f"mean {approximate(decimal(odds.mean))}, stdev {approximate(odds.spread)}")
    if odds.truncated:
        lines.append(
            f"exploding dice cut off after a chance of {float(odds.truncated):.2g} (left out)"
        )
    for name, p in odds.events.items():
        line = f"{name}: {percent(p)}"
        if show_exact or digits(p.numerator) + digits(p.denominator) < 40:
            line += f" ({exact(p)})"
        lines.append(line)
    return "\n".join(lines)
