"""A message as an incoming webhook takes it: Discord's (the message itself,
without an interaction's flags, under the name "fudgedice") or Slack's
(``text``, and ``blocks`` of mrkdwn sections), each within its limits."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from .limits import CUT, cut, fit

USERNAME: Final = "fudgedice"
SLACK_TEXT: Final = 40_000
SLACK_SECTION: Final = 3_000
SLACK_BLOCKS: Final = 50
KINDS: Final = ("discord", "slack")


def webhook_body(message: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """``message`` (one of :mod:`fudgedice.chat.discord`'s) as the body of a
    ``kind`` ("discord" or "slack") incoming webhook."""
    if kind == "discord":
        body = {key: value for key, value in fit(message).items() if key in {"content", "embeds"}}
        return {**body, "allowed_mentions": {"parse": []}, "username": USERNAME}
    if kind == "slack":
        return slack_body(message)
    raise ValueError(f"a webhook is one of {', '.join(KINDS)}, not {kind!r}")


def slack_body(message: Mapping[str, Any]) -> dict[str, Any]:
    """Slack's body: each part of the message a section of mrkdwn, the whole as ``text``."""
    parts = [slack(message["content"])] if isinstance(message.get("content"), str) else []
    for embed in message.get("embeds") or []:
        if isinstance(embed, Mapping):
            parts.append(_embed_text(embed))
    parts = [part for part in parts if part.strip()] or ["(nothing to show)"]
    blocks = [
        {"type": "section", "text": {"type": "mrkdwn", "text": cut(part, SLACK_SECTION)}}
        for part in parts[:SLACK_BLOCKS]
    ]
    return {
        "text": cut("\n\n".join(parts), SLACK_TEXT),
        "blocks": blocks,
        "unfurl_links": False,
        "unfurl_media": False,
    }


def _embed_text(embed: Mapping[str, Any]) -> str:
    lines = []
    if isinstance(embed.get("title"), str):
        lines.append(f"*{slack(embed['title'])}*")
    if isinstance(embed.get("description"), str):
        lines.append(slack(embed["description"]))
    for field in embed.get("fields") or []:
        if isinstance(field, Mapping) and field.get("name") != CUT:
            lines.append(
                f"*{slack(str(field.get('name', '')))}*\n{slack(str(field.get('value', '')))}"
            )
    footer = embed.get("footer")
    if isinstance(footer, Mapping) and isinstance(footer.get("text"), str):
        lines.append(_escape(footer["text"].replace("@\u200b", "@")))
    return "\n".join(lines)


_BOLD = re.compile(r"(?<!\\)\*\*")
_ITALIC = re.compile(r"(?<!\\)\*")
_STRIKE = re.compile(r"(?<!\\)~~")
_ESCAPED = re.compile(r"\\([^A-Za-z0-9\s])")
_CODE = re.compile(r"((?<!\\)```.*?```|(?<!\\)`[^`]*`)", re.DOTALL)
"""A code block or span (a backtick escaped opens none): split on, its parts
are every second one."""


def slack(markdown: str) -> str:
    """Discord's markdown as Slack's mrkdwn: **bold** as *bold*, *italic* as
    _italic_, ~~struck~~ as ~struck~, escapes undone, code left as it is;
    ``&``, ``<`` and ``>`` escaped as Slack asks (so that no text reads as a
    mention or a link). Slack escapes nothing else: a player's ``*`` may
    embolden their own words there, and can do no more."""
    parts = _CODE.split(markdown)
    return "".join(_escape(part) if n % 2 else _markup(part) for n, part in enumerate(parts))


def _markup(text: str) -> str:
    text = _BOLD.sub("\x00", text)
    text = _ITALIC.sub("_", text).replace("\x00", "*")
    return _escape(_ESCAPED.sub(r"\1", _STRIKE.sub("~", text)))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
