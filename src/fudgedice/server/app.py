"""The table's HTTP API (docs/table.md; the contract is docs/contracts/table.md) and its page.

:func:`create_app` builds what the process shares (the database, the live
hub, the writer, the allowances, the odds' gate), keeps it in ``app.state``,
where the routes' dependencies find it (:mod:`.routers.shared`), includes one
router a resource (:mod:`.routers`) and adds the middleware every request
passes (:mod:`.stack`), the roll's as every other's.
"""

from __future__ import annotations

import asyncio
import functools
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from . import deleting, store
from .access import AccessLog
from .db import Database
from .discord import interactions
from .discord.settings import DiscordSettings
from .guards import RateLimit
from .kept import RollRecord
from .listener import Listener, Ranges
from .live import LIVE_EVERY, SHARED_EVERY, Hub
from .making import Rolls
from .metrics import Metrics, Watched, token_digest
from .mirror import Mirror
from .odds import OddsGate
from .outbox import Outbox
from .problems import REFUSED
from .routers import (
    favourites,
    live,
    log,
    members,
    metrics,
    odds,
    page,
    play,
    rolls,
    rooms,
    sheets,
    systems,
    talk,
    webhooks,
)
from .sheet_pages import SheetPages
from .stack import add_error_handlers, add_guards
from .writer import Writer

KEEP_ALIVE = 15.0
"""Seconds between the comment lines the live feed sends, so that proxies
keep the connection and a vanished client is noticed."""

ROUTERS = (
    rolls, rooms, members, sheets, favourites, play, talk, webhooks, log, live, odds, systems,
    interactions, metrics, page,
)  # fmt: skip
"""In the order the app tries them: the roll first, the request a table makes most."""


def create_app(
    db: Database,
    *,
    rolls_per_second: float = 5.0,
    burst: int = 20,
    address_rate: float = 20.0,
    address_burst: int = 200,
    hub: Hub | None = None,
    outbox: Outbox | None = None,
    discord: DiscordSettings | None = None,
    keep_days: float | None = None,
    allow_local_webhooks: bool = False,
    metrics_token: str | None = None,
    access_log: bool = False,
) -> FastAPI:
    """The app; ``address_rate`` and ``address_burst`` bound, for each client
    address, the rooms it makes, the members it joins, its rolls and its odds
    (each counted apart): a new member's own allowance must not be a way round.
    ``hub`` holds the live feeds (its bounds: :class:`.live.Hub`); ``outbox``
    sends what the table sends out (webhooks, Discord: :class:`.outbox.Outbox`);
    ``discord``, a Discord application's settings, serves its slash commands
    at ``POST /discord/interactions`` (without, that path is a 404);
    ``keep_days``, if given, deletes the rooms idle that long (:mod:`.deleting`);
    ``allow_local_webhooks`` lets a room's webhook be a receiver of the
    server's own network, over http too (:mod:`.webhooks`);
    ``/metrics`` is read from loopback, or with ``metrics_token`` (then only
    with it); ``access_log`` writes a line a request (:mod:`.access`)."""
    app = FastAPI(
        title="fudgedice table",
        # each router's routes taken as they are, in order, the roll's first:
        # FastAPI's include_router keeps a router as a branch that it matches
        # twice a request, which cost more than the rest of the framework
        routes=[route for module in ROUTERS for route in module.router.routes],
        lifespan=_lifespan,
        # the documentation pages load scripts from a CDN into the origin that
        # holds the members' tokens: the schema is served, not those pages
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        responses=REFUSED,
        # the table sets up no OpenTelemetry: not asking at every request
        # whether it has been is a few percent of a roll's CPU time
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    state = app.state
    state.db, state.hub = db, hub or Hub(SHARED_EVERY if db.postgres else LIVE_EVERY)
    state.discord = discord
    state.outbox = outbox or Outbox()
    state.addresses = RateLimit(address_rate, address_burst, "requests from your address")
    state.gate = OddsGate(state.addresses, isolated=True)
    state.sheet_pages = SheetPages(state.gate)
    state.allow_local_webhooks = allow_local_webhooks
    state.mirror = Mirror(
        db,
        state.outbox,
        lambda: getattr(state, "discord", None),
        public_only=not allow_local_webhooks,
    )
    # PostgreSQL's NOTIFY brings each commit back to every process, this one too;
    # the mirror posts a roll from the process that wrote it, on either database
    published = None if db.postgres else state.hub.publish_rolls
    state.writer = Writer(db, functools.partial(_committed, published, state.mirror))
    state.rolls = Rolls(db, state.writer, RateLimit(rolls_per_second, burst), state.addresses)
    state.keep_days = keep_days
    state.listener = (
        Listener(
            db, state.hub, functools.partial(_fetch, db), functools.partial(_seeds, db),
            forget=state.rolls.members.forget_room, forget_token=state.rolls.members.forget,
        )
        if db.postgres
        else None
    )  # fmt: skip
    _watch(app, metrics_token)
    app.mount("/static", page.static_files(), name="static")
    add_error_handlers(app)
    add_guards(app)
    if access_log:  # outermost: every answer, the guards' refusals too
        app.add_middleware(AccessLog)
    return app


def _committed(
    published: Callable[[list[RollRecord]], None] | None, mirror: Mirror, records: list[RollRecord]
) -> None:
    """The rolls of a commit, on the event loop: to this process's live feeds
    (``published``, on SQLite) and to the rooms' webhooks and channels."""
    if published is not None:
        published(records)
    mirror.committed(records)


def _watch(app: FastAPI, token: str | None) -> None:
    """The app's metrics (/metrics), told of each commit and live delivery."""
    state = app.state
    state.metrics = state.writer.metrics = Metrics()
    state.hub.delivered = state.metrics.delivered
    state.metrics_token = None if token is None else token_digest(token)
    state.metrics.watch(
        Watched(state.db, state.hub, state.rolls.limiter, state.addresses, state.gate, state.outbox)
    )


async def _fetch(db: Database, wanted: Ranges) -> dict[str, list[RollRecord]]:
    """The rolls of each room from its first to its last ``seq`` wanted, as
    PostgreSQL's listener reads them: all in one trip to a worker thread."""
    return await run_in_threadpool(store.rolls_between, db, wanted)


async def _seeds(db: Database, room: str) -> dict[str, Any]:
    """A reveal's event, as PostgreSQL's listener reads it."""
    return {"seeds": await run_in_threadpool(store.seed_list, db, room)}


def _keeping(app: FastAPI) -> asyncio.Task[None] | None:
    """``--keep-days``' passes, once the listener hears (a room deleted is
    told to every process), if the server was given it."""
    state = app.state
    if state.keep_days is None:
        return None
    gone = functools.partial(deleting.forget, state.db, state.hub, state.rolls.members)
    return asyncio.create_task(deleting.keep_days(state.db, state.keep_days, gone))


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """What starts with the app and stops with it: the writer, the live
    feeds' keep-alive, PostgreSQL's listener, the odds' workers."""
    hub: Hub = app.state.hub
    writer: Writer = app.state.writer
    gate: OddsGate = app.state.gate
    listener: Listener | None = app.state.listener
    outbox: Outbox = app.state.outbox
    mirror: Mirror = app.state.mirror
    hub.loop = asyncio.get_running_loop()
    outbox.start()
    mirror.start()
    writer.start()
    gate.start()
    ticking = asyncio.create_task(hub.keep_alive(KEEP_ALIVE))
    if listener is not None:
        listener.start()
        await listener.ready.wait()
    keeping = _keeping(app)
    # What exists now (the framework, the grammar, the engine) lives as long
    # as the process: frozen, the garbage collector no longer walks it at each
    # full collection, which paused every request for tens of milliseconds.
    gc.collect()
    gc.freeze()
    yield
    if listener is not None:
        await listener.stop()
    if keeping is not None:
        keeping.cancel()
    ticking.cancel()
    await writer.stop()
    await mirror.stop()
    await outbox.stop()
    gate.close()
    app.state.metrics.forget(app.state.db)
