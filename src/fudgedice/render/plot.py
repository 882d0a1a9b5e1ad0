"""A chart of odds as a PNG or SVG file (matplotlib, no screen needed)."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

from .. import budget
from ..budget import pass_work
from ..errors import DiceValueError
from ..exact.odds import Odds, approximate, decimal

FORMATS = (".png", ".svg")
_MAX_BARS = 60
"""Up to this many values, each is a bar of its own (and a dot on the line)."""
PLOT_WORK = 300_000_000
"""Estimated work of drawing and writing a chart (matplotlib's figure, axes,
layout and file: about 0.15 s measured, whatever the roll), with room for
the first chart of a process."""
POINT_WORK = 45_000
"""Estimated work of each value charted past the bars, as one filled outline
(a vertex of it and of the line: 26 to 43 microseconds measured, PNG or SVG)."""
LINE_WORK = {".png": 55_000, ".svg": 100_000}
"""The same when the values have gaps, each a line of its own (44 to 50
microseconds measured for a PNG, 67 to 92 for an SVG, which writes each)."""
_LARGEST_CHARTED = 10**15
"""Values a chart's axis can place: a float holds integers exactly to about here."""


def check_plot_path(path: str | Path) -> Path:
    """Refuse a file type the chart can't be written as, before any work."""
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise DiceValueError(f"--plot writes .png or .svg files, not '{target.suffix or path}'")
    folder = target.parent
    if not folder.is_dir():
        raise DiceValueError(f"can't write {target}: there is no folder '{folder}'")
    if target.is_dir():
        raise DiceValueError(f"can't write {target}: it is a folder")
    if not os.access(folder, os.W_OK):
        raise DiceValueError(f"can't write {target}: the folder '{folder}' is not writable")
    return target


def plot_odds(odds: Odds, path: str | Path) -> Path:
    """Bars for each value's chance and a line for "at least"; returns the path."""
    return chart(odds, path)()


def chart(odds: Odds, path: str | Path) -> Callable[[], Path]:
    """Check and charge a chart of ``odds`` now, before anything is shown;
    the function returned draws it and returns its path."""
    target = check_plot_path(path)
    # chances as floats straight from the integer counts: a chart needs no
    # Fractions, and 10000dF has 20001 of thousands of digits
    dist = odds.dist
    total = dist.total
    if max(abs(dist.lo), abs(dist.hi)) > _LARGEST_CHARTED:
        # in scientific form as a Decimal: a float can't hold every such value
        farthest = Decimal(dist.hi if abs(dist.hi) >= abs(dist.lo) else dist.lo)
        raise DiceValueError(
            f"values up to {farthest:.3e} are too large to chart; "
            "the table and --json give their exact chances"
        )
    budget.charge(
        PLOT_WORK + pass_work(len(dist.counts), total.bit_length()),
        f"a chart of {odds.notation}",
    )
    above = odds.at_least_counts()
    rows = [(value, count) for value, count in dist.items() if count * 1_000_000 >= total]
    rows = rows or list(dist.items())
    if len(rows) > _MAX_BARS:
        gaps = rows[-1][0] - rows[0][0] != len(rows) - 1
        point = LINE_WORK[target.suffix.lower()] if gaps else POINT_WORK
        budget.charge(point * len(rows), f"a chart of {odds.notation}")
    return lambda: _draw(odds, target, rows, above)


def _draw(odds: Odds, target: Path, rows: list[tuple[int, int]], above: list[int]) -> Path:
    dist = odds.dist
    total = dist.total
    import matplotlib

    matplotlib.use("Agg")  # files only: never needs a display
    import matplotlib.pyplot as plt

    values = [value for value, _ in rows]
    chances = [count / total * 100 for _, count in rows]
    at_least = [above[value - dist.lo] / total * 100 for value, _ in rows]
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=100)
    if len(values) <= _MAX_BARS:
        axes.bar(values, chances, color="#3b6ea5", label="exactly")
    elif values[-1] - values[0] == len(values) - 1:  # as charged above
        # a bar is a millisecond of matplotlib's time: many side by side are
        # one filled outline, which looks the same at this size
        edges = [value - 0.5 for value in values] + [values[-1] + 0.5]
        axes.stairs(chances, edges, fill=True, color="#3b6ea5", label="exactly")
    else:
        axes.vlines(values, 0, chances, color="#3b6ea5", label="exactly")
    axes.set_xlabel("result")
    axes.set_ylabel("chance of exactly (%)")
    mean, stdev = approximate(decimal(odds.mean), 3), approximate(odds.spread, 3)
    # tabs and line breaks have no glyph in the chart's font
    notation = " ".join(odds.notation.split())
    axes.set_title(f"{notation}   mean {mean}, stdev {stdev}")
    second = axes.twinx()
    marker = "." if len(values) <= _MAX_BARS else None
    second.plot(values, at_least, color="#c0392b", marker=marker, label="at least")
    second.set_ylabel("chance of at least (%)")
    second.set_ylim(0, 105)
    figure.legend(loc="upper right")
    try:
        with warnings.catch_warnings():
            # a label may hold any character; one the font lacks is drawn as
            # a box, and matplotlib's warning of it is no news to the reader
            warnings.filterwarnings("ignore", message="Glyph .* missing from", category=UserWarning)
            figure.tight_layout()
            figure.savefig(target)
    except OSError as error:
        raise DiceValueError(f"could not write {target}: {error.strerror}") from None
    finally:
        plt.close(figure)
    return target
