"""Play at the table over HTTP (docs/table.md, "Play"): the GM's aspects,
fate points, compels, scenes and sessions, a player's advantages and
answers to compels, a conflict's initiative. Each action is one entry of the
room's log, public, and the state it leaves is every member's to read.

The rules are :mod:`fudgedice.play`'s: this module reads the body, builds
the table an action is decided on (:mod:`..play_table`) and stores what it
did (:mod:`..play_store`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field, StringConstraints

from .. import making, play_table, store
from ..bodies import MAX_INT, Body
from ..live import Event
from ..play_store import commit_play, read_play
from ..problems import REFUSED
from .shared import Auth, Db, Feeds, TableRolls, announce

Name = Annotated[str, StringConstraints(max_length=play_table.MAX_NAME)]
"""An aspect's name, a member id, an NPC's name, an aspect or compel id."""
Words = Annotated[str, StringConstraints(max_length=play_table.MAX_WORDS)]
"""Why, or a compel's text."""


class PlayAction(Body):
    """One action of play: ``action`` names it, the other fields are its
    arguments (docs/table.md, "Play")."""

    action: Annotated[str, StringConstraints(max_length=20)]
    name: Name | None = None
    free: Annotated[int, Field(ge=0, le=2)] | None = None
    boost: bool = False
    of: Annotated[int, Field(ge=1, le=MAX_INT)] | None = None
    aspect: Name | None = None
    member: Name | None = None
    count: Annotated[int, Field(ge=1, le=play_table.MAX_COUNT)] | None = None
    why: Words | None = None
    text: Words | None = None
    compel: Name | None = None
    mode: Annotated[str, StringConstraints(max_length=20)] | None = None
    order: Annotated[list[Name], Field(max_length=play_table.MAX_ORDER)] | None = None
    npcs: Annotated[list[Name], Field(max_length=play_table.MAX_ORDER)] | None = None
    conceded: Annotated[list[Name], Field(max_length=play_table.MAX_ORDER)] | None = None
    to: Name | None = None
    holder: Name | None = None


router = APIRouter(responses=REFUSED)


@router.get("/api/rooms/{room}/play")
def get_play(room: str, db: Db, authorization: Auth = None) -> dict[str, Any]:
    # The room's play state and its characters' public part, for any member.
    found, me = making.member_of(db, room, authorization)
    state, kept = read_play(db, room)
    members = store.room_members(db, room)
    return play_table.shown(found.system, state, kept, members, me)


@router.post("/api/rooms/{room}/play", status_code=201)
def play_action(
    room: str, body: PlayAction, db: Db, hub: Feeds, rolls: TableRolls, authorization: Auth = None
) -> JSONResponse:
    _, me = making.member_of(db, room, authorization)
    rolls.limiter.take(me.id)
    members = store.room_members(db, room)
    action = body.model_dump(exclude_none=True)
    decide = play_table.Decision(me, members, action)
    record = commit_play(db, room, me, decide)
    announce(db, hub, room, Event("rolls", [record]))
    answer = {"seq": record.seq, "play": record.result["play"], "lines": record.result["lines"]}
    return JSONResponse(answer, 201)
