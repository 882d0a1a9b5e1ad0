"""A room's log (the document ``fudgedice verify`` reads) and its export
(JSON or CSV), each streamed a page of rolls at a time."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from .. import exports, making
from ..problems import REFUSED
from .shared import Auth, Db

EXPORTED: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "The rolls"}
}
"""``format=csv``'s answer, besides JSON's."""

router = APIRouter(responses=REFUSED)


@router.get("/api/rooms/{room}/log")
def log(room: str, db: Db, authorization: Auth = None) -> StreamingResponse:
    _, me = making.member_of(db, room, authorization)
    start = exports.log_start(db, room)
    return StreamingResponse(exports.log_bytes(db, start, me), media_type="application/json")


@router.get("/api/rooms/{room}/export", responses=EXPORTED)
def export(
    room: str,
    db: Db,
    authorization: Auth = None,
    format: Annotated[str, Query(pattern="^(json|csv)$")] = "json",
    member: str | None = None,
) -> StreamingResponse:
    found, me = making.member_of(db, room, authorization)
    name = f"fudgedice-{found.id}.{format}"
    disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
    if format == "csv":
        rows = exports.rolls_csv(db, found, me, member)
        return StreamingResponse(rows, media_type="text/csv; charset=utf-8", headers=disposition)
    document = exports.rolls_json(db, found, me, member)
    return StreamingResponse(document, media_type="application/json", headers=disposition)
