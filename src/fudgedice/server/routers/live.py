"""A room's live feed (Server-Sent Events), the server's health (liveness:
the process answers) and its readiness (its database answers)."""

from __future__ import annotations

import asyncio
import re
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from starlette.concurrency import run_in_threadpool

from .. import making
from ..db import READY_WITHIN
from ..feed import EventStream, live_feed
from ..outage import refusal
from ..problems import BUSY, REFUSED
from .shared import MAX_SEQ, Auth, Db, Feeds

LAST_EVENT_ID = re.compile(r"[0-9]{1,18}")
"""A Last-Event-ID the live feed resumes from (ASCII digits, below 2**63);
any other is ignored, as a browser's first connection sends none."""

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

router = APIRouter(responses=REFUSED)


@router.get(
    "/api/rooms/{room}/live", status_code=200, response_class=EventStream, responses=LIVE_FEED
)
async def live(
    room: str,
    db: Db,
    hub: Feeds,
    authorization: Auth = None,
    after: Annotated[int | None, Query(ge=0, le=MAX_SEQ)] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> EventStream:
    # what the reader missed since ``after`` (or Last-Event-ID), then the
    # room's events as they happen
    found, me = await run_in_threadpool(making.member_of, db, room, authorization)
    if after is None:
        resumed = last_event_id is not None and LAST_EVENT_ID.fullmatch(last_event_id)
        after = int(last_event_id) if resumed and last_event_id else found.last_seq
    return live_feed(db, hub, room, me, after)


@router.get("/api/health")
def health(db: Db, hub: Feeds) -> dict[str, Any]:
    # liveness: asks nothing of the database, so that a process is not
    # restarted for an outage a restart cannot mend
    return {"ok": True, "database": db.url.get_backend_name(), "watching": hub.watching()}


@router.get("/api/ready", responses=BUSY)
async def ready(db: Db) -> dict[str, Any]:
    """Readiness: 200 once the database answered a question, else the 503
    of an unreachable database, within a few seconds whatever the network does."""
    try:
        await asyncio.wait_for(run_in_threadpool(db.ping), READY_WITHIN + 1)
    except TimeoutError:
        raise refusal() from None
    return {"ok": True, "database": db.url.get_backend_name()}
