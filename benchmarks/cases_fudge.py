"""Fudge and Power Fudge forms for benchmarks/run.py: cold exact odds.

Goal (issue 3): `odds` of any form of the issue within 1 ms, caches cleared.

The icepool side builds the same distribution from the seeds' rules, written
here independently of fudgedice's code: a check is the chance of reaching the
difficulty, an opposed action the distribution of the relative degree, each
technique a map of ordinary dice, advantage a map over the four Fudge dice.
fudgedice also builds its events (success, failure, tie, even/odd).
`python benchmarks/cases_fudge.py` checks that the two agree.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial

import icepool

import fudgedice

GOAL_SECONDS = 0.001


def df() -> icepool.Die:
    """dF (two faces each of -1, 0, +1 have the distribution of one each),
    built fresh at every call: icepool keeps partial sums on a die object, so
    a die shared between timed calls would carry their work over."""
    return icepool.Die([-1, 0, 1])


def d6() -> icepool.Die:
    """A fresh d6 (``d6()`` is one shared object, with its sums cached)."""
    return icepool.Die(range(1, 7))


def _from_d6(face: int) -> int:
    return -1 if face <= 2 else 0 if face <= 4 else 1


def _from_3d6(total: int) -> int:
    for top, result in ((4, -4), (5, -3), (7, -2), (9, -1), (11, 0), (13, 1), (15, 2), (16, 3)):
        if total <= top:
            return result
    return 4


def _from_d100(roll: int) -> int:
    for top, result in ((1, -4), (6, -3), (18, -2), (38, -1), (62, 0), (82, 1), (94, 2), (99, 3)):
        if roll <= top:
            return result
    return 4


def _from_4d6(p1: int, p2: int, n1: int, n2: int) -> int:
    lowest = min(p1, p2, n1, n2)
    positive, negative = lowest in (p1, p2), lowest in (n1, n2)
    return 0 if positive and negative else lowest if positive else -lowest


def _with_advantage(level: int, *faces: int) -> int:
    kept = list(faces)
    for _ in range(abs(level)):
        face = -1 if level > 0 else 1
        if face in kept:
            kept.remove(face)
    return sum(kept)


def _advantage(level: int) -> icepool.Die:
    return icepool.map(partial(_with_advantage, level), df(), df(), df(), df())


def _ours(text: str) -> Callable[[], object]:
    return partial(fudgedice.odds, text)


ICEPOOL: dict[str, Callable[[], icepool.Die]] = {
    "Good": lambda: 4 @ df() + 1,
    "Good vs Great": lambda: (4 @ df() + 1) >= 2,
    "Good opp Fair": lambda: (4 @ df() + 1) - (4 @ df()),
    "4dF coin": lambda: (4 @ df()).map(lambda total: total % 2 == 0),
    "4dF@d6": lambda: 4 @ d6().map(_from_d6),
    "4dF@3d6": lambda: (3 @ d6()).map(_from_3d6),
    "4dF@d%": lambda: icepool.Die(range(1, 101)).map(_from_d100),
    "4dF@4d6": lambda: icepool.map(_from_4d6, d6(), d6(), d6(), d6()),
    "power: 4dF+2 adv vs Superhuman": lambda: (_advantage(1) + 2) >= 7,
    "power: 4dF dis2": lambda: _advantage(-2),
    "power: 4dF+2 take0": lambda: icepool.Die([2]),
    "power: 4dF+1 adv opp 4dF+2 dis": lambda: (_advantage(1) + 1) - (_advantage(-1) + 2),
}

CASES = [
    (f"fudge odds {text}", _ours(text), icepool_form, GOAL_SECONDS)
    for text, icepool_form in ICEPOOL.items()
]


def _agree(text: str) -> bool:
    """Do fudgedice and icepool give the same chances (the check's success
    chance, or the whole distribution)?"""
    ours = fudgedice.odds(text)
    theirs = ICEPOOL[text]()
    total = theirs.denominator()
    chances = {outcome: Fraction(weight, total) for outcome, weight in theirs.items()}
    if "vs" in text:
        return chances.get(True, Fraction(0)) == ours.events["success"]
    if "coin" in text:
        return chances.get(True, Fraction(0)) == ours.events["even"]
    return chances == {o.value: o.p for o in ours.outcomes}


if __name__ == "__main__":
    for name in ICEPOOL:
        print(f"{name:40s} {'agrees' if _agree(name) else 'DIFFERS'}")
