"""The table's character sheets over HTTP (docs/table.md, "Character sheets").

A member attaches a sheet (its TOML text, as ``fudgedice sheet`` reads it) to
themself; it is theirs and the GM's: nobody else reads it. Its traits roll by
name (``fudgedice.sheets.resolve`` makes the roll's text, which is rolled and
logged like any other); its points are spent from a roll's card; every
change (attach, edit, raise, hit, heal, spend) is an entry of the room's log.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import StringConstraints
from starlette.concurrency import run_in_threadpool

from ... import sheets
from ...errors import DiceError
from ...log.canonical import DRAWLESS, RollVisibility
from ...log.spends import POINT_SYSTEMS
from ...sheets import fari
from ...sheets.model import points
from .. import keys, making, play_sheets, rolling, sheet_store, store
from ..bodies import MAX_INT, Body, NewRoll
from ..db import Database
from ..kept import OWN, Member, RollRecord
from ..live import Event, Hub
from ..play_table import MAX_NAME
from ..problems import BUSY, REFUSED, Problem, not_found, unprocessable
from ..sheet_pages import SheetJSON, SheetPages
from ..sheet_store import (
    SOURCE,
    Change,
    SheetProblem,
    Stored,
    checked,
    commit_change,
    commit_spend,
    points_of,
    read,
    read_all,
)
from .shared import Auth, Db, Feeds, IdempotencyKey, Pages, TableRolls, address, announce

Seq = Annotated[int, Path(ge=1, le=MAX_INT)]
"""A roll's ``seq`` in a path: 1 or more, and no more than a column holds."""

MAX_AMOUNT = 1000
"""The largest hit, heal or spend a request may ask for."""


class SheetText(Body):
    text: str
    version: int = 0
    """The version this text replaces: 0 for a first sheet."""
    format: Literal["toml", "fari"] = "toml"
    """``fari``: ``text`` is a Fate character's ``.fari.json`` from Fari, kept
    as the sheet ``fudgedice sheet import`` makes of it."""


class SheetAction(Body):
    version: int
    trait: str | None = None
    amount: int | None = None
    track: str | None = None
    aspect: str | None = None
    what: str | None = None
    point: str | None = None
    count: int = 1
    by: Annotated[str, StringConstraints(max_length=MAX_NAME)] | None = None
    """A hit's: the member who inflicted it (default: who sends it)."""


class SheetRoll(Body):
    request: str
    visibility: RollVisibility = "public"
    client_seed: str | None = None


class RollSpend(Body):
    point: str
    version: int | None = None
    """The roller's sheet's version, as their page knows it (checked if given)."""
    aspect: Annotated[str, StringConstraints(max_length=MAX_NAME)] | None = None
    """The aspect invoked: an aspect id of the room's play, or a character's aspect."""
    free: bool = False
    """A free invoke of the aspect, not a fate point."""


def summary(owner: Member, stored: Stored, shown: SheetJSON) -> dict[str, Any]:
    """A sheet as the page shows it: its text, and ``shown``
    (:func:`.sheet_pages.described`: its traits, points and page)."""
    return {
        "member": owner.id, "owner": owner.name, "version": stored.version, "text": stored.text,
        "updated_at": stored.updated_at, "sheet": shown,
    }  # fmt: skip


router = APIRouter(responses=REFUSED)


def _shown(
    pages: SheetPages, room: str, owner: Member, stored: Stored, request: Request
) -> dict[str, Any]:
    """A sheet after a change (made already): its page, or why not now."""
    return summary(owner, stored, pages.listed(room, [stored], address(request))[0])


@router.get("/api/rooms/{room}/sheets")
def list_sheets(
    room: str, request: Request, db: Db, pages: Pages, authorization: Auth = None
) -> dict[str, Any]:
    _, me = making.member_of(db, room, authorization)
    members = {m.id: m for m in store.room_members(db, room)}
    kept = [s for s in read_all(db, room) if me.gm or s.member == me.id]
    found = pages.listed(room, kept, address(request))
    listed = zip(kept, found, strict=True)
    return {"sheets": [summary(members[s.member], s, shown) for s, shown in listed]}


@router.get("/api/rooms/{room}/members/{member}/sheet", response_model=None)
def get_sheet(
    room: str,
    member: str,
    request: Request,
    db: Db,
    pages: Pages,
    authorization: Auth = None,
    format: Annotated[str, Query(pattern="^(json|fari)$")] = "json",
) -> dict[str, Any] | Response:
    """The sheet as the page shows it; ``?format=fari``: as a Fari character,
    the ``.fari.json`` file Fari imports."""
    _, owner = _owner_of(db, room, authorization, member)
    stored = read(db, room, owner.id)
    if stored is None:
        raise not_found(f"{owner.name} has no sheet attached")
    if format == "fari":
        return _fari_file(stored)
    return summary(owner, stored, pages.shown(room, stored, address(request)))


def _fari_file(stored: Stored) -> Response:
    """A Fate sheet as the ``.fari.json`` Fari imports, or the 422 that says why not."""
    try:
        sheet = sheets.load_text(stored.text, SOURCE)
        text = fari.export_fari(sheet)
    except DiceError as error:
        raise SheetProblem(error) from None
    name = quote(f"{sheet.name}.fari.json", safe="")
    disposition = f"attachment; filename=\"character.fari.json\"; filename*=UTF-8''{name}"
    return Response(text, media_type="application/json",
                    headers={"Content-Disposition": disposition})  # fmt: skip


def _from_fari(text: str) -> str:
    """A Fari character's sheet, or the 422 that says what is wrong with the file."""
    try:
        return fari.import_fari(text, "character.fari.json")
    except DiceError as error:
        raise SheetProblem(error) from None


@router.put("/api/rooms/{room}/members/{member}/sheet")
def put_sheet(
    room: str,
    member: str,
    body: SheetText,
    request: Request,
    db: Db,
    hub: Feeds,
    rolls: TableRolls,
    pages: Pages,
    authorization: Auth = None,
) -> dict[str, Any]:
    me, owner = _owner_of(db, room, authorization, member)
    rolls.limiter.take(me.id)
    text = _from_fari(body.text) if body.format == "fari" else body.text
    sheet = checked(text)
    action = "attach" if body.version == 0 else "edit"
    verb = "attached" if action == "attach" else "edited"
    line = f"{me.name} {verb} the sheet of {sheet.name} ({sheet.system})"
    if body.format == "fari":
        line += ", from Fari"
    change = Change(text, action, sheet.name, (line,))
    record, stored = commit_change(db, room, owner, me, body.version, change)
    _publish(db, hub, record)
    return {**_shown(pages, room, owner, stored, request), "seq": record.seq}


# before the route of every other action, which would take "roll" for one
@router.post("/api/rooms/{room}/members/{member}/sheet/roll", status_code=201, responses=BUSY)
async def roll_trait(
    room: str,
    member: str,
    body: SheetRoll,
    request: Request,
    db: Db,
    rolls: TableRolls,
    authorization: Auth = None,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    # A trait of one's own sheet rolled by name (blind: its placeholder, and the sheet's notes).
    me, _ = await rolls.member(room, authorization)
    if member != me.id:
        raise Problem(403, "a member rolls their own sheet's traits")
    asked = rolling.name(body.request, "a roll request", rolling.MAX_TEXT)
    stored = await run_in_threadpool(read, db, room, me.id)
    if stored is None:
        raise unprocessable("attach a sheet first: its traits roll by name")
    plan = await run_in_threadpool(_plan, stored.text, asked)
    text = NewRoll(text=plan.text, visibility=body.visibility, client_seed=body.client_seed)
    me, record = await rolls.make(room, text, authorization, address(request), idempotency_key)
    return JSONResponse({**record.for_viewer(me), "notes": list(plan.notes)}, 201)


@router.post("/api/rooms/{room}/members/{member}/sheet/{action}")
def change_sheet(
    room: str,
    member: str,
    action: str,
    body: SheetAction,
    request: Request,
    db: Db,
    hub: Feeds,
    rolls: TableRolls,
    pages: Pages,
    authorization: Auth = None,
) -> dict[str, Any]:
    me, owner = _owner_of(db, room, authorization, member)
    rolls.limiter.take(me.id)
    stored = read(db, room, owner.id)
    if stored is None:
        raise not_found(f"{owner.name} has no sheet attached")
    if body.by is not None:
        _inflicter(db, room, body.by)
    sheet = checked(stored.text)
    edit = _edit(sheet, action, body)
    lines = edit.log if me.id == owner.id else (*edit.log, f"(by {me.name})")
    change = Change(edit.text, action, edit.sheet.name, lines)
    consequences = play_sheets.taken(sheet, edit.sheet) if action == "hit" else {}
    healed = play_sheets.healed(sheet, edit.sheet) if action == "heal" else []
    if consequences or healed:  # each an aspect of the table's play, made or gone
        # a player who marks their own hit does not say who inflicted it: the GM's word
        by = body.by or (None if me.id == owner.id else me.id)
        plays = (
            play_sheets.hit_plays(owner.id, consequences, by)
            if consequences
            else play_sheets.heal_plays(owner.id, healed)
        )
        records, kept = play_sheets.commit_with_play(
            db, room, owner, me, body.version, change, plays
        )
        record = records[0]
        _publish(db, hub, *records)
    else:
        record, kept = commit_change(db, room, owner, me, body.version, change)
        _publish(db, hub, record)
    shown = _shown(pages, room, owner, kept, request)
    return {**shown, "seq": record.seq, "log": list(edit.log)}


def _owner_of(
    db: Database, room: str, authorization: str | None, member: str
) -> tuple[Member, Member]:
    """The reader and the sheet's owner: the owner themself or the GM."""
    _, me = making.member_of(db, room, authorization)
    owner = next((m for m in store.room_members(db, room) if m.id == member), None)
    if owner is None:
        raise not_found("no such member in this room")
    if me.id != owner.id and not me.gm:
        raise Problem(403, "a player's sheet is theirs and the GM's: nobody else reads it")
    return me, owner


def _inflicter(db: Database, room: str, member: str) -> None:
    if all(each.id != member for each in store.room_members(db, room)):
        raise not_found("no such member in this room: by names who inflicted the hit")


def _publish(db: Database, hub: Hub, *records: RollRecord) -> None:
    """A sheet's change to the room's live feeds."""
    announce(db, hub, records[0].room, Event("rolls", list(records)))


@router.post("/api/rooms/{room}/rolls/{seq}/spend", status_code=201)
def spend_on_roll(
    room: str,
    seq: Seq,
    body: RollSpend,
    db: Db,
    hub: Feeds,
    rolls: TableRolls,
    authorization: Auth = None,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    # A point of the roller's sheet spent on a roll of theirs (sent again: the spend its key made).
    _, me = making.member_of(db, room, authorization)
    key = keys.key_of(idempotency_key, "spend", seq, body.model_dump())
    if (again := sheet_store.spent_again(db, room, me, key)) is not None:
        return JSONResponse(again, 201)
    rolls.limiter.take(me.id)
    found = store.list_rolls(db, room, after=seq - 1, limit=1) if seq >= 1 else []
    if not found or found[0].seq != seq:
        raise not_found(f"no roll {seq} in this room")
    of = found[0]
    if of.member != me.id:
        raise Problem(403, "only its roller spends points on a roll")
    if of.result.get("kind") in DRAWLESS:
        raise unprocessable(f"entry {seq} is a {of.result['kind']} entry, not a roll")
    if not of.visible_to(me):
        raise Problem(403, f"roll {seq} is blind: the GM reads it, its roller spends nothing")
    if body.aspect is not None:
        record, answer = play_sheets.spend_invoke(
            db, room, of, me, body.point, body.aspect, body.free, body.version, key
        )
        _publish(db, hub, record)
        return JSONResponse(answer, 201)
    if body.free:
        raise unprocessable("a free invoke names its aspect")
    if body.point not in POINT_SYSTEMS:
        raise unprocessable(
            f"'{body.point}' is no point spent on a roll",
            hint="cp (D6: a Character Point die), invoke (Fate: +2), reroll (Fate)",
        )
    stored = read(db, room, me.id)
    if stored is None:
        raise unprocessable("attach a sheet first: its points are what a roll spends")
    sheet = checked(stored.text)
    if sheet.system not in POINT_SYSTEMS[body.point]:
        raise unprocessable(
            f"a {body.point} is spent from a {POINT_SYSTEMS[body.point][0]} sheet, "
            f"and {sheet.name}'s is a {sheet.system} one"
        )
    kind = "cp" if body.point == "cp" else "fate"
    try:
        edit = sheets.spend(sheet, kind, 1)
    except DiceError as error:
        raise SheetProblem(error) from None
    based_on = stored.version if body.version is None else body.version
    shown = _spent(sheet, kind, edit, f"{_WHAT[body.point]} on roll {seq}")
    record, kept = commit_spend(db, room, of, body.point, based_on, edit.text, shown, key=key)
    _publish(db, hub, record)
    assert kept is not None  # a paid point changes the sheet
    answer = {**record.own(), "sheet_version": kept.version, "points": points_of(edit.sheet)}
    return JSONResponse(answer, 201)


_WHAT = {"cp": "a Character Point die", "invoke": "an invoke for +2", "reroll": "a reroll invoke"}


def _spent(sheet: sheets.Sheet, kind: str, edit: sheets.Edit, what: str) -> dict[str, Any]:
    """A spend's words: to everyone who sees the roll, the point and what it
    bought (``1 Fate Point spent: an invoke for +2 on roll 4``); to its roller
    and the GM alone, the character and the points left (``Bob spent 1 Fate
    Point (2 left): ...``), as the sheet itself is theirs alone."""
    spent = points(sheets.SPENDABLE[sheet.system][kind], 1)
    return {"spent": f"{spent} spent: {what}", OWN: {"spent": f"{edit.log[0]}: {what}"}}


def _plan(text: str, request: str) -> sheets.Plan:
    """The roll text of a trait by name: a bad request is the roll language's
    400 (its column in the request); a sheet that can't roll it, a 422."""
    sheet = checked(text)
    try:
        return sheets.resolve(request, [sheet])
    except sheets.SheetError as error:
        raise SheetProblem(error) from None
    except DiceError as error:
        raise Problem.from_dice(error) from None


def _edit(sheet: sheets.Sheet, action: str, body: SheetAction) -> sheets.Edit:
    """``sheet raise``, ``hit``, ``heal`` or ``spend``, as the command line makes them."""
    for amount in (body.amount, body.count):
        if amount is not None and not 0 <= amount <= MAX_AMOUNT:
            raise unprocessable(f"an amount is 0 to {MAX_AMOUNT}, not {amount}")
    try:
        if action == "raise":
            if not body.trait:
                raise unprocessable("name the trait to raise")
            return sheets.raise_trait(sheet, body.trait)
        if action == "hit":
            if body.amount is None:
                raise unprocessable("give the hit's amount")
            return sheets.hit(sheet, body.amount, body.track, body.aspect)
        if action == "heal":
            return sheets.heal(sheet, body.what)
        if action == "spend":
            if not body.point:
                raise unprocessable("name the point to spend: fudge, fate, cp or fp")
            return sheets.spend(sheet, body.point, body.count)
    except DiceError as error:
        raise SheetProblem(error) from None
    raise Problem(404, f"no sheet action '{action}'", hint="raise, hit, heal, spend or roll")
