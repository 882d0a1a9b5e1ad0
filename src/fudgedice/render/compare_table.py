"""The table of ``fudgedice compare``: a column a roll, and blocks of rows
(the chance of each value, at least, at most, the events, mean and spread);
with two rolls, a column of the second less the first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .. import budget
from ..exact.odds import Odds, approximate, decimal
from ..results.comparison import Comparison
from .html import lines_html, table_html
from .numbers import exact, percent, signed

MAX_VALUES = 61
"""Value rows of a block at most (the odds table's limit)."""
SHOWN = 100_000
"""A value is a row when some roll has it once in this many or more often."""


@dataclass(frozen=True, slots=True)
class ComparisonLayout:
    """The table as cells: written as text or HTML alike."""

    columns: tuple[str, ...]
    """What the values are, each roll's label, and ``difference`` for two."""
    rows: list[tuple[str, ...]]
    """Cells, or one cell alone: the title of the block below it."""
    notes: list[str]


def _values(odds: Sequence[Odds]) -> tuple[list[int], int]:
    """The values some roll has often enough to show, and how many were left out."""
    found: set[int] = set()
    for each in odds:
        counts, total = each.dist.counts, each.dist.total
        found.update(each.low + i for i, count in enumerate(counts) if count * SHOWN >= total)
    values = sorted(found)
    if len(values) <= MAX_VALUES:
        return values, 0
    # keep the values around the one most likely in any roll
    peak = max(values, key=lambda value: max(float(each.probability(value)) for each in odds))
    start = max(0, min(values.index(peak) - MAX_VALUES // 2, len(values) - MAX_VALUES))
    return values[start : start + MAX_VALUES], len(values) - MAX_VALUES


def _name(odds: Sequence[Odds], value: int, fudge_like: bool) -> str:
    """A value's number, and its name when every roll names it alike."""
    number = signed(value) if fudge_like else str(value)
    namings = [each.value_name for each in odds]
    said = {naming(value) for naming in namings if naming is not None}
    if None in namings or len(said) != 1:
        return number
    return f"{number} {said.pop()}"


def comparison_layout(comparison: Comparison, *, show_exact: bool = False) -> ComparisonLayout:
    """The cells of :func:`comparison_text`."""
    labels = comparison.labels
    odds = [form.odds for form in comparison.forms]
    two = len(odds) == 2
    values, hidden = _values(odds)
    work = sum(each.fraction_work() for each in odds) * 3 * len(values)
    budget.charge(work, "the table of the comparison")
    fudge_like = any(each.low < 0 or each.value_name is not None for each in odds)

    def chance(p: Fraction) -> str:
        return exact(p) if show_exact else percent(p)

    def gap(p: Fraction) -> str:
        # a difference of two chances: signed, in the same unit as they are
        if show_exact:
            return exact(p) if p < 0 else f"+{exact(p)}"
        return f"{float(p) * 100:+.2f}%"

    def block(title: str, measure: Callable[[Odds, int], Fraction]) -> list[tuple[str, ...]]:
        rows: list[tuple[str, ...]] = [(title,)]
        for value in values:
            chances = [measure(each, value) for each in odds]
            extra = (gap(chances[1] - chances[0]),) if two else ()
            name = _name(odds, value, fudge_like)
            rows.append((name, *(chance(p) for p in chances), *extra))
        return rows

    rows = block("chance of exactly", Odds.probability)
    rows += block("chance of at least", Odds.at_least)
    rows += block("chance of at most", Odds.at_most)
    events: list[str] = []
    for each in odds:
        events += [name for name in each.events if name not in events]
    if events:
        rows.append(("events",))
    for name in events:
        chances = [each.events.get(name) for each in odds]
        first, second = chances[0], chances[-1]
        extra = (gap(second - first),) if two and first is not None and second is not None else ()
        cells = tuple("-" if p is None else chance(p) for p in chances)
        rows.append((name, *cells, *(extra or (("-",) if two else ()))))
    rows.append(("spread",))
    means = [decimal(each.mean) for each in odds]
    spreads = [each.spread for each in odds]
    mean_gap = (f"{means[1] - means[0]:+.4g}",) if two else ()
    spread_gap = (f"{spreads[1] - spreads[0]:+.4g}",) if two else ()
    rows.append(("mean", *(approximate(mean) for mean in means), *mean_gap))
    rows.append(("stdev", *(approximate(spread) for spread in spreads), *spread_gap))
    titles = {each.value_title for each in odds}
    title = titles.pop() if len(titles) == 1 else "value"
    columns = (title, *labels, *(("difference",) if two else ()))
    notes = []
    if hidden:
        notes.append(f"({hidden} rarer values not shown; fudgedice odds shows each roll's)")
    if any(each.tails for each in odds):
        notes.append("(exploding dice: the chances past the rows are each roll's tail)")
    if two:
        notes.append(f"difference: {labels[1]} less {labels[0]}")
    return ComparisonLayout(columns, rows, notes)


def comparison_text(comparison: Comparison, *, show_exact: bool = False) -> str:
    """The comparison as the command line prints it: aligned columns, each
    block's title on a line of its own."""
    layout = comparison_layout(comparison, show_exact=show_exact)
    cells = [row for row in layout.rows if len(row) > 1]
    width = max(len(layout.columns[0]), *(len(row[0]) for row in cells))
    widths = [width] + [
        max(len(name), *(len(row[index]) for row in cells))
        for index, name in enumerate(layout.columns[1:], start=1)
    ]

    def line(row: Sequence[str]) -> str:
        first = f"{row[0]:<{widths[0]}}"
        return "  ".join(
            [first, *(f"{cell:>{w}}" for cell, w in zip(row[1:], widths[1:], strict=True))]
        )

    lines = [line(layout.columns)]
    lines += [row[0] if len(row) == 1 else line(row) for row in layout.rows]
    return "\n".join([*lines, *layout.notes])


def comparison_html(comparison: Comparison) -> str:
    """The same table as HTML, for notebooks."""
    layout = comparison_layout(comparison)
    caption = "compare: " + ", ".join(comparison.labels)
    table = table_html(caption, layout.columns, layout.rows, css_class="fudgedice-compare")
    return f'<div class="fudgedice">{table}{lines_html(layout.notes)}</div>'
