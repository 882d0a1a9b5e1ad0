"""The table's rooms over HTTP (docs/table.md): making one, reading it,
joining it, and reading its rolls, its seeds and its log."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import Response, StreamingResponse

from . import exports, making, rolling, store
from .bodies import MAX_INT, NewMember, NewRoom
from .db import Database
from .guards import RateLimit
from .live import Event, Hub
from .problems import Problem

PAGE_LIMIT = 500
"""Rolls in one page of ``GET .../rolls`` at most (100 when not asked)."""
MAX_SEQ = MAX_INT
"""The largest seq a database column holds: a larger ``after`` or ``before``
is a 422, not an overflow inside the driver."""

Auth = Annotated[str | None, Header()]
"""``Authorization: Bearer TOKEN``."""

EXPORTED: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "The rolls"}
}
"""``format=csv``'s answer, besides JSON's."""


def address(request: Request) -> str:
    """The client's address, as the connection gives it (the table trusts no
    forwarding header: behind a proxy, every member shares the proxy's)."""
    return request.client.host if request.client else "unknown"


def add_room_routes(app: FastAPI, db: Database, hub: Hub, addresses: RateLimit) -> None:
    """Making a room, reading it, joining it; ``addresses`` bounds each client
    address's new rooms and new members."""

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
        found, me = making.member_of(db, room, authorization)
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


def add_roll_reading_routes(app: FastAPI, db: Database, hub: Hub) -> None:
    """A room's rolls page by page, the seed's reveal, the log and the export."""

    @app.get("/api/rooms/{room}/rolls")
    def list_rolls(
        room: str,
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

    @app.post("/api/rooms/{room}/reveal")
    def reveal(room: str, authorization: Auth = None) -> dict[str, Any]:
        _, me = making.member_of(db, room, authorization)
        if not me.gm:
            raise Problem(403, "only the GM reveals the seed")
        revealed_seed = store.reveal(db, room)
        if not db.postgres:
            hub.publish_threadsafe(room, Event("reveal", data={"seeds": store.seed_list(db, room)}))
        return revealed_seed

    @app.get("/api/rooms/{room}/log")
    def log(room: str, authorization: Auth = None) -> StreamingResponse:
        _, me = making.member_of(db, room, authorization)
        start = exports.log_start(db, room)
        return StreamingResponse(exports.log_bytes(db, start, me), media_type="application/json")

    @app.get("/api/rooms/{room}/export", responses=EXPORTED)
    def export(
        room: str,
        authorization: Auth = None,
        format: Annotated[str, Query(pattern="^(json|csv)$")] = "json",
        member: str | None = None,
    ) -> StreamingResponse:
        found, me = making.member_of(db, room, authorization)
        name = f"fudgedice-{found.id}.{format}"
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        if format == "csv":
            rows = exports.rolls_csv(db, found, me, member)
            return StreamingResponse(
                rows, media_type="text/csv; charset=utf-8", headers=disposition
            )
        document = exports.rolls_json(db, found, me, member)
        return StreamingResponse(document, media_type="application/json", headers=disposition)
