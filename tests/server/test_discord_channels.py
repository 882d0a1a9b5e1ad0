"""A channel's room kept across restarts and each guild's own allowances,
through real server processes on SQLite; the endpoint absent without a
Discord application; serve's Discord options."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fudgedice.cli import main
from fudgedice.server import store
from fudgedice.server.db import connect


def test_a_channels_room_and_members_survive_a_restart(
    discord_start: Any, table_of: Any, tmp_path: Path
) -> None:
    db = str(tmp_path / "table.sqlite3")
    first = discord_start(db)
    room, _, _ = first.seat(channel="7007", system="fate")
    first.command("roll", channel="7007", user="2002", username="bo", text="4dF+1")
    first.server.stop()
    second = discord_start(db)
    again, gm_token, _ = second.seat(channel="7007", system="d6")  # bound: the system stays
    _, bo_token, _ = second.seat(channel="7007", user="2002", username="bo")
    second.command("roll", channel="7007", user="2002", username="bo", text="4dF+2")
    assert again == room
    table = table_of(second.server)
    info = table.get(f"/api/rooms/{room}", gm_token).json()
    rolls = table.rolls(room, bo_token)
    assert info["system"] == "fate" and info["me"]["gm"] and info["me"]["name"] == "Ann"
    assert [each["name"] for each in info["members"]] == ["Ann", "Bo"]  # Bo once, not twice
    assert [(each["notation"], each["name"]) for each in rolls] == [
        ("fate: 4dF+1", "Bo"), ("fate: 4dF+2", "Bo")
    ]  # fmt: skip
    assert rolls[0]["member"] == rolls[1]["member"]


def test_without_a_discord_application_the_endpoint_is_404(
    served_here: Any, tmp_path: Path
) -> None:
    db = connect(str(tmp_path / "table.sqlite3"))
    try:
        with served_here(db) as table:  # create_app without DiscordSettings
            answer = table.client.post("/discord/interactions", json={"type": 1})
    finally:
        db.dispose()
    assert answer.status_code == 404 and answer.json()["error"]


def test_each_guild_has_its_own_allowance(discord_start: Any, tmp_path: Path) -> None:
    limits = ("--address-rate", "0.01", "--address-burst", "3")
    discord = discord_start(str(tmp_path / "table.sqlite3"), *limits)
    answers = [discord.command("roll", channel="8008", guild="1", text="4dF")[1] for _ in range(4)]
    other = discord.command("roll", channel="9009", guild="2", text="4dF")[1]
    assert [discord.ephemeral(each) for each in answers] == [False, False, False, True]
    assert not discord.ephemeral(other)  # another guild's rolls: not refused for the first's


@pytest.mark.parametrize(
    "args",
    [
        ["--discord-public-key", "not hex"],
        ["--discord-public-key", "ab" * 31],
        ["--public-url", "dice.example.org"],
        ["--discord-api", "ftp://discord.test"],
    ],
)
def test_serve_refuses_a_bad_discord_option(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["serve", *args])
    assert result.exit_code == 2 and "Invalid value" in result.output, result.output


def test_a_seat_renewed_in_one_process_is_refused_by_another(
    postgres: Any, served_here: Callable[..., Any]
) -> None:
    # /table gives a Discord user a fresh token and the old one goes: on two
    # processes of one PostgreSQL, the one that did not renew it (and knew the
    # old token from a roll) refuses it too, told by the NOTIFY, not by a
    # cache that would keep rolling with it
    url = postgres.create_database(f"seats_{uuid.uuid4().hex}")
    first, second = connect(url), connect(url)
    try:
        with served_here(first) as here, served_here(second):
            made = here.room("channel")
            ann = here.join(made["room"], "Ann")
            assert here.roll(made["room"], ann["token"], "4dF").status_code == 201
            members = here.app.state.rolls.members
            assert members.get(store.token_hash(ann["token"])) is not None
            fresh, old = store.new_token(second, ann["member"])  # as /table does there
            assert old == store.token_hash(ann["token"])
            deadline = time.monotonic() + 30
            while members.get(old) is not None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert members.get(old) is None
            assert here.roll(made["room"], ann["token"], "4dF").status_code == 401
            assert here.roll(made["room"], fresh, "4dF").status_code == 201
    finally:
        first.dispose()
        second.dispose()
