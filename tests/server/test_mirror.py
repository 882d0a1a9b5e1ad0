"""The mirror of public rolls (server/mirror.py), in the test's own process,
the outbox's network a stand-in (httpx's MockTransport): a room bound to a
Discord channel, with a bot token set, gets the rolls made at the page
posted to the channel as the bot, and not those asked by a slash command
(their answer is in the channel already); what a room posts to is read once,
not at each roll, and read again once it is stale; a post that cannot be
made loses no roll."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import insert

from fudgedice.server import mirror as mirror_module
from fudgedice.server import webhooks
from fudgedice.server.db import Database, connect
from fudgedice.server.discord.settings import DiscordSettings
from fudgedice.server.kept import Member, RollRequest
from fudgedice.server.outbox import Outbox
from fudgedice.server.schema import discord_channels

API = "https://discord.test/api/v10"
HOOK = "https://hooks.slack.com/services/T0/B0/secret"
WAIT = 30.0


class Posts:
    """What the outbox sent, as (url, headers, JSON body)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, httpx.Headers, dict[str, Any]]] = []

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.sent.append((str(request.url), request.headers, json.loads(request.content)))
        return httpx.Response(200, json={})

    def until(self, count: int) -> list[tuple[str, httpx.Headers, dict[str, Any]]]:
        deadline = time.monotonic() + WAIT
        while len(self.sent) < count:
            assert time.monotonic() < deadline, f"{len(self.sent)} of {count} posts came"
            time.sleep(0.01)
        return list(self.sent)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    found = connect(str(tmp_path / "mirror.sqlite3"))
    try:
        yield found
    finally:
        found.dispose()


@pytest.fixture
def here(db: Database, served_here: Callable[..., Any]) -> Iterator[tuple[Any, Posts]]:
    posts = Posts()
    outbox = Outbox(transport=httpx.MockTransport(posts.handle))
    with served_here(db, outbox=outbox, allow_local_webhooks=True) as table:
        table.app.state.discord = DiscordSettings(
            b"\0" * 32, "42", bot_token="BOT-TOKEN", public_url="https://table.example", api=API
        )
        yield table, posts


def bind(db: Database, room: str, channel: str) -> None:
    with db.write() as connection:
        connection.execute(
            insert(discord_channels).values(
                channel_id=channel, guild_id="1", room_id=room, gm_user_id="7", created_at="now"
            )
        )


def by_slash_command(table: Any, room: str, member: dict[str, Any], text: str) -> None:
    """A roll as the interactions endpoint asks it of the writer: ``via="discord"``."""
    who = Member(member["member"], room, member["name"], False)
    request = RollRequest(room, who, text, "fudge", "public", None, "", None, via="discord")
    state = table.app.state
    asyncio.run_coroutine_threadsafe(state.writer.roll(request), state.hub.loop).result(WAIT)


def test_page_rolls_go_to_the_bound_channel_and_slash_command_rolls_do_not(
    here: tuple[Any, Posts], db: Database
) -> None:
    table, posts = here
    room = table.room("Bound")
    ann = table.join(room["room"], "Annabel")
    bind(db, room["room"], "9001")
    first = table.roll(room["room"], ann["token"], "4dF+100000")
    by_slash_command(table, room["room"], ann, "4dF+200000")
    assert table.roll(room["room"], ann["token"], "4dF", visibility="gm").status_code == 201
    last = table.roll(room["room"], ann["token"], "4dF+300000")
    sent = posts.until(2)
    assert [url for url, _, _ in sent] == [f"{API}/channels/9001/messages"] * 2
    assert all(headers["authorization"] == "Bot BOT-TOKEN" for _, headers, _ in sent)
    shown = [json.dumps(body) for _, _, body in sent]
    assert str(first.json()["total"]) in shown[0] and str(last.json()["total"]) in shown[1]
    assert "Annabel" in shown[0] and not any(str(199_996 + n) in shown[1] for n in range(9))
    assert f"https://table.example/r/{room['room']}" in shown[0]  # the room's page linked


def test_a_room_s_targets_are_read_once_then_again_when_stale(
    here: tuple[Any, Posts], db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, posts = here
    reads: list[str] = []
    real = mirror_module.read_targets

    def counted(db: Database, room: str) -> Any:
        reads.append(room)
        return real(db, room)

    monkeypatch.setattr(mirror_module, "read_targets", counted)
    mirror = table.app.state.mirror
    mirror.ttl = 3600.0
    room = table.room("Cached")
    token = room["gm_token"]
    put = table.client.put(f"/api/rooms/{room['room']}/webhook", json={"url": HOOK},
                           headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert put.status_code == 200, put.text
    reads.clear()  # the route's own reads, before and after its change
    for _ in range(10):
        assert table.roll(room["room"], token, "4dF").status_code == 201
    assert len(posts.until(10)) == 10
    assert reads == []  # the change told the mirror: no read at any roll
    # another process sets another webhook: followed once what is kept is stale
    webhooks.store(db, room["room"], webhooks.Webhook(HOOK + "-new", "slack"))
    mirror.ttl = 0.0
    mirror._known.clear()
    assert table.roll(room["room"], token, "4dF").status_code == 201
    assert posts.until(11)[-1][0] == HOOK + "-new"
    assert reads == [room["room"]]


def test_a_message_that_cannot_be_made_loses_no_roll(
    here: tuple[Any, Posts], monkeypatch: pytest.MonkeyPatch
) -> None:
    table, posts = here

    def broken(*_: Any, **__: Any) -> dict[str, Any]:
        raise RuntimeError("a formatter's bug")

    monkeypatch.setattr(mirror_module, "roll_message", broken)
    room = table.room("Broken")
    token = room["gm_token"]
    put = table.client.put(f"/api/rooms/{room['room']}/webhook", json={"url": HOOK},
                           headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert put.status_code == 200
    with table.live(room["room"], token) as events:
        table.until(events, "ready")
        assert table.roll(room["room"], token, "4dF").status_code == 201
        assert table.until(events, "roll")["seq"] == 1  # the live feed has it all the same
    monkeypatch.undo()
    assert table.roll(room["room"], token, "4dF").status_code == 201
    assert len(posts.until(1)) == 1
