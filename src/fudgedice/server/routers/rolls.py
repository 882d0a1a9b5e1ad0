"""A room's rolls: making one (``POST .../rolls``, the request a table makes
most) and reading them a page at a time (``GET .../rolls``)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import ValidationError

from .. import making, store
from ..bodies import NewRoll, malformed
from ..problems import BUSY
from .shared import MAX_SEQ, Auth, Db, address

PAGE_LIMIT = 500
"""Rolls in one page of ``GET .../rolls`` at most (100 when not asked)."""

router = APIRouter()


class RollRoute(APIRoute):
    """A route documented from its endpoint's signature like any other
    (OpenAPI), whose arguments the route reads itself: the path's room, the
    Authorization header and the body validated from its bytes in one step.
    FastAPI's general handler (its dependency solver, a model per parameter)
    cost more CPU time than the roll itself. The endpoint is called as FastAPI
    would call it, its refusals answered by the app's exception handlers."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        endpoint = self.endpoint

        async def handle(request: Request) -> Response:
            try:
                body = NewRoll.model_validate_json(await request.body())
            except ValidationError as error:
                raise malformed(error.errors()) from None
            response: Response = await endpoint(
                room=request.path_params["room"],
                body=body,
                request=request,
                authorization=request.headers.get("authorization"),
            )
            return response

        return handle


async def make_roll(
    room: str, body: NewRoll, request: Request, authorization: Auth = None
) -> Response:
    # a roll drawn from the room's seed, kept, and answered once committed
    rolls: making.Rolls = request.app.state.rolls
    record = await rolls.make(room, body, authorization, address(request))
    return Response(record.full_json, 201, media_type="application/json")


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
