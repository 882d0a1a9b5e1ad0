"""What an :class:`~fudgedice.Odds` shows of itself in a notebook: its table
as text and HTML, a chart on matplotlib axes, a pandas DataFrame.

The odds only hand themselves to the renderers: exact never imports
rendering. The API that measured them sets :attr:`Viewed.views` (the
renderers of :mod:`fudgedice.render.views`), as a program sets the renderer
of a roll's text; odds built by hand have none, and say so.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, Self, cast

from ..budget import within_budget
from .figures import charge_json, decimal, exact_text, json_number

if TYPE_CHECKING:
    from .odds import Odds


class Check(NamedTuple):
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

    @within_budget
    def to_dict(self) -> dict[str, Any]:
        odds = self._odds()
        # every row's exact fraction written out: refused, or charged, before any is built
        charge_json(odds.rows(), len(odds.dist.counts), odds.dist.total, odds.notation)
        return {
            "notation": odds.notation,
            "system": odds.system,
            "value_title": odds.value_title,
            "mean": json_number(decimal(odds.mean)),
            "stdev": json_number(odds.spread),
            "truncated": float(odds.truncated),
            "outcomes": self._outcome_dicts(),
            "tails": [tail.to_dict() for tail in odds.tails],
            "events": {name: self._event_dict(name, p) for name, p in odds.events.items()},
        }

    def _event_dict(self, name: str, p: Fraction) -> dict[str, Any]:
        out: dict[str, Any] = {"p": float(p), "exact": exact_text(p)}
        uncertain = self._odds().uncertain
        if name in uncertain:
            out["uncertain"] = exact_text(uncertain[name])
        return out

    def _outcome_dicts(self) -> list[dict[str, Any]]:
        odds = self._odds()
        rows, naming = odds.outcomes, odds.value_name
        return [{**o.to_dict(), "name": naming and naming(o.value)} for o in rows]
