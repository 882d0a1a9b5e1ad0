"""Rooms: making one, reading one, the GM's reveal of its seed, and the GM's
deletion of the room."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from .. import deleting, making, rolling, store
from ..bodies import NewRoom
from ..live import Event
from ..problems import REFUSED, Problem, not_found
from .shared import Addresses, Auth, Db, Feeds, TableRolls, address, announce

router = APIRouter(responses=REFUSED)


@router.post("/api/rooms", status_code=201)
def create_room(body: NewRoom, request: Request, db: Db, addresses: Addresses) -> dict[str, Any]:
    # A room, its GM and the GM's token; each address's new rooms are bounded.
    addresses.take(f"rooms {address(request)}")
    name = rolling.name(body.name, "a room's name")
    system = rolling.system_name(body.system)
    room, gm, token = store.create_room(db, name, system, rolling.name(body.gm_name))
    return {
        "room": room.id, "name": room.name, "system": room.system, "gm_token": token,
        "member": gm.id, "commitment": room.commitment,
        "url": f"{str(request.base_url).rstrip('/')}/r/{room.id}",
    }  # fmt: skip


@router.get("/api/rooms/{room}")
def room_info(room: str, db: Db, authorization: Auth = None) -> dict[str, Any]:
    found, me = making.member_of(db, room, authorization)
    return {
        "room": found.id, "name": found.name, "system": found.system,
        "commitment": found.commitment, "epoch": found.epoch, "last_seq": found.last_seq,
        "me": me.to_dict(), "members": [m.to_dict() for m in store.room_members(db, room)],
        "seeds": store.seed_list(db, room),
    }  # fmt: skip


@router.post("/api/rooms/{room}/reveal")
def reveal(room: str, db: Db, hub: Feeds, authorization: Auth = None) -> dict[str, Any]:
    _, me = making.member_of(db, room, authorization)
    if not me.gm:
        raise Problem(403, "only the GM reveals the seed")
    revealed_seed = store.reveal(db, room)
    announce(db, hub, room, Event("reveal", data={"seeds": store.seed_list(db, room)}))
    return revealed_seed


@router.delete("/api/rooms/{room}")
def delete_room(
    room: str, db: Db, hub: Feeds, rolls: TableRolls, authorization: Auth = None
) -> dict[str, Any]:
    # Every row of the room, in one transaction; its live feeds told and ended.
    # Exporting its log first is the GM's to do (GET .../log).
    _, me = making.member_of(db, room, authorization)
    if not me.gm:
        raise Problem(403, "only the GM deletes the room")
    if not deleting.delete_room(db, room):
        raise not_found()  # deleted meanwhile, by another request or --keep-days
    deleting.forget(db, hub, rolls.members, room)
    return {"room": room, "deleted": True}
