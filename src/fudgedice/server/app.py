"""The table's HTTP API (docs/table.md; the contract is docs/contracts/table.md) and its page.

Handlers that touch the database are plain functions: FastAPI runs them on
its worker threads, so a commit never stalls the event loop that carries the
live feed. A roll is the exception, being the request a table makes most: it
is checked on the event loop from what the process keeps in memory (who the
token belongs to, the roll text's program) and handed to the writer, which
commits the rolls waiting together (:mod:`.writer`).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import re
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib.resources import files
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.routing import Match, Route

from . import making, rolling, store
from .bodies import NewRoll, malformed
from .db import Database
from .feed import EventStream, live_feed
from .guards import (
    ASGIApp,
    BodyLimit,
    NoStore,
    RateLimit,
    Receive,
    Scope,
    SecurityHeaders,
    Send,
)
from .inputs import PlainInput
from .kept import RollRecord
from .live import Hub, Listener
from .making import Rolls
from .odds import OddsGate
from .problems import BUSY, PROBLEM_SCHEMA, REFUSED, Problem
from .room_routes import MAX_SEQ, Auth, add_roll_reading_routes, add_room_routes, address
from .sheet_routes import add_sheet_routes
from .systems import add_systems_route
from .writer import Writer

LAST_EVENT_ID = re.compile(r"[0-9]{1,18}")
"""A Last-Event-ID the live feed resumes from (ASCII digits, below 2**63);
any other is ignored, as a browser's first connection sends none."""
KEEP_ALIVE = 15.0
"""Seconds between the comment lines the live feed sends, so that proxies
keep the connection and a vanished client is noticed."""


def create_app(
    db: Database,
    *,
    rolls_per_second: float = 5.0,
    burst: int = 20,
    address_rate: float = 20.0,
    address_burst: int = 200,
    hub: Hub | None = None,
) -> TableApp:
    """The app; ``address_rate`` and ``address_burst`` bound, for each client
    address, the rooms it makes, the members it joins, its rolls and its odds
    (each counted apart): a new member's own allowance must not be a way round.
    ``hub`` holds the live feeds (its bounds: :class:`.live.Hub`)."""
    hub = hub or Hub()
    addresses = RateLimit(address_rate, address_burst, "requests from your address")
    gate = OddsGate(addresses, isolated=True)

    async def fetch(room: str, first: int, last: int) -> list[RollRecord]:
        return await run_in_threadpool(
            functools.partial(store.list_rolls, db, room, after=first - 1, limit=last - first + 1)
        )

    async def revealed(room: str) -> dict[str, Any]:
        seeds = await run_in_threadpool(store.seed_list, db, room)
        return {"seeds": seeds}

    listener = Listener(db, hub, fetch, revealed) if db.postgres else None
    # PostgreSQL's NOTIFY brings each commit back to every process, this one too
    writer = Writer(db, (lambda _: None) if db.postgres else hub.publish_rolls)
    rolls = Rolls(db, writer, RateLimit(rolls_per_second, burst), addresses)
    app = TableApp(
        NoStore(BodyLimit(PlainInput(rolls.asgi))),
        title="fudgedice table",
        lifespan=_lifespan(hub, writer, listener, gate),
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
    app.add_middleware(PlainInput)  # innermost: every answer of the API wraps its refusals too
    app.add_middleware(BodyLimit)
    app.add_middleware(NoStore)
    app.state.db, app.state.hub = db, hub
    _add_error_handlers(app)
    _add_roll_route(app, rolls)
    add_sheet_routes(app, db, hub, rolls, rolls.limiter, gate)
    add_room_routes(app, db, hub, addresses)
    add_systems_route(app)
    add_roll_reading_routes(app, db, hub)
    _add_live_routes(app, db, hub, gate)
    _add_page(app)
    return app


def _lifespan(
    hub: Hub, writer: Writer, listener: Listener | None, gate: OddsGate
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """What starts with the app and stops with it: the writer, the live
    feeds' keep-alive, PostgreSQL's listener, the odds' workers."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        writer.start()
        gate.start()
        ticking = asyncio.create_task(hub.keep_alive(KEEP_ALIVE))
        if listener is not None:
            listener.start()
            await listener.ready.wait()
        # What exists now (the framework, the grammar, the engine) lives as long
        # as the process: frozen, the garbage collector no longer walks it at each
        # full collection, which paused every request for tens of milliseconds.
        gc.collect()
        gc.freeze()
        yield
        if listener is not None:
            await listener.stop()
        ticking.cancel()
        await writer.stop()
        gate.close()

    return lifespan


def _add_error_handlers(app: FastAPI) -> None:
    """Every refusal as ``{"error": ...}`` JSON, with its status."""

    @app.exception_handler(Problem)
    async def _problem(_: Request, problem: Problem) -> JSONResponse:
        headers = {"Retry-After": "1"} if problem.status in (429, 503) else None
        return JSONResponse(problem.body(), problem.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _malformed(_: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse(malformed(error.errors()).body(), 422)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, error: HTTPException) -> JSONResponse:
        headers = error.headers
        if error.status_code == 405:  # every method of the path, not only its first route's
            headers = {**(headers or {}), "Allow": ", ".join(allowed(app, request))}
        return JSONResponse({"error": str(error.detail)}, error.status_code, headers=headers)


def _add_roll_route(app: FastAPI, rolls: Rolls) -> None:
    """``POST .../rolls``, the first route the router tries."""

    async def make_roll(
        room: str, body: NewRoll, request: Request, authorization: Auth = None
    ) -> Response:
        record = await rolls.make(room, body, authorization, address(request))
        return Response(record.full_json, 201, media_type="application/json")

    # documented from make_roll's signature; served by rolls.asgi before the
    # stack (TableApp), else by rolls.handle (making.py) as the first route
    # the router tries: the request a table makes most
    app.router.add_api_route(
        "/api/rooms/{room}/rolls",
        make_roll,
        methods=["POST"],
        status_code=201,
        responses=BUSY,
        route_class_override=rolls.route_class(),
    )
    app.router.routes.insert(0, app.router.routes.pop())


def _add_live_routes(app: FastAPI, db: Database, hub: Hub, gate: OddsGate) -> None:
    """The live feed, the odds of a text, and the server's health."""

    @app.get(
        "/api/rooms/{room}/live", status_code=200, response_class=EventStream, responses=LIVE_FEED
    )
    async def live(
        room: str,
        request: Request,
        authorization: Auth = None,
        after: Annotated[int | None, Query(ge=0, le=MAX_SEQ)] = None,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> EventStream:
        found, me = await run_in_threadpool(making.member_of, db, room, authorization)
        if after is None:
            resumed = last_event_id is not None and LAST_EVENT_ID.fullmatch(last_event_id)
            after = int(last_event_id) if resumed and last_event_id else found.last_seq
        return live_feed(db, hub, room, me, after)

    @app.get("/api/odds", responses=BUSY)
    async def odds(request: Request, text: str, system: str = "fudge") -> Response:
        body = await gate.answer(text, rolling.system_name(system), address(request))
        return Response(body, media_type="application/json")

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return {"ok": True, "database": db.url.get_backend_name(), "watching": hub.watching()}


def _add_page(app: FastAPI) -> None:
    """The page, its script and style files."""
    page = files(__package__).joinpath("static", "index.html").read_text("utf-8")
    # the page's script and style are files of their own, so that the CSP can
    # forbid every inline script: a name that slipped into markup would not run
    static = _PageFiles(directory=str(files(__package__).joinpath("static")))
    app.mount("/static", static, name="static")

    # the page is HTML, but a request refused before it is served (a NUL in
    # its query, too many from one address) is refused as every other is: JSON
    refused_as_json: dict[int | str, dict[str, Any]] = {
        "4XX": {"content": {"application/json": {"schema": PROBLEM_SCHEMA}}},
    }

    @app.get("/", response_class=HTMLResponse, responses=refused_as_json)
    @app.get("/r/{room}", response_class=HTMLResponse, responses=refused_as_json)
    def index(room: str | None = None) -> HTMLResponse:
        return HTMLResponse(page, headers={"Content-Security-Policy": CSP})


def allowed(app: FastAPI, request: Request) -> list[str]:
    """The methods some route answers at the request's path."""
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, Route) and route.matches(request.scope)[0] != Match.NONE:
            methods |= route.methods or set()
    return sorted(methods)


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The page runs only its own script files (nothing inline, nothing from
elsewhere) and loads nothing from elsewhere."""


LIVE_FEED: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
        "description": "The room's events as they happen (server-sent events)",
    },
    "4XX": {
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ProblemBody"}}},
        "description": REFUSED["4XX"]["description"],
    },
}
"""The live feed's answer: a stream of events, never JSON; its refusals are
JSON as every other route's."""


ROLLS_PATH = re.compile(r"/api/rooms/([^/]+)/rolls")
"""The path of ``POST .../rolls``, as Starlette's router matches it."""


class TableApp(FastAPI):
    """The app, which answers ``POST /api/rooms/{room}/rolls`` through
    ``rolls`` (the table's busiest request, wrapped in the same guards as
    every route) without FastAPI's middleware and routing, and everything
    else through them; both ways wrapped in :class:`.guards.SecurityHeaders`."""

    def __init__(self, rolls: ASGIApp, **settings: Any) -> None:
        super().__init__(**settings)
        self.rolls = rolls
        # round both ways in, and round the framework's own errors and 404s
        self.secured = SecurityHeaders(self._routed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.secured(scope, receive, send)

    async def _routed(self, scope: Scope, receive: Receive, send: Send) -> None:
        routed = scope["type"] == "http" and not (self.root_path or scope.get("root_path"))
        if routed and scope["method"] == "POST":
            found = ROLLS_PATH.fullmatch(scope["path"])
            if found is not None:
                scope["path_params"] = {"room": found[1]}
                await self.rolls(scope, receive, send)
                return
        await super().__call__(scope, receive, send)


class _PageFiles(StaticFiles):
    """The page's script and style files, checked again (by ETag) at every
    load: a browser never runs a new module beside an old one it cached."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        if str(args[0] if args else kwargs.get("full_path", "")).endswith(".html"):
            response.headers["Content-Security-Policy"] = CSP
        response.headers["Cache-Control"] = "no-cache"
        return response
