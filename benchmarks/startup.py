"""What a player waits for: one `fudgedice roll 4dF` or `fudgedice odds 4dF`,
a whole process from start to exit, against `python -c pass`.

`benchmarks/run.py` runs this as part of its section 5; `python
benchmarks/startup.py` runs it alone. The commands are the console script
beside the running interpreter (the venv's `fudgedice`), started with the
environment this process has (its PYTHONPATH included), so the package timed
is the one this process imports, but with bytecode written and read
(PYTHONDONTWRITEBYTECODE dropped), as an installed package has it: else
every run compiles every module again. Runs are interleaved (pass, roll, odds,
pass, ...) so that a busy machine slows every command alike; the median of
each is compared.

`breakdown()` is where the start-up time goes: `python -X importtime` of the
modules a plain roll loads, their self times summed by top-level package, and the
grammar's generated parser timed alone (imported and loaded).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from time import perf_counter

RUNS = 21
"""Whole processes of each command; the median is reported."""
PYTHON = Path(sys.executable)
SCRIPT = PYTHON.parent / "fudgedice"
COMMANDS: dict[str, list[str]] = {
    "python -c pass": [str(PYTHON), "-c", "pass"],
    "fudgedice roll 4dF": [str(SCRIPT), "roll", "4dF"],
    "fudgedice odds 4dF": [str(SCRIPT), "odds", "4dF"],
}


ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
"""The children's environment: this one's, with bytecode files written."""


def _wall(command: list[str]) -> float:
    start = perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=ENV)
    return perf_counter() - start


def whole_processes(runs: int = RUNS) -> dict[str, float]:
    """Median wall seconds of each command, run to its exit."""
    for command in COMMANDS.values():
        _wall(command)  # bytecode compiled
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(runs):
        for name, command in COMMANDS.items():
            times[name].append(_wall(command))
    return {name: statistics.median(each) for name, each in times.items()}


def whole_processes_apart(runs: int = RUNS) -> dict[str, float]:
    """:func:`whole_processes`, measured from a fresh interpreter of its own.

    Starting a child costs its parent more the larger the parent is: from
    run.py, with NumPy and icepool loaded, each child took some 13 ms longer,
    `python -c pass` 30 ms instead of 17, which flattered every ratio. A small
    parent keeps the ratio what a player's shell sees.
    """
    done = subprocess.run(
        [str(PYTHON), __file__, "--medians", str(runs)],
        capture_output=True,
        text=True,
        check=True,
        env=ENV,
    )
    medians: dict[str, float] = json.loads(done.stdout)
    return medians


GROUPS = ("numpy", "matplotlib", "lark", "click", "tomlkit", "fudgedice")


def _import_times(module: str) -> dict[str, float]:
    """Self seconds of every module `module` imports, summed by top-level
    package (GROUPS; everything else is "other")."""
    done = subprocess.run(
        [str(PYTHON), "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=True,
        env=ENV,
    )
    totals: dict[str, float] = defaultdict(float)
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _cumulative, name = (part.strip() for part in line[12:].split("|"))
        top = name.split(".")[0]
        totals[top if top in GROUPS else "other"] += int(self_us) / 1e6
    return dict(totals)


_PARSER = """
import sys, time
start = time.perf_counter()
from fudgedice.language import generated_parser
generated_parser.Lark_StandAlone()
print(time.perf_counter() - start)
"""


def _parser_seconds() -> float:
    """Seconds to import and load the grammar's generated parser in a fresh
    process (lark's standalone module: its code and tables)."""
    done = subprocess.run(
        [str(PYTHON), "-c", _PARSER], capture_output=True, text=True, check=True, env=ENV
    )
    return float(done.stdout)


ENTRY = "fudgedice.cli.quick"
"""What the console script (`fudgedice.cli.entry`) imports for a plain `roll` or
`odds` (click, `fudgedice.cli.commands`, only for the other command lines)."""


def breakdown(runs: int = 5) -> dict[str, float]:
    """Median seconds of each share of the console script's start-up."""
    shares: dict[str, list[float]] = defaultdict(list)
    for _ in range(runs):
        for name, seconds in _import_times(ENTRY).items():
            shares[f"import {name}"].append(seconds)
        shares["grammar parser, generated (import + load)"].append(_parser_seconds())
    return {name: statistics.median(each) for name, each in shares.items()}


def main() -> int:
    if sys.argv[1:2] == ["--medians"]:  # whole_processes_apart's child
        print(json.dumps(whole_processes(int(sys.argv[2]))))
        return 0
    print(f"load average {os.getloadavg()}")
    medians = whole_processes()
    base = medians["python -c pass"]
    for name, seconds in medians.items():
        print(f"{name:<24} {seconds * 1e3:7.1f} ms  {seconds / base:5.1f}x python -c pass")
    for name, seconds in breakdown().items():
        print(f"{name:<36} {seconds * 1e3:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
