"""Bounds on what one client may ask: the size of a request's body, and how
fast one member may roll; and the headers every answer carries."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .problems import Problem

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 16 * 1024
"""Bytes in a request's body: a roll text of 1,000 characters and its faces fit
many times over."""
MAX_SHEET_BODY = 72 * 1024
"""Bytes in the body that attaches a character sheet (``PUT .../sheet``): a
sheet of 32 KiB, every character of it escaped in JSON at worst twice as long.
A longer sheet that fits is refused by the sheet's own limit, which says so.
A member's favourite rolls (``PUT .../favourites``: 30 roll texts of 1,000
characters and their labels) are sent under the same bound."""
_LONG_BODIES = ("/sheet", "/favourites")
"""The paths whose body is bounded by :data:`MAX_SHEET_BODY`, not :data:`MAX_BODY`."""


class BodyLimit:
    """Refuses (413) a body longer than ``limit``: at once when its declared
    length says so, or as soon as the bytes received pass it."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY, sheet_limit: int = MAX_SHEET_BODY
    ) -> None:
        self.app = app
        self.limit = limit
        self.sheet_limit = sheet_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.sheet_limit if scope["path"].endswith(_LONG_BODIES) else self.limit
        declared: bytes | None = None
        chunked = False
        for name, value in scope.get("headers", ()):  # a loop: dict() of them cost more
            if name == b"content-length":
                declared = value
            elif name == b"transfer-encoding":
                chunked = True
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(send, limit)
            return
        if declared is not None or not chunked:
            # the server reads no more than the length declared, and a request
            # with neither header has no body: nothing to count (and the live
            # feed's every event is spared a layer)
            await self.app(scope, receive, send)
            return
        received = 0
        too_long = False
        refused = False

        async def counted() -> Message:
            nonlocal received, too_long
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    too_long = True
                    raise _TooLong
            return message

        async def sending(message: Message) -> None:
            # the framework may turn the error raised from receive() into an
            # answer of its own (a 400): the answer is the 413, whatever it says
            nonlocal refused
            if not too_long:
                await send(message)
            elif not refused:
                refused = True
                await self._refuse(send, limit)

        try:
            await self.app(scope, counted, sending)
        except _TooLong:
            if not refused:
                await self._refuse(send, limit)

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps(Problem(413, f"a request body is at most {limit} bytes").body())
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})


class _TooLong(Exception):
    """Raised into the app from ``receive`` when a body passes the limit."""


class RateLimit:
    """A token bucket per key (a member, or a kind of request and a client
    address): ``burst`` at once, then ``per_second`` more each second. Kept in
    memory, so each process counts its own."""

    def __init__(self, per_second: float, burst: int, what: str = "rolls") -> None:
        self.per_second = per_second
        self.burst = burst
        self.what = what
        self._buckets: dict[str, tuple[float, float]] = {}
        self._refused: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, member: str, cost: int = 1) -> None:
        """Spend ``cost`` rolls of ``member``'s allowance (one request that
        reads as many roll texts), or refuse with 429. A cost past the burst
        is charged as the burst: such a request waits for a full allowance,
        and is never refused for good."""
        spent = float(max(1, min(cost, self.burst)))
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(member, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
            if tokens < spent:
                kind = member.partition(" ")[0] if " " in member else ""
                self._refused[kind] = self._refused.get(kind, 0) + 1
                wait = (spent - tokens) / self.per_second
                raise Problem(
                    429, f"too many {self.what}: wait a moment", hint=f"try again in {wait:.1f} s"
                )
            self._buckets[member] = (tokens - spent, now)
            if len(self._buckets) > 100_000:
                self._forget_full(now)

    def refusals(self) -> dict[str, int]:
        """Requests refused so far, by the kind a key names ("KIND ADDRESS":
        rolls, rooms, joins, odds), or under "" for a key of one word (a member)."""
        with self._lock:
            return dict(self._refused)

    def _forget_full(self, now: float) -> None:
        """Drop buckets that have refilled: they hold nothing worth keeping."""
        for member, (tokens, then) in list(self._buckets.items()):
            if tokens + (now - then) * self.per_second >= self.burst:
                del self._buckets[member]


class NoStore:
    """``Cache-Control: no-store`` on every answer under ``/api/``: they carry
    tokens, hidden rolls to their GM and room names, which no shared or disk
    cache should keep."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), NO_STORE]
            await send(message)

        await self.app(scope, receive, sending)


NO_STORE = (b"cache-control", b"no-store")


SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
"""Sent with every answer: no browser reads a JSON answer, a roll text or a
static file as a script or page of another type; no site frames the page
(as its CSP's ``frame-ancestors``, for browsers that read only this); and no
request sends the page's address elsewhere: ``/r/ROOM`` is the room's share
link, as hard to guess as a token, and the table itself reads no Referer, so
not even its own origin needs one."""
_SECURITY_NAMES = frozenset(name for name, _ in SECURITY_HEADERS)


class SecurityHeaders:
    """:data:`SECURITY_HEADERS` on every answer of ``app``: pages, static
    files, JSON, refusals, errors, event streams. Each replaces any header of
    its name that the answer already had, so none is sent twice."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                kept = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if bytes(name).lower() not in _SECURITY_NAMES
                ]
                message["headers"] = [*kept, *SECURITY_HEADERS]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            if not started:  # else the server would answer its own 500, bare
                body = json.dumps(Problem(500, "the server failed to answer").body()).encode()
                await sending(
                    {
                        "type": "http.response.start",
                        "status": 500,
                        "headers": [(b"content-type", b"application/json")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
            raise
