"""Float odds: a distribution in float64, with a bound on every chance's error.

What ``odds(text, exact=False)`` returns where exact counts would be too
large (``100000dF``, ``1000000d6``, ``d6: 100000D``): the chances of the
values that matter, computed by FFT (:mod:`fudgedice.dice.spectral`), each
within :attr:`FloatOdds.error` of the exact chance. It answers the questions
:class:`~fudgedice.exact.odds.Odds` does, in floats, and says so in its text
and JSON (``"exact": false``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import budget

if TYPE_CHECKING:  # NumPy only where the numbers are made: this module is plain data
    import numpy as np
    import numpy.typing as npt


JSON_FLOAT_WORK = 400
"""Estimated work of one chance written as JSON."""


@dataclass(eq=False)
class FloatOdds:
    """The chances of a roll's values ``lo, lo+1, ...``, as float64.

    Each listed chance, and the chance of any value not listed, is within
    :attr:`error` of the exact one; a sum of chances (at least, at most, an
    event) within :attr:`sum_error`."""

    notation: str
    system: str
    lo: int
    chances: npt.NDArray[np.float64]
    error: float
    """Bound on the absolute error of one value's chance."""
    truncated: float
    """Probability of cut-off explosion chains (not listed, above the values)."""
    mean: float
    stdev: float
    events: dict[str, float] = field(default_factory=dict)
    value_title: str = "value"
    value_name: Callable[[int], str] | None = None
    exact = False
    """Always False: the chances are floats (an ``Odds`` is exact)."""

    def __post_init__(self) -> None:
        self._at_most = self.chances.cumsum()
        self._at_least = self.chances[::-1].cumsum()[::-1]

    @property
    def hi(self) -> int:
        return self.lo + len(self.chances) - 1

    @property
    def sum_error(self) -> float:
        """Bound on the error of a sum of chances: every value's, the cut-off
        chains (which may lie anywhere above), and the rounding of the running
        sums (each value adds at most two roundings of a sum below 1)."""
        values = len(self.chances)
        return min(1.0, values * (self.error + 2 * 2.0**-53) + self.truncated)

    def probability(self, value: int) -> float:
        """The chance of ``value``, within :attr:`error`."""
        if not self.lo <= value <= self.hi:
            return 0.0
        return float(self.chances[value - self.lo])

    def at_least(self, value: int) -> float:
        """The chance of ``value`` or more, within :attr:`sum_error`."""
        if value > self.hi:
            return 0.0
        return float(self._at_least[max(0, value - self.lo)])

    def at_most(self, value: int) -> float:
        """The chance of ``value`` or less, within :attr:`sum_error`."""
        if value < self.lo:
            return 0.0
        return float(self._at_most[min(len(self.chances) - 1, value - self.lo)])

    def chance_between(self, low: int | None = None, high: int | None = None) -> float:
        """The chance of a value from ``low`` to ``high`` (None: no bound)."""
        top = self.hi if high is None else min(high, self.hi)
        bottom = self.lo if low is None else max(low, self.lo)
        if bottom > top:
            return 0.0
        return self.at_least(bottom) - (self.at_least(top + 1) if top < self.hi else 0.0)

    def bound_text(self) -> str:
        """The error bound, as the text and the JSON say it."""
        return (
            f"float64 by FFT: each chance within ±{self.error:.1e} of exact, "
            f"at least / at most within ±{self.sum_error:.1e}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON of float odds: ``exact`` false, the bounds, and every value's
        chance from ``lo`` (a list of floats rather than rows: it may be long)."""
        budget.charge(
            len(self.chances) * JSON_FLOAT_WORK, f"the float odds of {self.notation} as JSON"
        )
        return {
            "notation": self.notation,
            "system": self.system,
            "exact": False,
            "value_title": self.value_title,
            "error": self.error,
            "sum_error": self.sum_error,
            "truncated": self.truncated,
            "mean": self.mean,
            "stdev": self.stdev,
            "lo": self.lo,
            "hi": self.hi,
            "chances": self.chances.tolist(),
            "events": dict(self.events),
        }

    def __repr__(self) -> str:
        return (
            f"FloatOdds({self.notation!r}, mean={self.mean:.6g}, stdev={self.stdev:.6g}, "
            f"error={self.error:.1e})"
        )
