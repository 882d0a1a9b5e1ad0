"""Load test of the table (`make bench-table`): many members rolling at once
through the HTTP API while watchers follow the live feed, then the server
killed (SIGKILL) mid-load and restarted.

MEMBERS members in ROOMS rooms roll while WATCHERS watchers (spread over the
rooms) follow the live feed: a warm-up of WARM_UP rolls each (not measured: a
fresh server reads each member's token from the database at its first roll and
compiles its statements, and the first second is several times slower), then
three rounds:

1. Paced: each member rolls ROLLS times at the goal's rate (together 1,000 rolls
   a second, the members' schedules spread evenly). A roll's latency counts
   from when it was due, so a roll sent late because the server was slow to
   answer the one before counts that wait too.
2. Flat out: each member rolls ROLLS times more, each roll as soon as the one
   before is answered: the most the server does. Here latency is bound to
   throughput (50 members waiting on each other: mean latency = 50 / rolls a
   second), so its p99 says how fast the server is, not how quick a roll is.
3. Crash: the members roll again; partway through, the server is killed with
   SIGKILL and started again on the same database; members and watchers carry on.

Reported for rounds 1 and 2: rolls a second, p50/p99 latency of a roll (its
request written, or due, to its 201 read) and of its live delivery (the roll's
`at`, stamped by the server before its commit, to its arrival at a watcher),
and the CPU time the server and this load generator spent per roll. Then the
checks: every roll answered 201 is in its room's history, unchanged; each
room's `seq` runs 1..N with no gap or duplicate; every room's log verifies.

The load generator is this one process (raw asyncio HTTP/1.1 keep-alive
connections, benchmarks/table_client.py); the server is another. Both share
the machine's cores with whatever else runs there, so the machine's load
average is reported beside the figures. Every request goes to 127.0.0.1 only,
and every loop is bounded. Prints a report and writes
benchmarks/table_results.json; exits 1 if a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from table_bounds import idle_feeds, sheet_reads
from table_checks import check_rooms
from table_client import Closed, Connection

ROOT = Path(__file__).resolve().parents[1]
GOALS = {"rolls_per_second": 1000.0, "p99_roll_ms": 50.0, "p99_live_ms": 100.0}
HOST = "127.0.0.1"


_READY = re.compile(r'event: ready\ndata: \{"last_seq": ?(\d+)\}')
_AT = '"at":"'
"""How a roll's time begins in its JSON (compact, as the server writes it)."""


def rolls_in(block: str) -> list[tuple[str, str]]:
    """The (seq, at) of each roll event in whole events of the live feed.
    The roll's JSON is not parsed: that would cost the load generator more
    than the server spends sending it, and both share the machine."""
    found = []
    position = 0
    while (start := block.find("id: ", position)) >= 0:
        line_end = block.find("\n", start)
        end = block.find("\n\n", line_end)
        if block.startswith("event: roll\n", line_end + 1):
            at = block.find(_AT, line_end, end) + len(_AT)
            found.append((block[start + 4 : line_end], block[at : block.find('"', at)]))
        position = end
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    def __init__(self, db: str, port: int, src: Path = ROOT / "src") -> None:
        self.db, self.port, self.src = db, port, src
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(self.src)}
        command = [
            sys.executable, "-c", "from fudgedice.cli import main; main()", "serve",
            "--port", str(self.port), "--db", self.db, "--rate", "100000", "--burst", "100000",
            "--address-rate", "100000", "--address-burst", "100000",
            # the load generator is one address standing for every member's
            # device: the per-address cap of connections would refuse its feeds
            "--per-address", "5000",
        ]  # fmt: skip
        # a session of its own, as a server runs: with the kernel's autogroups
        # the scheduler then shares the cores between the server and this
        # load generator as between any two programs, not as within one
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the server did not start")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far."""
        return sum(self.usage()[:2])

    def usage(self) -> tuple[float, float, int]:
        """The server process's user and system CPU time so far, and its
        system calls that wrote (each a socket write, mostly)."""
        assert self.process is not None
        proc = Path(f"/proc/{self.process.pid}")
        fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        io = dict(line.split(": ") for line in (proc / "io").read_text().splitlines())
        return int(fields[11]) / tick, int(fields[12]) / tick, int(io["syscw"])

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def _at(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


class Phase:
    """What was measured in one round."""

    def __init__(self) -> None:
        self.roll_ms: list[float] = []
        self.live_ms: list[float] = []
        self.late_ms: list[float] = []
        """Paced: how long after it was due each roll was sent, of those whose
        member was ready before then (the answer to the one before was in):
        this process's own delay (its timer, its turn on the CPU), counted in
        the roll's latency all the same."""


class Load:
    """The members' and watchers' shared record of what happened."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.accepted: dict[tuple[str, int], str] = {}
        """The hash of each roll answered 201, by room and seq."""
        self.failed = 0
        self.phase: Phase | None = None
        """Where this round's figures go; None while the server is killed."""
        self._read_at: dict[str, float] = {}

    async def member(self, room: str, token: str, rolls: int, due: list[float] | None) -> None:
        """``rolls`` rolls: each when due (paced), or as soon as the last is answered."""
        connection = Connection(HOST, self.server.port)
        path = f"/api/rooms/{room}/rolls"
        done = attempts = 0
        key = None
        while done < rolls and attempts < rolls * 20:
            attempts += 1
            # a fresh key for each roll, the same while it is sent again (after a
            # refusal, or a process killed before it answered): never kept twice
            key = key or str(uuid.uuid4())
            visibility = ("public", "public", "gm", "self")[done % 4]
            started = time.perf_counter()
            if due is not None:
                if due[done] > started:
                    await asyncio.sleep(due[done] - started)
                    if self.phase is not None:
                        self.phase.late_ms.append((time.perf_counter() - due[done]) * 1000)
                started = due[done]
            try:
                status, body = await connection.request(
                    "POST", path, {"text": "4dF+1", "visibility": visibility}, token, key
                )
            except (Closed, OSError):
                self.failed += 1
                connection.close()
                await asyncio.sleep(0.2)  # the server is down: try again shortly
                continue
            if status != 201:
                self.failed += 1
                await asyncio.sleep(0.05)
                continue
            if self.phase is not None:
                self.phase.roll_ms.append((time.perf_counter() - started) * 1000)
            roll = json.loads(body)
            self.accepted[room, roll["seq"]] = roll["hash"]
            done += 1
            key = None
        connection.close()

    async def watcher(self, room: str, token: str, stop: asyncio.Event) -> None:
        """Follow the room's live feed from now on; after a lost connection,
        from the last roll seen (``after=``), as the page does."""
        last: int | None = None
        while not stop.is_set():
            connection = Connection(HOST, self.server.port)
            path = f"/api/rooms/{room}/live" + ("" if last is None else f"?after={last}")
            try:
                async for block in connection.feed(path, token):
                    arrived = time.time()
                    for seq, at in rolls_in(block):
                        last = max(last or 0, int(seq))
                        if self.phase is not None:
                            self.phase.live_ms.append((arrived - self._when(at)) * 1000)
                    ready = _READY.search(block) if last is None else None
                    if ready is not None:
                        last = int(ready[1])
            except (Closed, OSError, ValueError):
                await asyncio.sleep(0.2)

    def _when(self, at: str) -> float:
        """A roll's "at" in seconds: read once, as its watchers all get the same."""
        when = self._read_at.get(at)
        if when is None:
            when = self._read_at[at] = _at(at)
        return when


async def _post(connection: Connection, path: str, body: Any) -> dict[str, Any]:
    status, data = await connection.request("POST", path, body)
    if status != 201:
        raise SystemExit(f"POST {path} answered {status}: {data[:200]!r}")
    answer: dict[str, Any] = json.loads(data)
    return answer


async def _setup(port: int, rooms: int, members: int, watchers: int) -> list[dict[str, Any]]:
    connection = Connection(HOST, port)
    made = []
    for index in range(rooms):
        room = await _post(connection, "/api/rooms", {"name": f"load {index}"})
        joined = f"/api/rooms/{room['room']}/members"
        tokens = [
            (await _post(connection, joined, {"name": f"M{number}"}))["token"]
            for number in range(members // rooms)
        ]
        lookers = [
            (await _post(connection, joined, {"name": f"W{number}"}))["token"]
            for number in range(watchers // rooms)
        ]
        made.append(
            {"room": room["room"], "gm": room["gm_token"], "members": tokens, "watchers": lookers}
        )
    connection.close()
    return made


async def _round(
    load: Load,
    rooms: list[dict[str, Any]],
    rolls: int,
    *,
    pace: float | None = None,
    kill_after: float | None = None,
) -> dict[str, Any]:
    """One round; with ``pace``, each member's rolls are due that many a second."""
    stop = asyncio.Event()
    watching = [
        asyncio.create_task(load.watcher(room["room"], token, stop))
        for room in rooms for token in room["watchers"]
    ]  # fmt: skip
    await asyncio.sleep(1.0)  # let every watcher subscribe
    members = [(room["room"], token) for room in rooms for token in room["members"]]
    load_before = os.getloadavg()[0]
    server_cpu, own_cpu = load.server.cpu_seconds(), time.process_time()
    started = time.perf_counter()
    rolling = []
    for index, (room, token) in enumerate(members):
        due = None
        if pace is not None:  # the members' schedules spread over one interval
            first = started + index / len(members) / pace
            due = [first + number / pace for number in range(rolls)]
        rolling.append(asyncio.create_task(load.member(room, token, rolls, due)))
    if kill_after is not None:
        await asyncio.sleep(kill_after)
        load.server.kill()
        await asyncio.to_thread(load.server.start)
    await asyncio.gather(*rolling)
    elapsed = time.perf_counter() - started
    spent = {
        "seconds": elapsed,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "server_cpu": load.server.cpu_seconds() - server_cpu if kill_after is None else 0.0,
        "generator_cpu": time.process_time() - own_cpu,
    }
    await asyncio.sleep(1.0)  # the last deliveries
    stop.set()
    for task in watching:
        task.cancel()
    await asyncio.gather(*watching, return_exceptions=True)
    return spent


def _figures(phase: Phase, spent: dict[str, Any]) -> dict[str, Any]:
    rolled = len(phase.roll_ms)
    return {
        "rolls": rolled, "seconds": round(spent["seconds"], 2),
        "rolls_per_second": round(rolled / spent["seconds"], 1),
        "p50_roll_ms": _p(phase.roll_ms, 50), "p99_roll_ms": _p(phase.roll_ms, 99),
        "p50_live_ms": _p(phase.live_ms, 50), "p99_live_ms": _p(phase.live_ms, 99),
        "deliveries": len(phase.live_ms),
        **({"p50_sent_late_ms": _p(phase.late_ms, 50), "p99_sent_late_ms": _p(phase.late_ms, 99)}
           if phase.late_ms else {}),
        "server_cpu_ms_per_roll": round(spent["server_cpu"] * 1000 / rolled, 3),
        "generator_cpu_ms_per_roll": round(spent["generator_cpu"] * 1000 / rolled, 3),
        "load_average": spent["load_average"],
    }  # fmt: skip


def _p(values: list[float], q: int) -> float:
    if len(values) < 2:
        return float("nan")
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 1)


async def main(args: argparse.Namespace) -> int:
    folder = Path(tempfile.mkdtemp(prefix="fudgedice-load-"))
    server = Server(args.db or str(folder / "table.sqlite3"), _free_port(), Path(args.src))
    server.start()
    load = Load(server)
    try:
        report, checks = ({}, {}) if args.only_bounds else await _rounds(load, args)
        assert server.process is not None
        report["idle_feeds"] = await idle_feeds(
            load, server.port, server.process.pid, args.feed_members, args.feeds_each
        )
        report["sheet_reads"] = await sheet_reads(
            load, server.port, server.process.pid, args.sheets, args.sheet_reads, args.sheet_waves
        )
    finally:
        server.stop()
    if not args.only_bounds:
        (ROOT / "benchmarks" / "table_results.json").write_text(json.dumps(report, indent=2) + "\n")
    for key, value in report.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for inner, figure in value.items():
                print(f"{inner:>30}: {figure}")
        else:
            print(f"{key:>30}: {value}")
    return 0 if args.only_bounds else _goals(report, checks)


async def _rounds(load: Load, args: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    """The rounds of the module's docstring, their checks, and their report."""
    server = load.server
    rooms = await _setup(server.port, args.rooms, args.members, args.watchers)
    # this process measures the server: a pause of its own garbage
    # collector would be counted as the server's latency
    gc.collect()
    gc.freeze()
    # warm-up, not measured: each member's first roll reads its token from
    # the database, and the server's first rolls compile its statements
    await _round(load, rooms, args.warm_up)
    paced, flat_out = Phase(), Phase()
    load.phase = paced
    pace = args.rate / args.members
    spent_paced = await _round(load, rooms, args.rolls, pace=pace)
    load.phase = flat_out
    spent_flat_out = await _round(load, rooms, args.rolls)
    measured = len(load.accepted)
    warmed = args.warm_up * args.members
    load.phase = None
    await _round(load, rooms, args.crash_rolls, kill_after=args.kill_after)
    checks = await asyncio.to_thread(check_rooms, f"http://{HOST}:{server.port}", rooms, load)
    report = {
        "members": args.members, "rooms": args.rooms, "watchers": args.watchers,
        "rolls_each": args.rolls, "cores": os.cpu_count(),
        "paced": {"offered_rolls_per_second": args.rate, **_figures(paced, spent_paced)},
        "flat_out": _figures(flat_out, spent_flat_out),
        "warm_up_rolls": warmed,
        "crash_round_accepted": len(load.accepted) - measured,
        "failed_requests_during_crash": load.failed, **{k: len(v) for k, v in checks.items()},
    }  # fmt: skip
    return report, checks


def _goals(report: dict[str, Any], checks: Any) -> int:
    # throughput flat out; latency at the goal's rate (see the module's docstring)
    met = {
        "rolls_per_second (flat out)": report["flat_out"]["rolls_per_second"]
        >= GOALS["rolls_per_second"],
        "p99_roll_ms (paced)": report["paced"]["p99_roll_ms"] <= GOALS["p99_roll_ms"],
        "p99_live_ms (paced)": report["paced"]["p99_live_ms"] <= GOALS["p99_live_ms"],
    }
    for (goal, ok), wanted in zip(met.items(), GOALS.values(), strict=True):
        print(f"goal {goal} {wanted}: {'met' if ok else 'NOT met'}")
    for fault in (*checks["lost"][:5], *checks["gaps"][:5], *checks["unverified"][:5]):
        print(f"check failed: {fault}")
    return 1 if any(checks.values()) else 0


def _loop() -> Any:
    """uvloop when it is installed (the server's extras bring it): the load
    generator must cost less per request than the server it measures."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument("--rooms", type=int, default=5)
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--rolls", type=int, default=200)
    parser.add_argument(
        "--rate", type=float, default=1000.0, help="rolls a second of all members, paced round"
    )
    parser.add_argument("--crash-rolls", type=int, default=60)
    parser.add_argument("--warm-up", type=int, default=5, help="rolls each, not measured")
    parser.add_argument("--kill-after", type=float, default=1.0)
    parser.add_argument("--db", help="a database URL (default: a new SQLite file)")
    parser.add_argument("--feed-members", type=int, default=500, help="members holding feeds")
    parser.add_argument("--feeds-each", type=int, default=4, help="idle live feeds a member")
    parser.add_argument("--sheets", type=int, default=6, help="members with a heavy sheet")
    parser.add_argument("--sheet-reads", type=int, default=60, help="sheet reads at once")
    parser.add_argument("--sheet-waves", type=int, default=2)
    parser.add_argument("--only-bounds", action="store_true", help="skip the rolling rounds")
    parser.add_argument(
        "--src", default=str(ROOT / "src"), help="the server's code (another checkout's src)"
    )
    arguments = parser.parse_args()
    with asyncio.Runner(loop_factory=_loop()) as runner:
        sys.exit(runner.run(main(arguments)))
