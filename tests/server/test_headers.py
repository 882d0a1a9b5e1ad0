"""The security headers (guards.SECURITY_HEADERS) on every answer the table
gives: every route of its OpenAPI document, the page, its static files, a
404, refusals, the roll route, the live feed,
and a failure's 500."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import httpx

from fudgedice.server.app import create_app
from fudgedice.server.db import connect

WANTED = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}
SHEET = 'system = "fate"\nname = "Bob"\nfate_points = 3\n[skills]\nFight = "Average"\n'


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def secured(answer: httpx.Response, what: str) -> None:
    for name, value in WANTED.items():
        assert answer.headers.get_list(name) == [value], (what, answer.status_code, name)


def test_every_answer_carries_the_security_headers(
    start_server: Callable[..., Any], table_of: Callable[..., Any], tmp_path: Path
) -> None:
    table = table_of(start_server(str(tmp_path / "t.sqlite3")))
    created = table.room("headers", system="fate")
    room, token, gm = created["room"], created["gm_token"], created["member"]
    assert table.roll(room, token, "4dF").status_code == 201
    sheet = {"text": SHEET}
    put = table.client.put(
        f"/api/rooms/{room}/members/{gm}/sheet", json=sheet, headers=bearer(token)
    )
    assert put.status_code == 200, put.text
    document = table.client.get("/api/openapi.json")
    secured(document, "the OpenAPI document")
    values = {"room": room, "member": gm, "seq": "1", "action": "raise", "system": "fate"}
    walked = 0
    for path, operations in document.json()["paths"].items():
        filled = re.sub(r"\{(\w+)\}", lambda found: values[found[1]], path)
        for method in operations:
            for headers in (bearer(token), {}):  # as a member, and refused as nobody
                body: dict[str, Any] | None = None if method in ("get", "delete") else {}
                params = {"text": "4dF"} if path == "/api/odds" else {"after": "0"}
                with table.client.stream(
                    method.upper(), filled, json=body, headers=headers, params=params
                ) as answer:
                    secured(answer, f"{method} {path}")  # a live feed: as soon as it opens
                walked += 1
    assert walked >= 2 * 15  # the document lists the table's routes, not a few of them
    static = files("fudgedice.server").joinpath("static")
    pages = ["/", f"/r/{room}", *(f"/static/{each.name}" for each in static.iterdir())]
    for path in pages:
        answer = table.client.get(path)
        assert answer.status_code == 200, path
        secured(answer, path)
    others = {
        "a 404": table.client.get("/no/such/page"),
        "a missing static file": table.client.get("/static/nothing.js"),
        "a 405": table.client.delete("/api/rooms"),
        "a 413": table.client.post("/api/rooms", content=b"x" * 70_000),
        "a 422": table.client.post("/api/rooms", json={"name": ""}),
        "a roll refused": table.roll(room, token, "4dF+"),
        "a roll without a token": table.client.post(f"/api/rooms/{room}/rolls", json={}),
        "a roll made": table.roll(room, token, "4dF"),
    }
    for what, answer in others.items():
        secured(answer, what)


def test_a_failure_is_answered_with_them_too(tmp_path: Path) -> None:
    """A route that fails and the roll route failing (the guard's own 500,
    JSON, in the middleware every route passes) both carry them."""
    app = create_app(connect(f"sqlite:///{tmp_path / 't.sqlite3'}"))

    def broken() -> None:
        raise RuntimeError("broken")

    class BrokenRolls:
        async def make(self, *_: Any) -> None:
            raise RuntimeError("broken")

    app.add_api_route("/api/broken", broken)
    app.state.rolls = BrokenRolls()

    async def ask() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://table") as client:
            return [
                await client.get("/api/broken"),
                await client.post("/api/rooms/x/rolls", json={"text": "4dF"}),
            ]

    route, roll = asyncio.run(ask())
    assert route.status_code == 500 and roll.status_code == 500
    secured(route, "a failing route")
    secured(roll, "the roll route failing")
    assert roll.json() == {"error": "the server failed to answer"}
