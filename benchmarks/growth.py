"""Cost against pool size N: fudgedice's exact odds beside icepool, dyce and
hand-written NumPy, each family with its fitted exponent (time ~ N**k).

Run `.venv/bin/python benchmarks/growth.py` (add `--markdown` for the table of
docs/performance.md); `make bench` runs it as one of its sections.

Every call is cold: fudgedice's caches are cleared before each
(`fudgedice.clear_caches`), icepool's too (`icepool_ref.clear_icepool_caches`)
and every icepool and dyce die is built fresh inside the timed call (icepool
keeps partial sums on a die object, so a shared die would carry work over).
NumPy is a float FFT or a float recurrence: not exact, the yardstick of what
the computation costs in C. A tool stops growing once one call takes more
than `SLOW` seconds (the larger sizes are then left out, "-").
"""

from __future__ import annotations

import argparse
import gc
import math
import statistics
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from time import perf_counter, process_time

import dyce
import icepool

import fudgedice
import icepool_ref
import numpy_baseline as nb
from fudgedice.dice.pools import chain_depth
from fudgedice.systems.d6.measure import depth_for

SLOW = 1.0
"""A tool whose call takes longer than this is not timed at larger sizes."""
FORESEEN = 3.0
"""Nor is a size that the last one, grown as N**2, says would take longer."""
BUDGET = 0.3
"""Wall seconds of repeats for one size of one tool (at least 3 calls)."""

Call = Callable[[int], object]


def _no_clear() -> None:
    pass


def timed_call(func: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call, GC off as in timeit."""
    gc.disable()
    try:
        wall, cpu = perf_counter(), process_time()
        func()
        return perf_counter() - wall, process_time() - cpu
    finally:
        gc.enable()


UNPREEMPTED = 0.9
"""A call whose CPU time is at least this share of its wall time ran unpreempted."""


def best_of(calls: list[tuple[float, float]]) -> float:
    """The best wall time of the calls the scheduler let run through (CPU time
    near their wall time); if none did, the best CPU time.

    On a busy machine a call longer than the scheduler's time slice is nearly
    always preempted, so a plain wall-clock best inflated icepool's
    milliseconds and not fudgedice's microseconds (3d6fudge: 6 opp 8 with 5
    busy loops on its core: 146x by the wall, 25x by CPU time); CPU time alone
    is immune to that, but this VM's CPU clock once read 0 for a whole call."""
    clean = [wall for wall, cpu in calls if cpu >= UNPREEMPTED * wall]
    return min(clean) if clean else min(cpu for _, cpu in calls if cpu > 0)


def time_cold(func: Callable[[], object], clear: Callable[[], None] = _no_clear) -> float:
    """Best (:func:`best_of`) of repeated calls, each after ``clear()`` (not
    timed); a call slower than ``SLOW / 2`` is timed once."""
    calls: list[tuple[float, float]] = []
    deadline = perf_counter() + BUDGET
    while len(calls) < 3 or perf_counter() < deadline:
        clear()
        calls.append(timed_call(func))
        if calls[-1][0] > SLOW / 2:
            break
    return best_of(calls)


# ------------------------------------------------------------------ families


def _icepool_sum(die: Callable[[], icepool.Die], n: int) -> object:
    with icepool_ref._recursion_limit(n + 1000):
        return tuple((n @ die()).items())


def _fresh_d6() -> icepool.Die:
    return icepool.Die(range(1, 7))


def _d6_depth(n: int) -> int:
    return chain_depth(Fraction(1, 6), n)


def _dyce_explode(n: int) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chain = dyce.explode_n(dyce.H(6), n=_d6_depth(n) - 1)
    return n @ chain


def _icepool_wild(n: int) -> object:
    """The D6 System's ND as cases_d6.py writes it, on fresh dice."""
    depth = depth_for(1)
    plain = (n - 1) @ _fresh_d6() if n > 1 else icepool.Die([0])
    tail = _fresh_d6().explode(depth=depth - 2)
    side = _fresh_d6().map(lambda face: 6 + tail + plain if face == 6 else face + plain)
    return tuple(side.items())


def _dyce_wild(n: int) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wild = dyce.explode_n(dyce.H(6), n=depth_for(1) - 1)
    return (n - 1) @ dyce.H(6) + wild


def _dyce_keep(n: int) -> object:
    pool = n @ dyce.P(6)
    rolls = pool.rolls_with_counts(slice(-(n // 2), None))
    return dyce.H((sum(roll), count) for roll, count in rolls)


@dataclass(frozen=True)
class Family:
    name: str
    text: Callable[[int], str]
    sizes: tuple[int, ...]
    tools: dict[str, Call]


FAMILIES = (
    Family(
        "NdF",
        lambda n: f"{n}dF",
        (10, 100, 1000, 10000),
        {
            "icepool": lambda n: _icepool_sum(lambda: icepool.Die([-1, 0, 1]), n),
            "dyce": lambda n: n @ dyce.H((-1, 0, 1)),
            "NumPy": lambda n: nb.uniform_sum_pmf(n, 3),
        },
    ),
    Family(
        "Nd6",
        lambda n: f"{n}d6",
        (10, 100, 1000),
        {
            "icepool": lambda n: _icepool_sum(_fresh_d6, n),
            "dyce": lambda n: n @ dyce.H(6),
            "NumPy": lambda n: nb.uniform_sum_pmf(n, 6),
        },
    ),
    Family(
        "Nd6kh(N/2)",
        lambda n: f"{n}d6kh{n // 2}",
        (10, 20, 50, 100),
        {
            "icepool": lambda n: tuple(_fresh_d6().highest(n, n // 2).items()),
            "dyce": _dyce_keep,
            "NumPy": lambda n: nb.keep_highest_pmf(n, 6, n // 2),
        },
    ),
    Family(
        "Nd6!",
        lambda n: f"{n}d6!",
        (3, 5, 10, 20, 40),
        {
            "icepool": lambda n: _icepool_sum(
                lambda: _fresh_d6().explode(depth=_d6_depth(n) - 1), n
            ),
            "dyce": _dyce_explode,
            "NumPy": lambda n: nb.exploding_sum_pmf(n, 6, _d6_depth(n)),
        },
    ),
    Family(
        "Nd10>=7",
        lambda n: f"{n}d10>=7",
        (10, 100, 1000),
        {
            "icepool": lambda n: _icepool_sum(lambda: icepool.Die(range(1, 11)) >= 7, n),
            "dyce": lambda n: n @ dyce.H(10).ge(7),
            "NumPy": lambda n: nb.successes_pmf(n, 0.4),
        },
    ),
    Family(
        "d6: ND",
        lambda n: f"d6: {n}D",
        (10, 30, 100, 300),
        {
            "icepool": _icepool_wild,
            "dyce": _dyce_wild,
            "NumPy": lambda n: nb.wild_die_pmf(n, depth_for(1)),
        },
    ),
)

TOOLS = ("fudgedice", "icepool", "dyce", "NumPy")


def fit(points: list[tuple[int, float]]) -> float | None:
    """The exponent k of time ~ N**k, least squares on logs (None: too few points)."""
    if len(points) < 2:
        return None
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(seconds) for _, seconds in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


@dataclass
class Growth:
    family: str
    sizes: tuple[int, ...]
    times: dict[str, dict[int, float]]

    def exponent(self, tool: str) -> float | None:
        return fit(sorted(self.times[tool].items()))


def measure(family: Family, sizes: tuple[int, ...] | None = None) -> Growth:
    sizes = sizes or family.sizes
    times: dict[str, dict[int, float]] = {tool: {} for tool in TOOLS}
    calls: dict[str, tuple[Call, Callable[[], None]]] = {
        "fudgedice": (lambda n: fudgedice.odds(family.text(n)), fudgedice.clear_caches),
        **{tool: (call, icepool_ref.clear_icepool_caches) for tool, call in family.tools.items()},
    }
    for tool in TOOLS:
        call, clear = calls[tool]
        for n in sizes:
            if times[tool]:
                last = max(times[tool])
                if times[tool][last] * (n / last) ** 2 > FORESEEN:
                    break
            try:
                seconds = time_cold(lambda call=call, n=n: call(n), clear)  # type: ignore[misc]
            except (RecursionError, MemoryError, fudgedice.DiceError):
                break
            times[tool][n] = seconds
            if seconds > SLOW:
                break
    return Growth(family.name, sizes, times)


def _fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def _fmt_exponent(value: float | None) -> str:
    return "-" if value is None else f"N^{value:.2f}"


def print_table(growths: list[Growth]) -> None:
    for growth in growths:
        for tool in TOOLS:
            cells = " ".join(f"{n:>6}:{_fmt(growth.times[tool].get(n)):>9}" for n in growth.sizes)
            print(f"{growth.family:<12} {tool:<10} {cells}  {_fmt_exponent(growth.exponent(tool))}")


def markdown(growths: list[Growth]) -> str:
    lines = []
    for growth in growths:
        head = " | ".join(f"N={n}" for n in growth.sizes)
        lines += [
            f"**{growth.family}**",
            "",
            f"| tool | {head} | fitted |",
            "|---|" + "---:|" * (len(growth.sizes) + 1),
        ]
        for tool in TOOLS:
            cells = " | ".join(_fmt(growth.times[tool].get(n)) for n in growth.sizes)
            lines.append(f"| {tool} | {cells} | {_fmt_exponent(growth.exponent(tool))} |")
        lines.append("")
    return "\n".join(lines)


def run(quick: bool = False) -> list[Growth]:
    """Every family, printed as it goes; ``quick``: the two smallest sizes each."""
    growths = []
    for family in FAMILIES:
        growth = measure(family, family.sizes[:2] if quick else None)
        growths.append(growth)
        print_table([growth])
        sys.stdout.flush()
    return growths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--quick", action="store_true", help="the two smallest sizes only")
    args = parser.parse_args(argv)
    growths = run(args.quick)
    if args.markdown:
        print(markdown(growths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
