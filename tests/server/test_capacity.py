"""Processes that share one PostgreSQL: the pools' sizes; a live feed that
reads the database only for rooms a process has watchers of, only for rolls
their notification did not carry, and once a room for a batch of
notifications; two processes writing one room."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson
import pytest

from fudgedice.server import connect, store
from fudgedice.server.app import create_app
from fudgedice.server.db import Database
from fudgedice.server.kept import Member, RollRecord, RollRequest
from fudgedice.server.listener import Listener, Ranges
from fudgedice.server.live import LIVE_EVERY, SHARED_EVERY, Event, Hub, Watcher
from fudgedice.server.notices import (
    CARRIED,
    MOST,
    carried,
    read_notice,
    read_notices,
    roll_notices,
)
from fudgedice.server.writer import append_rolls

BIG = "x" * (MOST + 100)
"""A label that makes a roll too big for a notification: it goes bare."""


@pytest.fixture
def database(postgres: Any) -> Iterator[Database]:
    db = connect(postgres.create_database(f"capacity_{secrets.token_hex(6)}"))
    yield db
    db.dispose()


def test_the_pools_are_sized_as_asked(postgres: Any) -> None:
    url = postgres.create_database(f"pools_{secrets.token_hex(6)}")
    db = connect(url, pool_size=2, pool_overflow=1)
    try:
        for engine in (db.reader, db.writer):
            assert engine.pool.size() == 2  # type: ignore[attr-defined]
            assert engine.pool._max_overflow == 1  # type: ignore[attr-defined]
    finally:
        db.dispose()


def test_a_shared_database_delivers_a_busy_rooms_rolls_less_often(
    database: Database, tmp_path: Path
) -> None:
    """Each process hears every process's commits: on PostgreSQL a room's
    rolls go out to its watchers at most every SHARED_EVERY, on SQLite (one
    process) every LIVE_EVERY."""
    assert create_app(database).state.hub.every == SHARED_EVERY > LIVE_EVERY
    lone = connect(str(tmp_path / "table.sqlite3"))
    try:
        assert create_app(lone).state.hub.every == LIVE_EVERY
    finally:
        lone.dispose()


def _roll(room: str, member: Member, visibility: str = "public", label: str | None = None) -> Any:
    return RollRequest(room, member, "4dF+1", "fudge", visibility, label, "", None)  # type: ignore[arg-type]


def test_a_notification_carries_each_roll_as_each_reader_may_see_it(database: Database) -> None:
    db = database
    room, gm, _ = store.create_room(db, "carried", "fudge", "GM")
    ann, bob = (store.join(db, room.id, name)[0] for name in ("Ann", "Bob"))
    kinds = ("public", "gm", "self", "blind", "secret")
    requests = [_roll(room.id, ann, kinds[n % 5], f"roll {n}") for n in range(40)]
    made = append_rolls(db, [*requests, _roll(room.id, bob, label=BIG), _roll(room.id, ann)])
    payloads = roll_notices([r for r in made if isinstance(r, RollRecord)])
    assert len(payloads) > 2 and all(len(p.encode()) <= MOST for p in payloads)
    lines = [line for payload in payloads for line in payload.split("\n")]
    notices = [notice for line in lines if (notice := read_notice(line)) is not None]
    for line, notice in zip(lines, notices, strict=True):
        # each line names its room, then its range: the first and the last number
        kind, room_id, *numbers = line.split()
        assert (kind, room_id, int(numbers[0]), int(numbers[-1])) == (
            "rolls",
            room.id,
            notice.first,
            notice.last,
        )
    told: list[RollRecord] = []
    for notice in notices:
        records = carried(notice)
        if records is None:  # the big one, alone
            assert (notice.first, notice.last) == (41, 41)
            continue
        assert [r.seq for r in records] == list(range(notice.first, notice.last + 1))
        told += records
    assert [r.seq for r in told] == [*range(1, 41), 42]
    stored = {r.seq: r for r in store.list_rolls(db, room.id, limit=100)}
    for record in told:  # as a roll read from the database, to each reader
        for reader in (gm, ann, bob):
            assert record.frame_for(reader) == stored[record.seq].frame_for(reader)
    assert any(b'"hidden":true' in r.frame_for(bob) for r in told)  # some kept from Bob
    for record in told:  # what the feed shows, as stored; what only the log needs, left behind
        kept = stored[record.seq]
        assert [getattr(record, f) for f in CARRIED] == [getattr(kept, f) for f in CARRIED]
        assert (record.salt, record.entry, record.opening) == (None, None, None)
    openings = [r.opening for r in made if isinstance(r, RollRecord) and r.opening is not None]
    assert openings and not any(o["salt"] in payload for o in openings for payload in payloads)


def test_a_notice_of_another_form_is_read_from_the_database() -> None:
    # a roll of more or fewer fields than CARRIED (another version's): not carried, read
    row = orjson.dumps([[1, "m"] + [None] * len(CARRIED)]).decode()
    assert carried(read_notice(f"rolls r1 1 {row} 1")) is None  # type: ignore[arg-type]


def test_one_commits_rooms_are_told_in_one_notification(database: Database) -> None:
    db = database
    made = []
    for name in ("one", "two", "three"):
        room, gm, _ = store.create_room(db, name, "fudge", "GM")
        made += [_roll(room.id, gm, label=name)]  # a roll is about 900 bytes told
    records = [r for r in append_rolls(db, made) if isinstance(r, RollRecord)]
    payloads = roll_notices(records)
    assert len(payloads) == 1  # three rooms' notices, a line each
    notices = [n for n in read_notices(payloads[0]) if n is not None]
    assert [n.room for n in notices] == list(dict.fromkeys(r.room for r in records))
    told = [record for notice in notices for record in carried(notice) or []]
    assert [(r.room, r.seq, r.label) for r in told] == [(r.room, r.seq, r.label) for r in records]


class _Reads:
    """The listener's reads, counted; the first held until released."""

    def __init__(self, db: Database, hold_first: bool = False) -> None:
        self.db = db
        self.released = asyncio.Event()
        if not hold_first:
            self.released.set()
        self.calls: list[Ranges] = []

    async def fetch(self, wanted: Ranges) -> dict[str, list[RollRecord]]:
        self.calls.append(dict(wanted))
        if len(self.calls) == 1:
            await self.released.wait()
        return await asyncio.to_thread(store.rolls_between, self.db, wanted)


async def _until(done: Callable[[], bool]) -> None:
    for _ in range(1000):  # ten seconds at most: then the assertion after it fails
        if done():
            return
        await asyncio.sleep(0.01)


async def _seqs(watcher: Watcher, count: int) -> list[int]:
    seen: list[int] = []
    while len(seen) < count:
        for event in await watcher.next():
            seen += [record.seq for record in event.rolls]
    return seen


def _run(main: Callable[[], Awaitable[None]]) -> None:
    # on a thread of its own: a page test's Playwright may have left this
    # thread's event loop set as running
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, main()).result()  # type: ignore[arg-type]


async def _listening(db: Database, reads: _Reads) -> tuple[Hub, Listener]:
    hub = Hub(every=0)
    hub.loop = asyncio.get_running_loop()
    listener = Listener(db, hub, reads.fetch, lambda room: asyncio.sleep(0, {"seeds": []}))
    listener.start()
    await listener.ready.wait()
    return hub, listener


def test_a_process_reads_only_for_the_rooms_it_watches(database: Database) -> None:
    db = database
    (watched, gm, _), (other, stranger, _) = (
        store.create_room(db, name, "fudge", "GM") for name in ("watched", "other")
    )

    async def main() -> None:
        reads = _Reads(db)
        hub, listener = await _listening(db, reads)
        watcher = hub.watch(watched.id, gm.id)
        for label in (None, BIG, None):  # carried, bare (read), carried
            await asyncio.to_thread(append_rolls, db, [_roll(other.id, stranger, label=label)])
            await asyncio.to_thread(append_rolls, db, [_roll(watched.id, gm, label=label)] * 2)
        assert await asyncio.wait_for(_seqs(watcher, 6), 10) == [1, 2, 3, 4, 5, 6]
        await _until(lambda: listener.heard.notices == 6)
        await listener.stop()
        assert listener.heard.skipped == 3  # the other room's, neither read nor decoded
        assert reads.calls == [{watched.id: (3, 4)}]  # the big rolls only, of the watched room
        assert listener.heard.carried == 4

    _run(main)


def test_notifications_heard_together_are_read_together(database: Database) -> None:
    db = database
    room, gm, _ = store.create_room(db, "busy", "fudge", "GM")

    async def main() -> None:
        reads = _Reads(db, hold_first=True)
        hub, listener = await _listening(db, reads)
        watcher = hub.watch(room.id, gm.id)
        await asyncio.to_thread(append_rolls, db, [_roll(room.id, gm, label=BIG)])
        await _until(lambda: len(reads.calls) == 1)  # the listener waits on its first read
        for _ in range(20):  # twenty commits, twenty notifications: a roll each, too big
            await asyncio.to_thread(append_rolls, db, [_roll(room.id, gm, label=BIG)])
        await _until(lambda: listener.heard.notices == 21)
        reads.released.set()
        assert await asyncio.wait_for(_seqs(watcher, 21), 10) == list(range(1, 22))
        await listener.stop()
        assert reads.calls == [{room.id: (1, 1)}, {room.id: (2, 21)}]
        assert listener.heard.reads == 2

    _run(main)


def test_an_event_for_a_room_no_one_watches_goes_nowhere() -> None:
    hub = Hub()
    assert not hub.watches("room")
    hub.publish("room", Event("member", data={"member": "x"}))  # nothing to hand it to
    watcher = hub.watch("room", "m")
    assert hub.watches("room")
    hub.leave(watcher)
    assert not hub.watches("room")


def test_the_writers_kept_connection_is_let_go_once_the_server_closed_it(
    database: Database,
) -> None:
    """The writer's batches keep one connection, pinged by no round trip:
    one the server closed (a restart, here its backend ended) is seen as
    closed before the next batch, which connects anew and is not refused."""
    db = database
    room, gm, _ = store.create_room(db, "kept", "fudge", "GM")
    first = append_rolls(db, [_roll(room.id, gm)])
    assert isinstance(first[0], RollRecord)
    kept = db._kept
    assert kept is not None
    backend = kept.connection.driver_connection.info.backend_pid  # type: ignore[union-attr]
    with db.reader.connect() as other:
        other.exec_driver_sql(f"SELECT pg_terminate_backend({backend})")
    for _ in range(100):  # the server's end of the link reaches the socket
        if not _alive(backend, db):
            break
    made = append_rolls(db, [_roll(room.id, gm)])
    assert isinstance(made[0], RollRecord) and made[0].seq == 2, made
    assert db._kept is not None and db._kept is not kept


def _alive(backend: int, db: Database) -> bool:
    with db.reader.connect() as connection:
        found = connection.exec_driver_sql(
            f"SELECT count(*) FROM pg_stat_activity WHERE pid = {backend}"
        ).scalar()
    return bool(found)
