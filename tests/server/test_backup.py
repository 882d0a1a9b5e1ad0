"""``fudgedice backup`` and ``fudgedice restore``: a copy of a serving table's
SQLite database that holds every roll committed before it began, a round trip
through a restore to a new file served again, the PostgreSQL commands they
name (run here against a real PostgreSQL), and a message for every refusal."""

from __future__ import annotations

import glob
import json
import shlex
import shutil
import sqlite3
import subprocess
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from fudgedice.cli import main
from fudgedice.log import verify
from fudgedice.server import exports
from fudgedice.server.db import connect
from fudgedice.server.kept import Member
from fudgedice.server.schema import members

ROLLERS = 3
"""Threads rolling while the backup is taken, each in a room of its own."""
BEFORE = 40
"""Rolls each roller has had answered before the backup begins."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _roll_on(table: Any, room: dict[str, Any], answered: list[tuple[str, int, str]],
             stop: threading.Event, ready: threading.Semaphore) -> None:  # fmt: skip
    """Roll in ``room`` until told to stop: each roll answered noted, with its hash."""
    count = 0
    while not stop.is_set():
        rolled = table.roll(room["room"], room["gm_token"], "4dF+1", visibility="gm")
        assert rolled.status_code == 201, rolled.text
        answered.append((room["room"], rolled.json()["seq"], rolled.json()["hash"]))
        count += 1
        if count == BEFORE:
            ready.release()


def test_a_backup_taken_while_serving_holds_every_roll_committed_before_it(
    tmp_path: Path, start_unlimited: Callable[[str], Any], table_of: Callable[[Any], Any]
) -> None:
    db = tmp_path / "table.sqlite3"
    server = start_unlimited(str(db))
    rooms = [table_of(server).room(f"room {n}") for n in range(ROLLERS)]
    answered: list[tuple[str, int, str]] = []
    stop, ready = threading.Event(), threading.Semaphore(0)
    threads = [
        threading.Thread(target=_roll_on, args=(table_of(server), room, answered, stop, ready))
        for room in rooms
    ]
    for thread in threads:
        thread.start()
    try:
        for _ in threads:
            assert ready.acquire(timeout=120), "the rollers did not roll"
        before = list(answered)  # committed: each was answered only once committed
        copied = cli("backup", "--db", str(db), str(tmp_path / "copy.sqlite3"))
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    assert copied.exit_code == 0, copied.output
    assert "integrity checked" in copied.output
    assert len(before) >= ROLLERS * BEFORE
    with sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        kept = set(copy.execute("SELECT room_id, seq, hash FROM rolls").fetchall())
    assert set(before) <= kept
    assert _every_log_verifies(tmp_path / "copy.sqlite3") == ROLLERS


def _every_log_verifies(path: Path) -> int:
    """How many rooms the database holds, each room's log (as its GM exports
    it) checked by the verifier."""
    db = connect(str(path))
    try:
        with db.read() as connection:
            gms = connection.execute(select(members).where(members.c.gm)).all()
        for gm in gms:
            start = exports.log_start(db, gm.room_id)
            viewer = Member(gm.id, gm.room_id, gm.name, True)
            document = json.loads(b"".join(exports.log_bytes(db, start, viewer)))
            report = verify(document)
            assert report.ok, str(report)
            assert len(document["entries"]) == start.last > 0
        return len(gms)
    finally:
        db.dispose()


def _played(served: Any, play_room: Any) -> Any:
    """A Fate room with sheets, rolls, play and talk."""
    room = play_room(served)
    room.roll(room.ann, "4dF+2")
    room.roll(room.bob, "4dF", visibility="self")
    room.ok(room.gm, action="aspect", name="On fire", free=1)
    said = served.client.post(
        f"/api/rooms/{room.id}/talk", json={"text": "hello"}, headers=bearer(room.ann["token"])
    )
    assert said.status_code == 201, said.text
    return room


def _seen(served: Any, room: Any) -> dict[str, Any]:
    """What the GM sees of a room: itself, its rolls, sheets and log."""
    path = f"/api/rooms/{room.id}"
    token = room.gm["token"]
    info = served.get(path, token).json()
    return {
        "room": {key: info[key] for key in ("name", "system", "last_seq", "members", "seeds")},
        "rolls": served.rolls(room.id, token, limit=500),
        "sheets": [room.sheet(who)["text"] for who in (room.ann, room.bob)],
        "play": room.state(),
        "log": served.get(f"{path}/log", token).json(),
    }


def test_a_backup_restored_to_a_new_file_serves_the_same_table(
    tmp_path: Path,
    start_unlimited: Callable[[str], Any],
    table_of: Callable[[Any], Any],
    play_room: Any,
) -> None:
    db, kept, again = (tmp_path / name for name in ("table.sqlite3", "kept.sqlite3", "new.sqlite3"))
    first = start_unlimited(str(db))
    room = _played(table_of(first), play_room)
    before = _seen(room.served, room)
    copied = cli("backup", "--db", str(db), str(kept))
    assert copied.exit_code == 0, copied.output
    first.stop()
    restored = cli("restore", str(kept), "--db", str(again))
    assert restored.exit_code == 0, restored.output
    assert f"{again}: 1 rooms, 6 entries" in restored.output
    room.served = table_of(start_unlimited(str(again)))
    assert _seen(room.served, room) == before
    room.verified(tmp_path)  # revealed, exported, and `fudgedice verify` passes (exit 0)
    assert room.roll(room.ann, "4dF")["seq"] == before["room"]["last_seq"] + 1


def test_refusals_are_messages_never_tracebacks(
    tmp_path: Path, start_unlimited: Callable[[str], Any]
) -> None:
    db, copy = tmp_path / "table.sqlite3", tmp_path / "copy.sqlite3"
    start_unlimited(str(db))
    not_db, other = tmp_path / "notes.txt", tmp_path / "other.sqlite3"
    not_db.write_text("not a database")
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE x (a)")
    refused = {
        "does not exist": ("backup", "--db", str(tmp_path / "none.sqlite3"), str(copy)),
        "is not an SQLite database": ("backup", "--db", str(not_db), str(copy)),
        "not a fudgedice table's": ("backup", "--db", str(other), str(copy)),
        "is a folder": ("backup", "--db", str(db), str(tmp_path)),
        "is no folder": ("backup", "--db", str(db), str(tmp_path / "no" / "copy")),
        "both the copy's source and its target": ("backup", "--db", str(db), str(db)),
        # a server is using it: its -wal file is there
        "a server is using table.sqlite3": ("restore", str(other), "--db", str(db), "--force"),
        "the backup": ("restore", str(tmp_path / "none"), "--db", str(tmp_path / "n.sqlite3")),
    }
    for message, args in refused.items():
        result = cli(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert cli("backup", "--db", str(db), str(copy)).exit_code == 0
    again = cli("backup", "--db", str(db), str(copy))
    assert again.exit_code == 2 and "exists: give --force" in again.output
    assert cli("backup", "--db", str(db), str(copy), "--force").exit_code == 0
    assert not_db.read_text() == "not a database" and not (tmp_path / "none.sqlite3").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".part")) == []


def _pg_tool(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        pytest.fail(f"PostgreSQL's {name} is not installed ('make postgres')")
    return found


def test_postgresql_is_backed_up_by_the_commands_the_cli_names(
    tmp_path: Path,
    postgres: Any,
    start_unlimited: Callable[[str], Any],
    table_of: Callable[[Any], Any],
    play_room: Any,
) -> None:
    source = postgres.create_database(f"backup_{uuid.uuid4().hex}")
    room = _played(table_of(start_unlimited(source)), play_room)
    before = _seen(room.served, room)
    dump = str(tmp_path / "table.dump")
    named = cli("backup", "--db", source, dump)
    assert named.exit_code == 2, named.output  # nothing copied: it says so
    command = shlex.split(named.output.splitlines()[-1])
    assert command[0] == "pg_dump" and command[-1] == source
    subprocess.run([_pg_tool("pg_dump"), *command[1:]], check=True, timeout=120)
    target = postgres.create_database(f"restored_{uuid.uuid4().hex}")
    put_back = cli("restore", dump, "--db", target)
    assert put_back.exit_code == 2, put_back.output
    command = shlex.split(put_back.output.splitlines()[-1])
    assert command[0] == "pg_restore" and command[-1] == dump
    subprocess.run([_pg_tool("pg_restore"), *command[1:]], check=True, timeout=120)
    room.served = table_of(start_unlimited(target))
    assert _seen(room.served, room) == before
