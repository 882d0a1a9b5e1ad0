"""A roll as a Discord message, and a message as an incoming webhook's body
(Discord's or Slack's), within each service's limits.

A plain first form of the names the table's server calls: a roll's text
as the API shows it, in a code block, and the limits checked by
:func:`problems`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

EPHEMERAL: Final = 64
"""Discord's message flag: only the user who asked sees it."""
NO_MENTIONS: Final[dict[str, list[str]]] = {"parse": []}
"""Every message carries it: no text of a roll pings anyone."""

CONTENT: Final = 2000
"""Discord's limit on a message's content."""
SLACK_TEXT: Final = 40_000
"""Slack's limit on a message's text."""


def _plain(text: object) -> str:
    """User text shown as text: no code fence, no mention can open."""
    return str(text).replace("`", "'").replace("@", "@\u200b")


def roll_message(
    shown: Mapping[str, Any], *, system: str, link: str | None = None
) -> dict[str, Any]:
    """A roll the API shows whole, as a Discord message."""
    who = _plain(shown.get("name", "?"))
    label = f" ({_plain(shown['label'])})" if shown.get("label") else ""
    head = f"**{who}** rolled{label} #{shown.get('seq', '?')} [{_plain(system)}]"
    body = _plain(shown.get("text", ""))
    tail = f"\n{link}" if link else ""
    return fit({"content": f"{head}\n```\n{body}\n```{tail}", "allowed_mentions": NO_MENTIONS})


def fit(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` within Discord's limits: its content cut with a note."""
    content = message.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        note = "\n… (cut)"
        message = {**message, "content": content[: CONTENT - len(note)] + note}
    return message


def problems(message: Mapping[str, Any]) -> list[str]:
    """Which of Discord's limits ``message`` breaks ([] if none)."""
    found = []
    if len(str(message.get("content", ""))) > CONTENT:
        found.append(f"content over {CONTENT} characters")
    if len(message.get("embeds", ())) > 10:
        found.append("more than 10 embeds")
    return found


def webhook_body(message: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """``message`` as an incoming webhook of ``kind`` takes it: Discord's
    without flags, Slack's as its text."""
    if kind == "slack":
        return {"text": str(message.get("content", ""))[:SLACK_TEXT]}
    return {key: value for key, value in message.items() if key != "flags"}
