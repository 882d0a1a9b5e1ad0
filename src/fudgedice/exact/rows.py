"""The rows of exact odds: each listed value's chances, the tails past the
cut-off of exploding dice, and a chance known only within a margin."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from .dist import Dist
from .figures import exact_text
from .ratios import complement


@dataclass(frozen=True, slots=True)
class Outcome:
    value: int
    p: Fraction
    at_least: Fraction
    at_most: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "p": float(self.p),
            "exact": exact_text(self.p),
            "at_least": float(self.at_least),
            "at_most": float(self.at_most),
        }


class Chance(NamedTuple):
    """A chance as far as it is known: ``p`` surely, and up to ``uncertain``
    more (cut-off outcomes that may or may not belong); exact when that is 0."""

    p: Fraction
    uncertain: Fraction


@dataclass(frozen=True, slots=True)
class Tail:
    """Outcomes past the point where exploding dice stop being followed: every
    one lies from ``low`` to ``high`` (None: no bound that way; both None: no
    known side), with chance ``p`` in all."""

    low: int | None
    high: int | None
    p: Fraction

    @property
    def label(self) -> str:
        """``99 or more``, ``-80 or less``, ``3 to 5``, ``1 (tail)`` or ``anywhere``."""
        return self.describe(str)

    def describe(self, number: Callable[[int], str]) -> str:
        """The label, with each bound written by ``number`` (``+3`` on a ladder)."""
        if self.low is not None and self.high is not None:
            if self.low == self.high:
                return f"{number(self.low)} (tail)"
            return f"{number(self.low)} to {number(self.high)}"
        if self.low is not None:
            return f"{number(self.low)} or more"
        if self.high is not None:
            return f"{number(self.high)} or less"
        return "anywhere"

    def to_dict(self) -> dict[str, Any]:
        return {
            "min": self.low,
            "max": self.high,
            "label": self.label,
            "p": float(self.p),
            "exact": exact_text(self.p),
        }


def complete_rows(
    dist: Dist, fraction: Callable[[int], Fraction], above: list[int]
) -> list[Outcome]:
    """Every row of a distribution with nothing cut off, built cheaply: a
    symmetric pool (every Fudge pool) has each chance twice, at least v is
    everything less at least (its mirror + 1), and at most v everything less
    at least v+1. ``above`` holds the at-least counts."""
    counts, lo = dist.counts, dist.lo
    size = len(counts)
    symmetric = counts == counts[::-1]
    at_least: list[Fraction] = []
    for index in range(size):
        mirror = size - index
        if symmetric and 0 < mirror < index:
            at_least.append(complement(at_least[mirror]))
        else:
            at_least.append(fraction(above[index]))
    at_most = [complement(at_least[index + 1]) for index in range(size - 1)]
    at_most.append(Fraction(1))
    chances: dict[int, Fraction] = {}
    rows = []
    for index, count in enumerate(counts):
        if not count:
            continue
        chance = chances.get(size - 1 - index) if symmetric else None
        if chance is None:
            chance = fraction(count)
            chances[index] = chance
        rows.append(Outcome(lo + index, chance, at_least[index], at_most[index]))
    return rows
