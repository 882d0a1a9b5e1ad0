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
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.routing import Match, Route

from . import exports, making, rolling, store
from .bodies import MAX_INT, NewMember, NewRoll, NewRoom, malformed
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
from .live import Event, Hub, Listener
from .making import Rolls
from .odds import OddsGate
from .problems import BUSY, PROBLEM_SCHEMA, REFUSED, Problem
from .records import Member, RollRecord, Room
from .sheet_routes import add_sheet_routes
from .writer import Writer

PAGE_LIMIT = 500
"""Rolls in one page of ``GET .../rolls`` at most (100 when not asked)."""
MAX_SEQ = MAX_INT
"""The largest seq a database column holds: a larger ``after`` or ``before``
is a 422, not an overflow inside the driver."""
LAST_EVENT_ID = re.compile(r"[0-9]{1,18}")
"""A Last-Event-ID the live feed resumes from (ASCII digits, below 2**63);
any other is ignored, as a browser's first connection sends none."""
KEEP_ALIVE = 15.0
"""Seconds between the comment lines the live feed sends, so that proxies
keep the connection and a vanished client is noticed."""


Auth = Annotated[str | None, Header()]
"""``Authorization: Bearer TOKEN``."""


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

    app = TableApp(
        NoStore(BodyLimit(PlainInput(rolls.asgi))),
        title="fudgedice table",
        lifespan=lifespan,
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

    def member_of(
        room: str, authorization: str | None, token: str | None = None
    ) -> tuple[Room, Member]:
        return making.member_of(db, room, authorization, token)

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
    add_sheet_routes(app, db, hub, rolls, rolls.limiter, gate)

    @app.post("/api/rooms", status_code=201)
    def create_room(body: NewRoom, request: Request) -> dict[str, Any]:
        addresses.take(f"rooms {address(request)}")
        name = rolling.name(body.name, "a room's name")
        system = rolling.system_name(body.system)
        room, gm, token = store.create_room(db, name, system, rolling.name(body.gm_name))
        return {
            "room": room.id, "name": room.name, "system": room.system, "gm_token": token,
            "member": gm.id, "commitment": room.commitment,
            "url": f"{str(request.base_url).rstrip('/')}/r/{room.id}",
        }  # fmt: skip

    @app.get("/api/rooms/{room}")
    def room_info(room: str, authorization: Auth = None) -> dict[str, Any]:
        found, me = member_of(room, authorization)
        return {
            "room": found.id, "name": found.name, "system": found.system,
            "commitment": found.commitment, "epoch": found.epoch, "last_seq": found.last_seq,
            "me": me.to_dict(), "members": [m.to_dict() for m in store.room_members(db, room)],
            "seeds": store.seed_list(db, room),
        }  # fmt: skip

    @app.post("/api/rooms/{room}/members", status_code=201)
    def join(room: str, body: NewMember, request: Request) -> dict[str, Any]:
        addresses.take(f"joins {address(request)}")
        member, token = store.join(db, room, rolling.name(body.name))
        if not db.postgres:  # PostgreSQL's NOTIFY brings it to every process's hub
            hub.publish_threadsafe(room, Event("member", data={"member": member.id}))
        return {"member": member.id, "name": member.name, "token": token, "gm": False}

    @app.get("/api/rooms/{room}/rolls")
    def list_rolls(
        room: str,
        authorization: Auth = None,
        after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
        before: Annotated[int | None, Query(ge=1, le=MAX_SEQ)] = None,
        limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT)] = 100,
        member: str | None = None,
    ) -> Response:
        found, me = member_of(room, authorization)
        records = store.list_rolls(db, room, after=after, before=before, limit=limit, member=member)
        shown = b",".join(record.json_for(me) for record in records)
        body = b'{"rolls":[%b],"last_seq":%d}' % (shown, found.last_seq)
        return Response(body, media_type="application/json")

    @app.post("/api/rooms/{room}/reveal")
    def reveal(room: str, authorization: Auth = None) -> dict[str, Any]:
        _, me = member_of(room, authorization)
        if not me.gm:
            raise Problem(403, "only the GM reveals the seed")
        revealed_seed = store.reveal(db, room)
        if not db.postgres:
            hub.publish_threadsafe(room, Event("reveal", data={"seeds": store.seed_list(db, room)}))
        return revealed_seed

    @app.get("/api/rooms/{room}/log")
    def log(room: str, authorization: Auth = None) -> StreamingResponse:
        _, me = member_of(room, authorization)
        start = exports.log_start(db, room)
        return StreamingResponse(exports.log_bytes(db, start, me), media_type="application/json")

    @app.get("/api/rooms/{room}/export", responses=EXPORTED)
    def export(
        room: str,
        authorization: Auth = None,
        format: Annotated[str, Query(pattern="^(json|csv)$")] = "json",
        member: str | None = None,
    ) -> StreamingResponse:
        found, me = member_of(room, authorization)
        name = f"fudgedice-{found.id}.{format}"
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        if format == "csv":
            rows = exports.rolls_csv(db, found, me, member)
            return StreamingResponse(
                rows, media_type="text/csv; charset=utf-8", headers=disposition
            )
        document = exports.rolls_json(db, found, me, member)
        return StreamingResponse(document, media_type="application/json", headers=disposition)

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
        found, me = await run_in_threadpool(member_of, room, authorization)
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

    return app


def allowed(app: FastAPI, request: Request) -> list[str]:
    """The methods some route answers at the request's path."""
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, Route) and route.matches(request.scope)[0] != Match.NONE:
            methods |= route.methods or set()
    return sorted(methods)


def address(request: Request) -> str:
    """The client's address, as the connection gives it (the table trusts no
    forwarding header: behind a proxy, every member shares the proxy's)."""
    return request.client.host if request.client else "unknown"


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The page runs only its own script files (nothing inline, nothing from
elsewhere) and loads nothing from elsewhere."""


EXPORTED: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "The rolls"}
}
"""``format=csv``'s answer, besides JSON's."""
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
