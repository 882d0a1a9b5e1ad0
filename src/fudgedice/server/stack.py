"""What every request of the table passes, whichever router answers it: the
middleware (:mod:`.guards`, :mod:`.inputs`) and the exception handlers that
answer each refusal as ``{"error": ...}`` JSON, the database out of reach
too (:mod:`.outage`)."""

from __future__ import annotations

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException
from starlette.routing import Match, Route

from .bodies import malformed
from .guards import BodyLimit, NoStore, SecurityHeaders
from .inputs import PlainInput
from .outage import refusal, told, unreachable
from .problems import Problem


def add_guards(app: FastAPI) -> None:
    """The middleware, outermost first: :class:`.guards.SecurityHeaders` (on
    every answer, the framework's own 404s and errors included), ``NoStore``
    (``Cache-Control: no-store`` under ``/api/``), ``BodyLimit`` (413) and
    ``PlainInput`` (400 for what no route may read). Each is plain ASGI: a
    layer costs a call and a wrapped ``send``, not a task and a queue as
    Starlette's ``BaseHTTPMiddleware`` would."""
    app.add_middleware(PlainInput)  # innermost: every answer of the API wraps its refusals too
    app.add_middleware(BodyLimit)
    app.add_middleware(NoStore)
    app.add_middleware(SecurityHeaders)


def add_error_handlers(app: FastAPI) -> None:
    """Every refusal as ``{"error": ...}`` JSON, with its status; an error of
    the database, as the 503 of :mod:`.outage` if it is out of reach (from
    any route, on the event loop or a worker thread), else raised on to the
    500 it is."""
    app.add_exception_handler(Problem, _problem)  # type: ignore[arg-type]
    for error in (DBAPIError, PoolTimeout, psycopg.OperationalError):
        app.add_exception_handler(error, _database)
    app.add_exception_handler(RequestValidationError, _malformed)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http)  # type: ignore[arg-type]


async def _problem(_: Request, problem: Problem) -> JSONResponse:
    headers = {"Retry-After": "1"} if problem.status in (429, 503) else None
    return JSONResponse(problem.body(), problem.status, headers=headers)


async def _database(request: Request, error: Exception) -> JSONResponse:
    if not unreachable(error):
        raise error  # a statement that is wrong: the server's fault, and its traceback
    told(error)
    return await _problem(request, refusal())


async def _malformed(_: Request, error: RequestValidationError) -> JSONResponse:
    return JSONResponse(malformed(error.errors()).body(), 422)


async def _http(request: Request, error: HTTPException) -> JSONResponse:
    headers = error.headers
    if error.status_code == 405:  # every method of the path, not only its first route's
        headers = {**(headers or {}), "Allow": ", ".join(allowed(request))}
    return JSONResponse({"error": str(error.detail)}, error.status_code, headers=headers)


def allowed(request: Request) -> list[str]:
    """The methods some route of the request's app answers at its path."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        if isinstance(route, Route) and route.matches(request.scope)[0] != Match.NONE:
            methods |= route.methods or set()
    return sorted(methods)
