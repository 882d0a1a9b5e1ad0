"""What the routes share, each given through a FastAPI dependency that reads
it from ``app.state`` (set by ``server.app.create_app``, or by a test serving
one router on an app of its own).

Each dependency is a coroutine: FastAPI runs a plain function's dependency on
a worker thread, a hop that would cost more than reading an attribute.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Header, Request

from ..bodies import MAX_INT
from ..db import Database
from ..guards import RateLimit
from ..live import Event, Hub
from ..making import Rolls
from ..odds import OddsGate
from ..sheet_pages import SheetPages

MAX_SEQ = MAX_INT
"""The largest seq a database column holds: a larger ``after`` or ``before``
is a 422, not an overflow inside the driver."""

Auth = Annotated[str | None, Header()]
"""``Authorization: Bearer TOKEN``."""
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="sent again with a request, the entry this key made is the answer",
    ),
]
"""``Idempotency-Key: KEY`` (:mod:`..keys`)."""


def address(request: Request) -> str:
    """The client's address: the connection's, or, when the connection comes
    from a proxy named by ``--forwarded-allow-ips``, the address that proxy
    forwards for (uvicorn's ``X-Forwarded-For``, read from the right, so a
    client cannot forge it). Without that option behind a proxy, every member
    shares the proxy's address and its per-address limits."""
    return request.client.host if request.client else "unknown"


def held(name: str) -> Callable[[Request], Awaitable[Any]]:
    """A dependency giving ``app.state.<name>``: what the process shares,
    which ``create_app`` (or a test's bare app) keeps there."""

    async def read(request: Request) -> Any:
        return getattr(request.app.state, name)

    read.__name__ = name  # FastAPI names a dependency by its function
    return read


Db = Annotated[Database, Depends(held("db"))]
"""The database."""
Feeds = Annotated[Hub, Depends(held("hub"))]
"""The live feeds of the process."""
TableRolls = Annotated[Rolls, Depends(held("rolls"))]
"""The rolls of the process: its caches, allowances and writer."""
Addresses = Annotated[RateLimit, Depends(held("addresses"))]
"""Each client address's allowances."""
Gate = Annotated[OddsGate, Depends(held("gate"))]
"""The gate every measure of odds passes."""
Pages = Annotated[SheetPages, Depends(held("sheet_pages"))]
"""The sheets' pages, each trait with its chance."""


def announce(db: Database, hub: Hub, room: str, event: Event) -> None:
    """``event`` (made by this process, from any thread) to the room's live
    feeds: on SQLite only this process hears of it, so its hub is told here;
    on PostgreSQL the commit's NOTIFY brings it to every process's hub, this
    one's too, and telling it here as well would deliver it twice."""
    if not db.postgres:
        hub.publish_threadsafe(room, event)
