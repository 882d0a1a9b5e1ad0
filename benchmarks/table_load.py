"""Load test of the table (`make bench-table`): many members rolling at once
through the HTTP API while watchers follow the live feed, then the server
killed (SIGKILL) mid-load and restarted.

1. Steady load: MEMBERS members in ROOMS rooms each roll ROLLS times, one roll
   after another, while WATCHERS watchers (spread over the rooms) follow the
   live feed. Reported: rolls a second, p50/p99 latency of a roll (request to
   201) and of its live delivery (the roll's `at` to its arrival at a watcher).
2. Crash: the members roll again; partway through, the server is killed with
   SIGKILL and started again on the same database; members and watchers carry on.
3. Checks: every roll answered 201 is in its room's history, unchanged; each
   room's `seq` runs 1..N with no gap or duplicate; every room's log verifies
   (hash chain, placeholders, and each roll re-rolled from its revealed seed).

Every request goes to 127.0.0.1 only, and every loop is bounded. Prints a
report and writes benchmarks/table_results.json; exits 1 if a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

import fudgedice

ROOT = Path(__file__).resolve().parents[1]
GOALS = {"rolls_per_second": 1000.0, "p99_roll_ms": 50.0, "p99_live_ms": 100.0}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    def __init__(self, db: str, port: int) -> None:
        self.db, self.port = db, port
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        command = [
            sys.executable, "-c", "from fudgedice.cli import main; main()", "serve",
            "--port", str(self.port), "--db", self.db, "--rate", "100000", "--burst", "100000",
        ]  # fmt: skip
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise SystemExit("the server did not start")

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


class Load:
    """The members' and watchers' shared record of what happened."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.accepted: dict[tuple[str, int], dict[str, Any]] = {}
        self.roll_ms: list[float] = []
        self.live_ms: list[float] = []
        self.failed = 0
        self.measuring = True

    async def member(self, client: httpx.AsyncClient, room: str, token: str, rolls: int) -> None:
        headers = {"Authorization": f"Bearer {token}"}
        done = 0
        attempts = 0
        while done < rolls and attempts < rolls * 20:
            attempts += 1
            visibility = ("public", "public", "gm", "self")[done % 4]
            started = time.perf_counter()
            try:
                answer = await client.post(
                    f"{self.server.url}/api/rooms/{room}/rolls",
                    json={"text": "4dF+1", "visibility": visibility},
                    headers=headers,
                )
            except httpx.HTTPError:
                self.failed += 1
                await asyncio.sleep(0.2)  # the server is down: try again shortly
                continue
            if answer.status_code != 201:
                self.failed += 1
                await asyncio.sleep(0.05)
                continue
            if self.measuring:
                self.roll_ms.append((time.perf_counter() - started) * 1000)
            roll = answer.json()
            self.accepted[room, roll["seq"]] = roll
            done += 1

    async def watcher(
        self, client: httpx.AsyncClient, room: str, token: str, stop: asyncio.Event
    ) -> None:
        last = 0
        while not stop.is_set():
            try:
                async with client.stream(
                    "GET", f"{self.server.url}/api/rooms/{room}/live",
                    params={"after": last}, headers={"Authorization": f"Bearer {token}"},
                ) as answer:  # fmt: skip
                    event = ""
                    async for line in answer.aiter_lines():
                        if stop.is_set():
                            return
                        if line.startswith("event:"):
                            event = line[6:].strip()
                        elif line.startswith("data:") and event == "roll":
                            arrived = time.time()
                            roll = json.loads(line[5:])
                            last = max(last, roll["seq"])
                            if self.measuring and "at" in roll:
                                self.live_ms.append((arrived - _at(roll["at"])) * 1000)
            except httpx.HTTPError:
                await asyncio.sleep(0.2)


async def _setup(
    client: httpx.AsyncClient, url: str, rooms: int, members: int, watchers: int
) -> list[dict[str, Any]]:
    made = []
    for index in range(rooms):
        room = (await client.post(f"{url}/api/rooms", json={"name": f"load {index}"})).json()
        tokens = []
        for number in range(members // rooms):
            answer = await client.post(
                f"{url}/api/rooms/{room['room']}/members", json={"name": f"M{number}"}
            )
            tokens.append(answer.json()["token"])
        lookers = []
        for number in range(watchers // rooms):
            answer = await client.post(
                f"{url}/api/rooms/{room['room']}/members", json={"name": f"W{number}"}
            )
            lookers.append(answer.json()["token"])
        made.append(
            {"room": room["room"], "gm": room["gm_token"], "members": tokens, "watchers": lookers}
        )
    return made


async def _round(
    load: Load,
    client: httpx.AsyncClient,
    rooms: list[dict[str, Any]],
    rolls: int,
    kill_after: float | None,
) -> float:
    stop = asyncio.Event()
    watching = [
        asyncio.create_task(load.watcher(client, room["room"], token, stop))
        for room in rooms for token in room["watchers"]
    ]  # fmt: skip
    await asyncio.sleep(1.0)  # let every watcher subscribe
    started = time.perf_counter()
    rolling = [
        asyncio.create_task(load.member(client, room["room"], token, rolls))
        for room in rooms for token in room["members"]
    ]  # fmt: skip
    if kill_after is not None:
        await asyncio.sleep(kill_after)
        load.server.kill()
        await asyncio.to_thread(load.server.start)
    await asyncio.gather(*rolling)
    elapsed = time.perf_counter() - started
    await asyncio.sleep(1.0)  # the last deliveries
    stop.set()
    for task in watching:
        task.cancel()
    await asyncio.gather(*watching, return_exceptions=True)
    return elapsed


def _verify_log(log: dict[str, Any]) -> str | None:
    """The first fault of a log, or None: ``fudgedice verify``, which checks the
    chain, every placeholder and every roll from its revealed seed."""
    report = fudgedice.verify(log)
    if report.failure is not None:
        return str(report.failure)
    return None if report.complete else f"{report.pending} rolls could not be checked"


def _checks(load: Load, rooms: list[dict[str, Any]]) -> dict[str, Any]:
    lost, gaps, unverified = [], [], []
    with httpx.Client(base_url=load.server.url, timeout=60) as client:
        for room in rooms:
            gm = {"Authorization": f"Bearer {room['gm']}"}
            client.post(f"/api/rooms/{room['room']}/reveal", headers=gm)
            stored: dict[int, dict[str, Any]] = {}
            after = 0
            while page := client.get(
                f"/api/rooms/{room['room']}/rolls",
                params={"after": after, "limit": 500},
                headers=gm,
            ).json()["rolls"]:
                for roll in page:
                    stored[roll["seq"]] = roll
                after = page[-1]["seq"]
            log = client.get(f"/api/rooms/{room['room']}/log", headers=gm).json()
            hashes = {entry["seq"]: entry["hash"] for entry in log["entries"]}
            if sorted(stored) != list(range(1, len(stored) + 1)) or sorted(hashes) != sorted(
                stored
            ):
                gaps.append(room["room"])
            for (name, seq), roll in load.accepted.items():
                if name == room["room"] and hashes.get(seq) != roll["hash"]:
                    lost.append(f"{name}#{seq}")
            fault = _verify_log(log)
            if fault is not None:
                unverified.append(f"{room['room']}: {fault}")
    return {"lost": lost, "gaps": gaps, "unverified": unverified}


def _p(values: list[float], q: float) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[q - 1]
        if len(values) > 1
        else float("nan")
    )


async def main(args: argparse.Namespace) -> int:
    folder = Path(tempfile.mkdtemp(prefix="fudgedice-load-"))
    server = Server(args.db or str(folder / "table.sqlite3"), _free_port())
    server.start()
    load = Load(server)
    limits = httpx.Limits(max_connections=args.members + args.watchers + 10)
    try:
        async with httpx.AsyncClient(timeout=30, limits=limits) as client:
            rooms = await _setup(client, server.url, args.rooms, args.members, args.watchers)
            elapsed = await _round(load, client, rooms, args.rolls, None)
            steady = len(load.roll_ms)
            load.measuring = False
            await _round(load, client, rooms, args.crash_rolls, args.kill_after)
        checks = _checks(load, rooms)
    finally:
        server.stop()
    report = {
        "members": args.members, "rooms": args.rooms, "watchers": args.watchers,
        "rolls_each": args.rolls, "rolls": steady, "seconds": round(elapsed, 2),
        "rolls_per_second": round(steady / elapsed, 1),
        "p50_roll_ms": _p(load.roll_ms, 50), "p99_roll_ms": _p(load.roll_ms, 99),
        "p50_live_ms": _p(load.live_ms, 50), "p99_live_ms": _p(load.live_ms, 99),
        "deliveries": len(load.live_ms), "crash_round_accepted": len(load.accepted) - steady,
        "failed_requests_during_crash": load.failed, **{k: len(v) for k, v in checks.items()},
    }  # fmt: skip
    (ROOT / "benchmarks" / "table_results.json").write_text(json.dumps(report, indent=2) + "\n")
    for key, value in report.items():
        print(f"{key:>30}: {value}")
    met = {
        "rolls_per_second": report["rolls_per_second"] >= GOALS["rolls_per_second"],
        "p99_roll_ms": report["p99_roll_ms"] <= GOALS["p99_roll_ms"],
        "p99_live_ms": report["p99_live_ms"] <= GOALS["p99_live_ms"],
    }
    for goal, ok in met.items():
        print(f"goal {goal} {GOALS[goal]}: {'met' if ok else 'NOT met'}")
    for fault in (*checks["lost"][:5], *checks["gaps"][:5], *checks["unverified"][:5]):
        print(f"check failed: {fault}")
    return 1 if any(checks.values()) else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument("--rooms", type=int, default=5)
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--rolls", type=int, default=200)
    parser.add_argument("--crash-rolls", type=int, default=60)
    parser.add_argument("--kill-after", type=float, default=1.0)
    parser.add_argument("--db", help="a database URL (default: a new SQLite file)")
    sys.exit(asyncio.run(main(parser.parse_args())))
