"""``fudgedice serve``: open the database, then serve the API and the page."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import uvicorn
from sqlalchemy.exc import SQLAlchemyError

from .. import memory
from .app import create_app
from .connections import ConnectionLimits, guarded, most_connections, raise_open_files
from .db import POOL_OVERFLOW, POOL_SIZE, connect


def default_database() -> Path:
    """The SQLite file in the user's data folder ($XDG_DATA_HOME, or the
    platform's own place for an application's data)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "fudgedice" / "table.sqlite3"


def serve(
    host: str,
    port: int,
    database: str | None,
    *,
    rate: float,
    burst: int,
    address_rate: float = 20.0,
    address_burst: int = 200,
    memory_mb: int | None = None,
    header_timeout: float = ConnectionLimits.header_timeout,
    body_timeout: float = ConnectionLimits.body_timeout,
    per_address: int = ConnectionLimits.per_address,
    connections: int | None = None,
    pool_size: int = POOL_SIZE,
    pool_overflow: int = POOL_OVERFLOW,
    echo: Callable[[str], None] = print,
) -> None:
    """Run until interrupted. Prints where the data is kept and the address.
    ``rate`` and ``burst`` are each member's allowance of rolls; ``memory_mb``
    the memory the process aims to stay under (its caches shrink to their
    share of it, :mod:`fudgedice.memory`; None: ``FUDGEDICE_MEMORY_MB`` or
    512); ``pool_size`` and ``pool_overflow`` size PostgreSQL's pools
    (:func:`.db.connect`); the rest bound each connection (:mod:`.connections`)."""
    if memory_mb is not None:
        memory.set_ceiling(memory_mb)
    limits = ConnectionLimits(
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        per_address=per_address,
        most=most_connections(connections, raise_open_files()),
    )
    given = database or str(default_database())
    try:
        db = connect(given, pool_size=pool_size, pool_overflow=pool_overflow)
    except (SQLAlchemyError, ValueError, OSError) as error:
        # a message, never a traceback: the likeliest causes are a typo or a server that is down
        raise SystemExit(f"error: cannot open the database {given!r}: {error}") from None
    shown = db.url.render_as_string(hide_password=True)
    echo(f"fudgedice table: data in {shown}")
    echo(f"fudgedice table: http://{host}:{port}/ (Ctrl+C stops)")
    app = create_app(
        db,
        rolls_per_second=rate,
        burst=burst,
        address_rate=address_rate,
        address_burst=address_burst,
    )
    try:
        # proxy_headers off: a member's address is the connection's, never a
        # forwarding header (which anyone on 127.0.0.1 could forge to slip the
        # per-address limits); routers.shared.address() says so
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=2,
            proxy_headers=False,
            http=guarded(limits),
        )
    finally:
        db.dispose()
