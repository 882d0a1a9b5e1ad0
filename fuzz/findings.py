"""Findings: what went wrong, where, and which input showed it; deduplicated.

Two findings are the same when their kind, exception type, message (numbers and
quoted parts normalised, the input itself taken out) and place in fudgedice (the
innermost frame under ``fudgedice/``, file and function, no line numbers, which
move as the code changes) are the same.
"""

from __future__ import annotations

import os
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

HERE = str(Path(__file__).resolve().parent) + os.sep
"""The fuzzer's own files: never the place a finding is charged to."""

KINDS = {
    "exception": "an exception outside the DiceError family",
    "warning": "a warning (an error under the project's filterwarnings = error)",
    "cli-traceback": "a CLI run that crashed, printed a traceback or exited oddly",
    "slow": "a call over the CPU budget",
    "timeout": "a call that didn't come back before the wall-clock deadline (worker killed)",
    "memory": "a call over the memory budget",
    "crash": "the worker process died",
    "roll-outside-odds": "a rolled total the odds of the same text say is impossible",
    "sample-outside-odds": "a sampled total the odds of the same text say is impossible",
    "not-reproducible": "the same text and seed gave different results",
    "cli-api-mismatch": "the CLI and the Python API disagree on the same roll",
    "read-mismatch": "reading a roll's own faces gave another result",
    "read-refused": "reading a roll's own faces was refused",
    "invariant": "a result that contradicts itself (odds not summing to 1, ...)",
    "invalid-json": "a result that is not valid JSON",
    "non-ascii-accepted": "a roll with a look-alike character (the Kelvin sign) taken as ASCII",
    "roll-odds-disagree": "roll and odds accept or refuse one text otherwise (fuzz/agreement.py)",
    "sample-disagrees": "sample accepts or refuses a text otherwise than roll and odds",
}


@dataclass(frozen=True)
class Problem:
    """A finding as the worker sees it: no input yet (the pool knows the case)."""

    kind: str
    entry: str
    message: str
    error_type: str = ""
    location: str = ""
    traceback: str = ""
    detail: str = ""
    """The particulars (values, faces, output), apart from the message, which
    stays the same for every instance of one finding."""


def where(tb: TracebackType | None) -> str:
    """The innermost frame in fudgedice (else the innermost frame): ``file:function``."""
    frames = [f for f in traceback.extract_tb(tb) if not f.filename.startswith(HERE)]
    ours = [f for f in frames if "/fudgedice/" in f.filename.replace("\\", "/")]
    if not (ours or frames):
        return ""
    frame = (ours or frames)[-1]
    path = frame.filename.replace("\\", "/")
    if "/fudgedice/" in path:
        path = "fudgedice/" + path.rsplit("/fudgedice/", 1)[1]
    else:
        path = path.rsplit("/", 1)[-1]
    return f"{path}:{frame.name}"


def from_exception(kind: str, entry: str, error: BaseException) -> Problem:
    return Problem(
        kind=kind,
        entry=entry,
        message=_one_line(str(error)),
        error_type=type(error).__name__,
        location=where(error.__traceback__),
        traceback="".join(traceback.format_exception(error)),
    )


def _one_line(message: str, limit: int = 600) -> str:
    message = message.strip().splitlines()[0] if message.strip() else ""
    return message if len(message) <= limit else message[:limit] + "..."


def normalise(message: str, text: str | None) -> str:
    """The message with the input, quoted parts and numbers taken out."""
    if text and len(text) > 2:
        message = message.replace(text, "<input>")
    message = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", message)
    message = re.sub(r"-?[0-9]+", "N", message)
    return message[:160]


@dataclass
class Finding:
    """One distinct finding, with the first input that showed it."""

    key: tuple[str, ...]
    kind: str
    problem: Problem
    case_index: int
    case: object
    input: str
    entries: set[str] = field(default_factory=set)
    count: int = 0
    minimised: str | None = None
    """The shortest input text that still shows the finding (None: not shortened)."""
    minimised_case: object | None = None
    minimised_input: str | None = None
    """The shortened case as a person would retype it."""

    def title(self) -> str:
        what = f"{self.problem.error_type}: " if self.problem.error_type else ""
        return f"[{self.kind}] {what}{self.problem.message}"


class Ledger:
    """Every finding of a run, one entry per distinct key."""

    def __init__(self) -> None:
        self.findings: dict[tuple[str, ...], Finding] = {}
        self.by_kind: dict[str, int] = {}

    def key(self, problem: Problem, text: str | None, system: str) -> tuple[str, ...]:
        if problem.kind in ("slow", "timeout", "memory", "crash"):
            # what was slow is told by where it was interrupted, not by a message
            return (problem.kind, problem.entry.split("(")[0], problem.location, system)
        if problem.error_type:
            return (
                problem.kind,
                problem.error_type,
                normalise(problem.message, text),
                problem.location,
            )
        return (problem.kind, normalise(problem.message, text), system)

    def add(
        self,
        problem: Problem,
        case_index: int,
        case: object,
        text: str | None,
        shown: str,
        system: str,
    ) -> bool:
        """Record a finding; True when it is a new one."""
        self.by_kind[problem.kind] = self.by_kind.get(problem.kind, 0) + 1
        key = self.key(problem, text, system)
        known = self.findings.get(key)
        if known is None:
            known = Finding(key, problem.kind, problem, case_index, case, shown)
            self.findings[key] = known
            new = True
        else:
            new = False
            if case_index < known.case_index:  # the earliest case, whatever order results came in
                known.problem, known.case_index, known.case, known.input = (
                    problem,
                    case_index,
                    case,
                    shown,
                )
        known.entries.add(problem.entry)
        known.count += 1
        return new

    def ordered(self) -> list[Finding]:
        return sorted(self.findings.values(), key=lambda f: (f.kind, f.case_index))
