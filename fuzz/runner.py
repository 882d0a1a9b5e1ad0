"""The fuzzing run: draw cases, keep the pool busy, collect findings, minimise
them, print the counts and write the report.

The n-th case depends on the seed alone, so two runs with the same seed run the
same cases (a run for a number of seconds runs a prefix of them), and the report
lists findings in the order of the case that first showed them.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .cases import CaseMaker, case_system, shown_for
from .findings import KINDS, Finding, Ledger
from .limits import CPU_SECONDS, KILL_CPU_SECONDS, WALL_SECONDS
from .minimise import minimise
from .pool import Done, WorkerPool
from .protocol import WorkerConfig


@dataclass
class Options:
    seconds: float | None = 60.0
    """Stop drawing cases after this long (None: only ``cases`` bounds the run)."""
    cases: int | None = None
    """Stop after this many cases."""
    seed: int = 1
    workers: int = 0
    """0: one per CPU."""
    report: Path | None = Path("fuzz-report.txt")
    minimise_seconds: float | None = None
    """Time for minimising findings after the run (None: a fifth of ``seconds``, at
    least 10 s and at most 120 s)."""
    subprocess_every: int = 1000
    """Every n-th case runs the CLI in a fresh interpreter (0: never)."""
    api: str = "fudgedice"
    """The Python API under test (``module`` or ``module:attribute``)."""
    cpu_seconds: float = CPU_SECONDS
    """A call over this much CPU time is a finding."""
    kill_cpu_seconds: float = KILL_CPU_SECONDS
    """A call past this much CPU time (stuck in C code) has its worker killed."""
    wall_seconds: float = WALL_SECONDS
    """A call past this long (wall clock, using little CPU) has its worker killed."""
    progress_every: float = 15.0
    out: TextIO = field(default_factory=lambda: sys.stdout)


@dataclass
class Summary:
    cases: int = 0
    seconds: float = 0.0
    calls: Counter[str] = field(default_factory=Counter)
    cpu: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    skips: Counter[str] = field(default_factory=Counter)
    ledger: Ledger = field(default_factory=Ledger)
    internal: list[str] = field(default_factory=list)
    replaced: int = 0
    workers: int = 0
    slowest: tuple[float, str, str] | None = None
    """The slowest call that was answered: CPU seconds, entry, input."""

    @property
    def findings(self) -> list[Finding]:
        return self.ledger.ordered()

    @property
    def calls_per_second(self) -> float:
        return sum(self.calls.values()) / self.seconds if self.seconds else 0.0

    @property
    def cases_per_second(self) -> float:
        return self.cases / self.seconds if self.seconds else 0.0


def run(options: Options) -> Summary:
    import fudgedice
    from fudgedice.api import table_names

    ladders = (*(n for n, s in fudgedice.SYSTEMS.items() if s.ladder), "d6", "Fudge")
    maker = CaseMaker(options.seed, tuple(table_names()), ladders, options.subprocess_every)
    summary = Summary()
    size = options.workers or os.cpu_count() or 2
    summary.workers = size
    out = options.out
    counter = itertools.count()
    config = WorkerConfig(
        api=options.api,
        cpu_seconds=options.cpu_seconds,
        kill_cpu_seconds=options.kill_cpu_seconds,
        wall_seconds=options.wall_seconds,
    )
    with WorkerPool(size, config) as pool:
        _wait_ready(pool)
        start = time.monotonic()
        stop_at = start + options.seconds if options.seconds is not None else None
        next_progress = start + options.progress_every
        issued = 0
        try:
            while True:
                now = time.monotonic()
                drawing = (stop_at is None or now < stop_at) and (
                    options.cases is None or issued < options.cases
                )
                while drawing and pool.idle():
                    index = next(counter)
                    case = maker.next(index)
                    pool.submit(index, case)
                    issued += 1
                    if options.cases is not None and issued >= options.cases:
                        drawing = False
                if not drawing and not pool.busy():
                    break
                for done in pool.poll(0.2):
                    _collect(summary, done, out)
                if now > next_progress:
                    _progress(summary, now - start, out)
                    next_progress = now + options.progress_every
        except KeyboardInterrupt:
            print("interrupted: reporting what was found so far", file=out)
        summary.seconds = time.monotonic() - start
        summary.replaced = pool.replaced
        _minimise_all(summary, options, pool, counter)
    _print_summary(summary, options, out)
    if options.report is not None:
        write_report(summary, options, options.report)
        print(f"report: {options.report}", file=out)
    return summary


def _wait_ready(pool: WorkerPool) -> None:
    while not all(w.ready for w in pool.workers):
        pool.poll(0.05)


def _collect(summary: Summary, done: Done, out: TextIO) -> None:
    summary.cases += 1
    result = done.result
    for entry, cpu in result.calls:
        summary.calls[entry] += 1
        summary.cpu[entry] += cpu
    if result.slowest is not None and (
        summary.slowest is None or result.slowest[0] > summary.slowest[0]
    ):
        used, entry = result.slowest
        shown = result.shown.get(entry) or shown_for(done.case, entry)
        summary.slowest = (used, entry, shown)
    summary.skips.update(result.skips)
    if result.internal:
        summary.internal.append(f"case {done.index}: {done.case!r}\n{result.internal}")
        print(f"fuzzer bug on case {done.index}:\n{result.internal}", file=out)
    text = getattr(done.case, "text", None)
    for problem in result.problems:
        shown = result.shown.get(problem.entry) or shown_for(done.case, problem.entry)
        new = summary.ledger.add(
            problem, done.index, done.case, text, shown, case_system(done.case)
        )
        if new:
            what = f"{problem.error_type}: " if problem.error_type else ""
            print(f"new finding [{problem.kind}] {what}{problem.message[:160]}", file=out)
            print(f"    {problem.entry}: {shown[:300]}", file=out)


def _progress(summary: Summary, elapsed: float, out: TextIO) -> None:
    calls = sum(summary.calls.values())
    print(
        f"{elapsed:6.0f} s  {summary.cases} cases  {calls} calls "
        f"({calls / elapsed:.0f}/s)  {len(summary.ledger.findings)} distinct findings",
        file=out,
    )
    out.flush()


def _minimise_all(
    summary: Summary, options: Options, pool: WorkerPool, counter: itertools.count[int]
) -> None:
    budget = options.minimise_seconds
    if budget is None:
        budget = min(max((options.seconds or 60) / 5, 10), 120)
    if budget <= 0 or not summary.ledger.findings:
        return
    deadline = time.monotonic() + budget
    findings = summary.ledger.ordered()
    # cheap kinds first: a hang costs seconds a trial
    findings.sort(key=lambda f: f.kind in ("slow", "timeout", "memory", "crash"))
    for finding in findings:
        if time.monotonic() > deadline:
            break
        share = (deadline - time.monotonic()) / max(1, len(findings))
        minimise(
            finding,
            pool,
            summary.ledger,
            min(deadline, time.monotonic() + max(share * 3, 2.0)),
            lambda: next(counter),
        )


def _print_summary(summary: Summary, options: Options, out: TextIO) -> None:
    calls = sum(summary.calls.values())
    print("", file=out)
    print(
        f"fuzz: seed {options.seed}, {summary.cases} cases, {calls} calls in "
        f"{summary.seconds:.1f} s on {summary.workers} workers: "
        f"{summary.cases_per_second:.0f} cases/s, {summary.calls_per_second:.0f} calls/s "
        f"({summary.replaced} workers replaced)",
        file=out,
    )
    print("calls per entry point (mean CPU):", file=out)
    for entry, count in sorted(summary.calls.items()):
        mean = summary.cpu[entry] / count * 1000 if count else 0.0
        print(f"  {entry:<28} {count:>9}  {mean:8.2f} ms", file=out)
    if summary.slowest is not None:
        used, entry, shown = summary.slowest
        print(f"slowest call answered: {used:.2f} s of CPU, {entry}: {shown[:200]}", file=out)
    if summary.skips:
        print("checks skipped:", file=out)
        for reason, count in summary.skips.most_common():
            print(f"  {count:>9}  {reason[:120]}", file=out)
    print("findings by kind (occurrences / distinct):", file=out)
    distinct = Counter(f.kind for f in summary.findings)
    if not summary.ledger.by_kind:
        print("  none", file=out)
    for kind, count in sorted(summary.ledger.by_kind.items()):
        print(f"  {kind:<20} {count:>9} / {distinct[kind]}", file=out)
    for number, finding in enumerate(summary.findings, 1):
        print(f"  #{number} {finding.title()[:150]}", file=out)
        print(f"      input: {_input(finding)[:200]}", file=out)
    if summary.internal:
        print(f"FUZZER BUGS: {len(summary.internal)} (see the report)", file=out)


def _input(finding: Finding) -> str:
    return finding.minimised_input or finding.input


def _slowest_lines(summary: Summary) -> list[str]:
    if summary.slowest is None:
        return []
    used, entry, shown = summary.slowest
    return [f"Slowest call answered: {used:.2f} s of CPU, {entry}:", f"  {shown}", ""]


def write_report(summary: Summary, options: Options, path: Path) -> None:
    """Every distinct finding: input, entry points, what went wrong, traceback; and
    the same as JSON beside it (``.json``)."""
    lines = [
        f"fudgedice fuzz report: seed {options.seed}, {summary.cases} cases, "
        f"{sum(summary.calls.values())} calls in {summary.seconds:.1f} s "
        f"({summary.calls_per_second:.0f} calls/s, {summary.workers} workers)",
        "",
        "Calls per entry point:",
        *(f"  {entry:<28} {count}" for entry, count in sorted(summary.calls.items())),
        "",
        *_slowest_lines(summary),
        "Findings by kind (occurrences):",
        *(f"  {kind:<20} {count}" for kind, count in sorted(summary.ledger.by_kind.items())),
        "",
    ]
    records = []
    for number, finding in enumerate(summary.findings, 1):
        problem = finding.problem
        lines += [
            "=" * 100,
            f"#{number} {finding.title()}",
            f"kind:          {finding.kind} ({KINDS.get(finding.kind, '')})",
            f"entry points:  {', '.join(sorted(finding.entries))}",
            f"seen:          {finding.count} times, first in case {finding.case_index}",
            f"where:         {problem.location or '-'}",
            f"input:         {finding.input}",
            f"minimal input: {finding.minimised_input or '-'}",
            f"what:          {problem.message}",
        ]
        if problem.detail:
            lines += ["detail:", *("    " + line for line in problem.detail.splitlines())]
        if problem.traceback:
            lines += ["traceback:", *("    " + line for line in problem.traceback.splitlines())]
        lines.append("")
        records.append(
            {
                "number": number,
                "kind": finding.kind,
                "error_type": problem.error_type,
                "message": problem.message,
                "detail": problem.detail,
                "where": problem.location,
                "entries": sorted(finding.entries),
                "count": finding.count,
                "case_index": finding.case_index,
                "input": finding.input,
                "minimal_input": finding.minimised_input,
                "minimal_text": finding.minimised,
                "traceback": problem.traceback,
            }
        )
    if summary.internal:
        lines += ["=" * 100, "FUZZER BUGS (not findings):", *summary.internal]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.with_suffix(".json").write_text(
        json.dumps(
            {
                "seed": options.seed,
                "cases": summary.cases,
                "seconds": summary.seconds,
                "calls": dict(summary.calls),
                "slowest": (
                    None
                    if summary.slowest is None
                    else dict(zip(("cpu_seconds", "entry", "input"), summary.slowest, strict=True))
                ),
                "by_kind": summary.ledger.by_kind,
                "findings": records,
                "internal": summary.internal,
            },
            indent=2,
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
