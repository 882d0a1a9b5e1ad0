"""Issue 14, items 4 and 5: sampling every system form, and float odds past
exact, each against a hand-written NumPy baseline of the same rule
(numpy_baseline.py), timed in one process, one after the other.

Each side creates its `np.random.default_rng(seed)` inside the timed call.
`run.py` prints these rows in its sections 3b and 3c and their goals in its
summary; `python benchmarks/sampling.py` prints them alone.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

import fudgedice
import numpy_baseline as base

SEED = base.SEED
ROLLS = 10**6
SAMPLE_SLOWER = 1.2
"""Goal: fudgedice within this factor of the baseline's time (item 4)."""
FLOAT_SLOWER = 2.0
"""Goal: float odds within this factor of the baseline's time (item 5)."""


@dataclass(frozen=True)
class Measured:
    """One comparison: seconds per call of fudgedice and of the baseline."""

    section: str
    name: str
    ours: float
    reference: str
    ref: float
    runs: str

    @property
    def slower(self) -> float:
        """fudgedice's time over the baseline's: at most the goal's factor."""
        return self.ours / self.ref


def best(func: Callable[[], object], repeat: int = 5) -> tuple[float, str]:
    """Best of `repeat` batches of >= 0.2 s; a call over 0.5 s is timed twice."""
    timer = timeit.Timer(func)
    first = timer.timeit(number=1)
    if first > 0.5:
        return min(first, timer.timeit(number=1)), "2x1"
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number, f"{repeat}x{number}"


def _ours(text: str, events: bool) -> object:
    if events:
        return fudgedice.sample(text, ROLLS, seed=SEED, events=True)
    return fudgedice.sample(text, ROLLS, seed=SEED)


def _theirs(rule: Callable[..., object], **options: object) -> object:
    return rule(np.random.default_rng(SEED), ROLLS, **options)


SAMPLE_CASES: tuple[tuple[str, bool, str, Callable[[], object]], ...] = (
    # (roll, with its events, the baseline's name, the baseline)
    ("4dF+2", False, "per-die 4dF", partial(_theirs, base.sample_fudge_sum_naive)),
    ("Good vs Great", True, "4dF + check", partial(_theirs, base.sample_fudge_check)),
    ("power: 4dF+2 adv", False, "4dF, ignore a -", partial(_theirs, base.sample_power_advantage)),
    ("3d6fudge: Good", True, "3d6, triples, margin", partial(_theirs, base.sample_fudge_3d6)),
    ("d6: 4D+2", True, "explode loop", partial(_theirs, base.sample_d6_wild)),
    (
        "d6: 4D+2 crit=cancel",
        True,
        "explode loop, cancel",
        partial(_theirs, base.sample_d6_wild, cancel=True),
    ),
    ("fate: Good vs Great", True, "4dF + shifts", partial(_theirs, base.sample_fate_check)),
)

FLOAT_CASES: tuple[tuple[str, str, Callable[[], object]], ...] = (
    ("100000dF", "rfft power", partial(base.pool_pmf_fft, np.full(3, 1 / 3), 100_000)),
    ("1000000d6", "rfft power", partial(base.pool_pmf_fft, np.full(6, 1 / 6), 1_000_000)),
    ("d6: 100000D", "rfft power + wild", partial(base.d6_system_pmf_fft, 100_000)),
)


def bench_sampling(show: Callable[[Measured], None]) -> list[Measured]:
    rows = []
    for text, events, name, baseline in SAMPLE_CASES:
        ours = partial(_ours, text, events)
        ours()  # the parse and the tables, once
        mine, runs = best(ours)
        theirs, _ = best(baseline)
        label = f"sample {text}{' +events' if events else ''} x10**6"
        rows.append(Measured("sample", label, mine, f"NumPy {name}", theirs, runs))
        show(rows[-1])
    return rows


def bench_float(show: Callable[[Measured], None]) -> list[Measured]:
    rows = []
    for text, name, baseline in FLOAT_CASES:
        ours = partial(fudgedice.odds, text, exact=False)
        ours()  # the parse, once
        mine, runs = best(ours, repeat=3)
        theirs, _ = best(baseline, repeat=3)
        rows.append(Measured("float", f"odds {text} --float", mine, f"NumPy {name}", theirs, runs))
        show(rows[-1])
    return rows


def goals(rows: list[Measured]) -> list[tuple[str, str, bool]]:
    """(goal, measured, met) for items 4 and 5."""
    out = []
    for row in rows:
        limit = SAMPLE_SLOWER if row.section == "sample" else FLOAT_SLOWER
        out.append(
            (
                f"{row.name} within {limit:g}x of NumPy",
                f"{row.slower:.2f}x its time ({row.ours * 1e3:.3g} vs {row.ref * 1e3:.3g} ms)",
                row.slower <= limit,
            )
        )
    return out


def show(row: Measured) -> None:
    print(
        f"{row.name:<44} {row.ours * 1e3:>9.3g} ms  {row.reference:<24} "
        f"{row.ref * 1e3:>9.3g} ms  {row.slower:>6.2f}x time",
        flush=True,
    )


if __name__ == "__main__":
    measured = bench_sampling(show) + bench_float(show)
    for goal, value, met in goals(measured):
        print(f"{goal:<64} {value:<36} {'PASS' if met else 'MISS'}")
