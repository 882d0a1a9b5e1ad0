"""3d6 Fudge forms for benchmarks/run.py: cold exact odds, single and opposed.

Goal (issue 4): `odds` of any 3d6fudge form within 1 ms, caches cleared.

The icepool side is written from the rules (docs/3d6fudge.md), not from
fudgedice's code: `d6.pool(3).expand()` gives the 56 sorted rolls with their
weights, each is read to (kind, margin), and an opposed round maps the pair of
reads to the round's margin. Both sides return the margin distribution;
fudgedice also builds its events (success, criticals / win, loss, stand-off).
`python benchmarks/cases_3d6fudge.py` checks that the two agree.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial

import icepool

import fudgedice

GOAL_SECONDS = 0.001

Read = tuple[str, int]
"""(kind, margin): kind is "", "success", "failure" or "mediocrity"."""


def _read(dice: tuple[int, int, int], skill: int) -> Read:
    low, middle, high = dice
    margin = skill - (low + middle)
    if low == high:  # triples
        if low <= 2:
            return "success", max(margin, 0)
        if low >= 5:
            return "failure", min(margin, -1)
        return "mediocrity", 0 if skill >= 2 else -1
    return "", margin


def _round(left: Read, right: Read) -> int:
    """The round's margin from the left: > 0 win, < 0 loss, 0 stand-off."""
    (lk, lm), (rk, rm) = left, right
    difference = lm - rm
    if lk == rk and lk in ("success", "mediocrity"):
        return 0
    if lk == "success":
        return max(difference, 1)
    if rk == "success":
        return min(difference, -1)
    if "mediocrity" in (lk, rk):
        bland, other = (lm, rm) if lk == "mediocrity" else (rm, lm)
        return difference if bland >= 0 > other else 0
    if lm < 0 and rm < 0:
        return 0
    return difference


def _reads(skill: int) -> icepool.Die:
    # a fresh d6 each call: icepool.d6 is one shared object, with its sums cached
    return icepool.Die(range(1, 7)).pool(3).expand().map(partial(_read, skill=max(skill, 1)))


def icepool_single(skill: int) -> object:
    return tuple(_reads(skill).map(lambda read: read[1]).items())


def icepool_opposed(left: int, right: int) -> object:
    return tuple(icepool.map(_round, _reads(left), _reads(right)).items())


def ours(text: str) -> object:
    odds = fudgedice.odds(text)
    odds.events  # noqa: B018 - built already; named to show nothing is deferred
    return odds.outcomes


def _single(text: str, skill: int) -> tuple[str, Callable[[], object], Callable[[], object], float]:
    return (text, partial(ours, text), partial(icepool_single, skill), GOAL_SECONDS)


def _opposed(
    text: str, left: int, right: int
) -> tuple[str, Callable[[], object], Callable[[], object], float]:
    return (text, partial(ours, text), partial(icepool_opposed, left, right), GOAL_SECONDS)


CASES = [
    _single("3d6fudge: Good", 6),
    _single("3d6fudge: Good-2", 4),
    _single("3d6fudge: Abysmal", 1),
    _single("3d6fudge: 12", 12),
    _opposed("3d6fudge: 6 opp 8", 6, 8),
    _opposed("3d6fudge: Good+1 opp Great-1", 7, 6),
    _opposed("3d6fudge: Abysmal opp Legendary+3", 1, 12),
]


def check() -> None:
    """fudgedice and icepool give the same exact distribution for every case."""
    for name, ours_call, theirs, _ in CASES:
        outcomes = ours_call()
        assert isinstance(outcomes, list)
        mine = {o.value: o.p for o in outcomes}
        pairs = theirs()
        assert isinstance(pairs, tuple)
        total = sum(count for _, count in pairs)
        reference = {value: Fraction(count, total) for value, count in pairs}
        assert mine == reference, name
        print(f"{name}: same distribution ({len(mine)} outcomes)")


if __name__ == "__main__":
    check()
