"""Rolling the systems against d20's `3d6+2`: issue 14's item 2.

`benchmarks/run.py` runs this in its section 5 with the d20 time it already
has; `python benchmarks/system_rolls.py` runs it alone (and d20 through
benchmarks/.d20-venv). Each form is timed as `roll(text)` and as
`roll(text).text` (d20 always writes its result out), timeit-style: the best
of 5 batches, each long enough to last 0.2 s, a warm parse cache on both sides.
"""

from __future__ import annotations

import json
import subprocess
import sys
import timeit
from pathlib import Path

import fudgedice
from fudgedice import api
from fudgedice.dice.program import Program

HERE = Path(__file__).resolve().parent
D20_PYTHON = HERE / ".d20-venv" / "bin" / "python"
YARDSTICK = "3d6+2"
"""What d20 rolls: it has none of these systems, and 3d6+2 is its plain roll."""
FORMS = ("4dF+2", "Good vs Great", "3d6fudge: Good", "d6: 5D+2", "power: 4dF+2 adv vs 3")
AT_LEAST = 2.0
"""The goal: each form, with and without .text, at least twice d20's rate."""
REPEAT = 5


def time_roll(statement: str, text: str) -> float:
    """Best seconds per call of `statement` (with `roll` and `text` bound)."""
    assert fudgedice.roll(text).text  # compiled, and anything measured once is measured
    timer = timeit.Timer(statement, globals={"roll": fudgedice.roll, "text": text})
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=REPEAT, number=number)) / number


def measure() -> dict[str, float]:
    """Seconds per roll of each form, as `roll X` and `roll X + .text`."""
    times: dict[str, float] = {}
    for text in FORMS:
        times[f"roll {text}"] = time_roll("roll(text)", text)
        times[f"roll {text} + .text"] = time_roll("roll(text).text", text)
    return times


def first_outcomes() -> dict[str, float]:
    """Seconds per `roll(X).text` whose outcome is new (the program's kept
    outcomes forgotten before each call): the general path, with the checks
    that keep its outcome. Not a goal: what a roll costs the first time."""
    times: dict[str, float] = {}
    for text in FORMS:
        kept = api.DICE.program(text).quick
        if kept is None:
            continue
        timer = timeit.Timer(
            "kept.outcomes.clear(); roll(text).text",
            globals={"roll": fudgedice.roll, "text": text, "kept": kept},
        )
        number, _ = timer.autorange()
        times[f"roll {text} + .text, new outcome"] = (
            min(timer.repeat(repeat=REPEAT, number=number)) / number
        )
    return times


def d20_seconds() -> float | None:
    """d20's seconds per `roll("3d6+2")`, from benchmarks/d20_worker.py."""
    if not D20_PYTHON.exists():
        return None
    done = subprocess.run(
        [str(D20_PYTHON), str(HERE / "d20_worker.py"), YARDSTICK],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return None
    seconds: float = json.loads(done.stdout)[YARDSTICK]
    return seconds


def main() -> int:
    d20 = d20_seconds()
    print(f"d20 {YARDSTICK}: {'-' if d20 is None else f'{d20 * 1e6:.1f} us'}")
    for name, seconds in measure().items():
        rate = "" if d20 is None else f"  {d20 / seconds:5.2f}x d20's rate"
        print(f"{name:<36} {seconds * 1e6:7.1f} us{rate}")
    if hasattr(Program, "quick"):  # main's code before kept outcomes has none
        for name, seconds in first_outcomes().items():
            print(f"{name:<49} {seconds * 1e6:7.1f} us (not a goal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
