"""Rolls anyone can check (docs/fairness.md): what the stream, the log and a
session cost.

`benchmarks/run.py` runs these as its section 4; `python benchmarks/fairness.py`
runs them alone (without d20). Each function returns seconds per call:

* `session_roll`: one roll appended to a session held in memory (the entry
  built, chained, hashed), the mean over a thousand rolls;
* `file_roll`: one `fudgedice roll --session FILE` without the process start:
  the file locked, read, the roll appended, written to a temporary file,
  flushed to the disk, renamed over it, for a session of `size` entries;
* `verify_log`: `verify` over an exported log of 10,000 rolls of every system
  (one in fifty secret), every roll re-rolled from its revealed seed.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from fudgedice import Session, verify
from fudgedice.log import storage

SEED = bytes(range(32))
TEXTS = ("4dF+1", "Good vs Great", "d6: 3D+1", "3d6fudge: Good", "2d6+3")
"""The rolls of a session, every system's, in turn."""
VERIFIED_ROLLS = 10_000
FILE_SIZES = (100, 1_000, 10_000)
"""Entries in the session file a roll is appended to."""


def played(rolls: int) -> Session:
    session = Session.new(server_seed=SEED)
    for index in range(rolls):
        visibility = "secret" if index % 50 == 0 else "public"
        session.roll(TEXTS[index % len(TEXTS)], visibility=visibility)
    return session


def session_roll(rolls: int = 1_000) -> float:
    session = Session.new(server_seed=SEED)
    session.roll(TEXTS[0])  # warm the parse cache
    start = time.perf_counter()
    for index in range(rolls):
        session.roll(TEXTS[index % len(TEXTS)])
    return (time.perf_counter() - start) / rolls


def file_roll(size: int, rolls: int = 20) -> float:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        storage.create(path, played(size))
        start = time.perf_counter()
        for _ in range(rolls):
            with storage.updating(path) as session:
                session.roll(TEXTS[0])
        return (time.perf_counter() - start) / rolls


def verified_log(rolls: int = VERIFIED_ROLLS) -> dict[str, Any]:
    session = played(rolls)
    session.reveal()
    return session.export()


def verify_log(log: dict[str, Any], repeat: int = 3) -> float:
    """Best of ``repeat`` runs of verify; every run must find the log whole."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        report = verify(log)
        best = min(best, time.perf_counter() - start)
        assert report.complete and report.checked == len(log["entries"]), report
    return best


def main() -> None:
    print(f"session roll, in memory: {session_roll() * 1e3:.3f} ms per roll")
    for size in FILE_SIZES:
        print(f"session roll into a file of {size:,} entries: {file_roll(size) * 1e3:.2f} ms")
    print(f"verify {VERIFIED_ROLLS:,} rolls: {verify_log(verified_log()):.3f} s")


if __name__ == "__main__":
    main()
