"""The rows of exact odds: each listed value's chances, the tails past the
cut-off of exploding dice, and a chance known only within a margin."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from .dist import Dist
from .figures import exact_text
from .ratios import complement


@dataclass(frozen=True, slots=True)
class OddsRow:
    """One row of :attr:`Odds.outcomes`: a value, its chance, and the chances
    of it or more and of it or less."""

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


def exact_rows(
    dist: Dist,
    fraction: Callable[[int], Fraction],
    above: list[int],
    below: list[int],
    tails: Callable[[int | None, int | None], int] | None,
    fractions: Callable[[list[int]], list[Fraction]] | None = None,
) -> list[OddsRow]:
    """Every listed row of a distribution, built cheaply. ``above`` and
    ``below`` hold the at-least and at-most counts of the listed values;
    ``tails(low, high)`` the cut-off ways surely from ``low`` to ``high``
    (None: nothing was cut off).

    With nothing cut off, at most v is everything less at least v+1, and a
    symmetric pool (every Fudge pool) has each chance, and each at-least of
    its upper half, as the mirror of one below: 1 less a known chance is a
    subtraction, where a new one is a reduction of numbers of thousands of
    digits. Only the values that have a chance are visited (``d%*722`` lists
    100 of 72,200). ``fractions``, if given, makes many at once (as
    ``fraction`` would each): a lopsided pool with nothing cut off (an opposed
    roll's margins) takes them in two lists."""
    counts, lo = dist.counts, dist.lo
    size = len(counts)
    present = [index for index, count in enumerate(counts) if count]
    symmetric = counts == counts[::-1]
    if tails is None and not symmetric and fractions is not None:
        return _plain_rows(
            lo,
            present,
            fractions([counts[i] for i in present]),
            fractions([above[i] for i in present]),
        )
    chances: dict[int, Fraction] = {}  # by index: a symmetric pool's mirror
    at_least: list[Fraction] = []

    def mirrored(index: int) -> Fraction | None:
        """1 less at least the value at ``index`` (present or not: that of the
        first present index from it), if that is built already."""
        position = bisect_left(present, index)
        return complement(at_least[position]) if position < len(at_least) else None

    rows = []
    for index in present:
        chance = chances.get(size - 1 - index) if symmetric else None
        if chance is None:
            chance = fraction(counts[index])
            chances[index] = chance
        mirror = mirrored(size - index) if tails is None and symmetric else None
        if tails is not None:
            at_least.append(fraction(above[index] + tails(lo + index, None)))
        else:
            at_least.append(mirror if mirror is not None else fraction(above[index]))
        rows.append(chance)
    outcomes = []
    for position, index in enumerate(present):
        value = lo + index
        if tails is not None:
            most = fraction(below[index] + tails(None, value))
        elif position + 1 < len(present):
            most = complement(at_least[position + 1])
        else:
            most = Fraction(1)
        outcomes.append(OddsRow(value, rows[position], at_least[position], most))
    return outcomes


def _plain_rows(
    lo: int, present: list[int], chances: list[Fraction], at_least: list[Fraction]
) -> list[OddsRow]:
    """:func:`exact_rows` with nothing cut off: at most v is 1 less at least
    the next value listed, the last at most 1."""
    at_most = [complement(chance) for chance in at_least[1:]]
    at_most.append(Fraction(1))
    return [
        OddsRow(lo + index, *row)
        for index, *row in zip(present, chances, at_least, at_most, strict=True)
    ]
