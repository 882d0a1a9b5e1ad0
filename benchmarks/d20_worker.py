"""Time d20.roll() per expression; run with benchmarks/.d20-venv/bin/python.

Usage: d20_worker.py [EXPR ...]   (default: 3d6+2 4d6kh3+2)
Prints JSON {expr: seconds_per_call} on stdout; exits 2 if d20 rejects one.

It is a separate process because d20's lark-parser clashes with lark
(see d20_env.sh). Only the standard library and d20 are used.
"""

from __future__ import annotations

import json
import sys
import timeit

import d20

DEFAULT_EXPRS = ("3d6+2", "4d6kh3+2")
REPEAT = 5


def time_roll(expr: str) -> float:
    """Best-of-5 seconds per d20.roll(expr), timeit-style.

    The timed call includes d20's default Markdown stringifying of the
    result, since that is what d20.roll() does.
    """
    d20.roll(expr)  # warm d20's LFU parse cache so parsing is not timed
    # A string statement with globals avoids a Python-level lambda frame
    # per loop, as `python -m timeit` does.
    timer = timeit.Timer("roll(expr)", globals={"roll": d20.roll, "expr": expr})
    number, _ = timer.autorange()  # loops so one run takes >= 0.2 s
    return min(timer.repeat(repeat=REPEAT, number=number)) / number


def main(argv: list[str]) -> int:
    exprs = argv or list(DEFAULT_EXPRS)
    try:
        results = {expr: time_roll(expr) for expr in exprs}
    except d20.RollError as exc:  # e.g. "4dF": d20 has no Fudge dice
        print(f"d20 cannot roll: {exc}", file=sys.stderr)
        return 2
    json.dump(results, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
