"""Text a request may carry at all: what neither database stores and no
answer can echo is refused where it enters, once for every route.

A NUL character (PostgreSQL's text refuses it), a lone surrogate (no UTF-8
encodes it, so neither driver sends it) or bytes that are not UTF-8 in a
request's path or query string are answered 400 before any route reads them,
and the same characters in a JSON body's strings 422 (:mod:`.bodies`). The
rules of what a name, a label or a roll text may hold are theirs
(:mod:`.rolling`); this is only what no text of the table may hold.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote_to_bytes

from .guards import ASGIApp, Receive, Scope, Send
from .problems import Problem

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""NUL and the surrogates, which a well-formed string holds only alone."""


def unstorable(text: str) -> str | None:
    """Why ``text`` can be neither stored nor sent back, or None if it can."""
    if text.isascii() and "\x00" not in text:
        return None  # as nearly every text is
    found = UNSTORABLE.search(text)
    if found is None:
        return None
    if found[0] == "\x00":
        return "must not contain NUL characters"
    return f"must not contain a lone surrogate (U+{ord(found[0]):04X})"


def unstorable_within(value: Any) -> str | None:
    """Why some string within ``value`` (a key or an item, at any depth of
    dicts and lists, as a decoded document holds them) can't be stored."""
    if isinstance(value, str):
        return unstorable(value)
    if isinstance(value, dict):
        return next(filter(None, map(unstorable_within, (*value, *value.values()))), None)
    if isinstance(value, list | tuple):
        return next(filter(None, map(unstorable_within, value)), None)
    return None


def _undecodable(raw: bytes) -> str | None:
    """Why a path or query string, percent-decoded, is not plain UTF-8 text."""
    if raw.isascii() and b"%" not in raw and b"\x00" not in raw:
        return None  # as nearly every request's: nothing to decode, nothing to find
    raw = unquote_to_bytes(raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "must be UTF-8 text"
    return unstorable(text)


def refusal(scope: Scope) -> Problem | None:
    """The 400 for a request whose path, query string or headers carry what
    no route may read, or None."""
    path = scope.get("raw_path")
    why = _undecodable(path) if isinstance(path, bytes) else unstorable(scope.get("path", ""))
    if why is not None:
        return Problem(400, f"a request's path {why}")
    why = _undecodable(scope.get("query_string", b""))
    if why is not None:
        return Problem(400, f"a request's query string {why}")
    for name, value in scope.get("headers", ()):  # a loop: a generator cost more, at every request
        if b"\x00" in value:
            return Problem(400, f"the header {name.decode('latin-1')} must not contain NUL bytes")
    return None


class PlainInput:
    """Answers 400 (the API's ``{"error"}``) to a request :func:`refusal` refuses."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        problem = refusal(scope) if scope["type"] == "http" else None
        if problem is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps(problem.body()).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": body})
