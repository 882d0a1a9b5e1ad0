"""What passes between the pool and a worker, kept apart from the worker's heavy
imports (NumPy, matplotlib) so that the pool's own process stays light.

Messages to the pool: ``("ready", pid)`` and ``("done", index, Result)``; to the
worker: ``(index, case)``, or None to stop. Before each call the worker writes the
call's name and start time on its :class:`Board` (shared memory, no message), so
that the pool charges a hang to the right call.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from . import limits
from .findings import Problem


@dataclass(frozen=True)
class WorkerConfig:
    api: str = "fudgedice"
    """Where the Python API is: a module, or ``module:attribute`` (a test plants one)."""
    cpu_seconds: float = limits.CPU_SECONDS
    memory_bytes: int = limits.MEMORY_BYTES
    recycle_growth: int = 200 * 1024 * 1024
    """Replace the worker once its caches have grown its address space this much."""
    kill_cpu_seconds: float = limits.KILL_CPU_SECONDS
    """A call past this much of the worker's CPU time has the worker killed."""
    wall_seconds: float = limits.WALL_SECONDS
    """A call past this long (wall clock) has the worker killed."""


class Board:
    """What a worker is doing right now, in shared memory: the case, the call,
    when it started (``time.monotonic``, one clock for every process) and the
    worker's CPU time then."""

    SIZE = 64

    def __init__(self, context: Any) -> None:
        self.index = context.Value("q", -1, lock=False)
        self.started = context.Value("d", 0.0, lock=False)
        self.cpu = context.Value("d", 0.0, lock=False)
        self.entry = context.Array("c", self.SIZE, lock=False)

    def post(self, index: int, entry: str) -> None:
        self.entry.value = entry.encode()[: self.SIZE - 1]
        self.index.value = index
        self.cpu.value = time.process_time()
        self.started.value = time.monotonic()

    def read(self) -> tuple[int, str, float, float]:
        entry = self.entry.value.decode(errors="replace")
        return self.index.value, entry, self.started.value, self.cpu.value


@dataclass
class Result:
    calls: list[tuple[str, float]]
    problems: list[Problem]
    skips: list[str] = field(default_factory=list)
    shown: dict[str, str] = field(default_factory=dict)
    """The concrete input of a call (by entry), where the case's own
    description leaves something out."""
    internal: str | None = None
    """A bug of the fuzzer itself (its traceback), not a finding."""
    retire: bool = False
    """The worker leaves after this case and the pool starts another."""
    slowest: tuple[float, str] | None = None
    """The slowest call answered: its CPU time and entry."""


def serve(conn: Connection, board: Board, config: WorkerConfig) -> None:
    """A worker process's entry point (imports the worker where it runs)."""
    from .worker import main

    main(conn, board, config)
