"""The bounds of one call inside a worker: CPU time and memory.

CPU: an ``ITIMER_PROF`` timer raises :class:`CpuLimit` in the call once it has used
its budget; a call stuck inside C code (a big-integer product) can't be interrupted
that way, and the pool kills the worker once the call has used ``KILL_CPU_SECONDS``
of the worker's CPU time (read from ``/proc``). Every deadline is CPU time, never
wall time, so a busy machine (other jobs on two cores) makes no call late; the
wall-clock deadlines only catch a worker that stopped using CPU at all (asleep,
blocked), and are generous. Memory: the worker's address space is capped at what
it had after warming up plus the budget (``RLIMIT_AS``), so a call that asks for
more gets a ``MemoryError``.
"""

from __future__ import annotations

import os
import resource
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

CPU_SECONDS = 1.0
"""A call over this much CPU time is a finding."""
MEMORY_BYTES = 500 * 1024 * 1024
"""A call that needs more memory than this is a finding."""
KILL_CPU_SECONDS = 5.0
"""A call that has used this much of its worker's CPU time without coming back
(stuck in C code, out of the timer's reach) has its worker killed: a hang."""
CHECK_KILL_CPU_SECONDS = 30.0
"""The same for the fuzzer's own checks of a result (not fudgedice's time)."""
WALL_SECONDS = 120.0
"""A call not back after this long (wall clock) has its worker killed, whatever
CPU it used: a worker asleep or blocked. Far above any CPU deadline, so that
only a worker that stopped running reaches it."""
SUBPROCESS_WALL_SECONDS = 60.0
"""The wall-clock deadline of a CLI run in a fresh interpreter (which first
imports NumPy): its CPU is a child's, not the worker's."""
CHECK = "check "
"""What the name of a check starts with, on a worker's board."""


class CpuLimit(BaseException):
    """The call used up its CPU budget. A BaseException, so that no ``except
    Exception`` in the code under test (or in click's test runner) swallows it."""


_armed = False


def _on_prof(signum: int, frame: FrameType | None) -> None:
    if _armed:
        raise CpuLimit(f"over {CPU_SECONDS:g} s of CPU")


def install() -> None:
    """Install the CPU alarm handler (in the worker's main thread)."""
    signal.signal(signal.SIGPROF, _on_prof)


@contextmanager
def cpu_budget(seconds: float | None) -> Iterator[None]:
    """Raise :class:`CpuLimit` inside the block after ``seconds`` of CPU; None: no budget."""
    global _armed
    if seconds is None:
        yield
        return
    signal.setitimer(signal.ITIMER_PROF, seconds)
    _armed = True
    try:
        yield
    finally:
        _armed = False
        signal.setitimer(signal.ITIMER_PROF, 0)


def cpu_now() -> float:
    return time.process_time()


def vm_bytes() -> int:
    """This process's address space (what ``RLIMIT_AS`` counts)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except OSError:
        return 0


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def cap_memory(extra: int = MEMORY_BYTES) -> int:
    """Cap the address space at its present size plus ``extra``; returns the cap
    (0 where it can't be measured or set)."""
    now = vm_bytes()
    if not now:
        return 0
    cap = now + extra
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        return 0
    return cap


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu(pid: int) -> float | None:
    """CPU time (user and system) another process has used so far, from
    ``/proc``; None where it can't be read (the process is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    # after the command's name: state, ppid, ... utime is the 14th field, stime the 15th
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
