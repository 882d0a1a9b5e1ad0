"""Version 2 of the dice stream at the table, in process: migration 0005 keeps
a seed that drew under version 1 on version 1 until its reveal, the writer
draws each version as its seed says (the room's counter, or each member's),
a roll that fails once drawn is kept and verified at the reveal, and the log
over both versions verifies."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config

import fudgedice
from fudgedice.server import connect, store
from fudgedice.server.db import MIGRATIONS, database_url
from fudgedice.server.drawing import FailedRoll
from fudgedice.server.exports import log_document
from fudgedice.server.kept import Member, RollRecord, RollRequest
from fudgedice.server.writer import append_rolls
from fudgedice.stream import room_stream

PROBE = "1/((4dF+4)/5-1)"
PROBES = 40
"""Probes made: some fail and some roll, but for one run in hundreds of millions."""


def _request(room: str, member: Member, text: str, visibility: Any = "public") -> RollRequest:
    return RollRequest(room, member, text, "fudge", visibility, None, "", None)


def test_migration_0005_keeps_a_seed_that_drew_on_version_1(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", str(database_url(str(path))))
    from sqlalchemy import create_engine

    engine = create_engine(database_url(str(path)))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
        for room, nonce in (("drawn", 3), ("fresh", 0)):
            connection.exec_driver_sql(
                "INSERT INTO rooms (id, name, system, created_at, epoch, seed, commitment, "
                f"nonce, last_seq, last_hash) VALUES ('{room}', 'r', 'fudge', 'now', 0, "
                f"'{'ab' * 32}', '{'cd' * 32}', {nonce}, {nonce}, '{'0' * 64}')"
            )
            connection.exec_driver_sql(
                "INSERT INTO seeds (room_id, epoch, seed, commitment) VALUES "
                f"('{room}', 0, '{'ab' * 32}', '{'cd' * 32}')"
            )
        command.upgrade(config, "head")
        command.downgrade(config, "0004")  # and back, as an operator may
        command.upgrade(config, "head")
    engine.dispose()
    with sqlite3.connect(path) as connection:
        rooms = dict(connection.execute("SELECT id, stream FROM rooms").fetchall())
        seeds = dict(connection.execute("SELECT room_id, stream FROM seeds").fetchall())
    assert rooms == seeds == {"drawn": 1, "fresh": 2}


def test_a_seed_of_version_1_draws_on_until_its_reveal(tmp_path: Path) -> None:
    db = connect(str(tmp_path / "table.sqlite3"))
    room, gm, _ = store.create_room(db, "both", "fudge", "GM")
    ann, _ = store.join(db, room.id, "Ann")
    with db.write() as connection:  # as migration 0005 leaves a room that had drawn
        connection.exec_driver_sql("UPDATE rooms SET stream = 1")
        connection.exec_driver_sql("UPDATE seeds SET stream = 1")
    first = append_rolls(db, [_request(room.id, ann, "4dF"), _request(room.id, gm, "4dF")])
    assert [made.nonce for made in first if isinstance(made, RollRecord)] == [0, 1]
    seed = bytes.fromhex(store.reveal(db, room.id)["server_seed"])
    old = first[0]
    assert isinstance(old, RollRecord) and old.entry is not None
    again = fudgedice.roll("4dF", stream=room_stream(seed, room.id, "", 0))  # no member
    assert old.entry["faces"] == again.tosses
    later = append_rolls(db, [_request(room.id, ann, "4dF"), _request(room.id, gm, "4dF")])
    assert [made.nonce for made in later if isinstance(made, RollRecord)] == [0, 0]
    records = store.list_rolls(db, room.id, limit=10)
    assert [record.verified for record in records] == [True, True, None, None]
    document = log_document(room.id, store.seed_list(db, room.id), records, gm)
    assert [listed["stream"] for listed in document["seeds"]] == [1, 2]
    store.reveal(db, room.id)
    records = store.list_rolls(db, room.id, limit=10)
    document = log_document(room.id, store.seed_list(db, room.id), records, gm)
    report = fudgedice.verify(document)
    assert report.complete and report.checked == 4, report.failure


def test_a_roll_that_fails_once_drawn_is_kept_and_verified(tmp_path: Path) -> None:
    db = connect(str(tmp_path / "table.sqlite3"))
    room, gm, _ = store.create_room(db, "probes", "fudge", "GM")
    ann, _ = store.join(db, room.id, "Ann")
    outcomes = append_rolls(
        db, [_request(room.id, ann, PROBE, "self" if i % 2 else "public") for i in range(PROBES)]
    )
    failed = [outcome for outcome in outcomes if isinstance(outcome, FailedRoll)]
    assert failed and len(failed) < len(outcomes)
    for outcome in failed:
        assert outcome.status == 400 and outcome.body()["seq"] == outcome.record.seq
        assert outcome.body()["error"] == "division by zero: the divisor came up 0"
    records = store.list_rolls(db, room.id, limit=100)
    assert [record.nonce for record in records] == list(range(PROBES))
    kept = {record.seq: record for record in records}
    for outcome in failed:
        record = kept[outcome.record.seq]
        assert record.error == outcome.error and record.result["failed"] is True
        assert record.full()["total"] is None and len(record.result["tosses"]) == 4
        if record.hidden:  # another member sees the failed probe as a placeholder
            assert "error" not in record.for_viewer(gm) or gm.id == record.member
    store.reveal(db, room.id)
    records = store.list_rolls(db, room.id, limit=100)
    assert all(record.verified is True for record in records)
    document = log_document(room.id, store.seed_list(db, room.id), records, gm)
    report = fudgedice.verify(document)
    assert report.complete and report.checked == PROBES, report.failure
