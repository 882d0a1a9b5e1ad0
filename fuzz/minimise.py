"""Shortening a finding's input while it still shows the same finding.

Delta debugging on the characters of the input text (halves, quarters, ... single
characters), then on its whitespace; each trial is one case run in the pool. It is
bounded by a number of trials and by a deadline, and findings that cost a second or
more a trial (slow calls, hangs) get only a few.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .cases import CliCase, case_system, shown_for
from .findings import Finding, Ledger
from .pool import WorkerPool

TRIALS = 160
"""Trials for one finding."""
COSTLY_TRIALS = 16
"""Trials for a finding whose case takes seconds (slow, timeout, memory, crash)."""


def shorter(text: str, still: Callable[[str], bool], trials: int, deadline: float) -> str:
    """The shortest text found by removing chunks of ``text`` for which ``still`` holds."""
    budget = [trials]

    def test(candidate: str) -> bool:
        if budget[0] <= 0 or time.monotonic() > deadline:
            return False
        budget[0] -= 1
        return still(candidate)

    chunk = max(len(text) // 2, 1)
    while chunk >= 1 and budget[0] > 0 and time.monotonic() < deadline:
        start, progressed = 0, False
        while start < len(text) and budget[0] > 0:
            candidate = text[:start] + text[start + chunk :]
            if candidate != text and test(candidate):
                text, progressed = candidate, True
            else:
                start += chunk
        if not progressed:
            if chunk == 1:
                break
            chunk //= 2
    squeezed = " ".join(text.split())
    if squeezed != text and test(squeezed):
        text = squeezed
    return text


def minimise(
    finding: Finding,
    pool: WorkerPool,
    ledger: Ledger,
    deadline: float,
    next_index: Callable[[], int],
) -> None:
    """Fill ``finding.minimised`` (and the case it came from) when the input shrinks."""
    case = finding.case
    text = getattr(case, "text", None)
    with_text = getattr(case, "with_text", None)
    if not isinstance(text, str) or with_text is None or len(text) <= 1:
        return
    costly = finding.kind in ("slow", "timeout", "memory", "crash")

    shown: dict[str, str] = {}

    def still(candidate: str) -> bool:
        if isinstance(case, CliCase) and candidate.lstrip().startswith(("--", "-h")):
            return False  # an option of click's, not a shorter roll
        trial = with_text(candidate)
        done = pool.run_one(next_index(), trial)
        if done is None:
            return False
        system = case_system(trial)
        for problem in done.result.problems:
            if ledger.key(problem, candidate, system) == finding.key:
                shown[candidate] = done.result.shown.get(problem.entry) or shown_for(
                    trial, problem.entry
                )
                return True
        return False

    smallest = shorter(text, still, COSTLY_TRIALS if costly else TRIALS, deadline)
    if smallest != text:
        finding.minimised = smallest
        smaller = with_text(smallest)
        finding.minimised_case = smaller
        finding.minimised_input = shown.get(smallest) or shown_for(smaller, finding.problem.entry)
