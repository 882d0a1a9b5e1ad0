"""The renderers that odds and comparisons hand themselves to in a notebook
(their ``text``, ``_repr_html_``, ``plot`` and ``to_frame``): the same
tables the command line prints, the same charts it writes.

Each renderer is imported when first used: ``fudgedice odds 4dF`` hands its
odds these renderers but prints the table itself, and never loads HTML,
charts or frames.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..exact.odds import Odds
    from ..results.comparison import Comparison


class OddsRenderers:
    """:class:`~fudgedice.exact.views.OddsViews` by the project's renderers."""

    def text(self, odds: Odds) -> str:
        from .odds_table import odds_text  # here and below: loaded when first shown

        return odds_text(odds)

    def html(self, odds: Odds) -> str:
        from .html import odds_html

        return odds_html(odds)

    def plot(self, odds: Odds, ax: Any) -> Any:
        from .chart import draw_odds
        from .plot import new_axes

        return draw_odds(odds, new_axes(1)[0] if ax is None else ax)

    def frame(self, odds: Odds) -> Any:
        from .frame import odds_frame

        return odds_frame(odds)


class ComparisonRenderers:
    """:class:`~fudgedice.results.comparison.ComparisonViews` by the project's renderers."""

    def text(self, comparison: Comparison) -> str:
        from .compare_table import comparison_text

        return comparison_text(comparison)

    def html(self, comparison: Comparison) -> str:
        from .compare_table import comparison_html

        return comparison_html(comparison)

    def plot(self, comparison: Comparison, ax: Any) -> Any:
        from .chart import draw_comparison
        from .plot import new_axes

        # one Axes: the chances alone; two (or none: new ones): at least too
        axes = new_axes(2) if ax is None else ax
        draw_comparison(comparison.labels, [form.odds for form in comparison.forms], axes)
        return axes

    def frame(self, comparison: Comparison) -> Any:
        from .frame import comparison_frame

        return comparison_frame(comparison.labels, [form.odds for form in comparison.forms])


ODDS_RENDERERS = OddsRenderers()
COMPARISON_RENDERERS = ComparisonRenderers()
