"""Each router of the table served alone: a bare FastAPI app that includes
only that router (``app.include_router``, as any FastAPI app would), the
refusals' handlers and what its routes ask of ``app.state``, nothing of
``create_app``. A route of another router is not there (404): a router needs
no other to be imported, served or tested."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

import fudgedice
from fudgedice.server import store
from fudgedice.server.app import create_app
from fudgedice.server.db import Database, connect
from fudgedice.server.guards import ASGIApp, RateLimit, Receive, Scope, Send
from fudgedice.server.live import Hub
from fudgedice.server.making import Rolls
from fudgedice.server.odds import OddsGate
from fudgedice.server.routers import (
    favourites,
    live,
    log,
    members,
    odds,
    page,
    rolls,
    rooms,
    sheets,
    systems,
    webhooks,
)
from fudgedice.server.sheet_pages import SheetPages
from fudgedice.server.stack import add_error_handlers
from fudgedice.server.writer import Writer

WAIT = 30.0
"""Seconds a request may take before the test fails."""


def alone(module: ModuleType, **state: Any) -> FastAPI:
    """A bare app serving ``module.router`` only, with ``state`` in ``app.state``."""
    app = FastAPI(lifespan=state.pop("lifespan", None))
    app.include_router(module.router)
    add_error_handlers(app)
    for name, value in state.items():
        setattr(app.state, name, value)
    return app


def database(tmp_path: Path) -> Database:
    return connect(f"sqlite:///{tmp_path / 't.sqlite3'}")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def allowance() -> RateLimit:
    return RateLimit(1000, 1000, "requests from your address")


Served = Callable[[FastAPI], contextlib.AbstractContextManager[httpx.Client]]


@pytest.fixture
def client_of(serving: Callable[[FastAPI], contextlib.AbstractContextManager[str]]) -> Served:
    """``client_of(app)``: a client of ``app``, served on a free port of 127.0.0.1."""

    @contextlib.contextmanager
    def client(app: FastAPI) -> Iterator[httpx.Client]:
        with serving(app) as url, httpx.Client(base_url=url, timeout=WAIT) as made:
            yield made

    return client


def test_the_rooms_router_alone(tmp_path: Path, client_of: Served) -> None:
    db = database(tmp_path)
    app = alone(rooms, db=db, hub=Hub(), addresses=allowance())
    with client_of(app) as client:
        made = client.post("/api/rooms", json={"name": "alone", "system": "fate"})
        assert made.status_code == 201, made.text
        room, token = made.json()["room"], made.json()["gm_token"]
        info = client.get(f"/api/rooms/{room}", headers=bearer(token)).json()
        assert (info["name"], info["system"], info["last_seq"]) == ("alone", "fate", 0)
        assert client.get(f"/api/rooms/{room}").status_code == 401  # refused as JSON
        assert client.get(f"/api/rooms/{room}").json()["error"]
        assert client.post(f"/api/rooms/{room}/members", json={"name": "A"}).status_code == 404


def test_the_members_router_alone(tmp_path: Path, client_of: Served) -> None:
    db = database(tmp_path)
    room, _, _ = store.create_room(db, "alone", "fudge", "GM")
    app = alone(members, db=db, hub=Hub(), addresses=allowance())
    with client_of(app) as client:
        joined = client.post(f"/api/rooms/{room.id}/members", json={"name": "Ann"})
        assert joined.status_code == 201, joined.text
        assert joined.json()["name"] == "Ann" and joined.json()["gm"] is False
        assert [m.name for m in store.room_members(db, room.id)] == ["GM", "Ann"]
        assert client.post("/api/rooms", json={"name": "other"}).status_code == 404


def rolls_state(db: Database) -> dict[str, Any]:
    """What the rolls router asks for: the process's rolls and their writer,
    started and stopped with the app."""
    writer = Writer(db, lambda _: None)
    made = Rolls(db, writer, RateLimit(1000, 1000), allowance())

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        writer.start()
        yield
        await writer.stop()

    return {"db": db, "rolls": made, "lifespan": lifespan}


def test_the_rolls_router_alone(tmp_path: Path, client_of: Served) -> None:
    db = database(tmp_path)
    room, _, token = store.create_room(db, "alone", "fudge", "GM")
    app = alone(rolls, **rolls_state(db))
    with client_of(app) as client:
        made = client.post(
            f"/api/rooms/{room.id}/rolls", json={"text": "4dF+1"}, headers=bearer(token)
        )
        assert made.status_code == 201, made.text
        assert made.json()["seq"] == 1 and made.json()["text"].startswith("4dF+1 = ")
        listed = client.get(f"/api/rooms/{room.id}/rolls", headers=bearer(token)).json()
        assert listed["rolls"] == [made.json()] and listed["last_seq"] == 1
        # refused by the app's handlers, as under create_app
        bad = client.post(f"/api/rooms/{room.id}/rolls", json={"txt": "4dF"}, headers=bearer(token))
        assert bad.status_code == 422 and bad.json()["error"].startswith("text")
        assert client.post(f"/api/rooms/{room.id}/rolls", json={"text": "4dF"}).status_code == 401
        assert client.get(f"/api/rooms/{room.id}/log", headers=bearer(token)).status_code == 404


def test_the_live_router_alone(tmp_path: Path, client_of: Served) -> None:
    db = database(tmp_path)
    room, _, token = store.create_room(db, "alone", "fudge", "GM")
    hub = Hub()

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        yield

    app = alone(live, db=db, hub=hub, lifespan=lifespan)
    with client_of(app) as client:
        assert client.get("/api/health").json() == {
            "ok": True, "database": "sqlite", "watching": 0,
        }  # fmt: skip
        with client.stream("GET", f"/api/rooms/{room.id}/live", headers=bearer(token)) as feed:
            assert feed.status_code == 200
            assert feed.headers["content-type"].startswith("text/event-stream")
            lines = feed.iter_lines()
            assert (next(lines), next(lines)) == ("event: ready", 'data: {"last_seq":0}')
        assert client.get(f"/api/rooms/{room.id}/rolls", headers=bearer(token)).status_code == 404


def test_the_sheets_router_alone(tmp_path: Path, client_of: Served) -> None:
    db = database(tmp_path)
    room, gm, token = store.create_room(db, "alone", "fate", "GM")
    pages = SheetPages(OddsGate(allowance()))
    state = {"db": db, "hub": Hub(), "sheet_pages": pages, **rolls_state(db)}
    app = alone(sheets, **state)
    with client_of(app) as client:
        listed = client.get(f"/api/rooms/{room.id}/sheets", headers=bearer(token))
        assert listed.status_code == 200 and listed.json() == {"sheets": []}
        none = client.get(f"/api/rooms/{room.id}/members/{gm.id}/sheet", headers=bearer(token))
        assert none.status_code == 404 and "no sheet" in none.json()["error"]
        trait = client.post(
            f"/api/rooms/{room.id}/members/{gm.id}/sheet/roll",
            json={"request": "Fight"},
            headers=bearer(token),
        )
        assert trait.status_code == 422 and "attach a sheet" in trait.json()["error"]
        assert client.get("/api/odds", params={"text": "4dF"}).status_code == 404


def test_the_favourites_router_alone(tmp_path: Path, client_of: Served) -> None:
    db = database(tmp_path)
    room, _, token = store.create_room(db, "alone", "fate", "GM")
    with client_of(alone(favourites, **rolls_state(db))) as client:
        path = f"/api/rooms/{room.id}/favourites"
        put = client.put(path, json={"favourites": [{"text": "Good"}]}, headers=bearer(token))
        assert put.status_code == 200, put.text
        assert client.get(path, headers=bearer(token)).json()["favourites"] == [{"text": "Good"}]
        assert client.get(f"/api/rooms/{room.id}/sheets", headers=bearer(token)).status_code == 404


def test_the_webhooks_router_alone(tmp_path: Path, client_of: Served) -> None:
    db = database(tmp_path)
    room, _, token = store.create_room(db, "alone", "fate", "GM")
    # no mirror in this app's state: the webhook is kept all the same
    with client_of(alone(webhooks, db=db, allow_local_webhooks=True)) as client:
        path = f"/api/rooms/{room.id}/webhook"
        put = client.put(path, json={"url": "http://127.0.0.1:9/x", "kind": "slack"},
                         headers=bearer(token))  # fmt: skip
        assert put.status_code == 200, put.text
        assert client.get(path, headers=bearer(token)).json()["kind"] == "slack"
        assert client.delete(path, headers=bearer(token)).json()["set"] is False
        assert client.get(f"/api/rooms/{room.id}", headers=bearer(token)).status_code == 404


def test_the_log_router_alone(tmp_path: Path, client_of: Served) -> None:
    db = database(tmp_path)
    room, _, token = store.create_room(db, "alone", "fudge", "GM")
    with client_of(alone(log, db=db)) as client:
        document = client.get(f"/api/rooms/{room.id}/log", headers=bearer(token))
        assert document.status_code == 200 and document.json()["entries"] == []
        exported = client.get(
            f"/api/rooms/{room.id}/export", params={"format": "csv"}, headers=bearer(token)
        )
        assert exported.status_code == 200
        assert exported.headers["content-type"].startswith("text/csv")
        assert client.get(f"/api/rooms/{room.id}", headers=bearer(token)).status_code == 404


def test_the_odds_router_alone(client_of: Served) -> None:
    gate = OddsGate(allowance())  # measured on a worker thread: no process of its own
    with client_of(alone(odds, gate=gate)) as client:
        measured = client.get("/api/odds", params={"text": "4dF"})
        assert measured.status_code == 200, measured.text
        refused = client.get("/api/odds", params={"text": "4dF+"})
        assert refused.status_code == 400 and refused.json()["position"] == 4
        assert client.get("/").status_code == 404


def test_the_page_router_alone(client_of: Served) -> None:
    with client_of(alone(page)) as client:
        shown = client.get("/r/some-room")
        assert shown.status_code == 200 and "<html" in shown.text.lower()
        assert "script-src 'self'" in shown.headers["content-security-policy"]
        assert client.get("/api/health").status_code == 404


def test_the_systems_router_alone(client_of: Served) -> None:
    with client_of(alone(systems)) as client:
        listed = client.get("/api/systems")
        assert listed.status_code == 200, listed.text
        names = [each["name"] for each in listed.json()["systems"]]
        assert names == list(fudgedice.SYSTEMS) and listed.json()["default"] == "fudge"
        template = client.get("/api/systems/fate/sheet-template", params={"name": "Cynere"})
        assert template.status_code == 200 and 'system = "fate"' in template.json()["text"]
        assert client.get("/api/odds", params={"text": "4dF"}).status_code == 404


def test_middleware_added_to_the_app_reaches_the_roll_route(
    tmp_path: Path, client_of: Served
) -> None:
    """The roll route is a route like any other: what the app wraps every
    request in wraps it too (it once was answered before the middleware)."""
    db = database(tmp_path)
    room, _, token = store.create_room(db, "alone", "fudge", "GM")
    app = create_app(db)
    seen: list[tuple[str, str]] = []

    class Seen:
        def __init__(self, app: ASGIApp) -> None:
            self.app = app

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "http":
                seen.append((scope["method"], scope["path"]))
            await self.app(scope, receive, send)

    app.add_middleware(Seen)
    with client_of(app) as client:
        path = f"/api/rooms/{room.id}/rolls"
        assert client.post(path, json={"text": "4dF"}, headers=bearer(token)).status_code == 201
    assert ("POST", path) in seen
