"""Live feeds are bounded: a few a member, a cap a process, and a reader who
stops reading is dropped with a bounded backlog, to resume with ``after``."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import MutableMapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from fudgedice.server import connect, feed, store
from fudgedice.server.db import Database
from fudgedice.server.feed import EventStream, ReaderDropped, _chunks
from fudgedice.server.kept import Member, RollRecord, RollRequest
from fudgedice.server.live import FEEDS_PER_MEMBER, Event, Hub
from fudgedice.server.problems import Problem
from fudgedice.server.writer import append_rolls

WAIT = 30.0
"""Seconds a test waits for the server to notice something before it fails."""


def test_a_members_feed_past_the_cap_closes_their_oldest(served: Any) -> None:
    created = served.room("cap")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")["token"]
    with contextlib.ExitStack() as stack:
        feeds = [stack.enter_context(served.live(room, ann)) for _ in range(FEEDS_PER_MEMBER)]
        for events in feeds:
            served.until(events, "ready")
        gm_feed = stack.enter_context(served.live(room, gm))  # the GM's are their own
        served.until(gm_feed, "ready")
        newest = stack.enter_context(served.live(room, ann))
        served.until(newest, "ready")
        closed = served.until(feeds[0], "closed")
        assert closed["reason"] == "replaced" and "another live feed" in closed["error"]
        assert list(feeds[0]) == []  # and the answer ends there
        served.roll(room, ann, "4dF")
        for events in (*feeds[1:], newest, gm_feed):
            assert served.until(events, "roll")["seq"] == 1


def test_past_the_process_cap_a_feed_is_refused_clearly(tmp_path: Path, served_here: Any) -> None:
    db = connect(str(tmp_path / "table.sqlite3"))
    with served_here(db, hub=Hub(most=3)) as table:
        created = table.room("busy")
        room = created["room"]
        tokens = [table.join(room, f"P{n}")["token"] for n in range(4)]
        with contextlib.ExitStack() as stack:
            feeds = [stack.enter_context(table.live(room, token)) for token in tokens[:3]]
            for events in feeds:  # (kept: a reader let go of closes its connection)
                table.until(events, "ready")
            refused = table.get(f"/api/rooms/{room}/live", tokens[3])
            assert refused.status_code == 503
            assert "most live feeds" in refused.json()["error"]
            assert refused.headers["Retry-After"]
        deadline = time.monotonic() + WAIT  # the readers left: their places are free
        while table.get("/api/health").json()["watching"]:
            assert time.monotonic() < deadline, "the server never noticed its readers leave"
            time.sleep(0.05)
        with table.live(room, tokens[3]) as events:
            assert table.until(events, "ready") == {"last_seq": 0}
    db.dispose()


class _Reader:
    """The ASGI side of a reader: what it was sent, and a switch that stops it
    reading (its next write then waits, as on a full connection)."""

    def __init__(self) -> None:
        self.body = b""
        self.reading = asyncio.Event()
        self.reading.set()

    async def send(self, message: MutableMapping[str, Any]) -> None:
        await self.reading.wait()
        self.body += message.get("body", b"")

    async def receive(self) -> MutableMapping[str, Any]:
        await asyncio.Event().wait()  # never leaves by itself
        return {"type": "http.disconnect"}

    def seqs(self) -> list[int]:
        lines = self.body.decode().split("\n")
        return [int(line[4:]) for line in lines if line.startswith("id: ")]


def _rolls(db: Database, room: str, gm: Member, count: int) -> list[RollRecord]:
    request = RollRequest(room, gm, "4dF", "fudge", "public", None, "", None)
    return [roll for roll in append_rolls(db, [request] * count) if isinstance(roll, RollRecord)]


@pytest.mark.parametrize("stuck", [False, True])
def test_a_reader_that_falls_behind_is_dropped_and_resumes_without_a_gap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stuck: bool
) -> None:
    """Its backlog never holds more than the hub's queue; a reader whose write
    ends in time is told why, one that reads nothing is cut off; either way
    ``after`` the last roll it got brings every roll after it, once."""
    monkeypatch.setattr(feed, "DROP_GRACE", 0.05)
    db = connect(str(tmp_path / "table.sqlite3"))
    room, gm, _ = store.create_room(db, "slow", "fudge", "GM")

    async def run() -> tuple[list[int], list[int], bool]:
        hub = Hub(every=0, queue=5)
        hub.loop = asyncio.get_running_loop()
        watcher = hub.watch(room.id, gm.id)
        reader = _Reader()
        stream = EventStream(hub, watcher, _chunks(db, watcher, gm, 0))
        answering = asyncio.create_task(stream(_scope(), reader.receive, reader.send))
        made = _rolls(db, room.id, gm, 1)
        hub.publish("x", Event("keep-alive"))  # another room's: nothing here
        hub.publish(room.id, Event("rolls", made))
        while not reader.seqs():
            await asyncio.sleep(0.01)
        reader.reading.clear()  # the reader stops reading
        hub.publish(room.id, Event("keep-alive"))  # the write it is stuck in
        await asyncio.sleep(0.01)
        for record in _rolls(db, room.id, gm, 12):
            hub.publish(room.id, Event("rolls", [record]))
            assert len(watcher._pending) <= 5
        assert watcher.ended == "behind" and hub.watching() == 0
        if not stuck:
            reader.reading.set()  # it reads again before the grace is over
        try:
            await answering
            cut = False
        except ReaderDropped:
            cut = True
        got = reader.seqs()
        again = _Reader()  # its next feed: after the last roll it got
        resumed = hub.watch(room.id, gm.id)
        chunks = _chunks(db, resumed, gm, got[-1])
        again.body = await anext(chunks)
        again.body += await anext(chunks)  # "ready"
        await chunks.aclose()  # type: ignore[attr-defined]
        return got, again.seqs(), cut

    with ThreadPoolExecutor(1) as thread:
        got, resumed, cut = thread.submit(asyncio.run, run()).result()
    assert cut is stuck
    assert got + resumed == list(range(1, 14))
    db.dispose()


def _scope() -> dict[str, Any]:
    return {"type": "http", "method": "GET", "path": "/api/rooms/r/live", "headers": []}


def test_the_hub_counts_each_feed_once() -> None:
    hub = Hub(per_member=2, most=3)
    ann = [hub.watch("room", "ann") for _ in range(3)]
    assert ann[0].ended == "replaced" and ann[0].closed and not ann[1].closed
    hub.leave(ann[0])  # its answer ends: it was counted out already
    assert hub.watching() == 2
    hub.watch("room", "bob")
    with pytest.raises(Problem) as refused:
        hub.watch("other", "cy")
    assert refused.value.status == 503 and hub.watching() == 3
    hub.leave(ann[1])
    hub.watch("other", "cy")
    assert hub.watching() == 3
