"""A room's rolls: making one (``POST .../rolls``, the request a table makes
most) and reading them a page at a time (``GET .../rolls``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.types import Receive, Scope, Send

from .. import making, store
from ..bodies import NewRoll, malformed
from ..drawing import FailedRoll
from ..problems import BUSY, REFUSED, Problem
from .shared import MAX_SEQ, Auth, Db, IdempotencyKey, address

PAGE_LIMIT = 500
"""Rolls in one page of ``GET .../rolls`` at most (100 when not asked)."""

router = APIRouter(responses=REFUSED)


class RollRoute(APIRoute):
    """A route documented from its endpoint's signature like any other
    (OpenAPI), which reads its arguments itself: the path's room, the
    Authorization header, and the body validated from its bytes in one step.
    FastAPI's general handler (its dependency solver, a model a parameter,
    two exit stacks and an exception wrapper a request) cost more CPU time
    than the roll itself. The request has passed the app's middleware and its
    router as every other has; a refusal raised here is answered by the
    app's exception handlers (:mod:`..stack`), as every other route's is."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] != "POST":  # a 405, as FastAPI answers it
            await super().handle(scope, receive, send)
            return
        raw = await _body(receive)
        if raw is None:
            return  # the client went away before its body was in: no one to answer
        try:
            body = NewRoll.model_validate_json(raw)
        except ValidationError as error:
            raise malformed(error.errors()) from None
        response: Response = await self.endpoint(
            room=scope["path_params"]["room"],
            body=body,
            request=Request(scope, receive, send),
            authorization=_header(scope, b"authorization"),
            idempotency_key=_header(scope, b"idempotency-key"),
        )
        await response(scope, receive, send)


async def _body(receive: Receive) -> bytes | None:
    """The request's body, or None if the client left before sending it all."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _header(scope: Scope, name: bytes) -> str | None:
    """A header's value (``name`` in lower case, as ASGI gives it), or None."""
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


async def make_roll(
    room: str,
    body: NewRoll,
    request: Request,
    authorization: Auth = None,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    # a roll drawn from the room's seed, kept, and answered once committed
    # (sent again with its Idempotency-Key: the roll that key made)
    rolls: making.Rolls = request.app.state.rolls
    try:
        me, record = await rolls.make(room, body, authorization, address(request), idempotency_key)
    except Problem as problem:  # a failed roll is kept: the writer counted it
        if rolls.writer.metrics is not None and not isinstance(problem, FailedRoll):
            rolls.writer.metrics.refused()
        raise
    return Response(record.json_for(me), 201, media_type="application/json")


# the first route of the first router the app includes: the first it tries
router.add_api_route(
    "/api/rooms/{room}/rolls",
    make_roll,
    methods=["POST"],
    status_code=201,
    responses=BUSY,
    route_class_override=RollRoute,
)


@router.get("/api/rooms/{room}/rolls")
def list_rolls(
    room: str,
    db: Db,
    authorization: Auth = None,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    before: Annotated[int | None, Query(ge=1, le=MAX_SEQ)] = None,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT)] = 100,
    member: str | None = None,
) -> Response:
    found, me = making.member_of(db, room, authorization)
    records = store.list_rolls(db, room, after=after, before=before, limit=limit, member=member)
    shown = b",".join(record.json_for(me) for record in records)
    body = b'{"rolls":[%b],"last_seq":%d}' % (shown, found.last_seq)
    return Response(body, media_type="application/json")
