"""``fudgedice serve``: open the database, then serve the API and the page."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import uvicorn
from sqlalchemy.exc import SQLAlchemyError

from .. import memory
from .app import create_app
from .connections import ConnectionLimits, guarded, most_connections, raise_open_files
from .db import POOL_OVERFLOW, POOL_SIZE, connect
from .discord.settings import API, DiscordSettings


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


def discord_settings(
    public_key: bytes | None,
    application_id: str | None,
    gm_roles: Sequence[str],
    public_url: str | None,
    api: str | None,
) -> DiscordSettings | None:
    """The Discord application's settings (None without its public key); its
    bot token from ``FUDGEDICE_DISCORD_TOKEN`` alone, never an option that a
    list of processes would show."""
    if public_key is None:
        return None
    return DiscordSettings(
        public_key,
        application_id=application_id,
        bot_token=os.environ.get("FUDGEDICE_DISCORD_TOKEN") or None,
        gm_roles=frozenset(gm_roles),
        public_url=public_url,
        api=api or API,
    )


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
    metrics_token: str | None = None,  # /metrics to its bearer alone, else to loopback's
    access_log: bool = False,  # a JSON line a request on stdout (.access)
    header_timeout: float = ConnectionLimits.header_timeout,
    body_timeout: float = ConnectionLimits.body_timeout,
    per_address: int = ConnectionLimits.per_address,
    connections: int | None = None,
    discord_public_key: bytes | None = None,
    discord_application_id: str | None = None,
    discord_gm_roles: Sequence[str] = (),
    public_url: str | None = None,
    discord_api: str | None = None,
    keep_days: int | None = None,
    allow_local_webhooks: bool = False,
    pool_size: int = POOL_SIZE,
    pool_overflow: int = POOL_OVERFLOW,
    forwarded_allow_ips: str | None = None,
    echo: Callable[[str], None] = print,
) -> None:
    """Run until interrupted. Prints where the data is kept and the address.
    ``rate`` and ``burst`` are each member's allowance of rolls; ``memory_mb``
    the memory the process aims to stay under (its caches shrink to their
    share of it, :mod:`fudgedice.memory`; None: ``FUDGEDICE_MEMORY_MB`` or
    512); with ``discord_public_key``, a Discord application's slash commands
    are served (:func:`discord_settings`); ``keep_days`` deletes the rooms
    idle that long (None: none); the rest bound each connection
    (:mod:`.connections`); ``allow_local_webhooks`` lets rooms post to
    receivers of this network (:mod:`.webhooks`); ``pool_size`` and
    ``pool_overflow`` size PostgreSQL's pools (:func:`.db.connect`);
    ``forwarded_allow_ips`` names the proxies whose ``X-Forwarded-For`` is
    believed (:func:`proxies`)."""
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
        discord=discord_settings(
            discord_public_key, discord_application_id, discord_gm_roles, public_url, discord_api
        ),
        keep_days=keep_days,
        allow_local_webhooks=allow_local_webhooks,
        metrics_token=metrics_token or None,
        access_log=access_log,
    )
    if access_log:
        _log_access()
    try:
        _run(app, host, port, limits, forwarded_allow_ips)
    finally:
        db.dispose()


def _run(
    app: Any, host: str, port: int, limits: ConnectionLimits, forwarded_allow_ips: str | None
) -> None:
    """uvicorn, until interrupted."""
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=2,
        # the connection guard counts each socket's peer, never a forwarded
        # address: behind a proxy every connection is the proxy's, and a
        # header cannot open or hold a connection on a player's behalf
        http=guarded(limits),
        **proxies(forwarded_allow_ips),
    )


def proxies(trusted: str | None) -> dict[str, Any]:
    """uvicorn's settings for the forwarded address. With no trusted proxy, a
    request's address is its connection's and every forwarding header is
    ignored (anyone could forge one to slip the per-address limits). With
    trusted proxies (addresses or networks, comma-separated), a request from
    one of them is the client it forwards for: uvicorn reads X-Forwarded-For
    from the right and takes the first address that is no trusted proxy, so
    what a client wrote at the header's left is never believed."""
    if not trusted or not trusted.strip():
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": trusted.strip()}


def _log_access() -> None:
    """The access log's lines, as they are, on stdout."""
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    access = logging.getLogger("fudgedice.access")
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    access.propagate = False
