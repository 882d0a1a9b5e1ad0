"""A room's members: joining it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from .. import rolling, store
from ..bodies import NewMember
from ..live import Event
from ..problems import REFUSED
from .shared import Addresses, Db, Feeds, address, announce

router = APIRouter(responses=REFUSED)


@router.post("/api/rooms/{room}/members", status_code=201)
def join(
    room: str, body: NewMember, request: Request, db: Db, hub: Feeds, addresses: Addresses
) -> dict[str, Any]:
    # A new player and their token; each address's new members are bounded.
    addresses.take(f"joins {address(request)}")
    member, token = store.join(db, room, rolling.name(body.name))
    announce(db, hub, room, Event("member", data={"member": member.id}))
    return {"member": member.id, "name": member.name, "token": token, "gm": False}
