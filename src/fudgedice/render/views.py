"""The renderers that odds and comparisons hand themselves to in a notebook
(their ``text``, ``_repr_html_``, ``plot`` and ``to_frame``): the same
tables the command line prints, the same charts it writes."""

from __future__ import annotations

from typing import Any

from ..exact.odds import Odds
from ..results.comparison import Comparison
from .chart import draw_comparison, draw_odds
from .compare_table import comparison_html, comparison_text
from .frame import comparison_frame, odds_frame
from .html import odds_html
from .odds_table import odds_text
from .plot import new_axes


class OddsRenderers:
    """:class:`~fudgedice.exact.views.OddsViews` by the project's renderers."""

    def text(self, odds: Odds) -> str:
        return odds_text(odds)

    def html(self, odds: Odds) -> str:
        return odds_html(odds)

    def plot(self, odds: Odds, ax: Any) -> Any:
        return draw_odds(odds, new_axes(1)[0] if ax is None else ax)

    def frame(self, odds: Odds) -> Any:
        return odds_frame(odds)


class ComparisonRenderers:
    """:class:`~fudgedice.results.comparison.ComparisonViews` by the project's renderers."""

    def text(self, comparison: Comparison) -> str:
        return comparison_text(comparison)

    def html(self, comparison: Comparison) -> str:
        return comparison_html(comparison)

    def plot(self, comparison: Comparison, ax: Any) -> Any:
        # one Axes: the chances alone; two (or none: new ones): at least too
        axes = new_axes(2) if ax is None else ax
        draw_comparison(comparison.labels, [form.odds for form in comparison.forms], axes)
        return axes

    def frame(self, comparison: Comparison) -> Any:
        return comparison_frame(comparison.labels, [form.odds for form in comparison.forms])


ODDS_RENDERERS = OddsRenderers()
COMPARISON_RENDERERS = ComparisonRenderers()
