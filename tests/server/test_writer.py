"""The writer in process, on SQLite and on PostgreSQL through the same code:
rolls of several rooms and members arriving together and while another
thread holds the database; heavy ones committed alone; each roll answered
once, in one gap-free sequence per room that verifies."""

from __future__ import annotations

import asyncio
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import bindparam, select, update
from sqlalchemy.dialects import postgresql, sqlite

import fudgedice
from fudgedice.log.canonical import VISIBILITIES
from fudgedice.server import connect, store
from fudgedice.server.caches import LIGHT_DICE, Texts
from fudgedice.server.db import Database
from fudgedice.server.exports import log_document
from fudgedice.server.kept import Member, RollRecord, RollRequest
from fudgedice.server.prepared import Prepared
from fudgedice.server.problems import Problem
from fudgedice.server.schema import rolls
from fudgedice.server.writer import FULL_BATCH, LINGER, Writer, append

HEAVY = f"{LIGHT_DICE + 1}dF"


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "sqlite":
        return connect(str(tmp_path / "table.sqlite3"))
    pg = request.getfixturevalue("postgres")  # conftest's own server, a database each test
    return connect(pg.create_database(f"writer_{secrets.token_hex(6)}"))


def test_rolls_together_past_a_busy_database_heavy_ones_alone(database: Database) -> None:
    db = database
    rooms = [store.create_room(db, f"writer {n}", "fudge", "GM") for n in range(2)]
    players = [store.join(db, room.id, "Ann")[0] for room, _, _ in rooms]
    commits: list[list[RollRecord]] = []

    def request(index: int) -> RollRequest:
        room, gm, _ = rooms[index % 2]
        member: Member = gm if index % 3 else players[index % 2]
        heavy = index % 7 == 0
        return RollRequest(
            room.id, member, HEAVY if heavy else "4dF+1", "fudge", VISIBILITIES[index % 4],
            None, "", None, heavy,
        )  # fmt: skip

    async def run() -> tuple[list[RollRecord | BaseException], BaseException | RollRecord]:
        writer = Writer(db, commits.append)
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
        # and once the database is free again
        rolls += [asyncio.create_task(writer.roll(request(index))) for index in range(60, 90)]
        results = await asyncio.gather(*rolls, return_exceptions=True)
        refused = asyncio.create_task(writer.roll(RollRequest(
            "no-such-room", rooms[0][1], "4dF", "fudge", "public", None, "", None
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
    assert any(len(commit) > 1 for commit in commits)  # rolls that came together went together
    assert all(len(commit) == 1 for commit in commits if HEAVY in {r.text for r in commit})
    assert sum(len(commit) for commit in commits) == len(records) == 90
    for room, gm, _ in rooms:
        mine = sorted((r for r in records if r.room == room.id), key=lambda r: r.seq)
        assert [record.seq for record in mine] == list(range(1, 46))
        for member in {record.member for record in mine}:  # version 2: each member's nonces
            nonces = [record.nonce for record in mine if record.member == member]
            assert nonces == list(range(len(nonces)))
        stored = store.list_rolls(db, room.id, limit=100)
        assert [record.hash for record in stored] == [record.hash for record in mine]
        store.reveal(db, room.id)  # the whole chain checks out once revealed, as exported
        document = log_document(room.id, store.seed_list(db, room.id), stored, gm)
        report = fudgedice.verify(document)
        assert report.ok and report.complete, report
    db.dispose()


def test_a_busy_process_fills_its_batches_on_postgresql_only(database: Database) -> None:
    """While rolls come fast (a batch of FULL_BATCH // 2 or more), PostgreSQL's
    next commit waits for FULL_BATCH rolls or the linger, whichever comes
    first; rolls one at a time never wait, nor does a heavy roll left behind
    by a full batch, and SQLite commits each at once."""
    db = database
    room, gm, _ = store.create_room(db, "linger", "fudge", "GM")
    request = RollRequest(room.id, gm, "4dF", "fudge", "public", None, "", None)
    heavy = RollRequest(room.id, gm, HEAVY, "fudge", "public", None, "", None, True)
    commits: list[list[RollRecord]] = []
    waited: list[float] = []

    async def run() -> None:
        loop = asyncio.get_running_loop()
        writer = Writer(db, commits.append)
        assert writer._linger == (LINGER if db.postgres else 0)
        writer._linger = writer._linger and 0.5  # long: a slow machine keeps up with 10 ms
        writer.start()
        await asyncio.gather(*(writer.roll(request) for _ in range(FULL_BATCH // 2)))  # busy
        spaced = []
        for _ in range(FULL_BATCH + 2):  # 10 ms apart
            spaced.append(asyncio.create_task(writer.roll(request)))
            await asyncio.sleep(0.01)
        await asyncio.gather(*spaced)
        for _ in range(3):  # one at a time
            began = loop.time()
            await writer.roll(request)
            waited.append(loop.time() - began)
        await asyncio.gather(*(writer.roll(request) for _ in range(FULL_BATCH // 2)))  # busy
        began = loop.time()
        light = [asyncio.create_task(writer.roll(request)) for _ in range(FULL_BATCH - 1)]
        alone = asyncio.create_task(writer.roll(heavy))  # taken after them: it waited with them
        await alone
        waited.append(loop.time() - began)
        await asyncio.gather(*light)
        await writer.stop()

    with ThreadPoolExecutor(1) as thread:  # as above: an event loop of its own
        thread.submit(asyncio.run, run()).result()
    sizes = [len(commit) for commit in commits]
    last = [FULL_BATCH // 2, FULL_BATCH - 1, 1]  # busy again, then the heavy roll alone
    if db.postgres:  # a full batch at once, the rest after the linger, then no wait
        assert sizes == [FULL_BATCH // 2, FULL_BATCH, 2, 1, 1, 1, *last]
        assert max(waited) < 0.25  # far below the linger: none of these waited for it
    else:
        assert sizes == [FULL_BATCH // 2] + [1] * (FULL_BATCH + 2 + 3) + last
    assert [r.seq for commit in commits for r in commit] == list(range(1, sum(sizes) + 1))
    db.dispose()


def test_a_batch_that_fails_leaves_nothing_behind(database: Database) -> None:
    """The writer's batches (Database.batch): one that fails is rolled back
    whole, and the next one commits."""
    db = database
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


def test_a_text_is_heavy_by_the_dice_it_tosses() -> None:
    """Told from the text, never by timing a roll: the same answer each time."""
    texts = Texts()
    assert texts.check("4dF+1", "fudge") is False
    assert texts.check(f"{LIGHT_DICE}d6", "fudge") is False
    assert texts.check(HEAVY, "fudge") is True
    assert texts.check(f"{LIGHT_DICE // 2}d6+{LIGHT_DICE // 2 + 1}dF", "fudge") is True
    assert texts.heavy(HEAVY, "fudge") is True and texts.heavy("1dF", "fudge") is None


def test_a_prepared_statement_gives_the_driver_what_sqlalchemy_would() -> None:
    """Parameters by place or by name, as the dialect takes them, and none
    that SQLAlchemy would have converted for the driver (a Boolean on
    SQLite): such a statement is refused when it is compiled, not run wrong."""
    advance = Prepared(update(rolls).values(text=bindparam("said"), at=bindparam("when")))
    row = {"when": "now", "said": "4dF"}
    on_sqlite = advance.compiled(sqlite.dialect())
    assert on_sqlite.text == "UPDATE rolls SET text=?, at=?"
    assert on_sqlite.given(row) == ("4dF", "now")
    psycopg = postgresql.psycopg.dialect()  # type: ignore[no-untyped-call]
    on_postgresql = advance.compiled(psycopg)
    assert on_postgresql.text == "UPDATE rolls SET text=%(said)s::VARCHAR, at=%(when)s::VARCHAR"
    assert on_postgresql.given(row) is row
    one = Prepared(select(rolls.c.seq).where(rolls.c.room_id == bindparam("room")))
    assert one.compiled(sqlite.dialect()).given({"room": "r"}) == ("r",)
    with pytest.raises(TypeError, match="'checked'"):
        Prepared(update(rolls).values(verified=bindparam("checked"))).compiled(sqlite.dialect())
