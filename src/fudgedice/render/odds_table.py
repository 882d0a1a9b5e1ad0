"""The table of odds a player reads: each value's chance, at least, at most,
a bar, then the mean, the spread and the events."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

from .. import budget
from ..budget import linear_work, str_work
from ..errors import LimitError
from ..exact.figures import MAX_EXACT_CHARACTERS, too_many_digits
from ..exact.odds import Odds, Tail, approximate, decimal
from .numbers import digits, exact, percent, signed
from .sparkline import shape_line

_BAR_WIDTH = 32
_MAX_ROWS = 61


class _Row(NamedTuple):
    """One printed row of the odds table: a value (or a tail's range) and its chances."""

    value: str
    p: Fraction
    at_least: float | None
    at_most: float | None
    """None: nothing to say (a tail with no known side)."""
    ways: int
    """The ways of ``p`` over all the ways: for the bar."""


def _tail_row(odds: Odds, tail: Tail, fudge_like: bool) -> _Row:
    """A tail as a row: its range, its chance, and the chances of its bounds
    where they are exact (another tail may straddle them: then blank)."""
    low, high = tail.low, tail.high
    label = tail.describe(signed if fudge_like else str)
    above = odds.chance_between(low, None) if low is not None or high is not None else None
    below = odds.chance_between(None, high) if low is not None or high is not None else None
    return _Row(
        label,
        tail.p,
        None if above is None or above.uncertain else float(above.p),
        None if below is None or below.uncertain else float(below.p),
        tail.p.numerator * (odds.dist.total // tail.p.denominator),
    )


class OddsLayout(NamedTuple):
    """The odds table as cells, before it is written as text or HTML: both
    show the same rows, columns and notes."""

    title: str
    columns: tuple[str, ...]
    """The value's title, chance, exact (when shown), at least, at most."""
    rows: list[tuple[str, ...]]
    bars: list[int]
    """Each row's bar, in blocks of at most 32 (0: no bar)."""
    notes: list[str]
    """Under the rows: rows not shown, fractions left out, the shape."""
    footer: list[str]
    """Mean and spread, the tails, the events."""


SHAPE_ROWS = 20
"""A table of more rows than this (or with rows left out) ends with its shape
on one line, to be seen without scrolling."""


def _shown_rows(counts: tuple[int, ...], total: int, present: list[int]) -> list[int]:
    """The rows a table shows of a wide pool: those that hold almost all the
    probability, at most ``_MAX_ROWS`` of them around the likeliest."""
    if len(present) <= _MAX_ROWS:
        return present
    shown = [index for index in present if counts[index] * 100_000 >= total]
    if len(shown) > _MAX_ROWS:
        middle = max(range(len(shown)), key=lambda i: counts[shown[i]])
        half = _MAX_ROWS // 2
        start = max(0, min(middle - half, len(shown) - _MAX_ROWS))
        shown = shown[start : start + _MAX_ROWS]
    return shown


def _event_lines(odds: Odds, show_exact: bool) -> list[str]:
    """Each event's chance, exact when short, and how far a tail leaves it open."""
    lines = []
    for name, p in odds.events.items():
        line = f"{name}: {percent(p)}"
        if show_exact or digits(p.numerator) + digits(p.denominator) < 40:
            line += f" ({exact(p)})"
        if name in odds.uncertain:
            line += f", or up to {float(odds.uncertain[name]):.2g} more (a tail straddles it)"
        lines.append(line)
    return lines


def _refuse_long_fractions(rows: int, total: int) -> None:
    """A LimitError if the exact fractions of ``rows`` rows over ``total``
    would be more digits than the limit."""
    if too_many_digits(rows, total):
        widest = 2 * digits(total) + 1
        raise LimitError(
            f"the exact fractions of {rows:,} rows would take up to "
            f"{rows * widest // 1_000_000} MB of digits, more than the limit of "
            f"{MAX_EXACT_CHARACTERS // 1_000_000} MB",
            hint="without --all the table shows the rows that hold the probability; "
            "without --exact, percentages",
        )


def odds_layout(odds: Odds, *, show_exact: bool = False, all_rows: bool = False) -> OddsLayout:
    """The rows of :func:`odds_text`: every chance as text, each row's bar."""
    # Rows are chosen from the integer counts, and Fractions built only for
    # the rows shown: 10000dF has 20001 outcomes of thousands of digits each.
    counts, lo, total = odds.dist.counts, odds.dist.lo, odds.dist.total
    # the mean and spread first: a table too long for what is left of the
    # budget is then refused as the table it is
    summary = f"mean {approximate(decimal(odds.mean))}, stdev {approximate(odds.spread)}"
    or_more, or_less = odds.at_least_counts(), odds.at_most_counts()
    present = [index for index, count in enumerate(counts) if count]
    shown = present if all_rows else _shown_rows(counts, total, present)
    hidden = len(present) - len(shown)
    # refuse before any long number is written out
    if show_exact:
        _refuse_long_fractions(len(shown), total)
    bits = total.bit_length()
    # each row: its chance as a Fraction (for the exact column), and the
    # cumulative columns as floats straight from the integer counts
    budget.charge(
        len(shown) * (odds.fraction_work() + 6 * linear_work(bits) + 10_000)
        + (len(shown) * 2 * str_work(bits) if show_exact else 0),
        f"the odds table of {odds.notation}",
        lambda left: "without --all the table shows the rows that hold the probability",
    )
    values = [lo + index for index in shown]
    least = [_share(or_more[index] + odds.tail_counts(lo + index, None), total) for index in shown]
    most = [_share(or_less[index] + odds.tail_counts(None, lo + index), total) for index in shown]
    peak = max(counts)
    # degrees and margins carry their sign (+1 Good) even when none is negative
    fudge_like = odds.low < 0 or odds.value_name is not None
    value_text = [signed(value) if fudge_like else str(value) for value in values]
    if odds.value_name is not None:
        naming = odds.value_name
        value_text = [
            f"{text} {naming(value)}" for text, value in zip(value_text, values, strict=True)
        ]
    # a symmetric pool (every Fudge pool) has each chance twice: built once
    mirror = len(counts) - 1 + 2 * lo if counts == counts[::-1] else None
    chances: dict[int, Fraction] = {}
    for value in values:
        known = chances.get(mirror - value) if mirror is not None else None
        chances[value] = known if known is not None else odds.probability(value)
    rows = [
        _Row(text, chances[value], surely_above, surely_below, counts[value - lo])
        for text, value, surely_above, surely_below in zip(
            value_text, values, least, most, strict=True
        )
    ]
    # the tails: "N or less" above the outcomes, the others below them
    tails = [_tail_row(odds, tail, fudge_like) for tail in odds.tails]
    pairs = list(zip(tails, odds.tails, strict=True))
    below = [row for row, tail in pairs if tail.low is None and tail.high is not None]
    above = [row for row, tail in pairs if tail.low is not None or tail.high is None]
    rows = below + rows + above
    # digits known from bit lengths, before any long number is written out
    longest = max(digits(row.p.numerator) + digits(row.p.denominator) + 1 for row in rows)
    exact_column = show_exact or longest <= 24
    columns = [odds.value_title, "chance", *(["exact"] if exact_column else []), "at least"]
    cells = []
    for row in rows:
        at_least = "" if row.at_least is None else percent(row.at_least)
        at_most = "" if row.at_most is None else percent(row.at_most)
        fraction = [exact(row.p)] if exact_column else []
        cells.append((row.value, percent(row.p), *fraction, at_least, at_most))
    notes = []
    if hidden:
        notes.append(f"({hidden} rarer outcomes not shown; --all shows every one)")
    if not exact_column:
        notes.append("(exact fractions are long here; --exact shows them)")
    if len(rows) > SHAPE_ROWS or hidden:
        notes.append(shape_line(odds))
    footer = [summary, *_tail_notes(odds, values), *_event_lines(odds, show_exact)]
    bars = [_bar(row.ways, peak) if row.ways else 0 for row in rows]
    return OddsLayout(odds.notation, (*columns, "at most"), cells, bars, notes, footer)


def odds_text(odds: Odds, *, show_exact: bool = False, all_rows: bool = False) -> str:
    """The table a player reads: value, chance (percent and fraction),
    at least, at most and a bar; then mean and spread."""
    layout = odds_layout(odds, show_exact=show_exact, all_rows=all_rows)
    # percentages take 8 places; the value and exact columns their longest
    widths = [max(len(layout.columns[0]), *(len(row[0]) for row in layout.rows))]
    for index, name in enumerate(layout.columns[1:], start=1):
        widths.append(max(len(row[index]) for row in layout.rows) if name == "exact" else 8)
    header = "  ".join(
        f"{name:>{width}}" for name, width in zip(layout.columns, widths, strict=True)
    )
    lines = [layout.title, header]
    for row, blocks in zip(layout.rows, layout.bars, strict=True):
        cells = "  ".join(f"{cell:>{width}}" for cell, width in zip(row, widths, strict=True))
        lines.append(f"{cells}  {'█' * blocks}")
    return "\n".join([*lines, *layout.notes, *layout.footer])


def _bar(ways: int, peak: int) -> int:
    """Blocks of a row's bar: ``ways`` to the peak's, of the full width,
    rounded half to even in integers (a Fraction of numbers of thousands of
    digits is a gcd a row), and at least one."""
    blocks, rest = divmod(ways * _BAR_WIDTH, peak)
    if 2 * rest > peak or (2 * rest == peak and blocks % 2):
        blocks += 1
    return max(1, blocks)


def _share(count: int, total: int) -> float:
    """``count / total`` as a float, to some 18 digits, however long the
    numbers: the leading 64 bits of each, and the power of two they stand for
    (a float division of numbers of thousands of digits is a long one)."""
    if total.bit_length() <= 1024:
        return count / total
    shift_count = max(count.bit_length() - 64, 0)
    shift_total = total.bit_length() - 64
    return math.ldexp((count >> shift_count) / (total >> shift_total), shift_count - shift_total)


def _tail_notes(odds: Odds, values: list[int]) -> list[str]:
    """What the tail rows are, and which cumulative chances they leave uncertain."""
    if not odds.tails:
        return []
    rows = "the tail row" if len(odds.tails) == 1 else "the tail rows"
    notes = [
        f"exploding dice followed until a chance of {float(odds.truncated):.2g} was left: {rows}"
    ]
    unsure = [
        value for value in values if odds.straddled(value, None) or odds.straddled(None, value)
    ]
    if unsure:
        notes.append(
            f"at least / at most of {_span(unsure)} count only the tails surely in them "
            f"(low by at most {float(odds.truncated):.2g})"
        )
    return notes


def _span(values: list[int]) -> str:
    if len(values) == 1:
        return str(values[0])
    return f"{values[0]}..{values[-1]}"
