"""Talk at the table over HTTP (docs/table.md, "Talk"): ``POST .../talk``, a
short message entered in the room's log beside the rolls, with a roll's
visibilities and ``whisper`` (its sender and one other member). It is read
where rolls are (``GET .../rolls``, the live feed, the log and the exports)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ...errors import DiceError
from ...log.talk_entries import checked_talk
from .. import keys, making, store
from ..bodies import NewTalk
from ..db import Database
from ..kept import Member
from ..live import Event
from ..problems import REFUSED, Problem
from ..talk_store import commit_talk
from .shared import Auth, Db, Feeds, IdempotencyKey, TableRolls, address, announce

router = APIRouter(responses=REFUSED)


@router.post("/api/rooms/{room}/talk", status_code=201)
async def talk(
    room: str,
    body: NewTalk,
    request: Request,
    db: Db,
    hub: Feeds,
    rolls: TableRolls,
    authorization: Auth = None,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    # A message in the room's log, answered as its sender sees it (sent again
    # with its Idempotency-Key: the message that key made).
    me, _ = await rolls.member(room, authorization)
    visibility = making.shown_as(body.visibility, me)
    try:
        text = checked_talk(body.text)
    except DiceError as error:
        raise Problem(400, error.message) from None
    key = keys.key_of(idempotency_key, "talk", text, visibility, body.to)
    said = await run_in_threadpool(keys.answered, db, room, me, key)
    if said is not None:
        return Response(said.json_for(me), 201, media_type="application/json")
    rolls.take(me, address(request))
    to = await run_in_threadpool(_recipient, db, me, visibility, body.to)
    record = await run_in_threadpool(commit_talk, db, room, me, text, visibility, to, key)
    announce(db, hub, room, Event("rolls", [record]))
    return Response(record.json_for(me), 201, media_type="application/json")


def _recipient(db: Database, me: Member, visibility: str, to: str | None) -> Member | None:
    """The member a whisper is to: another member of the sender's room."""
    if visibility != "whisper":
        if to is not None:
            raise Problem(400, "only a whisper is to someone", hint="send visibility 'whisper'")
        return None
    if to is None:
        raise Problem(400, "a whisper is to one member: give their id as to")
    if to == me.id:
        raise Problem(400, "a whisper is to another member, not to oneself")
    found = next((each for each in store.room_members(db, me.room) if each.id == to), None)
    if found is None:
        raise Problem(400, "no such member in this room to whisper to")
    return found
