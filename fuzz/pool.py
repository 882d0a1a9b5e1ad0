"""The pool of worker processes: one case at a time each, reused case after case,
replaced when one hangs past its deadline (CPU time, read from ``/proc``; wall
time only for a worker that stopped running), dies, or retires.

Workers are forked from a fork server that has imported :mod:`fuzz.warm` (and
with it fudgedice, NumPy, click and matplotlib, warmed up), so replacing one is
cheap and the parent, which may have threads (pytest), never forks itself.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from .cases import Case
from .findings import Problem
from .limits import CHECK, CHECK_KILL_CPU_SECONDS, SUBPROCESS_WALL_SECONDS, process_cpu
from .protocol import Board, Result, WorkerConfig, serve

START_SECONDS = 120.0
"""How long a new worker may take to import and warm up."""
CHECK_EVERY = 0.25
"""Seconds between looks at a busy worker's CPU time."""


@dataclass
class Done:
    """A case that finished (or was cut short: ``result.problems`` says how)."""

    index: int
    case: Case
    result: Result


class Worker:
    def __init__(self, context: multiprocessing.context.ForkServerContext, config: WorkerConfig):
        ours, theirs = context.Pipe(duplex=True)
        self.config = config
        self.conn: Connection = ours
        self.board = Board(context)
        self.process: BaseProcess = context.Process(
            target=serve, args=(theirs, self.board, config), daemon=True, name="fuzz-worker"
        )
        self.process.start()
        self.pid = self.process.pid or 0
        theirs.close()
        self.ready = False
        self.born = time.monotonic()
        self.index: int | None = None
        self.case: Case | None = None
        self.given = 0.0

    @property
    def idle(self) -> bool:
        return self.ready and self.case is None

    def give(self, index: int, case: Case) -> None:
        self.index, self.case = index, case
        self.given = time.monotonic()
        self.conn.send((index, case))

    def doing(self) -> str:
        """The call under way."""
        index, entry, started, _ = self.board.read()
        if index != self.index or started < self.given:
            return "(starting)"
        return entry

    def overdue(self) -> str | None:
        """Why the call under way has run too long (None: it has not): past
        its CPU deadline (the worker's own CPU time, whatever else runs on the
        machine), or past a generous wall-clock one (a worker that stopped)."""
        index, entry, started, cpu = self.board.read()
        now = time.monotonic()
        if index != self.index or started < self.given:
            started, entry = self.given, "(starting)"
        elif "subprocess" in entry:
            # the CLI runs in a child process: its CPU is not the worker's
            if now - started > SUBPROCESS_WALL_SECONDS:
                return f"no answer after {SUBPROCESS_WALL_SECONDS:g} s: the worker was killed"
            return None
        else:
            limit = (
                CHECK_KILL_CPU_SECONDS if entry.startswith(CHECK) else self.config.kill_cpu_seconds
            )
            used = process_cpu(self.pid)
            if used is not None and used - cpu > limit:
                return f"still running after {limit:g} s of CPU: the worker was killed"
        if now - started > self.config.wall_seconds:
            return (
                f"no answer after {self.config.wall_seconds:g} s (wall clock) while using "
                "little CPU: the worker was killed"
            )
        return None

    def stop(self, kill: bool = False) -> None:
        if self.process.is_alive():
            if kill:
                self.process.kill()
            else:
                with contextlib.suppress(OSError):
                    self.conn.send(None)
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)
        self.conn.close()
        self.process.close()


class WorkerPool:
    """``submit`` a case to an idle worker; ``poll`` for the cases that ended."""

    def __init__(self, size: int, config: WorkerConfig) -> None:
        self.config = config
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["fuzz.warm"])
        self.workers = [Worker(self.context, config) for _ in range(max(1, size))]
        self.replaced = 0

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.workers = []

    def idle(self) -> list[Worker]:
        return [w for w in self.workers if w.idle]

    def busy(self) -> bool:
        return any(w.case is not None for w in self.workers)

    def submit(self, index: int, case: Case) -> bool:
        for worker in self.workers:
            if worker.idle:
                worker.give(index, case)
                return True
        return False

    def _replace(self, worker: Worker, kill: bool) -> None:
        worker.stop(kill=kill)
        self.workers[self.workers.index(worker)] = Worker(self.context, self.config)
        self.replaced += 1

    def poll(self, timeout: float) -> list[Done]:
        """Wait up to ``timeout`` seconds; the cases that ended meanwhile."""
        done: list[Done] = []
        busy = any(w.case is not None for w in self.workers)
        # a busy worker's CPU is looked at every so often
        patience = min(timeout, CHECK_EVERY) if busy else timeout
        ready = wait([w.conn for w in self.workers], timeout=max(0.0, patience))
        for worker in list(self.workers):
            if worker.conn in ready:
                self._receive(worker, done)
        now = time.monotonic()
        for worker in list(self.workers):
            why = worker.overdue() if worker.case is not None else None
            if why is not None:
                self._finish(worker, done, "timeout", why)
                self._replace(worker, kill=True)
            elif not worker.ready and now - worker.born > START_SECONDS:
                raise RuntimeError("a fuzz worker didn't start: see its output above")
        return done

    def _receive(self, worker: Worker, done: list[Done]) -> None:
        while True:
            try:
                if not worker.conn.poll():
                    return
                message = worker.conn.recv()
            except (EOFError, OSError):
                if worker.case is not None:
                    code = worker.process.exitcode
                    worker.process.join(timeout=1)
                    code = worker.process.exitcode if code is None else code
                    self._finish(worker, done, "crash", f"the worker died (exit code {code})")
                elif not worker.ready:
                    raise RuntimeError("a fuzz worker died while starting") from None
                self._replace(worker, kill=True)
                return
            tag = message[0]
            if tag == "ready":
                worker.ready = True
            elif tag == "done" and message[1] == worker.index:
                result: Result = message[2]
                assert worker.index is not None and worker.case is not None
                done.append(Done(worker.index, worker.case, result))
                worker.index = worker.case = None
                if result.retire:
                    self._replace(worker, kill=False)
                    return

    def _finish(self, worker: Worker, done: list[Done], kind: str, message: str) -> None:
        """A case cut short: what it had started, and the finding."""
        assert worker.index is not None and worker.case is not None
        entry = worker.doing()
        result = Result([(entry, 0.0)], [Problem(kind, entry, message)])
        done.append(Done(worker.index, worker.case, result))
        worker.index = worker.case = None

    def run_one(self, index: int, case: Case, patience: float = 600.0) -> Done | None:
        """Run one case to its end (the minimiser's trials); None if no worker came."""
        end = time.monotonic() + patience
        while not self.submit(index, case):
            self.poll(0.05)
            if time.monotonic() > end:
                return None
        while time.monotonic() < end:
            for finished in self.poll(0.05):
                if finished.index == index:
                    return finished
        return None
