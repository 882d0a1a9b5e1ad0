"""A channel's room kept across restarts, the endpoint absent without a
Discord application, each guild's own allowances, and serve's Discord
options: through real server processes on SQLite."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from nacl.signing import SigningKey

from fudgedice.cli import main

from .conftest import NO_LIMITS, Server, Table
from .discord_fixtures import (
    APPLICATION,
    SEAT,
    Discord,
    Receiver,
    ephemeral,
    message_text,
    receiving,
)

KEY = SigningKey.generate()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from receiving()


def with_discord(receiver: Receiver, *limits: str) -> tuple[str, ...]:
    return (
        *limits, "--discord-public-key", KEY.verify_key.encode().hex(),
        "--discord-application-id", APPLICATION, "--discord-api", receiver.url,
    )  # fmt: skip


def seat(discord: Discord, **given: str) -> tuple[str, str]:
    _, replied = discord.command("table", **given)
    found = SEAT.search(message_text(replied))
    assert found is not None and ephemeral(replied), replied
    return found.group(1), found.group(2)


def test_a_channels_room_and_members_survive_a_restart(
    start_server: Callable[..., Server], receiver: Receiver, tmp_path: Path
) -> None:
    db = str(tmp_path / "table.sqlite3")
    first = start_server(db, *with_discord(receiver, *NO_LIMITS))
    discord = Discord(first.url, KEY, receiver)
    room, _ = seat(discord, channel="7007", system="fate")
    discord.command("roll", channel="7007", user="2002", username="bo", text="4dF+1")
    discord.close()
    first.stop()
    second = start_server(db, *with_discord(receiver, *NO_LIMITS))
    discord = Discord(second.url, KEY, receiver)
    again, gm_token = seat(discord, channel="7007", system="d6")  # bound: the system stays
    _, bo_token = seat(discord, channel="7007", user="2002", username="bo")
    discord.command("roll", channel="7007", user="2002", username="bo", text="4dF+2")
    discord.close()
    assert again == room
    table = Table(second.url)
    try:
        info = table.get(f"/api/rooms/{room}", gm_token).json()
        rolls = table.rolls(room, bo_token)
    finally:
        table.client.close()
    assert info["system"] == "fate" and info["me"]["gm"] and info["me"]["name"] == "Ann"
    assert [each["name"] for each in info["members"]] == ["Ann", "Bo"]  # Bo once, not twice
    assert [(each["notation"], each["name"]) for each in rolls] == [
        ("fate: 4dF+1", "Bo"), ("fate: 4dF+2", "Bo")
    ]  # fmt: skip
    assert rolls[0]["member"] == rolls[1]["member"]


def test_without_a_discord_application_the_endpoint_is_404(
    start_server: Callable[..., Server], tmp_path: Path
) -> None:
    server = start_server(str(tmp_path / "table.sqlite3"))
    answer = httpx.post(f"{server.url}/discord/interactions", json={"type": 1}, timeout=30)
    assert answer.status_code == 404 and answer.json()["error"]


def test_each_guild_has_its_own_allowance(
    start_server: Callable[..., Server], receiver: Receiver, tmp_path: Path
) -> None:
    limits = ("--address-rate", "0.01", "--address-burst", "3")
    server = start_server(str(tmp_path / "table.sqlite3"), *with_discord(receiver, *limits))
    discord = Discord(server.url, KEY, receiver)
    try:
        answers = [
            discord.command("roll", channel="8008", guild="1", text="4dF")[1] for _ in range(4)
        ]
        other = discord.command("roll", channel="9009", guild="2", text="4dF")[1]
    finally:
        discord.close()
    assert [ephemeral(each) for each in answers] == [False, False, False, True]
    assert not ephemeral(other)  # another guild's rolls: not refused for the first's


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
