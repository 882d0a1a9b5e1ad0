"""Issue 14, item 3: exact odds where fudgedice was slowest, for benchmarks/run.py.

* `10d6!` against NumPy's float FFT of the same truncated pool (each chain
  followed as deep as fudgedice follows it: numpy_baseline.exploding_sum_pmf);
  goal: within 10x.
* Exploding pools' growth, fitted from 3d6! to 10d6! (and printed on to 40d6!);
  goal: no faster than N**2.
* `3d6fudge: 6 opp 8` and `100d6kh50` against icepool on fresh dice; goal: at
  least 20x.

Each call is cold, as in run.py's section 1 (growth.time_cold).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import icepool

import cases_3d6fudge
import fudgedice
import growth
import icepool_ref
import numpy_baseline as nb
from fudgedice.dice.pools import chain_depth

GoalRow = tuple[str, str, bool | None]
"""(goal, measured, met): run.py prints it in its summary."""

EXPLODING = (3, 4, 5, 6, 8, 10)
"""The sizes the growth goal is fitted over."""
FURTHER = (20, 40)
"""Printed beside them: where the exponent goes next."""
ROUNDS = 4
"""Rounds of 10d6! and its NumPy baseline, timed in turn."""


def _odds(text: str) -> Callable[[], object]:
    def call() -> object:
        return fudgedice.odds(text)

    return call


def _ratio_row(name: str, ours: float, theirs: float, label: str) -> None:
    print(
        f"{name:<36} {growth._fmt(ours):>10}  {label:<28} {growth._fmt(theirs):>9} "
        f"{theirs / ours:>7.3g}x",
        flush=True,
    )


def _icepool_keep() -> object:
    return tuple(icepool.Die(range(1, 7)).highest(100, 50).items())


def run() -> list[GoalRow]:
    goals: list[GoalRow] = []
    clear = fudgedice.clear_caches
    times: dict[int, float] = {}
    for n in EXPLODING + FURTHER:
        times[n] = growth.time_cold(_odds(f"{n}d6!"), clear)
        print(f"{n}d6!{'':<31} {growth._fmt(times[n]):>10}", flush=True)
    depth = chain_depth(Fraction(1, 6), 10)
    # the two in turn, best of each over the rounds: on a shared machine a
    # busy spell then hits both sides alike
    numpy = growth.time_cold(lambda: nb.exploding_sum_pmf(10, 6, depth))
    for _ in range(ROUNDS):
        times[10] = min(times[10], growth.time_cold(_odds("10d6!"), clear))
        numpy = min(numpy, growth.time_cold(lambda: nb.exploding_sum_pmf(10, 6, depth)))
    _ratio_row("10d6!", times[10], numpy, f"NumPy FFT (depth {depth})")
    slower = times[10] / numpy
    goals.append(
        (
            "exact 10d6! within 10x of NumPy's float FFT",
            f"{slower:.2f}x its time ({growth._fmt(times[10])} vs {growth._fmt(numpy)})",
            slower <= 10,
        )
    )
    exponent = growth.fit([(n, times[n]) for n in EXPLODING])
    further = growth.fit([(n, times[n]) for n in (10, *FURTHER)])
    assert exponent is not None and further is not None
    goals.append(
        (
            "exact Nd6! grows no faster than N^2 (3..10)",
            f"N^{exponent:.2f} (10..40: N^{further:.2f})",
            exponent <= 2,
        )
    )
    for name, ours, theirs in (
        (
            "3d6fudge: 6 opp 8",
            lambda: cases_3d6fudge.ours("3d6fudge: 6 opp 8"),
            lambda: cases_3d6fudge.icepool_opposed(6, 8),
        ),
        ("100d6kh50", _odds("100d6kh50"), _icepool_keep),
    ):
        mine = reference = float("inf")
        for _ in range(ROUNDS // 2):
            mine = min(mine, growth.time_cold(ours, clear))
            reference = min(reference, growth.time_cold(theirs, icepool_ref.clear_icepool_caches))
        _ratio_row(name, mine, reference, "icepool, fresh dice")
        goals.append(
            (
                f"exact {name} >= 20x faster than icepool",
                f"{reference / mine:.2f}x ({growth._fmt(mine)} vs {growth._fmt(reference)})",
                reference / mine >= 20,
            )
        )
    return goals


def growth_section(quick: bool) -> None:
    """The growth table of docs/performance.md (growth.py), all families."""
    growth.run(quick)
