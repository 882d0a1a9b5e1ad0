"""The access log (``fudgedice serve --access-log``): one JSON line a request,
written when its answer ends (a live feed's when the feed does).

A line holds the time the request came, its method, its path (a room's id
kept: it names the room, as the server's own address does) with its query
less any ``token`` parameter, the status answered, the milliseconds it
took, and the client's address. Never a header (``Authorization`` carries a
member's token), never a body, never a ``token=`` of the query (the table
reads tokens only from the header, but a client may put one in its URL all
the same). A request the client left before any answer has status ``null``.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlencode

import orjson

from .guards import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("fudgedice.access")

SECRET_PARAMETERS = frozenset({"token"})
"""Query parameters never written (compared in lower case)."""


class AccessLog:
    """Writes :func:`line` of each HTTP request to :data:`log` at INFO."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        came, started = datetime.now(UTC), time.perf_counter()
        status: int | None = None

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            log.info(line(scope, came, status, (time.perf_counter() - started) * 1000))


def line(scope: Scope, came: datetime, status: int | None, ms: float) -> str:
    """The request's line of the log, as JSON."""
    client = scope.get("client")
    return orjson.dumps(
        {
            "time": came.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "method": scope["method"],
            "path": scope["path"] + query(scope.get("query_string", b"")),
            "status": status,
            "ms": round(ms, 2),
            "client": client[0] if client else None,
        }
    ).decode()


def query(raw: bytes) -> str:
    """``?`` and the query, its secret parameters left out; "" if none is left."""
    if not raw:
        return ""
    kept = [
        (name, value)
        for name, value in parse_qsl(raw.decode("latin-1"), keep_blank_values=True)
        if name.strip().lower() not in SECRET_PARAMETERS
    ]
    return f"?{urlencode(kept)}" if kept else ""
