"""What every Discord message of the table shares: the flag of an answer to
its asker alone, mentions never parsed, an embed's colours, link and time."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final
from urllib.parse import urlsplit

from .limits import fit

EPHEMERAL: Final = 64
"""Discord's message flag: only the user who asked sees the answer."""
NO_MENTIONS: Final[dict[str, list[str]]] = {"parse": []}
"""Every message's ``allowed_mentions``: nobody is pinged, whatever it says."""

GOOD: Final = 0x2E8B57
BAD: Final = 0xC0392B
EVEN: Final = 0x3B6EA5
HIDDEN: Final = 0x555555
"""An embed's colour by how the roll came out (the table's page colours)."""

MAX_URL = 2048


def message(*embeds: dict[str, Any], content: str | None = None) -> dict[str, Any]:
    """A message of ``embeds`` (and ``content``), pinging nobody, within
    Discord's limits (:func:`.limits.fit`)."""
    made: dict[str, Any] = {"embeds": list(embeds), "allowed_mentions": {"parse": []}}
    if content:
        made["content"] = content
    return fit(made)


def link(value: Any) -> str | None:
    """``value`` when it is an http(s) address Discord takes as an embed's
    ``url`` (it refuses the whole message for a bad one), else None."""
    if not isinstance(value, str) or len(value) > MAX_URL or any(c.isspace() for c in value):
        return None
    parts = urlsplit(value)
    return value if parts.scheme in {"http", "https"} and parts.netloc else None


def timestamp(value: Any) -> str | None:
    """An ISO 8601 time Discord takes as an embed's ``timestamp``, or None."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).isoformat()
    except ValueError:
        return None


def placed(embed: dict[str, Any], url: str | None, at: Any) -> dict[str, Any]:
    """``embed`` linked to the room's page ``url`` and dated ``at`` (each when
    Discord takes it)."""
    checked = link(url)
    if checked:
        embed["url"] = checked
    when = timestamp(at)
    if when:
        embed["timestamp"] = when
    return embed


def colour(verdict: Any) -> int:
    if verdict in {"success", "win"}:
        return GOOD
    if verdict in {"failure", "loss"}:
        return BAD
    return EVEN
