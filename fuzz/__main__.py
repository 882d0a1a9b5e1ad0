"""``python -m fuzz --seconds 60 --seed 1``: exit status 1 when anything was found."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .runner import Options, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to draw cases")
    parser.add_argument("--cases", type=int, default=None, help="stop after this many cases")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--workers", type=int, default=0, help="worker processes (0: one a CPU)")
    parser.add_argument(
        "--report", type=Path, default=Path("fuzz-report.txt"), help="the report (and .json)"
    )
    parser.add_argument(
        "--minimise-seconds", type=float, default=None, help="time to shorten findings' inputs"
    )
    parser.add_argument(
        "--subprocess-every",
        type=int,
        default=1000,
        help="run every n-th case's CLI in a fresh interpreter (0: never)",
    )
    args = parser.parse_args(argv)
    summary = run(
        Options(
            seconds=args.seconds if args.seconds > 0 else None,
            cases=args.cases,
            seed=args.seed,
            workers=args.workers,
            report=args.report,
            minimise_seconds=args.minimise_seconds,
            subprocess_every=args.subprocess_every,
        )
    )
    if summary.internal:
        return 3
    return 1 if summary.findings else 0


if __name__ == "__main__":
    sys.exit(main())
