"""Section 5 of `benchmarks/run.py`: where a player waits (issue 14, items 1-2).

1. The cold command line (startup.py): `fudgedice roll 4dF` and `fudgedice
   odds 4dF`, whole processes, medians, against `python -c pass`; the goal is
   at most 8x. Then where the start-up goes (`-X importtime`, by package).
2. Rolling the systems (system_rolls.py) against d20's `3d6+2`, with and
   without `.text`; the goal is at least twice d20's rate.

`section(d20)` prints its table and returns rows and goals shaped as
run.py's own (`to_json()`; `goal`, `measured`, `passed`, `verdict`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import startup
import system_rolls

CLI_AT_MOST = 8.0
"""The goal: each command at most this many times `python -c pass`."""


@dataclass(frozen=True)
class Measured:
    section: str
    name: str
    seconds: float
    reference: str | None = None
    ref_seconds: float | None = None

    @property
    def ratio(self) -> float | None:
        return None if self.ref_seconds is None else self.seconds / self.ref_seconds

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": self.ratio}


@dataclass(frozen=True)
class Goal:
    goal: str
    measured: str
    passed: bool | None

    @property
    def verdict(self) -> str:
        return {True: "PASS", False: "MISS", None: "SKIP"}[self.passed]


def _show(row: Measured, ratio: str = "") -> None:
    ref = "-" if row.ref_seconds is None else f"{row.ref_seconds * 1e3:.3g} ms"
    print(
        f"{row.name:<36} {row.seconds * 1e3:>8.3g} ms  {row.reference or '-':<24} {ref:>10}"
        f"  {ratio}",
        flush=True,
    )


def cold_cli() -> tuple[list[Measured], list[Goal]]:
    medians = startup.whole_processes_apart()
    base = medians.pop("python -c pass")
    rows, goals = [], []
    for name, seconds in medians.items():
        row = Measured("startup", name, seconds, "python -c pass (median)", base)
        assert row.ratio is not None
        rows.append(row)
        _show(row, f"{row.ratio:.1f}x its time")
        goals.append(
            Goal(
                f"cold `{name}` <= {CLI_AT_MOST:g}x python -c pass",
                f"{row.ratio:.1f}x ({seconds * 1e3:.0f} ms vs {base * 1e3:.0f} ms)",
                row.ratio <= CLI_AT_MOST,
            )
        )
    for name, seconds in startup.breakdown().items():
        rows.append(Measured("startup share", name, seconds))
        _show(rows[-1])
    return rows, goals


def rolls(d20: float | None) -> tuple[list[Measured], list[Goal]]:
    rows, goals = [], []
    for name, seconds in system_rolls.measure().items():
        row = Measured("system roll", name, seconds, f"d20 {system_rolls.YARDSTICK}", d20)
        rows.append(row)
        goal = f"{name} >= {system_rolls.AT_LEAST:g}x d20 {system_rolls.YARDSTICK} rate"
        if d20 is None:
            _show(row)
            goals.append(Goal(goal, "not measured (no d20)", None))
            continue
        rate = d20 / seconds
        _show(row, f"{rate:.2f}x d20's rate")
        measured = f"{rate:.2f}x ({seconds * 1e6:.3g} us vs {d20 * 1e6:.3g} us)"
        goals.append(Goal(goal, measured, rate >= system_rolls.AT_LEAST))
    return rows, goals


def section(d20: dict[str, float]) -> tuple[list[Measured], list[Goal]]:
    """Both parts; `d20` is run.py's d20 seconds by expression."""
    print(f"{'benchmark':<36} {'time':>11}  {'reference':<24} {'ref':>10}  ratio")
    cli_rows, cli_goals = cold_cli()
    roll_rows, roll_goals = rolls(d20.get(system_rolls.YARDSTICK))
    return cli_rows + roll_rows, cli_goals + roll_goals


if __name__ == "__main__":
    d20 = system_rolls.d20_seconds()
    _, found = section({} if d20 is None else {system_rolls.YARDSTICK: d20})
    for each in found:
        print(f"{each.goal:<56} {each.measured:<36} {each.verdict}")
