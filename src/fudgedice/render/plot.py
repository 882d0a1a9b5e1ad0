"""Charts of odds as PNG or SVG files, and on axes of a notebook's own.

A file is drawn on a figure of its own, never through pyplot: no display is
needed, no backend is chosen for the whole process, and a notebook that
writes a file keeps its inline charts. matplotlib is imported only here,
when a chart is asked for.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .. import budget
from ..errors import DiceValueError
from ..exact.odds import Odds
from .chart import draw_comparison, draw_odds

FORMATS = (".png", ".svg")
FILE_WORK = 150_000_000
"""Estimated work of laying out and writing a chart's file (about 0.1 s
measured for a PNG, more for the first chart of a process)."""


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


def _written(
    target: Path, size: tuple[float, float], rows: int, draw: Callable[[Any], Any]
) -> Path:
    """A figure of ``rows`` axes (sharing their values), drawn and written."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    budget.charge(FILE_WORK, f"writing {target.name}")
    figure = Figure(figsize=size, dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.subplots(rows, 1, sharex=True, squeeze=False)[:, 0]
    with warnings.catch_warnings():
        # a label may hold any character; one the font lacks is drawn as a
        # box, and matplotlib's warning of it is no news to the reader
        warnings.filterwarnings("ignore", message="Glyph .* missing from", category=UserWarning)
        draw(axes)
        figure.tight_layout()
        try:
            figure.savefig(target, bbox_inches="tight")
        except OSError as error:
            raise DiceValueError(f"could not write {target}: {error.strerror}") from None
    return target


def plot_odds(odds: Odds, path: str | Path) -> Path:
    """Bars for each value's chance and a line for "at least"; returns the path."""
    target = check_plot_path(path)
    return _written(target, (8, 4.8), 1, lambda axes: draw_odds(odds, axes[0]))


def plot_comparison(labels: Sequence[str], odds: Sequence[Odds], path: str | Path) -> Path:
    """Rolls overlaid, their chances above and at least below; returns the path."""
    target = check_plot_path(path)
    return _written(target, (9, 7.5), 2, lambda axes: draw_comparison(labels, odds, axes))


def new_axes(rows: int = 1) -> Any:
    """Fresh axes from pyplot, for a notebook: its figure shows inline."""
    import matplotlib.pyplot as plt

    _, axes = plt.subplots(rows, 1, sharex=True, squeeze=False, figsize=(8, 4.8 * rows))
    return axes[:, 0]
