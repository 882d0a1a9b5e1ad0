"""The fuzzer (fuzz/, ``make fuzz``) runs every entry point, and flags what it is
built to flag: here a planted API whose ``roll`` lies, whose ``sample`` raises,
whose ``table`` asks for too much memory and whose ``ladder`` never stops.

A bounded number of cases with a fixed seed; nothing here is timed.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import fudgedice
from fuzz import Options, run


class Planted:
    """fudgedice's Python API with four bugs planted in it."""

    odds = staticmethod(fudgedice.odds)
    read = staticmethod(fudgedice.read)
    parse = staticmethod(fudgedice.parse)

    def roll(self, text: str, seed: int | str | None = None) -> fudgedice.Roll:
        rolled = fudgedice.roll(text, seed=seed)
        rolled.total += 1000  # beyond anything the odds allow
        return rolled

    def sample(self, text: str, n: int, seed: int | str | None = None) -> Any:
        fudgedice.sample(text, n, seed=seed)
        raise ZeroDivisionError("planted in sample")

    def table(self, name: str, *, exact: bool = False, to: int | None = None) -> Any:
        return bytearray(2 * 1024**3)  # two gigabytes: over the memory budget

    def ladder(self, system: str) -> Any:
        while True:  # over the CPU budget
            pass


PLANTED = Planted()


def test_fuzzer_flags_planted_bugs(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    summary = run(
        Options(
            seconds=None,
            cases=160,
            seed=3,
            workers=2,
            report=report,
            minimise_seconds=1,
            subprocess_every=0,
            api="tests.test_fuzz:PLANTED",
            cpu_seconds=0.2,
            out=io.StringIO(),
        )
    )
    assert summary.cases == 160
    assert not summary.internal
    entries = set(summary.calls)
    assert {"roll", "odds", "odds.outcomes", "read", "sample", "cli roll", "cli odds"} <= entries
    kinds = summary.ledger.by_kind
    assert kinds.get("roll-outside-odds", 0) > 0
    assert kinds.get("read-mismatch", 0) > 0
    assert kinds.get("memory", 0) > 0
    assert kinds.get("slow", 0) > 0
    planted = [f for f in summary.findings if f.problem.error_type == "ZeroDivisionError"]
    assert planted and planted[0].entries == {"sample"}
    text = report.read_text("utf-8")
    assert "planted in sample" in text and "Traceback" in text
    assert report.with_suffix(".json").exists()
