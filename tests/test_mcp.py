"""``fudgedice mcp``: the assistant's tools, called through the Model Context
Protocol SDK's own client, in memory; each answers what the command of its
name prints with ``--json`` (run through click's CliRunner); bad input is the
tool's error with the command line's message, and the server goes on. One test
starts the command as a process and talks to it over standard input and output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import mcp.client.stdio
import pytest
from click.testing import CliRunner
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent

from fudgedice import Session
from fudgedice.cli import main
from fudgedice.cli.answers import MOST_TIMES
from fudgedice.cli.mcp_tools import server
from fudgedice.limits import DEFAULT_LIMITS
from fudgedice.log.storage import create

SRC = Path(__file__).resolve().parents[1] / "src"
TOOLS = {"roll", "odds", "compare", "read", "ladder", "verify"}
WAIT = 120
"""Seconds a conversation may take before the test fails (never a figure tested)."""


def talk(conversation: Callable[[Client], Awaitable[Any]]) -> Any:
    """Run ``conversation`` with a client of a fresh server, in memory."""

    async def run() -> Any:
        with anyio.fail_after(WAIT):
            async with Client(server()) as client:
                return await conversation(client)

    return anyio.run(run)


def call(name: str, arguments: dict[str, Any]) -> CallToolResult:
    return talk(lambda client: client.call_tool(name, arguments))  # type: ignore[no-any-return]


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


def answer(name: str, arguments: dict[str, Any]) -> Any:
    """A tool's JSON, its text and its structured content both read."""
    result = call(name, arguments)
    assert not result.is_error, text_of(result)
    payload = json.loads(text_of(result))
    structured = result.structured_content
    assert structured == (payload if name != "roll" else {"result": payload})
    return payload


def cli_json(*args: str, code: int = 0) -> Any:
    """What the command prints with ``--json``."""
    done = CliRunner().invoke(main, [*args, "--json"])
    assert done.exit_code == code, done.output
    return json.loads(done.stdout)


def cli_error(*args: str) -> str:
    done = CliRunner().invoke(main, list(args))
    assert done.exit_code == 2, done.output
    return done.stderr.rstrip("\n")


def test_the_tools_are_listed_with_their_arguments() -> None:
    listed = talk(lambda client: client.list_tools()).tools
    assert {tool.name for tool in listed} == TOOLS
    arguments = {tool.name: set(tool.input_schema["properties"]) for tool in listed}
    assert arguments == {
        "roll": {"text", "seed", "n"},
        "odds": {"text", "float_odds"},
        "compare": {"texts"},
        "read": {"form", "faces"},
        "ladder": {"system"},
        "verify": {"log", "hashes"},
    }
    for tool in listed:
        assert tool.description and len(tool.description) > 80, tool.name
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        assert tool.annotations is not None and tool.annotations.read_only_hint
    odds = next(tool for tool in listed if tool.name == "odds")
    assert "Good vs Great" in odds.description  # what a game master asks for by name


@pytest.mark.parametrize(
    ("arguments", "command"),
    [
        ({"text": "4dF+1", "seed": 3}, ["roll", "4dF+1", "--seed", "3"]),
        ({"text": "Good vs Great", "seed": "table"}, ["roll", "Good vs Great", "--seed", "table"]),
        ({"text": "d6: 4D+2", "seed": 7, "n": 3}, ["roll", "d6: 4D+2", "--seed", "7", "-n", "3"]),
    ],
)
def test_roll_answers_the_commands_json(arguments: dict[str, Any], command: list[str]) -> None:
    assert answer("roll", arguments) == cli_json(*command)


def test_a_roll_without_a_seed_is_a_fresh_roll() -> None:
    rolled = answer("roll", {"text": "4dF"})
    assert rolled["seed"] is None and len(rolled["dice"]) == 4


def test_odds_answer_the_commands_json() -> None:
    assert answer("odds", {"text": "Good vs Great"}) == cli_json("odds", "Good vs Great")
    assert answer("odds", {"text": "100000dF", "float_odds": True}) == cli_json(
        "odds", "100000dF", "--float"
    )


def test_compare_answers_the_commands_json() -> None:
    texts = ["4dF", "3d6fudge: 0 # 3d6 Fudge"]
    assert answer("compare", {"texts": texts}) == cli_json("compare", *texts)


def test_read_answers_the_commands_json() -> None:
    expected = cli_json("read", "Good vs Great", "+", "0", "0", "-")
    assert answer("read", {"form": "Good vs Great", "faces": "+ 0 0 -"}) == expected
    assert answer("read", {"form": "Good vs Great", "faces": ["+", "0", "0", "-"]}) == expected
    assert answer("read", {"form": "3d6", "faces": [6, 2, 5]}) == cli_json(
        "read", "3d6", "6", "2", "5"
    )


def test_ladder_answers_the_commands_json() -> None:
    assert answer("ladder", {}) == cli_json("ladder")
    assert answer("ladder", {"system": "fate"}) == cli_json("ladder", "fate")


@pytest.fixture
def log(tmp_path: Path) -> tuple[dict[str, Any], Path]:
    """A session's log, revealed, and the file it is written to."""
    session = Session.new(server_seed=bytes(range(32)))
    session.roll("Good vs Great", roller="Ann")
    session.roll("4dF+2", visibility="secret")
    session.reveal()
    document = session.export()
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document), "utf-8")
    return document, path


def test_verify_answers_the_commands_json(log: tuple[dict[str, Any], Path]) -> None:
    document, path = log
    expected = cli_json("verify", str(path))
    assert expected["ok"] and expected["complete"]
    assert answer("verify", {"log": document}) == expected
    assert answer("verify", {"log": path.read_text("utf-8")}) == expected
    shown = f"1:{document['entries'][0]['hash']}"
    assert answer("verify", {"log": document, "hashes": [shown]}) == cli_json(
        "verify", str(path), "--hash", shown
    )


def test_verify_reads_a_session_file_as_the_command_does(tmp_path: Path) -> None:
    session = Session.new(server_seed=bytes(32), room="cli")
    session.roll("fate: Good vs Great", roller="Ann")
    path = tmp_path / "game.json"
    create(path, session)  # not revealed: its roll waits (exit code 3)
    expected = cli_json("verify", str(path), code=3)
    assert expected["pending"] == 1
    assert answer("verify", {"log": path.read_text("utf-8")}) == expected


def test_a_log_that_fails_is_reported_not_refused(
    log: tuple[dict[str, Any], Path], tmp_path: Path
) -> None:
    document, _ = log
    document["entries"][0]["text"] = "Good vs Fair"  # a roll rewritten after the fact
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(document), "utf-8")
    reported = answer("verify", {"log": document})
    assert reported == cli_json("verify", str(path), code=1)
    assert not reported["ok"]


def refused(name: str, arguments: dict[str, Any]) -> str:
    result = call(name, arguments)
    assert result.is_error and result.structured_content is None
    return text_of(result)


@pytest.mark.parametrize(
    ("name", "arguments", "command"),
    [
        ("roll", {"text": "Good vs Grate"}, ["roll", "Good vs Grate"]),
        ("roll", {"text": "1000dF", "n": 1000}, ["roll", "1000dF", "-n", "1000"]),
        ("odds", {"text": "4dF+"}, ["odds", "4dF+"]),
        ("odds", {"text": "100000dF"}, ["odds", "100000dF"]),
        ("read", {"form": "4dF", "faces": "+ + 0"}, ["read", "4dF", "+", "+", "0"]),
        ("compare", {"texts": ["4dF", "4dF+x"]}, ["compare", "4dF", "4dF+x"]),
        ("ladder", {"system": "d6"}, ["ladder", "d6"]),
        ("verify", {"log": "{"}, None),
        ("verify", {"log": {"entries": []}, "hashes": ["3"]}, None),
    ],
)
def test_bad_input_is_the_tools_error_with_the_commands_message(
    name: str, arguments: dict[str, Any], command: list[str] | None
) -> None:
    message = refused(name, arguments)
    assert message.startswith("error: ") and "Traceback" not in message
    if command is not None:
        assert message == cli_error(*command)


def test_verify_messages_name_the_log() -> None:
    assert refused("verify", {"log": "{"}).startswith("error: the log is not JSON")
    assert "--hash takes SEQ:HASH" in refused("verify", {"log": {}, "hashes": ["3"]})


def test_a_log_past_the_bound_is_refused_before_it_is_read() -> None:
    limit = DEFAULT_LIMITS.max_log_bytes
    message = refused("verify", {"log": " " * (limit + 1)})
    assert message == f"error: the log is larger than the limit of {limit // 2**20} MB"


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("roll", {"text": "4dF", "n": 0}),
        ("roll", {"text": "4dF", "n": 1001}),
        ("roll", {}),
        ("compare", {"texts": ["4dF"]}),
        ("compare", {"texts": ["4dF"] * 9}),
        ("verify", {"log": 3}),
    ],
)
def test_arguments_out_of_their_schema_are_refused(name: str, arguments: dict[str, Any]) -> None:
    message = refused(name, arguments)
    assert name in message and "Traceback" not in message


def test_the_server_goes_on_after_an_error() -> None:
    async def conversation(client: Client) -> tuple[CallToolResult, CallToolResult]:
        bad = await client.call_tool("roll", {"text": "3d0"})
        good = await client.call_tool("roll", {"text": "3d6", "seed": 1})
        return bad, good

    bad, good = talk(conversation)
    assert bad.is_error and not good.is_error
    assert json.loads(text_of(good)) == cli_json("roll", "3d6", "--seed", "1")


def test_the_command_serves_over_standard_input_and_output(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`fudgedice mcp` as the assistant's app starts it: initialized, a tool
    called, and the process ends by itself when its input closes."""
    started: list[Any] = []
    spawn = mcp.client.stdio._create_platform_compatible_process

    async def kept(*args: Any, **kwargs: Any) -> Any:  # the SDK's client keeps its process
        process = await spawn(*args, **kwargs)
        started.append(process)
        return process

    monkeypatch.setattr(mcp.client.stdio, "_create_platform_compatible_process", kept)
    path = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    command = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from fudgedice.cli.entry import main; main()", "mcp"],
        env={"PYTHONPATH": path},
    )

    async def conversation() -> CallToolResult:
        with anyio.fail_after(WAIT):
            async with Client(command) as client:
                assert client.server_info is not None
                assert client.server_info.name == "fudgedice"
                return await client.call_tool("roll", {"text": "4dF+1", "seed": 3})

    rolled = anyio.run(conversation)
    assert json.loads(text_of(rolled)) == cli_json("roll", "4dF+1", "--seed", "3")
    assert [process.returncode for process in started] == [0]  # ended, not killed


_LISTED = """
import sys
from fudgedice.cli.commands import main
main(["--help"], standalone_mode=False)
print(sorted(name for name in sys.modules if name == "mcp" or name.startswith("mcp.")))
"""


def test_the_help_lists_the_command_without_loading_the_sdk() -> None:
    path = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", _LISTED],
        capture_output=True,
        text=True,
        timeout=WAIT,
        env={**os.environ, "PYTHONPATH": path},
        check=True,
    )
    assert "  mcp " in done.stdout
    assert done.stdout.splitlines()[-1] == "[]"


# ------------------------------------------------------------ what a hostile prompt sends
# Each is refused as an error of the tool (never an exception through the server)
# and reads no file.


def turned_away(name: str, arguments: dict[str, Any]) -> str:
    """The tool's error, or (verify) its report that the log does not hold."""
    result = call(name, arguments)
    if not result.is_error and name == "verify":
        assert json.loads(text_of(result))["ok"] is False
        return "error: " + text_of(result)
    assert result.is_error, text_of(result)[:200]
    return text_of(result)


def test_a_log_nested_deep_as_text_is_refused() -> None:
    assert "error" in turned_away("verify", {"log": "[" * 100_000 + "]" * 100_000})


def test_a_log_nested_deep_as_an_object_is_refused() -> None:
    nested: Any = {}
    for _ in range(150):  # what a JSON-RPC message may carry; json.dumps of it is fine too
        nested = {"a": nested}
    assert "error" in turned_away("verify", {"log": nested})


def test_a_log_past_a_log_file_s_bound_is_refused() -> None:
    huge = json.dumps({"rolls": ["x" * 1000] * 70_000})  # about 70 MB
    assert "error" in turned_away("verify", {"log": huge})


def test_a_path_given_as_the_log_is_read_as_text_not_opened(tmp_path: Path) -> None:
    secret = tmp_path / "log.json"
    secret.write_text('{"secret": "do-not-read-me"}')
    message = turned_away("verify", {"log": str(secret)})
    assert "do-not-read-me" not in message
    assert "error" in turned_away("verify", {"log": "/etc/passwd"})


@pytest.mark.parametrize("n", [MOST_TIMES + 1, 10**12, 0, -1])
def test_rolls_past_the_bound_are_refused(n: int) -> None:
    assert turned_away("roll", {"text": "4dF", "n": n})


def test_a_roll_text_too_large_is_refused() -> None:
    assert turned_away("roll", {"text": "100000000dF"})


def test_a_huge_list_of_faces_is_refused() -> None:
    assert turned_away("read", {"form": "4dF", "faces": ["+"] * 200_000})
