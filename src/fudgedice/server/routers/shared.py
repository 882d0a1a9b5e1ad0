"""What the routes share, each given through a FastAPI dependency that reads
it from ``app.state`` (set by ``server.app.create_app``, or by a test serving
one router on an app of its own).

Each dependency is a coroutine: FastAPI runs a plain function's dependency on
a worker thread, a hop that would cost more than reading an attribute.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from ..bodies import MAX_INT
from ..db import Database
from ..guards import RateLimit
from ..live import Hub
from ..making import Rolls
from ..odds import OddsGate
from ..sheet_pages import SheetPages

MAX_SEQ = MAX_INT
"""The largest seq a database column holds: a larger ``after`` or ``before``
is a 422, not an overflow inside the driver."""

Auth = Annotated[str | None, Header()]
"""``Authorization: Bearer TOKEN``."""


def address(request: Request) -> str:
    """The client's address, as the connection gives it (the table trusts no
    forwarding header: behind a proxy, every member shares the proxy's)."""
    return request.client.host if request.client else "unknown"


async def database(request: Request) -> Database:
    """The database (``app.state.db``)."""
    db: Database = request.app.state.db
    return db


async def hub(request: Request) -> Hub:
    """The live feeds of the process (``app.state.hub``)."""
    found: Hub = request.app.state.hub
    return found


async def rolls(request: Request) -> Rolls:
    """The rolls of the process: its caches, allowances and writer (``app.state.rolls``)."""
    found: Rolls = request.app.state.rolls
    return found


async def addresses(request: Request) -> RateLimit:
    """Each client address's allowances (``app.state.addresses``)."""
    found: RateLimit = request.app.state.addresses
    return found


async def gate(request: Request) -> OddsGate:
    """The gate every measure of odds passes (``app.state.gate``)."""
    found: OddsGate = request.app.state.gate
    return found


async def sheet_pages(request: Request) -> SheetPages:
    """The sheets' pages, each trait with its chance (``app.state.sheet_pages``)."""
    found: SheetPages = request.app.state.sheet_pages
    return found


Db = Annotated[Database, Depends(database)]
Feeds = Annotated[Hub, Depends(hub)]
TableRolls = Annotated[Rolls, Depends(rolls)]
Addresses = Annotated[RateLimit, Depends(addresses)]
Gate = Annotated[OddsGate, Depends(gate)]
Pages = Annotated[SheetPages, Depends(sheet_pages)]
