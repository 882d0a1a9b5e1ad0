"""A room's webhook through the real server process (``fudgedice serve
--allow-local-webhooks``) on SQLite and PostgreSQL, posting to a receiver the
test starts on 127.0.0.1: the public rolls arrive, in order, each within the
service's limits; a hidden roll (gm, self, blind, secret) never arrives, in
any form, nor does talk; only the GM reads, sets or clears the webhook, and
its URL is never shown back; a bad URL is refused with its ``{"error"}``; a
receiver that hangs or fails delays no roll. No wait here is timed: the
receiver's posts are awaited within a bound, and a roll after the others
(a marker) tells that those before it were all sent (one address's posts go
in order)."""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from fudgedice.chat.discord import problems

UNLIMITED = ("--rate", "1000", "--burst", "1000", "--address-rate", "1000",
             "--address-burst", "1000")  # fmt: skip
WAIT = 30.0
"""Seconds a test waits for posts before it fails."""
HIDDEN_LABEL = "Hiddenmark"
"""The label of every hidden roll: in no post."""


class Receiver:
    """An incoming webhook on 127.0.0.1: each post's path and JSON body, in the
    order they came; answers ``statuses`` in turn, then 204; while ``open``
    is cleared, each post waits for it before it is answered."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, Any]]] = []
        self.statuses: list[int] = []
        self.open = threading.Event()
        self.open.set()
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                receiver.open.wait(WAIT)
                with receiver.lock:
                    status = receiver.statuses.pop(0) if receiver.statuses else 204
                    if status < 300:
                        receiver.posts.append((self.path, body))
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def stop(self) -> None:
        self.open.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(WAIT)

    def until(self, path: str, count: int) -> list[dict[str, Any]]:
        """The first ``count`` bodies posted to ``path``, once they came."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            with self.lock:
                got = [body for at, body in self.posts if at == path]
            if len(got) >= count:
                return got
            time.sleep(0.02)
        raise AssertionError(f"{len(got)} of {count} posts to {path} came within {WAIT} s")


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def table(
    request: pytest.FixtureRequest, start_server: Callable[..., Any], tmp_path: Path
) -> Iterator[httpx.Client]:
    """A client of ``fudgedice serve --allow-local-webhooks`` on each database."""
    if request.param == "sqlite":
        db = str(tmp_path / "table.sqlite3")
    else:
        db = request.getfixturevalue("postgres").create_database(
            f"hooks_{os.getpid()}_{secrets.token_hex(6)}"
        )
    server = start_server(db, *UNLIMITED, "--allow-local-webhooks")
    with httpx.Client(base_url=server.url, timeout=WAIT) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def room(client: httpx.Client, system: str = "fudge") -> tuple[str, str, str]:
    """A room with Annabel: its id, the GM's token, Annabel's."""
    made = client.post("/api/rooms", json={"name": "Hooks", "system": system}).json()
    joined = client.post(f"/api/rooms/{made['room']}/members", json={"name": "Annabel"}).json()
    return made["room"], made["gm_token"], joined["token"]


def hook(client: httpx.Client, room_id: str, token: str, **body: Any) -> httpx.Response:
    return client.put(f"/api/rooms/{room_id}/webhook", json=body, headers=bearer(token))


def roll(client: httpx.Client, room_id: str, token: str, text: str, **extra: Any) -> dict[str, Any]:
    made = client.post(
        f"/api/rooms/{room_id}/rolls", json={"text": text, **extra}, headers=bearer(token)
    )
    assert made.status_code == 201, made.text
    rolled: dict[str, Any] = made.json()
    return rolled


def holds(body: dict[str, Any], number: int) -> bool:
    """Whether ``body`` shows ``number`` (not as a part of a longer one)."""
    return re.search(rf"(?<![\d.]){number}(?![\d.])", json.dumps(body)) is not None


def test_public_rolls_arrive_in_order_and_hidden_ones_never(
    table: httpx.Client, receiver: Receiver
) -> None:
    room_id, gm, ann = room(table)
    set_ = hook(table, room_id, gm, url=receiver.url("/discord"), kind="discord")
    assert set_.status_code == 200, set_.text
    public = [roll(table, room_id, ann, "4dF+100000", label="Stealthcheck")]
    for who, visibility in ((ann, "gm"), (ann, "self"), (ann, "blind"), (gm, "secret")):
        roll(table, room_id, who, "4dF+500000", visibility=visibility, label=HIDDEN_LABEL)
    said = table.post(f"/api/rooms/{room_id}/talk", json={"text": "Talkword here"},
                      headers=bearer(ann))  # fmt: skip
    assert said.status_code == 201, said.text
    public += [roll(table, room_id, gm, "4dF+200000"), roll(table, room_id, ann, "4dF+300000")]
    # one address's posts go in order: a hidden roll or the talk posted would be before the last
    bodies = receiver.until("/discord", 3)
    assert len(bodies) == 3
    for body, rolled in zip(bodies, public, strict=True):
        shown = json.dumps(body, ensure_ascii=False)
        assert str(rolled["total"]) in shown and rolled["name"] in shown
        assert problems(body) == [], problems(body)
        assert HIDDEN_LABEL not in shown and "Talkword" not in shown
        assert not any(f"{total}" in shown for total in range(499_996, 500_005))
    assert "Stealthcheck" in json.dumps(bodies[0])


def test_a_slack_webhook_takes_a_slack_body(table: httpx.Client, receiver: Receiver) -> None:
    room_id, gm, ann = room(table, "fate")
    assert hook(table, room_id, gm, url=receiver.url("/slack"), kind="slack").status_code == 200
    rolled = roll(table, room_id, ann, "4dF+100000")
    body = receiver.until("/slack", 1)[0]
    assert isinstance(body["text"], str) and 0 < len(body["text"]) <= 40_000
    assert len(body.get("blocks", [])) <= 50
    for block in body.get("blocks", []):
        assert len(json.dumps(block.get("text", {}).get("text", ""))) <= 3_000 + 2
    shown = json.dumps(body, ensure_ascii=False)
    assert str(rolled["total"]) in shown and "Annabel" in shown


def test_a_receiver_that_hangs_or_fails_delays_no_roll(
    table: httpx.Client, receiver: Receiver
) -> None:
    room_id, gm, ann = room(table)
    assert hook(table, room_id, gm, url=receiver.url("/slow"), kind="discord").status_code == 200
    receiver.open.clear()  # the receiver holds the first post and answers nothing
    totals = [roll(table, room_id, ann, f"4dF+{100_000 * n}")["total"] for n in range(1, 6)]
    assert receiver.posts == []  # every roll answered while the receiver hangs
    receiver.statuses = [500, 503]  # then it fails twice before it takes them
    receiver.open.set()
    # each roll, in the order made (told by its total, which no other post holds);
    # a post the outbox timed out on and sent again may come twice, never out of order
    deadline = time.monotonic() + WAIT
    while True:
        bodies = receiver.until("/slow", 5)
        places = [[n for n, total in enumerate(totals) if holds(body, total)] for body in bodies]
        assert all(len(found) == 1 for found in places), places
        if len({found[0] for found in places}) == 5 or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert list(dict.fromkeys(found[0] for found in places)) == list(range(5))


def test_only_the_gm_sees_sets_or_clears_it_and_never_its_url(
    table: httpx.Client, receiver: Receiver
) -> None:
    room_id, gm, ann = room(table)
    path = f"/api/rooms/{room_id}/webhook"
    url = receiver.url("/secret-path-token")
    for method in ("GET", "PUT", "DELETE"):
        body = {"url": url, "kind": "discord"} if method == "PUT" else None
        refused = table.request(method, path, json=body, headers=bearer(ann))
        assert refused.status_code == 403 and "GM" in refused.json()["error"]
        assert table.request(method, path, json=body).status_code == 401
    assert table.get(path, headers=bearer(gm)).json() == {"set": False, "kind": None, "host": None}
    set_ = hook(table, room_id, gm, url=url, kind="discord")
    assert set_.json() == {"set": True, "kind": "discord", "host": "127.0.0.1"}
    shown = table.get(path, headers=bearer(gm))
    assert shown.json() == set_.json() and "secret-path-token" not in shown.text
    roll(table, room_id, ann, "4dF")
    # another webhook (its query apart, so that the outbox posts to both in
    # turn, in order): the next rolls go there alone, none while none is set
    assert hook(table, room_id, gm, url=url + "?two", kind="slack").status_code == 200
    roll(table, room_id, ann, "4dF")
    cleared = table.delete(path, headers=bearer(gm))
    assert cleared.status_code == 200 and cleared.json()["set"] is False
    roll(table, room_id, ann, "4dF")
    assert hook(table, room_id, gm, url=url + "?three", kind="slack").status_code == 200
    roll(table, room_id, ann, "4dF")
    receiver.until("/secret-path-token?three", 1)
    with receiver.lock:
        paths = [at for at, _ in receiver.posts]
    assert paths == ["/secret-path-token", "/secret-path-token?two", "/secret-path-token?three"]


def test_bad_urls_are_refused_with_their_error(
    start_server: Callable[..., Any], tmp_path: Path
) -> None:
    """On a server without --allow-local-webhooks: private hosts and http too."""
    server = start_server(str(tmp_path / "strict.sqlite3"), *UNLIMITED)
    with httpx.Client(base_url=server.url, timeout=WAIT) as client:
        room_id, gm, _ = room(client)
        cases = {
            "http://discord.com/api/webhooks/1/x": 422,
            "https://127.0.0.1/api/webhooks/1/x": 422,
            "https://10.0.0.1/hook": 422,
            "https://localhost/api/webhooks/1/x": 422,
            "https://user:pw@hooks.slack.com/services/x": 422,
            "https://discord.com/api/webhooks/" + "x" * 2000: 413,
            "not a url": 422,
            "https://discord.com/api/webhooks/1/\u202ex": 422,
        }
        for url, status in cases.items():
            answer = hook(client, room_id, gm, url=url)
            assert answer.status_code == status, (url, answer.text)
            assert isinstance(answer.json()["error"], str) and answer.json()["error"]
        assert hook(client, room_id, gm, url="https://x.example", kind="teams").status_code == 422
        shown = client.get(f"/api/rooms/{room_id}/webhook", headers=bearer(gm)).json()
        assert shown["set"] is False
