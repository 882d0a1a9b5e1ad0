"""What an :class:`~fudgedice.Odds` shows of itself in a notebook: its table
as text and HTML, a chart on matplotlib axes, a pandas DataFrame.

The odds only hand themselves to the renderers: exact never imports
rendering. The API that measured them sets :attr:`Viewed.views` (the
renderers of :mod:`fudgedice.render.views`), as a program sets the renderer
of a roll's text; odds built by hand have none, and say so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Self, cast

from ..budget import within_budget
from ..records import dataclass

if TYPE_CHECKING:
    from .odds import Odds


@dataclass(frozen=True, slots=True)
class Check:
    """A check's difficulty among the values of its odds: where a chart draws
    the difficulty line, and from where it shades the values that succeed."""

    difficulty: int
    """The value the roll is measured against (``Great`` is +2)."""
    succeeds_from: int
    """The lowest value that succeeds: the difficulty itself in Fudge and the
    D6 System, one more in Fate (meeting it is a tie)."""
    label: str
    """What the line is called on a chart (``difficulty +2 Great``)."""


class OddsViews(Protocol):
    """The renderers an Odds hands itself to."""

    def text(self, odds: Odds) -> str: ...

    def html(self, odds: Odds) -> str: ...

    def plot(self, odds: Odds, ax: Any) -> Any: ...

    def frame(self, odds: Odds) -> Any: ...


class Viewed:
    """The views of an Odds: each one request of the work budget."""

    views: OddsViews | None = None
    """The renderers; set by the API that measured the odds."""
    check: Check | None = None
    """The check these odds measure, if they measure one."""

    def checked(self, check: Check | None) -> Self:
        """These odds, marked as measuring ``check`` (for charts)."""
        self.check = check
        return self

    def _odds(self) -> Odds:
        return cast("Odds", self)

    def _views(self) -> OddsViews:
        if self.views is None:
            raise ValueError(
                "these odds were built by hand; fudgedice.odds(text) measures odds that "
                "show themselves, or fudgedice.render.odds_table.odds_text writes any odds"
            )
        return self.views

    @property
    @within_budget
    def text(self) -> str:
        """The table ``fudgedice odds`` prints."""
        return self._views().text(self._odds())

    @within_budget
    def _repr_html_(self) -> str | None:
        """The same table as HTML, for Jupyter (None: odds built by hand)."""
        return None if self.views is None else self.views.html(self._odds())

    @within_budget
    def plot(self, ax: Any = None) -> Any:
        """Draw the chart of ``fudgedice odds --plot`` on matplotlib axes (new
        ones when ``ax`` is None) and return them."""
        return self._views().plot(self._odds(), ax)

    @within_budget
    def to_frame(self) -> Any:
        """A pandas DataFrame of every value's chance, at least and at most
        (pandas is the optional extra ``fudgedice[frames]``)."""
        return self._views().frame(self._odds())
