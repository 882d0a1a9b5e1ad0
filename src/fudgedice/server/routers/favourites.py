"""A member's favourite rolls: read and replaced whole, by the member alone
(:mod:`..favourites`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from .. import favourites, making
from ..bodies import Body
from ..problems import REFUSED
from .shared import Auth, Db, TableRolls, address

router = APIRouter(responses=REFUSED)


class FavouriteRoll(Body):
    text: str
    label: str | None = None


class FavouriteList(Body):
    favourites: list[FavouriteRoll]


def _listed(kept: list[favourites.Favourite]) -> dict[str, Any]:
    return {"favourites": [each.to_dict() for each in kept], "max": favourites.MAX_FAVOURITES}


@router.get("/api/rooms/{room}/favourites")
def get_favourites(room: str, db: Db, authorization: Auth = None) -> dict[str, Any]:
    """The favourite rolls of the member whose token it is: theirs alone."""
    _, me = making.member_of(db, room, authorization)
    return _listed(favourites.read(db, room, me.id))


@router.put("/api/rooms/{room}/favourites")
def put_favourites(
    room: str,
    body: FavouriteList,
    request: Request,
    db: Db,
    rolls: TableRolls,
    authorization: Auth = None,
) -> dict[str, Any]:
    """The member's list replaced by the one sent, each text checked as a roll
    of the room's system; the list as kept comes back. A change is counted in
    the member's and the address's allowance of rolls as the rolls it reads:
    one a text the list did not hold (at least one; a roll's text costs as
    much to read, and one request may send 30)."""
    found, me = making.member_of(db, room, authorization)
    given = [(each.text, each.label) for each in body.favourites]
    known = frozenset(each.text for each in favourites.read(db, room, me.id))
    rolls.take(me, address(request), favourites.new_texts(given, known))
    kept = favourites.checked(given, found.system, known)
    favourites.store(db, room, me.id, kept)
    return _listed(kept)
