"""The database out of reach (docs/table.md, "When the database is out of
reach"): a real ``fudgedice serve`` on a PostgreSQL server of this module's
own, stopped and started again. Every route that needs the database answers
503 ``{"error"}`` with ``Retry-After`` (never a 500, never plain text), the
routes that need none answer as ever, ``/api/health`` stays 200 and
``/api/ready`` says 503; started again, the same process serves every route
with no step of an operator's."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import text

from fudgedice import sheets
from fudgedice.server import exports
from fudgedice.server.app import create_app
from fudgedice.server.db import connect
from fudgedice.server.live import Event
from fudgedice.server.outage import UNREACHABLE, unreachable

MEASURING_TRIES = 120
"""Odds asked, half a second apart, before the measuring process is taken for broken."""
SHEET = sheets.new_sheet("fate", "Cynere")
NO_DATABASE = {
    "/api/odds", "/api/systems", "/api/systems/{system}/sheet-template", "/api/health",
    "/", "/r/{room}",
}  # fmt: skip
"""The paths that read no database: answered as ever during an outage (the page too)."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.contextmanager
def stopped(postgres: Any) -> Iterator[None]:
    """PostgreSQL stopped (``fast``: its connections ended, as a restart
    ends them) for the block, and started again after it, whatever happens."""
    postgres.stop()
    try:
        yield
    finally:
        postgres.start()


def out_of_reach(answer: httpx.Response, what: str) -> None:
    assert answer.status_code == 503, (what, answer.status_code, answer.text)
    assert answer.headers["content-type"] == "application/json", what
    assert answer.json() == {"error": UNREACHABLE}, what
    assert int(answer.headers["retry-after"]) >= 1, what


class Room:
    """A Fate room with a GM, a player with a sheet, a roll and a favourite."""

    def __init__(self, table: Any) -> None:
        self.table = table
        made = table.room("Docks", system="fate")
        self.id, self.gm, self.token = made["room"], made["member"], made["gm_token"]
        self.base = f"/api/rooms/{self.id}"
        joined = table.join(self.id, "Ann")
        self.ann, self.ann_token = joined["member"], joined["token"]
        self.sheet = f"{self.base}/members/{self.ann}/sheet"
        assert self.ask("PUT", self.sheet, {"text": SHEET, "version": 0}).status_code == 200
        assert self.table.roll(self.id, self.ann_token, "4dF").status_code == 201

    def ask(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> httpx.Response:
        answer: httpx.Response = self.table.client.request(
            method, path, json=body, headers=bearer(token or self.ann_token)
        )
        return answer

    def routes(self) -> list[tuple[str, str, Any, str | None]]:
        """A request to each route that reads or writes the room, each one
        that a table back from an outage accepts, in this order (Ann's, or
        the GM's where it is the GM's to make)."""
        sheet, base, gm = self.sheet, self.base, self.token
        return [
            ("POST", "/api/rooms", {"name": "Another"}, None),
            ("POST", f"{base}/members", {"name": "Bob"}, None),
            ("GET", base, None, None),
            ("POST", f"{base}/rolls", {"text": "4dF+1"}, None),
            ("GET", f"{base}/rolls", None, None),
            ("GET", f"{base}/log", None, None),
            ("GET", f"{base}/export", None, None),
            ("GET", f"{base}/sheets", None, None),
            ("GET", sheet, None, None),
            ("PUT", sheet, {"text": SHEET, "version": 1}, None),
            ("POST", f"{sheet}/roll", {"request": "Fight"}, None),
            ("POST", f"{sheet}/spend", {"version": 2, "point": "fate"}, None),
            ("POST", f"{base}/rolls/2/spend", {"point": "invoke"}, None),
            ("GET", f"{base}/play", None, None),
            ("POST", f"{base}/play", {"action": "aspect", "name": "Dark"}, gm),
            ("POST", f"{base}/talk", {"text": "hello"}, None),
            ("GET", f"{base}/favourites", None, None),
            ("PUT", f"{base}/favourites", {"favourites": [{"text": "4dF"}]}, None),
            ("POST", f"{base}/reveal", {}, gm),
        ]


def test_an_outage_is_answered_and_outlived(
    own_postgres: Any, start_unlimited: Callable[[str], Any], table_of: Callable[..., Any]
) -> None:
    server = start_unlimited(own_postgres.create_database("outage"))
    table = table_of(server)
    room = Room(table)
    measuring(table)
    with table.live(room.id, room.ann_token) as events:
        assert table.until(events, "ready")["last_seq"] == 2
        with stopped(own_postgres):
            for method, path, body, token in room.routes():
                out_of_reach(room.ask(method, path, body, token), f"{method} {path}")
            with table.client.stream(
                "GET", f"{room.base}/live", headers=bearer(room.token)
            ) as feed:
                feed.read()
                out_of_reach(feed, "a live feed opened")
            every_other_route_refuses_cleanly(room)
            odds = table.get("/api/odds", text="4dF+1")
            assert odds.status_code == 200 and odds.json()["notation"] == "4dF+1", odds.text
            assert table.get("/api/health").json()["ok"] is True
            out_of_reach(table.get("/api/ready"), "the readiness check")
        # back, and the same process serves every route again at the first asking
        assert table.get("/api/ready").json() == {"ok": True, "database": "postgresql"}
        for method, path, body, token in room.routes():
            answer = room.ask(method, path, body, token)
            assert answer.status_code in (200, 201), (method, path, answer.text)
        # the feed opened before the outage outlived it: the roll made once back comes
        arrived = table.until(events, "roll")
        assert arrived["seq"] == 3 and arrived["text"].startswith("fate: 4dF+1 ="), arrived
    said = server.output()
    assert "Traceback" not in said, said
    assert 1 <= said.count("the database is unreachable") < len(room.routes()), said


def measuring(table: Any) -> None:
    """Once the server's measuring process is up (it starts with the server,
    slowly on a loaded machine): the odds then need nothing but it."""
    for _ in range(MEASURING_TRIES):
        if table.get("/api/odds", text="4dF").status_code == 200:
            return
        time.sleep(0.5)
    raise AssertionError("the server's measuring process never answered")


def every_other_route_refuses_cleanly(room: Room) -> None:
    """Every path the API document lists, asked with an empty body: the
    routes that read the database refuse as a member's request is refused
    (503, or 422 for the body), the others answer; none fails with a 500."""
    document = room.table.client.get("/api/openapi.json").json()  # the app's own: no database
    values = {"room": room.id, "member": room.ann, "seq": "1", "action": "raise", "system": "fate"}
    for path, operations in document["paths"].items():
        filled = re.sub(r"\{(\w+)\}", lambda found: values[found[1]], path)
        for method in operations:
            body: dict[str, Any] | None = None if method in ("get", "delete") else {}
            with room.table.client.stream(
                method.upper(), filled, json=body, headers=bearer(room.ann_token)
            ) as answer:
                answer.read()
            if path in NO_DATABASE:
                assert answer.status_code in (200, 422), (method, path, answer.text)
            elif path.startswith("/api/rooms"):
                assert answer.status_code in (503, 422), (method, path, answer.text)
            assert answer.status_code != 500, (method, path, answer.text)
            if path.startswith("/api/"):
                assert answer.headers["content-type"].startswith("application/json"), path


def test_a_feed_that_loses_the_database_ends_with_why(
    own_postgres: Any, served_here: Callable[..., Any]
) -> None:
    """A feed that must read the database (to catch up after its listener
    reconnected) while it is out of reach says so in a closed event and ends."""
    db = connect(own_postgres.create_database("feed"))
    try:
        with served_here(db) as table:
            made = table.room("Feed")
            with table.live(made["room"], made["gm_token"]) as events:
                assert table.until(events, "ready")["last_seq"] == 0
                with stopped(own_postgres):
                    hub = table.app.state.hub
                    hub.loop.call_soon_threadsafe(hub.publish_all, Event("resync"))
                    closed = table.until(events, "closed")
                    assert closed == {"reason": "database", "error": UNREACHABLE}
                    assert list(events) == []  # and the feed ended there
    finally:
        db.dispose()


class Heard(logging.Handler):
    """The records a logger let through its filters."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_an_export_cut_off_by_an_outage_ends_short_without_a_traceback(
    own_postgres: Any, served_here: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL stopped once the log's first page is written: the answer
    ends before its last bytes (the client knows it is cut short), and the
    server logs no traceback for it."""
    db = connect(own_postgres.create_database("export"))
    read_pages = exports.pages
    down: list[bool] = []

    def pages(*args: Any, **kwargs: Any) -> Iterator[list[Any]]:
        for page in read_pages(*args, **kwargs):
            yield page
            if not down:
                own_postgres.stop()
                down.append(True)

    monkeypatch.setattr(exports, "PAGE", 1)
    monkeypatch.setattr(exports, "pages", pages)
    listener = Heard()
    heard = listener.records
    try:
        with served_here(db) as table:
            logging.getLogger("uvicorn.error").addHandler(listener)
            made = table.room("Export")
            for _ in range(2):
                assert table.roll(made["room"], made["gm_token"], "4dF").status_code == 201
            with pytest.raises(httpx.RemoteProtocolError):  # an unfinished chunked body
                table.get(f"/api/rooms/{made['room']}/log", made["gm_token"])
    finally:
        logging.getLogger("uvicorn.error").removeHandler(listener)
        if down:
            own_postgres.start()
        db.dispose()
    assert down and not [record for record in heard if record.exc_info], heard


def test_a_wrong_statement_is_still_the_servers_failure(tmp_path: Path) -> None:
    """SQLite's "no such table" is an OperationalError as a locked file's is:
    the first is the server's own fault, a 500, never the outage's 503."""
    db = connect(str(tmp_path / "t.sqlite3"))
    app = create_app(db)

    def wrong() -> None:
        with db.read() as connection:
            connection.execute(text("SELECT * FROM no_such_table"))

    app.add_api_route("/api/wrong", wrong)
    transport = httpx.ASGITransport(app, raise_app_exceptions=False)

    async def ask() -> httpx.Response:
        async with httpx.AsyncClient(transport=transport, base_url="http://table") as client:
            return await client.get("/api/wrong")

    try:
        answer = asyncio.run(ask())
    finally:
        db.dispose()
    assert answer.status_code == 500
    assert answer.json() == {"error": "the server failed to answer"}


def test_the_drivers_own_errors_are_told_apart(tmp_path: Path) -> None:
    """Errors the drivers really raise: out of reach (a refused connection, a
    file locked past its busy timeout, one that cannot be opened) or not (a
    statement that is wrong)."""
    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect("postgresql://postgres@127.0.0.1:1/none", connect_timeout=2)
    assert unreachable(refused.value)
    path = tmp_path / "locked.sqlite3"
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("BEGIN EXCLUSIVE")
        with (
            contextlib.closing(sqlite3.connect(path, timeout=0)) as waiter,
            pytest.raises(sqlite3.OperationalError) as locked,
        ):
            waiter.execute("SELECT 1 FROM sqlite_master")
    assert unreachable(locked.value)
    with pytest.raises(sqlite3.OperationalError) as unopened:
        sqlite3.connect(tmp_path / "no" / "such" / "folder.sqlite3")
    assert unreachable(unopened.value)
    with (
        contextlib.closing(sqlite3.connect(path)) as reader,
        pytest.raises(sqlite3.OperationalError) as wrong,
    ):
        reader.execute("SELECT * FROM no_such_table")
    assert not unreachable(wrong.value)
