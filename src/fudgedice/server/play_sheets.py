"""Play through a sheet's routes (docs/table.md, "Play"): an invoke that
names its aspect on a roll (``POST .../rolls/{seq}/spend`` with ``aspect``),
and a consequence a Fate hit takes (``POST .../members/{member}/sheet/hit``).
Each changes the room's play state in the transaction of its entry.

An invoke is the spend's entry (as hidden as its roll): its aspect and
whether it was free are fields of the entry, seen by whoever sees the roll.
The state it leaves (an aspect's free invoke used, a boost gone) is the
table's: a hidden roll's placeholder carries it, and nothing of the dice. A
consequence is a public play entry of its own, next to the hit's; so is one
healed (``.../sheet/heal``), whose aspect leaves the table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any, Final

from .. import play, sheets
from ..errors import DiceError
from ..log.play_entries import spend_fields
from ..sheets import Sheet
from . import store
from .db import Database
from .kept import OWN, Member, RollRecord
from .keys import Key
from .play_store import (
    MAX_CHAIN,
    chain_back,
    current,
    play_record,
    read_state,
    sheets_before,
    write_state,
)
from .play_table import FATE_STATE, outcome, refused, table_of
from .problems import Problem, unprocessable
from .sheet_store import (
    Also,
    Besides,
    Change,
    SheetProblem,
    Stored,
    advance,
    checked,
    commit_spend,
    hold,
    read,
    sheet_record,
    store_sheet,
    version_of,
)
from .store import insert_rolls

INVOKES: Final = ("invoke", "reroll")
"""The points of an invoke: +2, or the dice again."""


def used_aspects(connection: Any, room_id: str, of: RollRecord) -> list[str]:
    """The aspects invoked on ``of``'s roll so far: along the chain of
    spends that led to it, each named once."""
    chain = islice(chain_back(connection, room_id, of), MAX_CHAIN)
    spent = (record.result for record in chain if record.result.get("kind") == "spend")
    return [result["aspect"] for result in spent if isinstance(result.get("aspect"), str)]


def _besides(
    db: Database,
    room_id: str,
    of: RollRecord,
    me: Member,
    aspect: str,
    free: bool,
    words: Callable[[str], dict[str, Any]],
) -> Besides:
    """The invoke's part of the spend's transaction: the rules' check, the
    state written, the entry's fields, its ``words`` (given the aspect's name)."""
    members = store.room_members(db, room_id)
    before = sheets_before(db, room_id)

    def besides(connection: Any, seq: int) -> Also:
        del seq
        state, version = read_state(connection, room_id)
        state = play.new_state() if state is None else state
        table = table_of(me, members, current(connection, room_id, before))
        try:
            played = play.invoke(state, aspect, free, table, used_aspects(connection, room_id, of))
        except play.PlayError as error:
            raise refused(error) from None
        if bool(played.points) != (OWN in words("")):  # a point of the sheet: its words say so
            raise Problem(409, "the sheet changed: load it again, then spend the point")
        shown = {key: played.args[key] for key in ("aspect", "aspect_id", "free")}
        shown.update(words(str(played.args["aspect"])))
        shown["lines"] = list(played.lines)
        if played.state != state:
            write_state(connection, room_id, played.state, version)
            shown["play"] = played.state
        return Also(spend_fields(played), shown)

    return besides


def spend_invoke(
    db: Database,
    room_id: str,
    of: RollRecord,
    me: Member,
    point: str,
    aspect: str,
    free: bool,
    version: int | None,
    key: Key | None = None,
) -> tuple[RollRecord, dict[str, Any]]:
    """An invoke of ``aspect`` on the roll ``of``: for free, or for a fate
    point of the roller's sheet (the GM without one: of the GM's pool);
    ``key`` the request's Idempotency-Key."""
    if point not in INVOKES:
        raise unprocessable(
            f"an aspect is invoked for +2 or a reroll, not with a {point}",
            hint="point: invoke or reroll",
        )
    stored = read(db, room_id, me.id)
    sheet = None if stored is None else checked(stored.text)
    if sheet is None and not me.gm:
        raise unprocessable("attach a sheet first: its fate points pay for an invoke")
    if sheet is not None and sheet.state != FATE_STATE:
        raise unprocessable(f"{sheet.name}'s {sheet.system} sheet keeps no Fate points to invoke")
    edit = None if free or sheet is None else _paid(sheet)
    based_on = (0 if stored is None else stored.version) if version is None else version
    what = "an invoke for +2" if point == "invoke" else "a reroll invoke"
    words = functools.partial(_words, free=free, edit=edit, what=f"{what} on roll {of.seq}")
    besides = _besides(db, room_id, of, me, aspect, free, words)
    record, kept = commit_spend(
        db, room_id, of, point, based_on, None if edit is None else edit.text, {}, besides, key
    )
    answer = {**record.own(), "sheet_version": None if kept is None else kept.version}
    if edit is not None:
        answer["points"] = {"fate_points": edit.sheet.count("fate_points")}
    return record, answer


def _paid(sheet: Sheet) -> sheets.Edit:
    try:
        return sheets.spend(sheet, "fate", 1)
    except DiceError as error:
        raise SheetProblem(error) from None


def _words(aspect: str, *, free: bool, edit: sheets.Edit | None, what: str) -> dict[str, Any]:
    """An invoke's words, as a spend's (routers.sheets): ``1 Fate Point
    spent: an invoke for +2 on roll 4 (On fire)``; the points left for its
    roller and the GM alone."""
    how = "a free invoke" if free else ("1 Fate Point" if edit else "a fate point of the GM's pool")
    words: dict[str, Any] = {"spent": f"{how} spent: {what} ({aspect})"}
    if edit is None:
        return words
    return {**words, OWN: {"spent": f"{edit.log[0]}: {what} ({aspect})"}}


# ------------------------------------------------------------------ consequences

Plays = Callable[[dict[str, Any]], list[tuple[str, play.Played]]]
"""What a sheet's change does to the play state: each step's action and
outcome, in order (each outcome's state the next step's)."""


def taken(before: Sheet, after: Sheet) -> dict[str, str]:
    """The consequences a hit took: slot -> name, each slot newly filled."""
    was = before.consequences()
    return {slot: name for slot, name in after.consequences().items() if was.get(slot) != name}


def healed(before: Sheet, after: Sheet) -> list[str]:
    """The consequence slots a heal cleared."""
    now = after.consequences()
    return [slot for slot in before.consequences() if slot not in now]


def hit_plays(member: str, consequences: Mapping[str, str], by: str | None) -> Plays:
    """A Fate hit's consequences: each an aspect with 1 free invoke for ``by``
    (the member who inflicted it; None: anyone, at the GM's word)."""

    def plays(state: dict[str, Any]) -> list[tuple[str, play.Played]]:
        made = []
        for slot, name in consequences.items():
            played = play.consequence(state, member, slot, name, by)
            made.append((play.CONSEQUENCE, played))
            state = played.state
        return made

    return plays


def heal_plays(member: str, slots: list[str]) -> Plays:
    """Consequences healed: their aspects leave the table (none there, as a
    consequence written by hand: nothing to do)."""

    def plays(state: dict[str, Any]) -> list[tuple[str, play.Played]]:
        if not any(play.consequence_of(state, member, slot) for slot in slots):
            return []
        return [(play.RECOVER, play.recover(state, member, slots))]

    return plays


def commit_with_play(
    db: Database,
    room_id: str,
    owner: Member,
    actor: Member,
    based_on: int,
    change: Change,
    plays: Plays,
) -> tuple[list[RollRecord], Stored]:
    """A sheet's change (as :func:`.sheet_store.commit_change` makes it) and,
    next in the log, a play entry for each step of ``plays`` (a hit's
    consequences taken, a heal's recovered), in one transaction."""
    with db.write() as connection:
        row = hold(connection, room_id)
        version = version_of(connection, room_id, owner.id, based_on)
        records = [sheet_record(row, owner, actor, change, version + 1)]
        state, state_version = read_state(connection, room_id)
        try:
            steps = plays(play.new_state() if state is None else state)
            for action, played in steps:
                last, logged = records[-1], outcome(actor, action, played)
                records.append(play_record(row, actor, last.seq + 1, last.hash, logged))
        except play.PlayError as error:
            raise refused(error) from None
        except DiceError as error:
            raise Problem(422, error.message, hint=error.hint) from None
        insert_rolls(connection, records)
        stored = store_sheet(connection, records[0], owner.id, change.text, version)
        if steps:
            write_state(connection, room_id, steps[-1][1].state, state_version)
        advance(connection, db, records[-1], records[0].seq)
    return records, stored
