"""The fuzzer (fuzz/, ``make fuzz``) runs every entry point, and flags what it is
built to flag: here a planted API whose ``roll`` lies, whose ``sample`` raises,
whose ``table`` asks for too much memory and whose ``ladder`` never stops.

A bounded number of cases with a fixed seed; nothing here is timed.
"""

from __future__ import annotations

import hashlib
import io
import time
from pathlib import Path
from typing import Any

import fudgedice
from fuzz import Options, run


class Planted:
    """fudgedice's Python API with five bugs planted in it."""

    read = staticmethod(fudgedice.read)
    parse = staticmethod(fudgedice.parse)

    def roll(self, text: str, seed: int | str | None = None) -> fudgedice.Roll:
        rolled = fudgedice.roll(text, seed=seed)
        rolled.total += 1000  # beyond anything the odds allow
        return rolled

    def odds(self, text: str) -> fudgedice.Odds:
        if "df" in text.lower():  # refused here, rolled by roll
            raise fudgedice.DiceValueError("planted: no odds of Fudge dice")
        return fudgedice.odds(text)

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
    assert kinds.get("roll-odds-disagree", 0) > 0
    assert kinds.get("memory", 0) > 0
    assert kinds.get("slow", 0) > 0
    planted = [f for f in summary.findings if f.problem.error_type == "ZeroDivisionError"]
    assert planted and planted[0].entries == {"sample"}
    text = report.read_text("utf-8")
    assert "planted in sample" in text and "Traceback" in text
    assert report.with_suffix(".json").exists()


class Stuck:
    """fudgedice's Python API whose ``odds`` never comes back: for rolls of an
    even length it is stuck in C code (that no timer signal interrupts), for
    the others asleep."""

    roll = staticmethod(fudgedice.roll)
    read = staticmethod(fudgedice.read)
    parse = staticmethod(fudgedice.parse)
    sample = staticmethod(fudgedice.sample)
    table = staticmethod(fudgedice.table)
    ladder = staticmethod(fudgedice.ladder)

    def odds(self, text: str) -> Any:
        if len(text) % 2 == 0:
            # half a minute of CPU inside one C call that checks for no signal
            return hashlib.pbkdf2_hmac("sha256", b"roll", b"salt", 100_000_000)
        time.sleep(600)
        return None


STUCK = Stuck()


def test_fuzzer_kills_a_worker_stuck_in_c_code_or_asleep(tmp_path: Path) -> None:
    """A call the CPU timer can't interrupt is killed once it has used the
    worker's CPU deadline (CPU time, so a busy machine never makes it late);
    one that uses no CPU at all, once the wall-clock deadline passes."""
    summary = run(
        Options(
            seconds=None,
            cases=12,
            seed=3,
            workers=2,
            report=tmp_path / "report.txt",
            minimise_seconds=0,
            subprocess_every=0,
            api="tests.test_fuzz:STUCK",
            cpu_seconds=0.2,
            kill_cpu_seconds=1.0,
            # the stuck worker needs an eighth of a core to use its 1 s of CPU
            # first: a shared machine at a load of 13 gave it less than 4 s's worth
            wall_seconds=8.0,
            out=io.StringIO(),
        )
    )
    assert not summary.internal
    messages = {f.problem.message for f in summary.findings if f.problem.kind == "timeout"}
    assert any("s of CPU" in message for message in messages), messages
    assert any("wall clock" in message for message in messages), messages
