"""Time fudgedice against icepool, d20 and hand-written NumPy in one run.

Run `make bench`, or `bash benchmarks/d20_env.sh && .venv/bin/python benchmarks/run.py`.
Prints one table per section and a summary of the performance goals, writes
every number to benchmarks/results.json, and exits 0 whatever the outcome:
it is a report, not a test.

1. Exact odds, cold: fudgedice's distribution caches and icepool's caches
   (`icepool_ref.clear_icepool_caches`) are emptied before every timed call,
   outside the timed region. fudgedice's parse cache stays warm.
2. Rolling: `fudgedice.roll` against d20's `roll` (timed by d20_worker.py in
   benchmarks/.d20-venv). d20 stringifies every result; fudgedice renders
   `.text` only on demand, so each roll is timed with and without `.text`.
3. Sampling 4dF+2 10**6 times against numpy_baseline.py's samplers; every
   side creates its `np.random.default_rng(seed)` inside the timed call.
4. Rolls anyone can check (fairness.py): a seeded roll from the dice stream
   against d20, a roll appended to a session (in memory, and into a session
   file of 100 to 10,000 entries, flushed to the disk), and `verify` over a
   10,000-roll log.
5. Where a player waits (cli_speed.py): `fudgedice roll 4dF` and `odds 4dF` as
   whole processes against `python -c pass`, where their start-up goes, and
   each system's roll against d20's `3d6+2` (issue 14, items 1 and 2).

"speedup" is reference seconds / fudgedice seconds: above 1, fudgedice wins.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import timeit
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from time import perf_counter
from typing import Any

import icepool
import numpy as np

import cli_speed
import fairness
import fudgedice
import growth
import icepool_ref
import numpy_baseline
import odds_speed
import sampling

HERE = Path(__file__).resolve().parent
D20_PYTHON = HERE / ".d20-venv" / "bin" / "python"
D20_WORKER = HERE / "d20_worker.py"
RESULTS = HERE / "results.json"

COLD_BUDGET = 0.5
"""Wall seconds (clears included) spent on repeats of one cold form."""
COLD_MIN_RUNS = 3
COLD_MAX_RUNS = 2000
WARM_REPEAT = 5
"""Best of this many timeit batches for warm calls, as d20_worker.py does."""
SLOW_ICEPOOL = ("1000dF", "1000dF (pool.sum)")
"""icepool forms that take seconds each; `--quick` skips them."""


@dataclass(frozen=True)
class Timing:
    """Seconds per call: the best run, the median run (None if unknown), and how
    it was measured: "N" cold calls timed one by one, "RxL" best of R timeit
    batches of L loops, "R batches" (numpy_baseline.best_seconds), "-" (d20)."""

    best: float
    median: float | None
    runs: str


@dataclass(frozen=True)
class Row:
    section: str
    name: str
    ours: Timing
    reference: str | None = None
    ref: Timing | None = None
    note: str = ""

    @property
    def speedup(self) -> float | None:
        """Reference best / fudgedice best: above 1, fudgedice is faster."""
        return None if self.ref is None else self.ref.best / self.ours.best

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["speedup"] = self.speedup
        return data


@dataclass(frozen=True)
class Goal:
    goal: str
    measured: str
    passed: bool | None
    """None when the goal could not be measured (d20 missing, --quick)."""

    @property
    def verdict(self) -> str:
        return {True: "PASS", False: "MISS", None: "SKIP"}[self.passed]


# ----------------------------------------------------------------- timing


def _time_one(func: Callable[[], object], clear: Callable[[], None]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call after `clear()`; only the call is timed,
    with GC off as in timeit."""
    clear()
    return growth.timed_call(func)


def time_cold(func: Callable[[], object], clear: Callable[[], None]) -> Timing:
    """Best of repeated cold calls, each timed on its own after `clear()`:
    the best wall time of the calls not preempted (growth.best_of); the
    median is of CPU times.

    A first call slower than icepool_ref.SLOW_SECONDS is the only one; else
    calls repeat for COLD_BUDGET wall seconds (at least COLD_MIN_RUNS, at most
    COLD_MAX_RUNS), autorange-style.
    """
    first = _time_one(func, clear)
    if first[1] > icepool_ref.SLOW_SECONDS:
        return Timing(first[1], first[1], "1")
    calls = [first]
    deadline = perf_counter() + COLD_BUDGET
    while len(calls) < COLD_MIN_RUNS or (perf_counter() < deadline and len(calls) < COLD_MAX_RUNS):
        calls.append(_time_one(func, clear))
    cpu = statistics.median(cpu for _, cpu in calls)
    return Timing(growth.best_of(calls), cpu, str(len(calls)))


def time_warm(stmt: str, names: dict[str, Any]) -> Timing:
    """timeit-style best of WARM_REPEAT batches, as d20_worker.time_roll does.

    A string statement avoids a lambda frame per loop, so fudgedice is timed
    exactly the way d20 is.
    """
    timer = timeit.Timer(stmt, globals=names)
    number, _ = timer.autorange()
    batches = [seconds / number for seconds in timer.repeat(repeat=WARM_REPEAT, number=number)]
    return Timing(min(batches), statistics.median(batches), f"{WARM_REPEAT}x{number}")


def _no_clear() -> None:
    pass


# ------------------------------------------------------------ exact odds


@dataclass(frozen=True)
class ExactCase:
    name: str
    ours: Callable[[], object]
    icepool_forms: tuple[str, ...] = ()
    """Names in icepool_ref.FORMS to compare with; the first is the headline."""


def _odds(text: str) -> fudgedice.Odds:
    return fudgedice.odds(text)


def _at_least_4df() -> object:
    return fudgedice.odds("4dF").at_least_table()


def _fractions_1000df() -> object:
    return fudgedice.odds("1000dF").outcomes


EXACT_CASES = (
    ExactCase("4dF (+ at-least)", _at_least_4df, ("4dF (+ at-least)",)),
    ExactCase("3d6kl2", partial(_odds, "3d6kl2"), ("3d6kl2",)),
    ExactCase("4d6kh3", partial(_odds, "4d6kh3"), ("4d6kh3",)),
    ExactCase("1000dF", partial(_odds, "1000dF"), ("1000dF", "1000dF (pool.sum)")),
    ExactCase("10000dF", partial(_odds, "10000dF")),
    ExactCase("1000dF fractions (.outcomes)", _fractions_1000df),
    ExactCase("10d6", partial(_odds, "10d6"), ("10d6",)),
    ExactCase("100d6", partial(_odds, "100d6"), ("100d6",)),
    ExactCase("3d6!", partial(_odds, "3d6!"), ("3d6!",)),
)


def bench_exact(quick: bool) -> list[Row]:
    rows = []
    for case in EXACT_CASES:
        case.ours()  # warm the parse cache: parse trees survive clear_caches()
        ours = time_cold(case.ours, fudgedice.clear_caches)
        forms = [form for form in case.icepool_forms if not (quick and form in SLOW_ICEPOOL)]
        if not forms:
            rows.append(Row("exact", case.name, ours))
            _print_row(rows[-1])
        for form in forms:
            ref = time_cold(icepool_ref.FORMS[form], icepool_ref.clear_icepool_caches)
            # Same name for every icepool form; the first one is the headline.
            rows.append(Row("exact", case.name, ours, f"icepool {form}", ref))
            _print_row(rows[-1])
    return rows


# ---------------------------------------------------------- game systems


@dataclass(frozen=True)
class SystemCase:
    """One form of a game system, from a ``benchmarks/cases_*.py`` file."""

    name: str
    ours: Callable[[], object]
    icepool: Callable[[], object] | None = None
    """The same distribution built with icepool, where icepool can express it."""
    limit: float | None = None
    """The goal: at most this many seconds per cold call."""


def system_cases() -> list[SystemCase]:
    """Every ``CASES`` list of the ``cases_*.py`` files beside this script."""
    cases: list[SystemCase] = []
    for path in sorted(HERE.glob("cases_*.py")):
        module = importlib.import_module(path.stem)
        cases.extend(SystemCase(*case) for case in module.CASES)
    return cases


def bench_systems(cases: list[SystemCase]) -> list[Row]:
    rows = []
    for case in cases:
        case.ours()  # warm the parse cache
        ours = time_cold(case.ours, fudgedice.clear_caches)
        if case.icepool is None:
            rows.append(Row("system", case.name, ours))
        else:
            ref = time_cold(case.icepool, icepool_ref.clear_icepool_caches)
            rows.append(Row("system", case.name, ours, "icepool", ref))
        _print_row(rows[-1])
    return rows


# ---------------------------------------------------------------- rolling

ROLL_CASES = (
    # (fudgedice expression, d20 expression)
    ("3d6+2", "3d6+2"),
    ("4d6kh3+2", "4d6kh3+2"),
    ("4dF+2", "3d6+2"),  # d20 has no Fudge dice: 3d6+2 is the yardstick
)


def d20_times(exprs: list[str]) -> tuple[dict[str, float], str]:
    """Seconds per d20.roll(expr) from d20_worker.py, and d20's version ("" if none)."""
    if not D20_PYTHON.exists():
        print(f"  d20 venv missing ({D20_PYTHON}): run `bash benchmarks/d20_env.sh`")
        return {}, ""
    version = subprocess.run(
        [str(D20_PYTHON), "-c", "import importlib.metadata as m; print(m.version('d20'))"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    done = subprocess.run(
        [str(D20_PYTHON), str(D20_WORKER), *exprs], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        print(f"  d20_worker.py failed ({done.returncode}): {done.stderr.strip()}")
        return {}, version
    times: dict[str, float] = json.loads(done.stdout)
    return times, version


def bench_roll() -> tuple[list[Row], str, dict[str, float]]:
    # d20 first, in its own process, so the two never share the CPUs.
    d20 = d20_times(sorted({theirs for _, theirs in ROLL_CASES}))
    rows = []
    for ours_expr, theirs in ROLL_CASES:
        fudgedice.roll(ours_expr)  # warm the parse cache, as d20_worker warms d20's
        names = {"roll": fudgedice.roll, "expr": ours_expr}
        ref_time = d20[0].get(theirs)
        ref = None if ref_time is None else Timing(ref_time, None, "5xN (d20_worker)")
        reference = f"d20 {theirs}"
        for label, stmt, note in (
            ("", "roll(expr)", ".text not rendered"),
            (" + .text", "roll(expr).text", "explanation rendered, as d20 always does"),
        ):
            ours = time_warm(stmt, names)
            rows.append(Row("roll", f"roll {ours_expr}{label}", ours, reference, ref, note))
            _print_row(rows[-1])
    return rows, d20[1], d20[0]


# --------------------------------------------------------------- sampling


def _sample_ours() -> object:
    return fudgedice.sample("4dF+2", numpy_baseline.SAMPLES, seed=numpy_baseline.SEED)


def _sample_fast() -> object:
    rng = np.random.default_rng(numpy_baseline.SEED)
    return numpy_baseline.sample_fudge_sum(rng, numpy_baseline.SAMPLES)


def _sample_naive() -> object:
    rng = np.random.default_rng(numpy_baseline.SEED)
    return numpy_baseline.sample_fudge_sum_naive(rng, numpy_baseline.SAMPLES)


def _best(func: Callable[[], object]) -> Timing:
    seconds = numpy_baseline.best_seconds(func)
    return Timing(seconds, None, f"{numpy_baseline.REPEAT} batches")


def bench_sample() -> list[Row]:
    ours = _best(_sample_ours)
    rows = []
    for label, func in (
        ("NumPy base-3 (fast)", _sample_fast),
        ("NumPy per-die (naive)", _sample_naive),
    ):
        row = Row("sample", "sample 4dF+2 x10**6", ours, label, _best(func), "default_rng timed")
        rows.append(row)
        _print_row(row)
    return rows


# ----------------------------------------------------------- fair rolls


def bench_fairness(d20: dict[str, float]) -> list[Row]:
    ref_time = d20.get("3d6+2")
    ref = None if ref_time is None else Timing(ref_time, None, "5xN (d20_worker)")
    seeded = time_warm(
        "roll(expr, seed=seed)", {"roll": fudgedice.roll, "expr": "3d6+2", "seed": 7}
    )
    rows = [Row("fair", "roll 3d6+2, seeded", seeded, "d20 3d6+2", ref, "a stream per roll")]
    _print_row(rows[-1])
    appended = fairness.session_roll()
    rows.append(Row("fair", "session roll, in memory", Timing(appended, None, "1000")))
    _print_row(rows[-1])
    for size in fairness.FILE_SIZES:
        seconds = fairness.file_roll(size)
        name = f"session roll, file of {size:,}"
        rows.append(Row("fair", name, Timing(seconds, None, "20"), note="fsync'd, atomic"))
        _print_row(rows[-1])
    log = fairness.verified_log()
    rows.append(Row("fair", "verify 10,000 rolls", Timing(fairness.verify_log(log), None, "3")))
    _print_row(rows[-1])
    return rows


# ---------------------------------------------------------------- report


def fmt_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def fmt_speedup(speedup: float | None) -> str:
    if speedup is None:
        return "-"
    return f"{speedup:,.0f}x" if speedup >= 100 else f"{speedup:.3g}x"


HEADER = (
    f"{'benchmark':<36} {'fudgedice':>10} {'runs':>9}  {'reference':<28} {'ref':>9} {'speedup':>8}"
)


def _print_row(row: Row) -> None:
    ref = row.ref.best if row.ref else None
    print(
        f"{row.name:<36} {fmt_seconds(row.ours.best):>10} {row.ours.runs:>9}  "
        f"{row.reference or '-':<28} {fmt_seconds(ref):>9} {fmt_speedup(row.speedup):>8}",
        flush=True,
    )


def _find(rows: list[Row], name: str) -> Row | None:
    return next((row for row in rows if row.name == name), None)


def _speedup_goal(rows: list[Row], name: str, goal: str, at_least: float) -> Goal:
    row = _find(rows, name)
    if row is None or row.speedup is None:
        return Goal(goal, "not measured", None)
    assert row.ref is not None
    measured = f"{row.speedup:.2f}x ({fmt_seconds(row.ours.best)} vs {fmt_seconds(row.ref.best)})"
    return Goal(goal, measured, row.speedup >= at_least)


def _time_goal(rows: list[Row], name: str, goal: str, limit: float) -> Goal:
    row = _find(rows, name)
    if row is None:
        return Goal(goal, "not measured", None)
    return Goal(goal, fmt_seconds(row.ours.best), row.ours.best <= limit)


def goals(rows: list[Row], cases: list[SystemCase]) -> list[Goal]:
    fast = "sample 4dF+2 x10**6"
    sample_rows = [row for row in rows if row.name == fast and row.ref is not None]
    out = [
        _speedup_goal(
            rows, "4dF (+ at-least)", "exact 4dF + at-least >= 20x faster than icepool", 20
        ),
        _speedup_goal(rows, "3d6kl2", "exact 3d6kl2 >= 20x faster than icepool", 20),
        _speedup_goal(rows, "4d6kh3", "exact 4d6kh3 >= 20x faster than icepool", 20),
        _time_goal(rows, "1000dF", "exact 1000dF <= 5 ms", 5e-3),
        _time_goal(rows, "10000dF", "exact 10000dF <= 50 ms", 50e-3),
        _time_goal(rows, "1000dF fractions (.outcomes)", "1000dF exact fractions <= 0.5 s", 0.5),
    ]
    for expr, theirs, times in (
        ("3d6+2", "3d6+2", 2.0),
        ("4d6kh3+2", "4d6kh3+2", 2.0),
        ("4dF+2", "3d6+2", 1.0),
    ):
        for label in ("", " + .text"):
            out.append(
                _speedup_goal(
                    rows,
                    f"roll {expr}{label}",
                    f"roll {expr}{label} >= {times:g}x d20 {theirs} rate",
                    times,
                )
            )
    for name, goal in (
        ("roll 3d6+2", "stream roll 3d6+2 (fresh key) >= 1x d20 3d6+2 rate"),
        ("roll 3d6+2, seeded", "stream roll 3d6+2 (seeded) >= 1x d20 3d6+2 rate"),
    ):
        out.append(_speedup_goal(rows, name, goal, 1.0))
    out.append(_time_goal(rows, "session roll, in memory", "session roll appended <= 1 ms", 1e-3))
    out.append(_time_goal(rows, "verify 10,000 rolls", "verify a 10,000-roll log <= 1 s", 1.0))
    for case in cases:
        if case.limit is not None:
            out.append(
                _time_goal(rows, case.name, f"{case.name} <= {fmt_seconds(case.limit)}", case.limit)
            )
    if sample_rows:
        row = sample_rows[0]
        assert row.ref is not None and row.speedup is not None
        slower = row.ours.best / row.ref.best
        out.append(
            Goal(
                "sample 4dF+2 x10**6 within 2x of fast NumPy",
                f"{slower:.2f}x its time ({fmt_seconds(row.ours.best)} vs "
                f"{fmt_seconds(row.ref.best)})",
                slower <= 2.0,
            )
        )
    return out


def machine() -> dict[str, Any]:
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next(
                (line.split(":", 1)[1].strip() for line in info if line.startswith("model name")),
                cpu,
            )
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "loadavg_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "icepool": icepool.__version__,
        "fudgedice": fudgedice.__version__,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="skip the icepool 1000dF forms (seconds each)"
    )
    parser.add_argument("--output", type=Path, default=RESULTS, help="JSON file to write")
    parser.add_argument(
        "--only",
        choices=["odds"],
        help="odds: exact odds alone (sections 1, 1b and 6 without the growth table)",
    )
    args = parser.parse_args(argv)

    meta = machine()
    started = perf_counter()
    print(
        f"fudgedice {meta['fudgedice']}, icepool {meta['icepool']}, numpy {meta['numpy']}, "
        f"Python {meta['python']}, {meta['cpus']} CPUs, load {meta['loadavg_at_start']}"
    )
    print("speedup = reference / fudgedice (above 1: fudgedice faster); best-of-runs times\n")

    print("1. Exact odds, caches cleared before every call (clear not timed)")
    print(HEADER)
    rows = bench_exact(args.quick)
    cases = system_cases()
    if cases:
        print("\n1b. Game systems, exact odds, caches cleared before every call")
        print(HEADER)
        rows += bench_systems(cases)
    if args.only == "odds":
        return _odds_only(rows, cases)
    print("\n2. Rolling (warm parse caches); d20 stringifies every roll")
    print(HEADER)
    roll_rows, d20_version, d20 = bench_roll()
    rows += roll_rows
    print("\n3. Sampling, np.random.default_rng(seed) created inside every timed call")
    print(HEADER)
    rows += bench_sample()
    print("\n3b. Sampling every system form, 3c. float odds past exact: against NumPy by hand")
    systems_sampled = sampling.bench_sampling(sampling.show) + sampling.bench_float(sampling.show)
    print("\n4. Rolls anyone can check: the stream, a session's log, verify")
    print(HEADER)
    rows += bench_fairness(d20)

    print("\n5. Where a player waits: the cold command line, and the systems' rolls")
    speed_rows, speed_goals = cli_speed.section(d20)
    print("\n6. Exact odds where they were slowest (odds_speed.py), and growth in N (growth.py)")
    speed_goals += [Goal(*goal) for goal in odds_speed.run()]
    odds_speed.growth_section(args.quick)

    summary = goals(rows, cases) + speed_goals
    summary += [Goal(goal, value, met) for goal, value, met in sampling.goals(systems_sampled)]
    width = max(len(goal.goal) for goal in summary)
    print(f"\nSummary\n{'goal':<{width}}  {'measured':<36} result")
    for goal in summary:
        print(f"{goal.goal:<{width}}  {goal.measured:<36} {goal.verdict}")
    elapsed = perf_counter() - started
    print(f"\n{elapsed:.0f} s in all; results in {args.output}")

    meta.update(
        d20=d20_version or None,
        when=datetime.now(UTC).isoformat(timespec="seconds"),
        quick=args.quick,
        seconds=elapsed,
    )
    report = {
        "meta": meta,
        "rows": [row.to_json() for row in [*rows, *speed_rows]],
        "goals": [{**asdict(goal), "verdict": goal.verdict} for goal in summary],
        "sampling": [{**asdict(row), "slower": row.slower} for row in systems_sampled],
    }
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def _odds_only(rows: list[Row], cases: list[SystemCase]) -> int:
    """The rest of `--only odds`: section 6's goals, and the summary of the
    exact-odds goals (results.json is left alone)."""
    print("\n6. Exact odds where they were slowest (odds_speed.py)")
    summary = [goal for goal in goals(rows, cases) if goal.passed is not None]
    summary += [Goal(*goal) for goal in odds_speed.run()]
    for goal in summary:
        print(f"{goal.goal:<64}  {goal.measured:<36} {goal.verdict}")
    print(f"load {list(os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
