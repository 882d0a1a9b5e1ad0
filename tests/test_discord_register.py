"""``fudgedice discord register``: the slash commands sent to Discord's HTTP
API, here a local stand-in (respx): what is sent, where, with which headers,
and each refusal said in a line with exit code 2, the token never shown."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from click.testing import CliRunner, Result

from fudgedice.chat.commands import COMMANDS, NAMES
from fudgedice.cli import discord as discord_cli
from fudgedice.cli import main

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.Gabcde.secret-part_of-the-token"
APP = "1234567890123456789"
GUILD = "987654321098765432"
API = "https://discord.com/api/v10"
GLOBAL = f"{API}/applications/{APP}/commands"
IN_GUILD = f"{API}/applications/{APP}/guilds/{GUILD}/commands"


def _held(commands: Any = COMMANDS) -> list[dict[str, Any]]:
    """The list as Discord answers it: each command with the IDs it gave."""
    return [
        {**each, "id": str(1000 + index), "application_id": APP, "version": "1"}
        for index, each in enumerate(commands)
    ]


@pytest.fixture
def discord_api() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False) as mocked:
        yield mocked


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The rate limits waited out (none of them really)."""
    waited: list[float] = []
    monkeypatch.setattr(discord_cli, "_pause", waited.append)
    return waited


def _run(*args: str, token: str | None = TOKEN, **env: str) -> Result:
    environment: dict[str, str | None] = {
        "FUDGEDICE_DISCORD_TOKEN": token,
        "FUDGEDICE_DISCORD_APPLICATION_ID": None,
        **env,
    }
    result = CliRunner(env=environment).invoke(main, ["discord", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert TOKEN not in result.output
    return result


def _sent(route: respx.Route) -> Any:
    return json.loads(route.calls.last.request.content)


def test_register_sends_the_commands_globally(discord_api: respx.MockRouter) -> None:
    route = discord_api.put(GLOBAL).mock(return_value=httpx.Response(200, json=_held()))
    result = _run("register", "--application-id", APP)
    assert result.exit_code == 0, result.output
    assert route.call_count == 1
    request = route.calls.last.request
    assert _sent(route) == list(COMMANDS)
    assert request.headers["Authorization"] == f"Bot {TOKEN}"
    assert request.headers["User-Agent"].startswith("DiscordBot (https://")
    assert request.headers["Content-Type"] == "application/json"
    assert "every server" in result.output
    shown = result.output.split(": ", 1)[1].strip().split(", ")
    assert shown == [f"/{each['name']}" for each in COMMANDS]
    assert {name.lstrip("/") for name in shown} == NAMES


def test_register_in_one_guild_reads_the_environment(
    discord_api: respx.MockRouter, tmp_path: Path
) -> None:
    route = discord_api.put(IN_GUILD).mock(return_value=httpx.Response(200, json=_held()))
    token_file = tmp_path / "token"
    token_file.write_text(f"{TOKEN}\n", "utf-8")
    result = _run(
        "register", "--guild", GUILD, "--token-file", str(token_file),
        token=None, FUDGEDICE_DISCORD_APPLICATION_ID=APP,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert route.call_count == 1
    assert route.calls.last.request.headers["Authorization"] == f"Bot {TOKEN}"
    assert _sent(route) == list(COMMANDS)
    assert f"registered {len(COMMANDS)} commands in server {GUILD}: /roll" in result.output


def test_the_api_address_is_an_option(discord_api: respx.MockRouter) -> None:
    route = discord_api.put("http://127.0.0.1:9/api/applications/1/commands").mock(
        return_value=httpx.Response(201, json=_held())
    )
    result = _run("register", "--application-id", "1", "--api", "http://127.0.0.1:9/api/")
    assert result.exit_code == 0, result.output
    assert route.call_count == 1


def test_unregister_sends_an_empty_list(discord_api: respx.MockRouter) -> None:
    route = discord_api.put(IN_GUILD).mock(return_value=httpx.Response(200, json=[]))
    result = _run("unregister", "--application-id", APP, "--guild", GUILD)
    assert result.exit_code == 0, result.output
    assert _sent(route) == []
    assert f"removed the application's commands in server {GUILD}" in result.output


def test_commands_prints_what_register_sends() -> None:
    result = _run("commands")
    assert result.exit_code == 0
    assert json.loads(result.output) == list(COMMANDS)


@pytest.mark.parametrize(
    ("args", "token", "said"),
    [
        (("--application-id", APP), None, "no bot token: set FUDGEDICE_DISCORD_TOKEN"),
        (("--application-id", APP), "  ", "no bot token"),
        (("--application-id", APP), "two words", "the bot token holds spaces"),
        ((), TOKEN, "no application: give --application-id"),
        (("--application-id", APP, "--token-file", "/nowhere/token"), None, "cannot read"),
    ],
)
def test_what_is_missing_is_said_before_any_request(
    discord_api: respx.MockRouter, args: tuple[str, ...], token: str | None, said: str
) -> None:
    route = discord_api.put(GLOBAL).mock(return_value=httpx.Response(200, json=_held()))
    result = _run("register", *args, token=token)
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {said}"), result.output
    assert route.call_count == 0


@pytest.mark.parametrize(
    ("option", "value"),
    [("--application-id", "12ab"), ("--guild", "1/../../users/@me"), ("--api", "discord.com")],
)
def test_an_id_or_address_that_is_none_is_refused(
    discord_api: respx.MockRouter, option: str, value: str
) -> None:
    args = ["register", "--application-id", APP, option, value]
    result = _run(*args)
    assert result.exit_code == 2
    assert f"Invalid value for '{option}'" in result.output
    assert not discord_api.calls


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (401, {"message": "401: Unauthorized", "code": 0}, "refused the bot token (401"),
        (403, {"message": "Missing Access", "code": 50001}, "applications.commands scope"),
        (404, {"message": "Unknown Application", "code": 10002}, "no such application"),
        (500, {"message": "Internal Server Error"}, "Discord answered 500"),
        (502, None, "Discord answered 502: try again later"),
    ],
)
def test_each_refusal_is_said_in_a_line(
    discord_api: respx.MockRouter, status: int, body: Any, said: str
) -> None:
    answer = httpx.Response(status, json=body) if body else httpx.Response(status, text="<html>")
    route = discord_api.put(IN_GUILD).mock(return_value=answer)
    result = _run("register", "--application-id", APP, "--guild", GUILD)
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and said in result.output, result.output
    assert route.call_count == 1


def test_a_refused_list_shows_discords_problems(discord_api: respx.MockRouter) -> None:
    problem = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be 1-32 long."}]}
    body = {
        "code": 50035,
        "message": "Invalid Form Body",
        "errors": {"0": {"options": {"1": {"name": problem}}}, "3": {"description": problem}},
    }
    discord_api.put(GLOBAL).mock(return_value=httpx.Response(400, json=body))
    result = _run("register", "--application-id", APP)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "error: Discord refused the commands (400: Invalid Form Body)",
        "  0.options.1.name: Must be 1-32 long.",
        "  3.description: Must be 1-32 long.",
    ]


def test_a_token_discord_echoes_back_is_not_shown(discord_api: respx.MockRouter) -> None:
    body = {"message": f"bad token {TOKEN}", "code": 50035}
    discord_api.put(GLOBAL).mock(return_value=httpx.Response(400, json=body))
    result = _run("register", "--application-id", APP)  # _run asserts the token is absent
    assert result.exit_code == 2
    assert "bad token [token]" in result.output


def test_a_network_failure_is_said(discord_api: respx.MockRouter) -> None:
    discord_api.put(GLOBAL).mock(side_effect=httpx.ConnectError("refused"))
    result = _run("register", "--application-id", APP)
    assert result.exit_code == 2
    assert result.output == f"error: could not reach Discord at {GLOBAL}: ConnectError\n"


def test_a_short_rate_limit_is_waited_out_once(
    discord_api: respx.MockRouter, waits: list[float]
) -> None:
    limited = httpx.Response(429, json={"message": "rate limited", "retry_after": 1.5})
    route = discord_api.put(GLOBAL).mock(side_effect=[limited, httpx.Response(200, json=_held())])
    result = _run("register", "--application-id", APP)
    assert result.exit_code == 0, result.output
    assert waits == [1.5]
    assert route.call_count == 2
    assert _sent(route) == list(COMMANDS)


def test_a_rate_limit_twice_is_said(discord_api: respx.MockRouter, waits: list[float]) -> None:
    limited = httpx.Response(429, headers={"Retry-After": "3"}, json={"message": "limited"})
    route = discord_api.put(GLOBAL).mock(return_value=limited)
    result = _run("register", "--application-id", APP)
    assert result.exit_code == 2
    assert "limiting this application's requests (429): try again in 3 s" in result.output
    assert (waits, route.call_count) == ([3.0], 2)


def test_a_long_rate_limit_is_not_waited(discord_api: respx.MockRouter, waits: list[float]) -> None:
    limited = httpx.Response(429, json={"message": "limited", "retry_after": 600.0})
    route = discord_api.put(GLOBAL).mock(return_value=limited)
    result = _run("register", "--application-id", APP)
    assert result.exit_code == 2
    assert "try again in 600 s" in result.output
    assert (waits, route.call_count) == ([], 1)


def test_the_help_says_where_the_token_comes_from() -> None:
    result = _run("register", "--help")
    assert result.exit_code == 0
    assert "FUDGEDICE_DISCORD_TOKEN" in result.output
    assert "--guild" in result.output and "--application-id" in result.output
    assert "--token " not in result.output  # never an option a process list would show
    listed = _run("--help").output
    assert all(name in listed for name in ("register", "unregister", "commands"))
