"""An assistant's tools fed what a hostile prompt would make them send: a
deeply nested or huge log to verify, a roll asked thousands of times, a file
path where a log is expected, a huge list of faces. Each is refused as an
error of the tool (never an exception through the server) and reads no file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fudgedice.cli.answers import MOST_TIMES
from tests.test_mcp import call, text_of


def refused(name: str, arguments: dict[str, Any]) -> str:
    """The tool's error, or (verify) its report that the log does not hold."""
    result = call(name, arguments)
    if not result.is_error and name == "verify":
        assert json.loads(text_of(result))["ok"] is False
        return "error: " + text_of(result)
    assert result.is_error, text_of(result)[:200]
    return text_of(result)


def test_a_log_nested_deep_as_text_is_refused() -> None:
    assert "error" in refused("verify", {"log": "[" * 100_000 + "]" * 100_000})


def test_a_log_nested_deep_as_an_object_is_refused() -> None:
    nested: Any = {}
    for _ in range(150):  # what a JSON-RPC message may carry; json.dumps of it is fine too
        nested = {"a": nested}
    assert "error" in refused("verify", {"log": nested})


def test_a_log_past_a_log_file_s_bound_is_refused() -> None:
    huge = json.dumps({"rolls": ["x" * 1000] * 70_000})  # about 70 MB
    assert "error" in refused("verify", {"log": huge})


def test_a_path_given_as_the_log_is_read_as_text_not_opened(tmp_path: Path) -> None:
    secret = tmp_path / "log.json"
    secret.write_text('{"secret": "do-not-read-me"}')
    message = refused("verify", {"log": str(secret)})
    assert "do-not-read-me" not in message
    assert "error" in refused("verify", {"log": "/etc/passwd"})


@pytest.mark.parametrize("n", [MOST_TIMES + 1, 10**12, 0, -1])
def test_rolls_past_the_bound_are_refused(n: int) -> None:
    assert refused("roll", {"text": "4dF", "n": n})


def test_a_roll_text_too_large_is_refused() -> None:
    assert refused("roll", {"text": "100000000dF"})


def test_a_huge_list_of_faces_is_refused() -> None:
    assert refused("read", {"form": "4dF", "faces": ["+"] * 200_000})
