"""The writer in process: rolls committed on the event loop, on a worker thread
(a text that draws long), and while another thread holds the database, all at
once; each roll answered once, in one gap-free sequence per room."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import fudgedice
from fudgedice.server import connect, store
from fudgedice.server.exports import log_document
from fudgedice.server.kept import VISIBILITIES, RollRecord, RollRequest
from fudgedice.server.problems import Problem
from fudgedice.server.writer import Writer, append


def test_rolls_on_the_loop_on_threads_and_past_a_busy_database(tmp_path: Path) -> None:
    db = connect(str(tmp_path / "table.sqlite3"))
    room, gm, _ = store.create_room(db, "writer", "fudge", "GM")
    committed: list[RollRecord] = []

    def request(index: int) -> RollRequest:
        visibility = VISIBILITIES[index % 4]
        heavy = index % 3 == 0  # as if its text had drawn long when checked
        return RollRequest(room.id, gm, "4dF+1", "fudge", visibility, None, "", None, heavy)

    async def run() -> tuple[list[RollRecord | BaseException], BaseException | RollRecord]:
        writer = Writer(db, committed.extend)
        writer.start()
        held = threading.Event()

        def hold_the_database() -> None:  # another thread's write: a member joining
            with db.write():
                held.set()
                threading.Event().wait(0.2)

        holder = threading.Thread(target=hold_the_database)
        holder.start()
        held.wait(10)
        rolls = [asyncio.create_task(writer.roll(request(index))) for index in range(30)]
        await asyncio.sleep(0)
        rolls += [asyncio.create_task(writer.roll(request(index))) for index in range(30, 60)]
        await asyncio.to_thread(holder.join)
        # and once the database is free again, the light ones on the loop
        rolls += [asyncio.create_task(writer.roll(request(index))) for index in range(60, 90)]
        results = await asyncio.gather(*rolls, return_exceptions=True)
        refused = asyncio.create_task(writer.roll(RollRequest(
            "no-such-room", gm, "4dF", "fudge", "public", None, "", None
        )))  # fmt: skip
        [missing] = await asyncio.gather(refused, return_exceptions=True)
        await writer.stop()
        return results, missing

    # on a thread of its own: a page test's Playwright may have left this
    # thread's event loop set as running
    with ThreadPoolExecutor(1) as thread:
        made, missing = thread.submit(asyncio.run, run()).result()
    assert all(isinstance(roll, RollRecord) for roll in made), made
    assert isinstance(missing, Problem) and missing.status == 404
    records = [roll for roll in made if isinstance(roll, RollRecord)]
    assert sorted(record.seq for record in records) == list(range(1, 91))
    assert sorted(record.nonce or 0 for record in records) == list(range(90))
    assert sorted(record.seq for record in committed) == list(range(1, 91))
    stored = store.list_rolls(db, room.id, limit=100)
    assert [record.hash for record in stored] == [
        record.hash for record in sorted(records, key=lambda record: record.seq)
    ]
    store.reveal(db, room.id)  # the whole chain checks out once revealed, as exported
    document = log_document(room.id, store.seed_list(db, room.id), stored, gm)
    report = fudgedice.verify(document)
    assert report.ok and report.complete, report
    db.dispose()


def test_a_batch_that_fails_leaves_nothing_behind(tmp_path: Path) -> None:
    """The writer's batches go through a connection kept for the process
    (Database.batch): a batch that fails is rolled back whole, and the next
    one commits."""
    db = connect(str(tmp_path / "table.sqlite3"))
    room, gm, _ = store.create_room(db, "writer", "fudge", "GM")
    request = RollRequest(room.id, gm, "4dF", "fudge", "public", None, "", None)
    with pytest.raises(RuntimeError), db.batch(wait=False) as connection:
        assert connection is not None
        assert all(isinstance(made, RollRecord) for made in append(connection, [request] * 2))
        raise RuntimeError("after the rolls were written, before the commit")
    assert store.room(db, room.id).last_seq == 0 and store.list_rolls(db, room.id) == []
    with db.batch(wait=False) as connection:
        assert connection is not None
        append(connection, [request] * 2)
    assert [record.seq for record in store.list_rolls(db, room.id)] == [1, 2]
    db.dispose()
