"""Fate forms for benchmarks/run.py: cold exact odds of passive and active
opposition, with and without reroll invokes.

Goal (issue 12): `odds` of any new form within 1 ms, caches cleared.

The icepool side is written from the rules (docs/contracts/rules.md section 5), not from
fudgedice's code: 4dF is `4 @ Die([-1, 0, 1])` plus the skill; a reroll
invoke is icepool's own `reroll(..., depth=N)` of the results short of the
policy's mark (the new roll stands), and against active opposition the mark
is set by each result of the other side (`right.map`). Both sides give the
distribution of the result (or of the shifts); fudgedice also builds the four
outcomes' events. `python benchmarks/cases_fate.py` checks that they agree.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial

import icepool

import fudgedice

GOAL_SECONDS = 0.001

Case = tuple[str, Callable[[], object], Callable[[], object], float]


def _dice(skill: int) -> icepool.Die:
    return 4 @ icepool.Die([-1, 0, 1]) + skill


def icepool_vs(skill: int, against: int, below: int | None = None, times: int = 0) -> object:
    result = _dice(skill)
    if times:
        assert below is not None
        result = result.reroll(lambda value: value - against < below, depth=times)
    return tuple(result.items())


def icepool_opp(left: int, right: int, below: int | None = None, times: int = 0) -> object:
    def shifts(other: int) -> icepool.Die:
        side = _dice(left)
        short = [value for value in side.outcomes() if below is not None and value - other < below]
        # every result short: rerolling gives the same die again (and icepool
        # divides by zero when asked to reroll every outcome)
        if times and len(short) < len(side):
            side = side.reroll(short, depth=times)
        return side - other

    return tuple(_dice(right).map(shifts).items())


def ours(text: str) -> object:
    odds = fudgedice.odds(text)
    odds.events  # noqa: B018 - built already; named to show nothing is deferred
    return odds.outcomes


def _case(text: str, theirs: Callable[[], object]) -> Case:
    return (text, partial(ours, text), theirs, GOAL_SECONDS)


CASES = [
    _case("fate: Good vs Great", partial(icepool_vs, 3, 4)),
    _case("fate: Good+2 vs Superb", partial(icepool_vs, 5, 5)),
    _case("fatecondensed: Catastrophic vs Fair", partial(icepool_vs, -3, 2)),
    _case("fate: Good opp Fair", partial(icepool_opp, 3, 2)),
    _case("fate: Good reroll vs Great", partial(icepool_vs, 3, 4, 0, 1)),
    _case("fate: Fair reroll3=tie vs Superb", partial(icepool_vs, 2, 5, 1, 3)),
    _case("fate: Good reroll opp Fair", partial(icepool_opp, 3, 2, 0, 1)),
    _case("fate: Good reroll2=style opp Great", partial(icepool_opp, 3, 4, 3, 2)),
]


def check() -> None:
    """fudgedice and icepool give the same exact distribution for every case."""
    for name, ours_call, theirs, _ in CASES:
        outcomes = ours_call()
        assert isinstance(outcomes, list)
        mine = {o.value: o.p for o in outcomes if o.p}
        pairs = theirs()
        assert isinstance(pairs, tuple)
        total = sum(count for _, count in pairs)
        reference = {value: Fraction(count, total) for value, count in pairs if count}
        assert mine == reference, name
        print(f"{name}: same distribution ({len(mine)} outcomes)")


if __name__ == "__main__":
    check()
