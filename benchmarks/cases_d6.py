"""D6 System forms for benchmarks/run.py: cold exact odds.

Goals (issue 5): `odds` of any code up to 10D within 1 ms, 100D within 20 ms,
caches cleared (`fudgedice.clear_caches()`) before every call.

The icepool side builds the same distribution from docs/contracts/rules.md section 4,
independently of fudgedice's code: the Wild Die is an exploding d6
(`d6.explode(depth=...)`) whose first toss is mapped by the crit rule,
`crit=cancel` keeps the lowest N-1 of the other dice, Character Point dice
are exploding d6, and a check is the chance of reaching the difficulty. The
explosion depth is the one fudgedice follows (`pools.chain_depth`), so both
leave out under 1e-12; icepool keeps its last exploding face instead of
cutting it, which moves at most that much. `python benchmarks/cases_d6.py`
checks that the two agree.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial

import icepool

import fudgedice
from fudgedice.systems.d6.measure import depth_for
from fudgedice.systems.d6.rules import bonus_5d

SMALL = 0.001
"""Any code up to 10D."""
BIG = 0.020
"""100D."""


def _ours(text: str) -> Callable[[], object]:
    def run() -> object:
        return fudgedice.odds(text)

    return run


def _side(
    dice: int, pips: int, *, crit: str = "complication", cp: int = 0, exploding: int = 1
) -> icepool.Die:
    """One side: dice - 1 plain d6, the Wild Die, ``cp`` Character Point dice."""
    depth = depth_for(exploding)
    # fresh dice each call: icepool.d6 is one shared object, with its sums cached
    d6 = icepool.Die(range(1, 7))
    plain = (dice - 1) @ d6 if dice > 1 else icepool.Die([0])
    tail = d6.explode(depth=depth - 2) if depth > 1 else d6
    cancelled = d6.pool(dice - 1).lowest(dice - 2).sum() if dice > 2 else icepool.Die([0])

    def first_toss(face: int) -> icepool.Die:
        if face == 1 and crit == "cancel":
            return cancelled
        if face == 6:
            return 6 + tail + plain
        return face + plain

    total = d6.map(first_toss) + pips
    if cp:
        total = total + cp @ d6.explode(depth=depth - 1)
    return total


def _icepool_check(dice: int, pips: int, difficulty: int) -> object:
    die = _side(dice, pips)
    return die.probability(">=", difficulty), die


def _icepool_cp_check(dice: int, cp: int, difficulty: int) -> object:
    die = _side(dice, 0, cp=cp, exploding=1 + cp)
    return die.probability(">=", difficulty), die


def _icepool_opposed(left: tuple[int, int], right: tuple[int, int]) -> object:
    return _side(*left, exploding=2) - _side(*right, exploding=2)


def _icepool_fast(dice: int) -> object:
    return _side(5, 0) + bonus_5d(dice)


CASES = [
    ("d6: 4D+2", _ours("d6: 4D+2"), partial(_side, 4, 2), SMALL),
    ("d6: 10D", _ours("d6: 10D"), partial(_side, 10, 0), SMALL),
    (
        "d6: 10D crit=cancel",
        _ours("d6: 10D crit=cancel"),
        partial(_side, 10, 0, crit="cancel"),
        SMALL,
    ),
    ("d6: 10D cp2", _ours("d6: 10D cp2"), partial(_side, 10, 0, cp=2, exploding=3), SMALL),
    ("d6: 10D fp (20D)", _ours("d6: 10D fp"), partial(_side, 20, 0), SMALL),
    (
        "d6: 4D+2 vs Moderate",
        _ours("d6: 4D+2 vs Moderate"),
        partial(_icepool_check, 4, 2, 15),
        SMALL,
    ),
    (
        "d6: 4D+2 opp 3D+1",
        _ours("d6: 4D+2 opp 3D+1"),
        partial(_icepool_opposed, (4, 2), (3, 1)),
        SMALL,
    ),
    ("d6: 30D fast", _ours("d6: 30D fast"), partial(_icepool_fast, 30), SMALL),
    # OpenD6 (issue 12): multiple actions cost dice before anything else, a
    # check names its result points' degree, damage against resistance its wound
    (
        "d6: 5D+1 actions=3 vs 10",
        _ours("d6: 5D+1 actions=3 vs 10"),
        partial(_icepool_check, 3, 1, 10),
        SMALL,
    ),
    (
        "d6: 3D cp2 cpcap=2 vs 12",
        _ours("d6: 3D cp2 cpcap=2 vs 12"),
        partial(_icepool_cp_check, 3, 2, 12),
        SMALL,
    ),
    (
        "d6: 5D+1 dmg 3D+2",
        _ours("d6: 5D+1 dmg 3D+2"),
        partial(_icepool_opposed, (5, 1), (3, 2)),
        SMALL,
    ),
    (
        "d6: 4D+2 opp 3D+1 ties=meet",
        _ours("d6: 4D+2 opp 3D+1 ties=meet"),
        partial(_icepool_opposed, (4, 2), (3, 1)),
        SMALL,
    ),
    ("d6: 100D", _ours("d6: 100D"), partial(_side, 100, 0), BIG),
    (
        "d6: 100D crit=cancel",
        _ours("d6: 100D crit=cancel"),
        partial(_side, 100, 0, crit="cancel"),
        BIG,
    ),
    ("d6: 100D cp5", _ours("d6: 100D cp5"), partial(_side, 100, 0, cp=5, exploding=6), BIG),
    # Opposed rolls where a side cancels need one wide convolution; no icepool
    # form (it takes seconds at 100D), and two 10D sides are beyond "a code".
    (
        "d6: 10D cp2 crit=cancel opp 10D cp2",
        _ours("d6: 10D cp2 crit=cancel opp 10D cp2"),
        None,
        None,
    ),
    (
        "d6: 100D crit=cancel opp 100D",
        _ours("d6: 100D crit=cancel opp 100D"),
        None,
        BIG,
    ),
]


def _agree(ours: fudgedice.Odds, theirs: icepool.Die) -> float:
    """Largest difference in any outcome's chance."""
    values = set(ours.dist.support()) | set(theirs.outcomes())
    return max(
        abs(float(ours.probability(value) - Fraction(theirs.probability(value))))
        for value in values
    )


def main() -> None:
    for name, ours, theirs, _ in CASES:
        if theirs is None:
            continue
        result = theirs()
        die = result[1] if isinstance(result, tuple) else result
        odds = ours()
        assert isinstance(odds, fudgedice.Odds)
        # a check's icepool die is the code's total: compare it with the code alone
        code = name.split(" vs ")[0]
        gap = _agree(odds, die) if "vs" not in name else _agree(fudgedice.odds(code), die)
        if isinstance(result, tuple):
            gap = max(gap, abs(float(odds.events["success"] - Fraction(result[0]))))
        print(f"{name:24} largest difference {gap:.1e}")
        assert gap < 1e-11, name


if __name__ == "__main__":
    main()
