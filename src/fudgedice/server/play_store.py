"""Play at the table (docs/table.md, "Play"): each room's play state (scene
and situation aspects, compels, the GM pool, initiative) and the actions
that change it, each entered in the room's log.

An action holds the room (as a sheet's change does: :mod:`.sheet_store`)
from reading the state and the sheets to the commit: the log entry, the new
state and every sheet whose fate points it changed are one transaction, so
the log's ``seq`` has no gap and no sheet changes under an action unseen.
The room's sheets are read before the room is held; those that changed in
between are read again while it is held.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, func, insert, or_, select, update

from ..errors import DiceError
from ..log.entries import roll_label
from ..play.initiative import INITIATIVE, read_initiative
from ..sheets import Edit, Sheet, load_text
from .db import Database
from .kept import Member, RollRecord, json_text
from .problems import Problem
from .schema import play, rolls, sheets
from .sheet_store import SOURCE, Stored, advance, hold, read_all, read_held, store_sheet
from .store import insert_rolls, now, record_of


@dataclass(frozen=True)
class Held:
    """What an action is decided on, read while the room is held."""

    state: dict[str, Any] | None
    """The play state, None before the room's first action."""
    sheets: Mapping[str, Stored]
    """By member id, as they are while the room is held."""
    last_seq: int
    connection: Connection
    """For an action that reads the log (the initiative rolls)."""


@dataclass(frozen=True)
class Outcome:
    """An action decided: the new state, and what the log keeps of it."""

    state: dict[str, Any]
    entry: Callable[[str, int, str, str], dict[str, Any]]
    """The log entry, given the commitment, seq, prev hash and time."""
    result: dict[str, Any]
    """The record's result: what every member is shown of the action."""
    edits: Mapping[str, SheetEdit] = field(default_factory=dict)
    """The change it makes to each sheet it changes, by member id."""
    words: str = ""


SheetEdit = Callable[[Sheet], Edit | None]
"""A change of a sheet as it is when the room is held (None: it needs none;
a :class:`DiceError` if it no longer applies: 409)."""


def read_state(connection: Connection, room_id: str) -> tuple[dict[str, Any] | None, int]:
    """The room's play state and its version (None and 0: none yet)."""
    row = connection.execute(
        select(play.c.state, play.c.version).where(play.c.room_id == room_id)
    ).first()
    return (None, 0) if row is None else (json.loads(row.state), int(row.version))


def write_state(connection: Connection, room_id: str, state: dict[str, Any], version: int) -> None:
    """Store ``state`` over version ``version`` (0: the room's first)."""
    text = json_text(state)
    if version == 0:
        connection.execute(insert(play).values(room_id=room_id, state=text, version=1))
    else:
        connection.execute(
            update(play).where(play.c.room_id == room_id).values(state=text, version=version + 1)
        )


def read_play(db: Database, room_id: str) -> tuple[dict[str, Any] | None, list[Stored]]:
    """The room's play state and its sheets."""
    with db.read() as connection:
        state, _ = read_state(connection, room_id)
    return state, read_all(db, room_id)


def sheets_before(db: Database, room_id: str) -> dict[str, Stored]:
    """The room's sheets, read before the room is held (:func:`current`)."""
    return {stored.member: stored for stored in read_all(db, room_id)}


def current(
    connection: Connection, room_id: str, before: Mapping[str, Stored]
) -> dict[str, Stored]:
    """The room's sheets now: those read before the room was held, each read
    again if it changed since."""
    versions = connection.execute(
        select(sheets.c.member_id, sheets.c.version).where(sheets.c.room_id == room_id)
    ).all()
    found: dict[str, Stored] = {}
    for member_id, version in versions:
        kept = before.get(member_id)
        if kept is None or kept.version != version:
            kept = read_held(connection, room_id, member_id)
        if kept is not None:
            found[member_id] = kept
    return found


def commit_play(
    db: Database, room_id: str, actor: Member, decide: Callable[[Held], Outcome]
) -> RollRecord:
    """Decide an action on the room's state and sheets as they are, and store
    what it did: its entry in the log (public, by ``actor``), the new state,
    the sheets whose fate points it changed (each one version more)."""
    before = sheets_before(db, room_id)
    with db.write() as connection:
        row = hold(connection, room_id)
        state, version = read_state(connection, room_id)
        kept = current(connection, room_id, before)
        try:
            outcome = decide(Held(state, kept, row.last_seq, connection))
            record = play_record(row, actor, row.last_seq + 1, row.last_hash, outcome)
        except DiceError as error:  # the rules' refusals are PlayErrors: this is any other
            raise Problem(422, error.message, hint=error.hint) from None
        insert_rolls(connection, [record])
        write_state(connection, room_id, outcome.state, version)
        for member_id, edit in outcome.edits.items():
            _edit_sheet(connection, record, kept.get(member_id), edit)
        advance(connection, db, record)
    return record


def play_record(row: Any, actor: Member, seq: int, prev: str, outcome: Outcome) -> RollRecord:
    """The public entry ``seq`` of an action of ``actor``, in the room held (its ``row``)."""
    at = now()
    entry = outcome.entry(row.commitment, seq, prev, at)
    return RollRecord(
        row.id, seq, actor.id, actor.name, "public", row.epoch, row.commitment, None, "",
        outcome.words, None, None, outcome.result, at, None, entry["hash"], None, entry, None,
    )  # fmt: skip


def _edit_sheet(
    connection: Connection, record: RollRecord, kept: Stored | None, edit: SheetEdit
) -> None:
    """A sheet changed by an action of play, its comments kept, one version more."""
    if kept is None:
        raise Problem(409, "a character's sheet went under the action: try it again")
    try:
        made = edit(load_text(kept.text, SOURCE))
    except DiceError as error:
        raise Problem(409, error.message, hint="load the sheet again, then try it again") from None
    if made is not None:
        store_sheet(connection, record, kept.member, made.text, kept.version)


MAX_INITIATIVE_ROLLS = 2000
"""Initiative rolls read for one order: the latest of each roller and name."""


def initiative_rolls(connection: Connection, room_id: str, after: int) -> list[RollRecord]:
    """Each roller's latest public roll labelled ``initiative`` (or
    ``initiative: NAME``, one per name) after ``after``: the rolls a D6
    round is ordered by. A hidden roll orders nobody: the order would
    tell its total. The label is the roll's, whichever way it was given
    (``d6: 3D # initiative`` or the label beside the text): its entry in the
    log keeps both, and ``verify`` reads it with the same rule."""
    found = connection.execute(
        select(rolls)
        .where(
            rolls.c.room_id == room_id, rolls.c.seq > after, rolls.c.visibility == "public",
            rolls.c.error.is_(None),
            or_(
                func.lower(rolls.c.text).like(f"%#%{INITIATIVE}%"),
                func.lower(rolls.c.label).like(f"%{INITIATIVE}%"),
            ),
        )
        .order_by(rolls.c.seq.desc())
        .limit(MAX_INITIATIVE_ROLLS)
    ).all()  # fmt: skip
    latest: dict[tuple[str, str], RollRecord] = {}
    for row in found:
        record = record_of(row)
        label = roll_label(record.text, record.label)
        counts, _ = read_initiative(label)
        if counts and record.result.get("kind") in (None, "spend"):
            latest.setdefault((record.member, label.lower()), record)
    return sorted(latest.values(), key=lambda record: record.seq)


def roll_at(connection: Connection, room_id: str, seq: int) -> RollRecord | None:
    """The room's entry ``seq``, if there is one."""
    row = connection.execute(
        select(rolls).where(rolls.c.room_id == room_id, rolls.c.seq == seq)
    ).first()
    return None if row is None else record_of(row)


MAX_CHAIN = 100
"""Spends followed back from a roll to the first roll of its chain."""


def chain_back(connection: Connection, room_id: str, record: RollRecord) -> Iterator[RollRecord]:
    """``record``, then the roll or spend each spend was made on, back to the
    first roll of its chain (at most :data:`MAX_CHAIN` steps back)."""
    yield record
    for _ in range(MAX_CHAIN):
        back = record.result.get("of") if record.result.get("kind") == "spend" else None
        found = roll_at(connection, room_id, back) if isinstance(back, int) else None
        if found is None:
            return
        record = found
        yield record


def root_of(connection: Connection, room_id: str, record: RollRecord) -> int:
    """The first roll of the chain of spends that led to ``record``."""
    *_, root = chain_back(connection, room_id, record)
    return root.seq
