"""Messages of the table in a Discord channel: plain stand-ins of the
formatter's functions (their signatures), each a short text message."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Mapping
from typing import Any, Final

EPHEMERAL: Final = 64
"""Discord's message flag: only the user who asked sees it."""
NO_MENTIONS: Final[dict[str, list[str]]] = {"parse": []}
"""Every message mentions no one, whatever its text holds."""


def _message(text: str) -> dict[str, Any]:
    return {"content": text[:2000], "allowed_mentions": {"parse": []}}


def roll_message(
    shown: Mapping[str, Any], *, system: str, link: str | None = None
) -> dict[str, Any]:
    label = f" ({shown.get('label')})" if shown.get("label") else ""
    error = f" error: {shown['error']}" if shown.get("error") else ""
    return _message(
        f"#{shown.get('seq')} {shown.get('name')}: {shown.get('text')}{label}"
        f" = {shown.get('total')}{error} [{system}] {link or ''}"
    )


def placeholder_message(shown: Mapping[str, Any], *, link: str | None = None) -> dict[str, Any]:
    return _message(
        f"{shown.get('name')} made a roll ({shown.get('visibility')}) (#{shown.get('seq')})"
    )


def odds_message(odds: Mapping[str, Any], *, text: str) -> dict[str, Any]:
    return _message(f"odds of {text}: {json.dumps(odds)[:1800]}")


def read_message(roll: Mapping[str, Any]) -> dict[str, Any]:
    return _message(f"{roll.get('notation')} = {roll.get('total')}")


def compare_message(comparison: Mapping[str, Any]) -> dict[str, Any]:
    return _message(json.dumps(comparison)[:1900])


def ladder_message(system: str) -> dict[str, Any]:
    return _message(f"the ladder of {system}")


def room_message(
    *,
    name: str,
    system: str,
    link: str,
    commitment: str,
    epoch: int,
    seat_link: str | None = None,
) -> dict[str, Any]:
    seat = f"\nyour seat: {seat_link}" if seat_link else ""
    return _message(f"{name} ({system}) {link}\ncommitment {commitment} (epoch {epoch}){seat}")


def reveal_message(revealed: Mapping[str, Any], *, link: str | None = None) -> dict[str, Any]:
    return _message(
        f"seed {revealed.get('server_seed')} revealed; next {revealed.get('next_commitment')}"
    )


def error_message(error: str, hint: str | None = None) -> dict[str, Any]:
    return {**_message(error + (f"\n{hint}" if hint else "")), "flags": EPHEMERAL}


def chart_png(text: str, system: str) -> bytes:
    """A 1 x 1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def fit(message: dict[str, Any]) -> dict[str, Any]:
    return message


def problems(message: Mapping[str, Any]) -> list[str]:
    return []


def webhook_body(message: Mapping[str, Any], kind: str) -> dict[str, Any]:
    return {key: value for key, value in message.items() if key != "flags"}
