"""The table's memory under a stream of distinct large odds (`make bench-table`).

One `fudgedice serve` process (its memory ceiling the default, 512 MB, or
`--memory`) is asked REQUESTS distinct odds through `GET /api/odds`, one at a
time (the table measures one at a time anyway): `{n}dF+{i}` and `d6: {n}D+{i}`
with n drawn up to 10,000, as in the report that a process answering 1,200 of
them grew to 1.7 GB and kept it. Each text is new, so every answer is measured
and its distributions offered to the caches. The server's resident memory
(VmRSS of /proc/PID/status) is read after every answer; reported: its peak, its
level at the end, the answers by status, and whether the peak stayed under the
ceiling (the goal). Prints a report and writes benchmarks/table_memory.json;
exits 1 if the peak passed the ceiling.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
MB = 2**20


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def resident(pid: int) -> int:
    """The process's resident memory in bytes (Linux)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise SystemExit("no VmRSS: this benchmark reads Linux's /proc")


def children(pid: int) -> list[int]:
    """The process's children: the server's measuring process, where the odds
    are measured (and their caches kept)."""
    tasks = Path(f"/proc/{pid}/task").iterdir()
    return [int(child) for task in tasks for child in (task / "children").read_text().split()]


def start(db: str, port: int, memory: int | None) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [
        sys.executable, "-c", "from fudgedice.cli import main; main()", "serve",
        "--port", str(port), "--db", db, "--address-rate", "100000", "--address-burst", "100000",
        *(["--memory", str(memory)] if memory else []),
    ]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://{HOST}:{port}/api/health", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def texts(count: int, seed: int) -> list[str]:
    """Distinct large odds, half Fudge and half D6 System."""
    chosen, seen = random.Random(seed), set[str]()
    while len(seen) < count:
        n, i = chosen.randint(1, 10_000), chosen.randint(-50, 50)
        seen.add(f"{n}dF{i:+d}" if len(seen) % 2 else f"d6: {n}D{i:+d}")
    return sorted(seen, key=lambda _: chosen.random())


def run(requests: int, memory: int | None, seed: int) -> dict[str, object]:
    ceiling = (memory or 512) * MB
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        process = start(str(Path(folder) / "table.sqlite3"), port, memory)
        try:
            started, peak, measuring = resident(process.pid), 0, 0
            statuses: Counter[int] = Counter()
            began = time.monotonic()
            with httpx.Client(base_url=f"http://{HOST}:{port}", timeout=120) as client:
                for text in texts(requests, seed):
                    statuses[client.get("/api/odds", params={"text": text}).status_code] += 1
                    peak = max(peak, resident(process.pid))
                    # each process keeps its own caches, under its own ceiling
                    measuring = max([measuring, *map(resident, children(process.pid))])
            seconds = time.monotonic() - began
            end = resident(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=30)
    return {
        "requests": requests,
        "ceiling_mb": ceiling // MB,
        "start_mb": round(started / MB, 1),
        "peak_mb": round(peak / MB, 1),
        "end_mb": round(end / MB, 1),
        "measuring_peak_mb": round(measuring / MB, 1),
        "seconds": round(seconds, 1),
        "statuses": {str(code): count for code, count in sorted(statuses.items())},
        "under_ceiling": peak < ceiling and measuring < ceiling,
        "load_average": os.getloadavg()[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--memory", type=int, help="the server's --memory (MB; default 512)")
    parser.add_argument("--seed", type=int, default=22)
    arguments = parser.parse_args()
    figures = run(arguments.requests, arguments.memory, arguments.seed)
    print(
        f"memory: {figures['requests']} distinct large odds through /api/odds in "
        f"{figures['seconds']} s (answers {figures['statuses']}), "
        f"load {figures['load_average']:.1f}"
    )
    print(
        f"  server resident memory: {figures['start_mb']} MB at start, peak "
        f"{figures['peak_mb']} MB, {figures['end_mb']} MB at the end; its measuring "
        f"process's peak {figures['measuring_peak_mb']} MB; ceiling {figures['ceiling_mb']} MB "
        f"a process: {'under' if figures['under_ceiling'] else 'PASSED'}"
    )
    (ROOT / "benchmarks" / "table_memory.json").write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if figures["under_ceiling"] else 1


if __name__ == "__main__":
    sys.exit(main())
