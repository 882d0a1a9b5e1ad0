"""The table's bounds under load (`make bench-table`, after its rounds):

1. Idle live feeds: FEED_MEMBERS members open FEEDS_EACH feeds each (within
   the per-member cap) in a room where nobody rolls, and hold them while
   members of another room roll at a steady pace: the server's memory (RSS)
   before, while held and after they close, and the rolls' p50/p99. Then one
   token opens as many feeds alone: how many stay open, and the memory.
2. Heavy sheet reads: SHEETS members attach a sheet of 60 traits of about
   1000D (seconds of CPU for its page of chances, unbounded), then 60 reads
   of them arrive at once while another room rolls and a reader pages its
   history: the answers' statuses, and that room's roll and history latency.
   A second wave once every page has been measured.

Every request goes to 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from pathlib import Path
from typing import Any

from table_client import Closed, Connection

HOST = "127.0.0.1"
WAIT = 120.0
"""Seconds any step may take before the benchmark gives up on it."""


def rss_mb(pid: int) -> float:
    """The process's resident memory, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def children_rss_mb(pid: int) -> float:
    """The resident memory of the process's children (its measuring process)."""
    tasks = Path(f"/proc/{pid}/task").iterdir()
    children = [child for task in tasks for child in (task / "children").read_text().split()]
    return round(sum(rss_mb(int(child)) for child in children), 1)


class Rolled:
    """What the rolls of one step took (as table_load's Phase records them)."""

    def __init__(self) -> None:
        self.roll_ms: list[float] = []
        self.live_ms: list[float] = []
        self.late_ms: list[float] = []


def _p(values: list[float], q: int) -> float:
    if len(values) < 2:
        return float("nan")
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 1)


def heavy_sheet(name: str, traits: int = 60, dice: int = 1000) -> str:
    lines = ['system = "d6"', f'name = "{name}"', "[attributes]"]
    lines += [f'A{n} = "{dice - n}D"' for n in range(traits)]
    return "\n".join(lines) + "\n"


async def _json(connection: Connection, method: str, path: str, body: Any = None,
                token: str | None = None, status: int = 201) -> Any:  # fmt: skip
    got, data = await connection.request(method, path, body, token)
    if got != status:
        raise SystemExit(f"{method} {path} answered {got}: {data[:200]!r}")
    answer: Any = json.loads(data)
    return answer


async def _room(port: int, name: str, members: int, system: str = "fudge") -> dict[str, Any]:
    connection = Connection(HOST, port)
    room: dict[str, Any] = await _json(
        connection, "POST", "/api/rooms", {"name": name, "system": system}
    )
    joined = f"/api/rooms/{room['room']}/members"
    room["members"] = [
        await _json(connection, "POST", joined, {"name": f"M{n}"}) for n in range(members)
    ]
    connection.close()
    return room


class Feeds:
    """Live feeds held open: how many said "ready", how many the server ended."""

    def __init__(self) -> None:
        self.ready = 0
        self.ended = 0
        self.refused = 0
        self.tasks: list[asyncio.Task[None]] = []

    async def hold(self, port: int, room: str, token: str, stop: asyncio.Event) -> None:
        connection = Connection(HOST, port)
        seen = False
        try:
            async for block in connection.feed(f"/api/rooms/{room}/live", token):
                if not seen and "event: ready" in block:
                    seen = True
                    self.ready += 1
                if stop.is_set():
                    break
        except (Closed, OSError, ValueError):
            pass
        finally:
            connection.close()
        if not seen:
            self.refused += 1
        elif not stop.is_set():
            self.ended += 1

    async def open(self, port: int, held: list[tuple[str, str]], stop: asyncio.Event) -> None:
        """One feed each (room, token), 100 at a time; back once each has answered."""
        for start in range(0, len(held), 100):
            want = self.ready + self.refused + len(held[start : start + 100])
            for room, token in held[start : start + 100]:
                self.tasks.append(asyncio.create_task(self.hold(port, room, token, stop)))
            deadline = time.monotonic() + WAIT
            while self.ready + self.refused < want and time.monotonic() < deadline:
                await asyncio.sleep(0.05)

    async def close(self, stop: asyncio.Event) -> None:
        stop.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks = []


async def _roll_steadily(load: Any, room: dict[str, Any], rate: float, seconds: float) -> None:
    """The room's members roll together ``rate`` rolls a second for ``seconds``."""
    tokens = [m["token"] for m in room["members"]]
    each = rate / len(tokens)
    count = max(int(seconds * each), 1)
    started = time.perf_counter()
    await asyncio.gather(*(
        load.member(room["room"], token, count,
                    [started + (n / len(tokens) + k) / each for k in range(count)])
        for n, token in enumerate(tokens)
    ))  # fmt: skip


async def idle_feeds(load: Any, port: int, pid: int, members: int, each: int) -> dict[str, Any]:
    """Phase 1 (see the module's docstring)."""
    quiet = [  # a room holds at most 500 members
        await _room(port, f"idle feeds {n}", min(400, members - n)) for n in range(0, members, 400)
    ]
    busy = await _room(port, "rolling", 10)
    held = [(room["room"], m["token"]) for room in quiet for m in room["members"]] * each
    report: dict[str, Any] = {"feeds_asked": len(held), "rss_before_mb": rss_mb(pid)}
    feeds, stop = Feeds(), asyncio.Event()
    opened = time.perf_counter()
    await feeds.open(port, held, stop)
    report["seconds_to_open"] = round(time.perf_counter() - opened, 1)
    report["feeds_ready"], report["feeds_refused"] = feeds.ready, feeds.refused
    report["rss_held_mb"] = rss_mb(pid)
    load.phase = phase = Rolled()
    await _roll_steadily(load, busy, 100.0, 10.0)
    load.phase = None
    report["rolls_meanwhile"] = len(phase.roll_ms)
    report["p50_p99_roll_ms"] = [_p(phase.roll_ms, 50), _p(phase.roll_ms, 99)]
    report["feeds_ended_by_server"] = feeds.ended
    await feeds.close(stop)
    await asyncio.sleep(2.0)
    report["rss_after_close_mb"] = rss_mb(pid)
    one, stop = Feeds(), asyncio.Event()
    await one.open(port, [held[0]] * len(held), stop)
    await asyncio.sleep(1.0)
    report["one_token"] = {
        "asked": len(held), "answered": one.ready,
        "still_open": one.ready - one.ended, "rss_mb": rss_mb(pid),
    }  # fmt: skip
    await one.close(stop)
    return report


async def _read_sheets(port: int, room: dict[str, Any], reads: int) -> dict[str, Any]:
    """``reads`` reads of the members' sheets at once: their statuses and time."""
    members = room["members"]

    async def read(n: int) -> tuple[int, float]:
        member = members[n % len(members)]
        connection = Connection(HOST, port)
        path = f"/api/rooms/{room['room']}/members/{member['member']}/sheet"
        started = time.perf_counter()
        try:
            status, _ = await asyncio.wait_for(
                connection.request("GET", path, None, member["token"]), WAIT * 3
            )
        except (Closed, OSError, TimeoutError):
            status = 0
        connection.close()
        return status, time.perf_counter() - started

    started = time.perf_counter()
    answers = await asyncio.gather(*(read(n) for n in range(reads)))
    statuses: dict[str, int] = {}
    for status, _ in answers:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    return {
        "statuses": statuses,
        "seconds": round(time.perf_counter() - started, 2),
        "slowest_s": round(max(seconds for _, seconds in answers), 2),
    }


async def _history(port: int, room: dict[str, Any], stop: asyncio.Event) -> list[float]:
    """Page the room's history every 50 ms until ``stop``: each answer's time."""
    connection = Connection(HOST, port)
    token = room["gm_token"]
    taken = []
    while not stop.is_set():
        started = time.perf_counter()
        await connection.request("GET", f"/api/rooms/{room['room']}/rolls?limit=100", None, token)
        taken.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.05)
    connection.close()
    return taken


async def _wave(load: Any, port: int, sheets: dict[str, Any], busy: dict[str, Any],
                reads: int) -> dict[str, Any]:  # fmt: skip
    stop = asyncio.Event()
    history = asyncio.create_task(_history(port, busy, stop))
    load.phase = phase = Rolled()
    rolling = asyncio.create_task(_roll_steadily(load, busy, 50.0, 1000.0))
    await asyncio.sleep(1.0)
    wave = await _read_sheets(port, sheets, reads)
    rolling.cancel()
    await asyncio.gather(rolling, return_exceptions=True)
    stop.set()
    taken = await history
    load.phase = None
    wave["p50_p99_roll_ms"] = [_p(phase.roll_ms, 50), _p(phase.roll_ms, 99)]
    wave["history_p50_p99_max_ms"] = [
        _p(taken, 50),
        _p(taken, 99),
        round(max(taken, default=float("nan")), 1),
    ]
    return wave


async def sheet_reads(
    load: Any, port: int, pid: int, sheets: int, reads: int, waves: int
) -> dict[str, Any]:
    """Phase 2 (see the module's docstring)."""
    room = await _room(port, "heavy sheets", sheets, "d6")
    busy = await _room(port, "rolling beside", 10)

    async def attach(member: dict[str, Any]) -> int:
        connection = Connection(HOST, port)
        path = f"/api/rooms/{room['room']}/members/{member['member']}/sheet"
        body = {"text": heavy_sheet(member["name"]), "version": 0}
        status, _ = await connection.request("PUT", path, body, member["token"])
        connection.close()
        return status

    attached = await asyncio.gather(*(attach(m) for m in room["members"]))
    report: dict[str, Any] = {"sheets": sheets, "reads": reads, "attached": attached}
    report["wave_1"] = await _wave(load, port, room, busy, reads)
    report["wave_1"]["measuring_process_rss_mb"] = children_rss_mb(pid)
    for number in range(2, waves + 1):
        deadline = time.monotonic() + WAIT  # every page measured (a 503 says: not yet)
        while time.monotonic() < deadline:
            if (await _read_sheets(port, room, sheets))["statuses"] == {"200": sheets}:
                break
            await asyncio.sleep(0.5)
        report[f"wave_{number}"] = await _wave(load, port, room, busy, reads)
    return report
