"""What the chat tests share: rolls as the table's API shows them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import fudgedice
from fudgedice.server.kept import RollRecord

HOSTILE = (
    "@everyone @here <@123> <@&456> <#789> `tick` ``` *b* **B** _i_ __u__ ~~s~~ ||spoiler|| "
    "> quote # Head -# small [link](https://evil.example) https://evil.example/x \\ \n"
    "second line\x00\u202e"
)
"""A name, label or text a player could type to make a channel's message ping,
format, link or break."""


def record(
    text: str,
    faces: list[str],
    *,
    visibility: str = "public",
    label: str | None = None,
    name: str = "Ann",
    seq: int = 12,
) -> RollRecord:
    """A roll as the table keeps it, of ``text`` read from ``faces``."""
    result = json.loads(json.dumps(fudgedice.read(text, faces).to_dict()))
    return RollRecord(
        "room", seq, "m1", name, visibility, 1, "c" * 64, 3, "client", text, label, None,  # type: ignore[arg-type]
        result, "2026-11-27T12:00:00.000Z", "5a" * 32 if visibility != "public" else None,
        "ab12" * 16, None,
    )  # fmt: skip


def shown(text: str, faces: list[str], **given: Any) -> dict[str, Any]:
    """The roll as a member who may see it is shown it."""
    made: dict[str, Any] = json.loads(record(text, faces, **given).full_json)
    return made


@pytest.fixture
def hostile() -> str:
    return HOSTILE


@pytest.fixture
def kept() -> Callable[..., RollRecord]:
    """:func:`record`: a roll as the table keeps it."""
    return record


@pytest.fixture
def seen() -> Callable[..., dict[str, Any]]:
    """:func:`shown`: a roll as a member who may see it is shown it."""
    return shown
