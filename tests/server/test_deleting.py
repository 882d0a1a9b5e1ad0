"""A GM deletes a room (``DELETE /api/rooms/{room}``), and ``serve --keep-days``
deletes the rooms idle too long: every row of the room in every table goes,
its live feeds are told and end (on PostgreSQL in every process), and no
process keeps answering for its members' tokens."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, insert, select, update

from fudgedice import sheets
from fudgedice.server import deleting, store
from fudgedice.server.db import Database, connect, database_url
from fudgedice.server.live import Hub
from fudgedice.server.problems import Problem
from fudgedice.server.schema import (
    discord_channels,
    discord_users,
    metadata,
    rooms,
    webhooks,
)

SHEET = sheets.new_sheet("fate", "Cynere")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database of the test's own, on each database in turn."""
    if request.param == "sqlite":
        return str(tmp_path / "table.sqlite3")
    pg: Any = request.getfixturevalue("postgres")
    name: str = pg.create_database(f"deleting_{uuid.uuid4().hex}")
    return name


@pytest.fixture
def server_on(database: str, start_unlimited: Callable[[str], Any]) -> Any:
    """A server on :func:`database`."""
    return start_unlimited(database)


@pytest.fixture
def served_on(server_on: Any, table_of: Callable[[Any], Any]) -> Any:
    """A client of :func:`server_on`."""
    return table_of(server_on)


def _engine(database: str) -> Any:
    return create_engine(database_url(database))


def _rows_of(database: str, room: str) -> dict[str, int]:
    """The room's rows in each table that holds rows of rooms."""
    engine = _engine(database)
    try:
        with engine.connect() as connection:
            counts = {
                table.name: connection.execute(
                    select(func.count()).select_from(table).where(table.c.room_id == room)
                ).scalar_one()
                for table in deleting.ROOM_TABLES
            }
            counts["rooms"] = connection.execute(
                select(func.count()).select_from(rooms).where(rooms.c.id == room)
            ).scalar_one()
    finally:
        engine.dispose()
    return counts


def _everything(served: Any, database: str, play_room: Any) -> Any:
    """A Fate room with a row in every table that holds rows of a room."""
    room = play_room(served)
    room.roll(room.ann, "4dF")
    room.ok(room.gm, action="aspect", name="On fire", free=1)
    said = served.client.post(
        f"/api/rooms/{room.id}/talk",
        json={"text": "hello"},
        headers={**bearer(room.bob["token"]), "Idempotency-Key": "hello-once"},  # roll_keys
    )
    assert said.status_code == 201, said.text
    kept = served.client.put(
        f"/api/rooms/{room.id}/favourites",
        json={"favourites": [{"text": "4dF+2"}]},
        headers=bearer(room.ann["token"]),
    )
    assert kept.status_code == 200, kept.text
    engine = _engine(database)
    at = store.now()
    try:
        with engine.begin() as connection:  # the Discord tables have no route of their own here
            connection.execute(
                insert(discord_channels).values(
                    channel_id=f"c{room.id}", guild_id="g", room_id=room.id, gm_user_id="u1",
                    created_at=at,
                )
            )  # fmt: skip
            connection.execute(
                insert(discord_users).values(
                    room_id=room.id, user_id="u2", member_id=room.ann["member"]
                )
            )
            connection.execute(
                insert(webhooks).values(
                    room_id=room.id, url="https://example.invalid/hook", kind="discord",
                    updated_at=at,
                )
            )  # fmt: skip
    finally:
        engine.dispose()
    return room


def test_the_tables_that_hold_rooms_are_every_table_with_a_room(database: str) -> None:
    # a table added later with a room_id is deleted from as well: the list is the schema's
    named = {table.name for table in deleting.ROOM_TABLES}
    assert named == {t.name for t in metadata.sorted_tables if "room_id" in t.c}
    assert {"members", "rolls", "seeds", "member_nonces", "sheets", "play", "favourites",
            "discord_channels", "discord_users", "webhooks", "roll_keys"} <= named  # fmt: skip


def test_a_gm_deletes_a_room_and_every_row_of_it(
    served_on: Any, database: str, play_room: Any
) -> None:
    room = _everything(served_on, database, play_room)
    other = play_room(served_on)  # another room, left whole
    last = other.roll(other.ann, "4dF")["seq"]
    before = _rows_of(database, room.id)
    assert all(count > 0 for count in before.values()), before
    path = f"/api/rooms/{room.id}"
    refused = served_on.client.delete(path, headers=bearer(room.ann["token"]))
    assert refused.status_code == 403, refused.text
    assert "GM" in refused.json()["error"]
    assert served_on.client.delete(path).status_code == 401
    with served_on.live(room.id, room.ann["token"]) as feed:
        served_on.until(feed, "ready")
        done = served_on.client.delete(path, headers=bearer(room.gm["token"]))
        assert done.status_code == 200, done.text
        assert done.json() == {"room": room.id, "deleted": True}
        told = served_on.until(feed, "deleted")
        assert told["room"] == room.id and "deleted" in told["error"]
        assert list(feed) == []  # the feed ends after it
    assert _rows_of(database, room.id) == dict.fromkeys(before, 0)
    left = _rows_of(database, other.id)
    assert all(left[name] > 0 for name in ("rooms", "members", "seeds", "rolls", "sheets")), left
    again = served_on.client.delete(path, headers=bearer(room.gm["token"]))
    assert again.status_code == 404, again.text
    assert served_on.get(path, room.gm["token"]).status_code == 404
    # Ann rolled before: her token was known to the process; it answers for no room now
    assert served_on.roll(room.id, room.ann["token"], "4dF").status_code == 404
    assert served_on.get(f"/api/rooms/{room.id}/log", room.gm["token"]).status_code == 404
    assert other.roll(other.ann, "4dF")["seq"] == last + 1


def test_a_deleted_room_is_forgotten_by_the_process_that_knew_its_tokens(
    tmp_path: Path, served_here: Callable[..., Any]
) -> None:
    db = connect(str(tmp_path / "here.sqlite3"))
    try:
        with served_here(db) as here:
            made = here.room("gone")
            ann = here.join(made["room"], "Ann")
            assert here.roll(made["room"], ann["token"], "4dF").status_code == 201
            members = here.app.state.rolls.members
            assert members.get(store.token_hash(ann["token"])) is not None
            deleted = here.client.delete(
                f"/api/rooms/{made['room']}", headers=bearer(made["gm_token"])
            )
            assert deleted.status_code == 200, deleted.text
            assert members.get(store.token_hash(ann["token"])) is None
    finally:
        db.dispose()


def test_an_entry_marks_its_room_active(served_on: Any, database: str, play_room: Any) -> None:
    room = play_room(served_on, sheets_=False)
    first = _active_at(database, room.id)
    assert first is not None
    rolled = room.roll(room.ann, "4dF")
    assert _active_at(database, room.id) == rolled["at"] >= first
    room.attach(room.bob, SHEET)  # a sheet's change is an entry too
    assert _active_at(database, room.id) > rolled["at"]


def _active_at(database: str, room: str) -> str | None:
    engine = _engine(database)
    try:
        with engine.connect() as connection:
            found: str | None = connection.execute(
                select(rooms.c.active_at).where(rooms.c.id == room)
            ).scalar_one()
            return found
    finally:
        engine.dispose()


def _idle(database: str, room: str, days: float) -> None:
    """The room's last activity set ``days`` back."""
    then = deleting.idle_since(days)
    engine = _engine(database)
    try:
        with engine.begin() as connection:
            connection.execute(update(rooms).where(rooms.c.id == room).values(active_at=then))
    finally:
        engine.dispose()


def test_keep_days_deletes_the_idle_rooms_at_start_and_tells_other_processes(
    database: str, start_server: Callable[..., Any], table_of: Callable[[Any], Any], play_room: Any
) -> None:
    serving = table_of(start_server(database))
    old, fresh = play_room(serving, sheets_=False), play_room(serving, sheets_=False)
    old.roll(old.ann, "4dF")
    fresh.roll(fresh.ann, "4dF")
    _idle(database, old.id, 3)
    _idle(database, fresh.id, 0.5)
    with serving.live(old.id, old.ann["token"]) as feed:
        serving.until(feed, "ready")
        keeper = table_of(start_server(database, "--keep-days", "1"))
        if not database.endswith(".sqlite3"):  # PostgreSQL: every process's feeds are told
            assert serving.until(feed, "deleted")["room"] == old.id
    for table in (keeper, serving):
        assert table.get(f"/api/rooms/{old.id}", old.gm["token"]).status_code == 404
        assert table.get(f"/api/rooms/{fresh.id}", fresh.gm["token"]).status_code == 200
    assert set(_rows_of(database, old.id).values()) == {0}


def test_a_pass_deletes_a_bounded_number_of_idle_rooms(tmp_path: Path) -> None:
    db = connect(str(tmp_path / "idle.sqlite3"))
    try:
        made = [store.create_room(db, f"room {n}", "fudge", "GM")[0].id for n in range(25)]
        later = datetime.now(UTC) + timedelta(days=3)  # a clock of the test's own
        told: list[str] = []
        assert deleting.expire(db, 5, told.append) == ([], False)  # none idle 5 days yet
        first, more = deleting.expire(db, 2, told.append, now=later)
        assert (len(first), more) == (deleting.EXPIRE_AT_ONCE, True)
        second, more = deleting.expire(db, 2, told.append, now=later)
        assert (len(second), more) == (25 - deleting.EXPIRE_AT_ONCE, False)
        assert sorted(told) == sorted(made) == sorted(first + second)
        assert deleting.idle_rooms(db, deleting.idle_since(0, later)) == []
    finally:
        db.dispose()


def test_a_room_active_again_is_not_deleted_by_a_pass_that_found_it_idle(tmp_path: Path) -> None:
    db = connect(str(tmp_path / "race.sqlite3"))
    try:
        room = store.create_room(db, "busy", "fudge", "GM")[0].id
        before = deleting.idle_since(0, datetime.now(UTC) + timedelta(days=1))
        assert deleting.idle_rooms(db, before) == [room]
        store.reveal(db, room)  # activity between the pass's read and its deletion
        assert deleting.delete_room(db, room, idle_before=deleting.idle_since(1)) is False
        assert store.room(db, room).id == room
    finally:
        db.dispose()


def test_the_migration_dates_the_rooms_made_before_it(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    from fudgedice.server.db import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    engine = create_engine(database_url(str(path)))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0008")
        for room, at in (("quiet", None), ("rolled", "2026-01-02T00:00:00.000Z")):
            connection.exec_driver_sql(
                "INSERT INTO rooms (id, name, system, created_at, epoch, seed, commitment, nonce,"
                " stream, last_seq, last_hash) VALUES (?, 'r', 'fudge', '2026-01-01T00:00:00.000Z',"
                " 0, '00', 'c', 0, 2, 0, 'h')",
                (room,),
            )
            if at is not None:
                connection.exec_driver_sql(
                    "INSERT INTO members (id, room_id, name, token_hash, gm, created_at)"
                    " VALUES ('m', ?, 'GM', 't', 1, ?)",
                    (room, at),
                )
                connection.exec_driver_sql(
                    "INSERT INTO rolls (room_id, seq, member_id, name, visibility, epoch,"
                    " commitment, client_seed, text, result, at, hash)"
                    " VALUES (?, 1, 'm', 'GM', 'public', 0, 'c', '', '4dF', '{}', ?, 'h')",
                    (room, at),
                )
    engine.dispose()
    db: Database = connect(str(path))
    try:
        with db.read() as connection:
            found = dict(connection.execute(select(rooms.c.id, rooms.c.active_at)).all())
    finally:
        db.dispose()
    assert found == {"quiet": "2026-01-01T00:00:00.000Z", "rolled": "2026-01-02T00:00:00.000Z"}


def test_deleting_waits_for_no_feed(
    served_on: Any, server_on: Any, table_of: Callable[[Any], Any]
) -> None:
    # a room with many feeds open is deleted at once, each feed told
    made = served_on.room("watched")
    room, token = made["room"], made["gm_token"]
    told: list[Any] = []
    ready = threading.Barrier(4)

    def watch(own: Any) -> None:  # a client of each watcher's own
        with own.live(room, token) as feed:
            own.until(feed, "ready")
            ready.wait(timeout=30)
            told.append(own.until(feed, "deleted"))

    threads = [threading.Thread(target=watch, args=(table_of(server_on),)) for _ in range(3)]
    for thread in threads:
        thread.start()
    ready.wait(timeout=30)
    assert served_on.client.delete(f"/api/rooms/{room}", headers=bearer(token)).status_code == 200
    for thread in threads:
        thread.join(timeout=60)
    assert [one["room"] for one in told] == [room] * 3


def test_another_process_forgets_a_room_deleted_elsewhere(
    postgres: Any, served_here: Callable[..., Any]
) -> None:
    # two apps on one PostgreSQL, as two processes: the NOTIFY ends the
    # feeds of the one that did not delete, and empties its cache of tokens
    url = postgres.create_database(f"deleting_{uuid.uuid4().hex}")
    first, second = connect(url), connect(url)
    try:
        with served_here(first) as here, served_here(second) as there:
            made = here.room("shared")
            room, ann = made["room"], here.join(made["room"], "Ann")
            assert here.roll(room, ann["token"], "4dF").status_code == 201
            members = here.app.state.rolls.members
            assert members.get(store.token_hash(ann["token"])) is not None
            with here.live(room, ann["token"]) as feed:
                here.until(feed, "ready")
                gone = there.client.delete(f"/api/rooms/{room}", headers=bearer(made["gm_token"]))
                assert gone.status_code == 200, gone.text
                assert here.until(feed, "deleted")["room"] == room
            assert members.get(store.token_hash(ann["token"])) is None
            assert here.roll(room, ann["token"], "4dF").status_code == 404
    finally:
        first.dispose()
        second.dispose()


def test_a_feed_asked_for_once_its_room_is_deleted_is_refused() -> None:
    # its member was found just before the deletion, its watch comes just after
    hub = Hub()
    open_before = hub.watch("gone", "ann")
    elsewhere = hub.watch("kept", "ann")
    hub.end_room("gone")
    assert (open_before.ended, open_before.closed) == ("deleted", True)
    with pytest.raises(Problem) as refused:
        hub.watch("gone", "bob")
    assert refused.value.status == 404
    assert hub.watching() == 1 and not elsewhere.closed
