"""``fudgedice serve --access-log``: a JSON line a request, from a real server
process, and never a token in it (neither the Authorization header's nor a
``token=`` of the query), nor a body."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from fudgedice.server.access import query

WAIT = 30.0
"""Seconds a test waits for a line to be written before it fails."""


def lines(output: str) -> list[dict[str, Any]]:
    """The access log's lines among what the server printed."""
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def logged(server: Any, path: str) -> dict[str, Any]:
    """The line of the request to ``path`` (its query included), once written."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = [line for line in lines(server.output()) if line["path"] == path]
        if found:
            return found[-1]
        time.sleep(0.05)
    raise AssertionError(f"no line for {path} in:\n{server.output()}")


def test_the_access_log_writes_each_request_and_no_token(
    tmp_path: Path, start_server: Callable[..., Any], table_of: Callable[[Any], Any]
) -> None:
    server = start_server(str(tmp_path / "t.sqlite3"), "--access-log")
    table = table_of(server)
    created = table.room("Logged")
    room, gm = created["room"], created["gm_token"]
    ann = table.join(room, "Ann")["token"]
    assert table.roll(room, ann, "4dF+1", label="secret plans").status_code == 201
    wrong = "not-a-token-" + "x" * 40
    assert table.roll(room, wrong, "4dF").status_code == 401
    listed = table.client.get(f"/api/rooms/{room}/rolls", params={"token": gm, "after": 0})
    assert listed.status_code == 401  # the query's token is no way in
    with table.client.stream(
        "GET",
        f"/api/rooms/{room}/live?after=0&TOKEN={ann}",
        headers={"Authorization": f"Bearer {gm}"},
    ) as feed:
        assert feed.status_code == 200
        next(feed.iter_lines())
    table.client.close()  # the feed's line is written once the feed ends

    rolled = logged(server, f"/api/rooms/{room}/rolls")
    assert rolled["method"] == "POST" and rolled["client"] == "127.0.0.1"
    assert set(rolled) == {"time", "method", "path", "status", "ms", "client"}
    assert rolled["time"].endswith("Z") and rolled["ms"] >= 0
    assert logged(server, f"/api/rooms/{room}/rolls?after=0")["status"] == 401
    assert logged(server, f"/api/rooms/{room}/live?after=0")["status"] == 200
    assert logged(server, "/api/rooms")["status"] == 201
    rolls = [line for line in lines(server.output()) if line["path"] == rolled["path"]]
    assert sorted(line["status"] for line in rolls) == [201, 401]
    output = server.output()
    for secret in (gm, ann, wrong, "secret plans", "4dF+1"):
        assert secret not in output  # no token, no body


def test_the_access_log_is_off_unless_asked_for(
    tmp_path: Path, start_server: Callable[..., Any]
) -> None:
    server = start_server(str(tmp_path / "t.sqlite3"))
    assert httpx.get(f"{server.url}/api/health", timeout=WAIT).status_code == 200
    assert lines(server.output()) == []


def test_a_querys_token_is_left_out_however_it_is_written() -> None:
    assert query(b"") == ""
    assert query(b"token=abc") == ""
    assert query(b"after=3&token=abc") == "?after=3"
    assert query(b"Token=a&tok%65n=b&%20token=c&after=3&before=9") == "?after=3&before=9"
    assert query(b"after=3&token") == "?after=3"
    assert query(b"name=a%20b&x=") == "?name=a+b&x="
