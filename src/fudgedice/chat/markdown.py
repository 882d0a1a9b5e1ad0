"""Text a person typed, made safe to show in Discord's markdown: shown as
typed, never formatting, a mention, a masked or an automatic link.

Discord reads a backslash before any punctuation as that character itself,
so every character its markdown gives a meaning to is escaped; inside a code
span nothing is read but the backtick that would close it.
"""

from __future__ import annotations

import re
from typing import Any, Final

SPECIAL: Final = frozenset("\\*_~`|>#-[]<@:")
"""Characters Discord's markdown reads: emphasis, strikes, spoilers, quotes,
headings, lists and subtext (``-#``), masked links (``[a](b)``: its bracket),
mentions (``<@1>``, ``@everyone``), automatic links (``https://``). A
numbered list's ``1.`` reads only at a line's start, where no text typed
ever stands in these messages."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\u202a-\u202e\u2066-\u2069]+")
"""Control characters, line breaks and the overrides of a text's direction
(which would turn the rest of a line around)."""
_TICK: Final = "\u02cb"
"""A backtick inside a code span: the modifier grave accent, which reads alike
and closes nothing."""


def one_line(value: Any) -> str:
    """``value`` as text on one line: control characters and line breaks as spaces."""
    text = "" if value is None else str(value)
    return _CONTROL.sub(" ", text).strip()


def escape(value: Any) -> str:
    """``value`` on one line, each character Discord's markdown reads escaped."""
    return "".join(f"\\{each}" if each in SPECIAL else each for each in one_line(value))


def code(value: Any) -> str:
    """``value`` as an inline code span: shown as typed, on one line."""
    text = one_line(value).replace("`", _TICK)
    return f"`{text}`" if text else "` `"


def block(text: str) -> str:
    """Lines as a code block (tables keep their columns)."""
    return "```\n" + text.replace("```", _TICK * 3) + "\n```"


def plain(value: Any) -> str:
    """Text for where Discord reads no markdown (an embed's author, footer or a
    field's name): on one line, and ``@`` kept from reading as a mention."""
    return one_line(value).replace("@", "@\u200b")
