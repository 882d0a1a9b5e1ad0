"""Charts of odds drawn on matplotlib axes: one roll (bars, its at-least
line, a check's difficulty and the values that succeed), or several rolls
overlaid. :mod:`.plot` writes them to files; ``Odds.plot`` and
``Comparison.plot`` draw them in a notebook.

Worth printing: whole numbers on the value axis (never -7.5), the ladder's
words under them where the system has a ladder, the axis named for what the
values are (``rolled degree``, ``total``), and the legend above the axes,
clear of the data. matplotlib is imported only when a chart is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from textwrap import fill
from typing import Any

from .. import budget
from ..budget import pass_work
from ..errors import DiceValueError
from ..exact.odds import Odds, approximate, decimal
from .numbers import percent

EXACTLY, AT_LEAST = "#3b6ea5", "#c0392b"
SUCCESS, DIFFICULTY = "#2e8b57", "#333333"
MAX_BARS = 60
"""Up to this many values, each is a bar of its own (and a dot on the line)."""
MAX_WORDS = 25
"""Up to this many values, each is ticked with its ladder word too."""
CHART_WORK = 150_000_000
"""Estimated work of drawing a chart on axes (matplotlib's axes, ticks and
legend: about 0.05 s measured, whatever the roll), with room for the first
chart of a process."""
SERIES_WORK = 20_000_000
"""Estimated work of each roll's bars or lines on a chart."""
POINT_WORK = 45_000
"""Estimated work of each value charted side by side with the next (a vertex
of the outline and of the line: 26 to 43 microseconds measured, PNG or SVG)."""
LINE_WORK = 100_000
"""The same for values with gaps, each a line of its own (44 to 55
microseconds measured for a PNG, 67 to 92 for an SVG, which writes each)."""
LARGEST_CHARTED = 10**15
"""Values a chart's axis can place: a float holds integers exactly to about here."""
SHOWN = 1_000_000
"""Values rarer than one in this many are left off a chart's axis."""


@dataclass(frozen=True, slots=True)
class Series:
    """One roll's chances as the floats a chart needs (percent)."""

    values: list[int]
    exactly: list[float]
    at_least: list[float]


def series(odds: Odds) -> Series:
    """The values worth charting and their chances, as floats straight from
    the integer counts: a chart needs no Fractions, and 10000dF has 20001 of
    thousands of digits. Charges the chart's work to the request."""
    dist = odds.dist
    total = dist.total
    if max(abs(dist.lo), abs(dist.hi)) > LARGEST_CHARTED:
        # in scientific form as a Decimal: a float can't hold every such value
        farthest = Decimal(dist.hi if abs(dist.hi) >= abs(dist.lo) else dist.lo)
        raise DiceValueError(
            f"values up to {farthest:.3e} are too large to chart; "
            "the table and --json give their exact chances"
        )
    budget.charge(
        SERIES_WORK + pass_work(len(dist.counts), total.bit_length()),
        f"a chart of {odds.notation}",
    )
    above = odds.at_least_counts()
    rows = [(value, count) for value, count in dist.items() if count * SHOWN >= total]
    rows = rows or list(dist.items())
    gaps = len(rows) > MAX_BARS and rows[-1][0] - rows[0][0] != len(rows) - 1
    budget.charge((LINE_WORK if gaps else POINT_WORK) * len(rows), f"a chart of {odds.notation}")
    return Series(
        [value for value, _ in rows],
        [count / total * 100 for _, count in rows],
        [above[value - dist.lo] / total * 100 for value, _ in rows],
    )


def one_line(text: str) -> str:
    """Tabs and line breaks have no glyph in the chart's font."""
    return " ".join(text.split())


def plain(text: str) -> str:
    """Text shown as it is written, never as math: matplotlib reads what lies
    between two ``$`` as math (``# costs $5 or $6`` lost its dollars). Applied
    once the text is wrapped, so that no line break parts a ``\\$``."""
    return text.replace("$", r"\$")


def words_wrapped(text: str, width: int) -> str:
    """``text`` in lines of about ``width`` characters, broken only between
    words: a word longer than the width keeps a line of its own, whole."""
    return fill(text, width, break_long_words=False, break_on_hyphens=False)


def summary(odds: Odds) -> str:
    return f"mean {approximate(decimal(odds.mean), 3)}, stdev {approximate(odds.spread, 3)}"


def value_ticks(axes: Any, values: Sequence[int], naming: Callable[[int], str] | None) -> None:
    """Whole numbers on the value axis; with a ladder and few values, every
    value ticked with its word under its number (``+2`` over ``Great``)."""
    from matplotlib.ticker import MaxNLocator

    if naming is not None and len(values) <= MAX_WORDS:
        axes.set_xticks(list(values))
        crowded = len(values) > CROWDED
        # "Epic: succeed with style": a line a part, none much wider than its bar
        width = 10 if not crowded else max(6, 96 // len(values))
        labels = tick_labels(values, naming, width, crowded)
        longest = max(len(line) for label in labels for line in label.split("\n"))
        # a whole word wider than its bar would run into the next: turned upright instead
        upright = crowded and longest > width + 1
        if upright:  # a line a label, read upwards: "+3 Superb"
            labels = [label.replace("\n", " ") for label in labels]
        axes.set_xticklabels(labels, fontsize=7 if crowded else 8, rotation=90 if upright else 0)
    else:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))


CROWDED = 13
"""Past this many ticked values, the labels are smaller, and a part that
repeats the value before's (an outcome: ``succeed with style``) is left off:
it is said once, under the first value of its run."""


def tick_labels(
    values: Sequence[int], naming: Callable[[int], str], width: int, crowded: bool
) -> list[str]:
    """Each value's number over its name's parts (``Epic: succeed with
    style``), a line a part, wrapped between words only."""
    labels = []
    before: list[str] = []
    for value in values:
        parts = one_line(naming(value)).split(": ")
        shown = [
            part
            for index, part in enumerate(parts)
            if not (crowded and index < len(before) and before[index] == part)
        ]
        before = parts
        lines = [f"{value:+d}", *(words_wrapped(part, width) for part in shown)]
        labels.append(plain("\n".join(lines)))
    return labels


LEGEND_CHARACTERS = 96
"""Characters of legend a row holds at the charts' width: a longer name (a
roll's whole text, a difficulty of a hundred digits) is wrapped to its share
of them, or the legend would be wider than the figure and no layout fits it."""


def legend_above(axes: Any, handles: list[Any], columns: int) -> None:
    """The legend in a row above the axes, under the title: never over the data."""
    width = max(16, LEGEND_CHARACTERS // max(1, columns))
    axes.legend(
        handles=handles,
        labels=[plain(fill(handle.get_label(), width)) for handle in handles],
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        ncol=max(1, columns),
        frameon=False,
        fontsize=9,
    )


def draw_odds(odds: Odds, axes: Any) -> Any:
    """Bars of each value's chance, a line of "at least" on a second scale,
    and for a check its difficulty and the values that succeed, shaded."""
    budget.charge(CHART_WORK, f"a chart of {odds.notation}")
    data = series(odds)
    values = data.values
    handles: list[Any] = []
    if len(values) <= MAX_BARS:
        handles.append(axes.bar(values, data.exactly, color=EXACTLY, label="exactly"))
    elif values[-1] - values[0] == len(values) - 1:  # no gaps: as charged in series()
        # a bar is a millisecond of matplotlib's time: many side by side are
        # one filled outline, which looks the same at this size
        edges = [value - 0.5 for value in values] + [values[-1] + 0.5]
        handles.append(axes.stairs(data.exactly, edges, fill=True, color=EXACTLY, label="exactly"))
    else:
        handles.append(axes.vlines(values, 0, data.exactly, color=EXACTLY, label="exactly"))
    check = odds.check
    # a difficulty past what the axis can place (vs 10**309) is left off the
    # chart: no charted value reaches it, and a float can't hold it
    if check is not None and values and _placeable(check.succeeds_from, check.difficulty):
        success = odds.events.get("success", odds.events.get("win"))
        chance = odds.at_least(check.succeeds_from) if success is None else success
        handles.append(
            axes.axvspan(
                check.succeeds_from - 0.5,
                max(values[-1], check.succeeds_from) + 0.5,
                color=SUCCESS,
                alpha=0.15,
                zorder=0,
                label=f"success ({percent(chance)})",
            )
        )
        handles.append(
            axes.axvline(
                check.difficulty, color=DIFFICULTY, linestyle="--", label=one_line(check.label)
            )
        )
    axes.set_xlabel(plain(one_line(odds.value_title)))
    axes.set_ylabel("chance of exactly (%)")
    axes.set_ylim(bottom=0)
    value_ticks(axes, values, odds.value_name)
    # a long roll is wrapped as the legend is, so the chart keeps its width
    title = fill(f"{one_line(odds.notation)}   {summary(odds)}", LEGEND_CHARACTERS)
    axes.set_title(plain(title), pad=22)
    second = axes.twinx()
    marker = "." if len(values) <= MAX_BARS else None
    (line,) = second.plot(values, data.at_least, color=AT_LEAST, marker=marker, label="at least")
    handles.insert(1, line)
    second.set_ylabel("chance of at least (%)")
    second.set_ylim(0, 105)
    legend_above(axes, handles, len(handles))
    return axes


def _placeable(*values: int) -> bool:
    return all(abs(value) <= LARGEST_CHARTED for value in values)


MARKERS = ("o", "s", "^", "D", "v", "P")
"""A marker a roll, so that rolls whose lines meet stay told apart."""
DASHES = ("--", ":", "-.")
"""The line styles of a roll whose chances are another's, drawn over it."""


def draw_comparison(labels: Sequence[str], odds: Sequence[Odds], axes: Any) -> None:
    """Rolls overlaid, one colour a roll: each value's chance on the first
    axes, at least on the second (``axes``: one Axes, or a pair)."""
    import matplotlib as mpl
    from matplotlib.axes import Axes

    pair = [axes] if isinstance(axes, Axes) else list(axes)
    exactly_axes, bottom = pair[0], pair[-1]
    least_axes = pair[1] if len(pair) > 1 else None
    budget.charge(CHART_WORK, "a chart of the comparison")
    colours = mpl.color_sequences["tab10"]
    drawn = [series(each) for each in odds]
    values = sorted({value for data in drawn for value in data.values})
    handles = []
    for index, (label, each, data) in enumerate(zip(labels, odds, drawn, strict=True)):
        twin = next((earlier for earlier in range(index) if drawn[earlier] == data), None)
        style: dict[str, Any] = {
            "color": colours[index % len(colours)],
            "marker": MARKERS[index % len(MARKERS)] if len(data.values) <= MAX_BARS else None,
            "markersize": 4,
            "zorder": 2 + index,
        }
        if twin is not None:
            # drawn over an identical line, it would hide it: dashed, its
            # markers hollow and larger, the other's seen through them
            style.update(linestyle=DASHES[index % len(DASHES)], markersize=8, fillstyle="none")
        name = f"{one_line(label)} ({summary(each)})"
        if twin is not None:
            name += f", identical to {one_line(labels[twin])}"
        (line,) = exactly_axes.plot(data.values, data.exactly, label=name, **style)
        if least_axes is not None:
            least_axes.plot(data.values, data.at_least, **style)
        handles.append(line)
    exactly_axes.set_ylabel("chance of exactly (%)")
    exactly_axes.set_ylim(bottom=0)
    if least_axes is not None:
        least_axes.set_ylabel("chance of at least (%)")
        least_axes.set_ylim(0, 105)
        exactly_axes.tick_params(labelbottom=False)
    titles = dict.fromkeys(one_line(each.value_title) for each in odds)
    bottom.set_xlabel(plain(" / ".join(titles)))
    for axis in pair:
        axis.grid(axis="y", alpha=0.3)
    value_ticks(bottom, values, _common_names(odds, values))
    legend_above(exactly_axes, handles, 2 if len(handles) > 2 else len(handles))


def _common_names(odds: Sequence[Odds], values: Sequence[int]) -> Callable[[int], str] | None:
    """How to name the values when every roll names each of them alike (4dF
    and 4dF@3d6 on the Fudge ladder); None when any roll has no names or two
    name a value differently (Fudge's Good is Fate's Average)."""
    namings = [each.value_name for each in odds]
    if any(naming is None for naming in namings) or len(values) > MAX_WORDS:
        return None
    names: dict[int, str] = {}
    for value in values:
        said = {naming(value) for naming in namings if naming is not None}
        if len(said) != 1:
            return None
        names[value] = said.pop()
    return names.__getitem__
