"""A roll's odds drawn as a PNG, to attach to a message: the project's own
chart (:func:`fudgedice.render.plot.plot_odds`), within one budget of work."""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..api import SYSTEMS, compile_roll, parse, shown
from ..budget import within_budget
from ..render.plot import plot_odds


@within_budget
def chart_png(text: str, system: str) -> bytes:
    """The chart of ``text``'s odds, read in ``system`` unless it names its
    own, as PNG bytes. A module function: a measuring process runs it."""
    own = parse(text).system_position is not None or system == SYSTEMS.default
    odds = shown(compile_roll(text if own else f"{system}: {text}").odds())
    with tempfile.TemporaryDirectory(prefix="fudgedice-chart-") as folder:
        return plot_odds(odds, Path(folder) / "odds.png").read_bytes()
