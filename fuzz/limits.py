"""The bounds of one call inside a worker: CPU time and memory.

CPU: an ``ITIMER_PROF`` timer raises :class:`CpuLimit` in the call once it has used
its budget; a call stuck inside C code (a big-integer product) can't be interrupted
that way, and the pool's wall-clock deadline kills the worker instead. Memory: the
worker's address space is capped at what it had after warming up plus the budget
(``RLIMIT_AS``), so a call that asks for more gets a ``MemoryError``.
"""

from __future__ import annotations

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
WALL_SECONDS = 3.0
"""A call not back after this long (wall clock) has its worker killed: a hang."""
SUBPROCESS_WALL_SECONDS = 30.0
"""The same for a CLI run in a fresh interpreter (which first imports NumPy)."""
CHECK_WALL_SECONDS = 30.0
"""The same for the fuzzer's own checks of a result (not fudgedice's time)."""
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
