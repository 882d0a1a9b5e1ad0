"""Rolls measured side by side (``fudgedice compare``): each roll's exact
odds under its label, in the order given."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from ..budget import within_budget
from ..exact.figures import decimal, exact_text, json_number
from ..exact.odds import Odds


@dataclass(frozen=True, slots=True)
class Compared:
    """One roll of a comparison: what it is called, and its odds."""

    label: str
    """The roll's ``# label``, or its text when it has none."""
    odds: Odds


class ComparisonViews(Protocol):
    """The renderers a comparison hands itself to."""

    def text(self, comparison: Comparison) -> str: ...

    def html(self, comparison: Comparison) -> str: ...

    def plot(self, comparison: Comparison, ax: Any) -> Any: ...

    def frame(self, comparison: Comparison) -> Any: ...


@dataclass(frozen=True, eq=False)
class Comparison:
    """Two rolls or more, each with its exact odds (``fudgedice.compare``)."""

    forms: tuple[Compared, ...]
    views: ComparisonViews | None = field(default=None, repr=False)
    """The renderers; set by the API that measured the rolls."""

    @property
    def labels(self) -> list[str]:
        return [form.label for form in self.forms]

    def __getitem__(self, label: str) -> Odds:
        """The odds of the roll called ``label``."""
        for form in self.forms:
            if form.label == label:
                return form.odds
        raise KeyError(label)

    def __repr__(self) -> str:
        return f"Comparison({', '.join(repr(label) for label in self.labels)})"

    def _views(self) -> ComparisonViews:
        if self.views is None:
            raise ValueError("this comparison was built by hand; fudgedice.compare() makes one")
        return self.views

    @property
    @within_budget
    def text(self) -> str:
        """The table ``fudgedice compare`` prints."""
        return self._views().text(self)

    @within_budget
    def _repr_html_(self) -> str | None:
        return None if self.views is None else self.views.html(self)

    @within_budget
    def plot(self, ax: Any = None) -> Any:
        """The rolls overlaid on matplotlib axes: their chances, and below
        them at least. ``ax``: one Axes (the chances only) or two; None: new
        ones. Returns the axes drawn on."""
        return self._views().plot(self, ax)

    @within_budget
    def to_frame(self) -> Any:
        """A pandas DataFrame of every roll's values, one row a value and a
        roll (pandas is the optional extra ``fudgedice[frames]``)."""
        return self._views().frame(self)

    @within_budget
    def to_dict(self) -> dict[str, Any]:
        """Each roll's odds as ``odds --json`` writes them, under its label;
        with two rolls, the second's mean and events less the first's."""
        out: dict[str, Any] = {
            "forms": [{"label": form.label, **form.odds.to_dict()} for form in self.forms]
        }
        if len(self.forms) == 2:
            first, second = (form.odds for form in self.forms)
            shared = [name for name in first.events if name in second.events]
            out["difference"] = {
                "of": [form.label for form in reversed(self.forms)],
                "mean": _exact(second.mean - first.mean),
                "events": {
                    name: _exact(second.events[name] - first.events[name]) for name in shared
                },
            }
        return out


def _exact(p: Fraction) -> dict[str, Any]:
    # a mean's difference may lie past the float range, as a mean may (odds --json)
    return {"p": json_number(decimal(p)), "exact": exact_text(p)}
