"""Character sheets at the table (docs/table.md, "Character sheets"): one a
member of a room, kept as its owner wrote it, and every change entered in the
room's log in the transaction that makes it.

A change holds the room (as a roll does: :mod:`.db`) from reading the sheet's
version to the commit, so the log's ``seq`` has no gap and a change made to
an older version of the sheet than the stored one is refused (409): two
pages editing one sheet never overwrite each other unseen. The work that may
take long (reading a sheet, a raise, the roll of a spend's new die) is done
before the room is held, or is as short as a roll's draw.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, update

from ..errors import DiceError
from ..log.sheet_entries import sheet_entry
from ..log.spends import spend_entry, spent_text
from ..sheets import Sheet, SheetError, load_text, without_balance
from ..sheets.model import POINTS
from .db import Database
from .inputs import unstorable_within
from .kept import Member, RollRecord
from .keys import Key, answered, claim_one
from .problems import Problem, not_found, unprocessable
from .schema import rolls, rooms, sheets
from .store import insert_rolls, notify, now, room_row

SOURCE = "sheet.toml"
"""How a sheet at the table is named in its errors (``sheet.toml:4:9: ...``)."""


@dataclass(frozen=True)
class Stored:
    """A member's sheet as kept: its text and version."""

    member: str
    text: str
    version: int
    updated_at: str


class SheetProblem(Problem):
    """A sheet that can't be read or used: 422 with the line and column."""

    def __init__(self, error: DiceError) -> None:
        super().__init__(422, error.message, position=error.position, hint=error.hint)
        self.line = error.line if isinstance(error, SheetError) else None
        self.column = error.column if isinstance(error, SheetError) else None

    def body(self) -> dict[str, Any]:
        body = super().body()
        if self.line is not None:
            body["line"], body["column"] = self.line, self.column or 1
        return body


def checked(text: str) -> Sheet:
    """The sheet of ``text``, or the 422 that says where it is wrong."""
    try:
        sheet = load_text(text, SOURCE)
    except DiceError as error:
        raise SheetProblem(error) from None
    # TOML's escapes write what the body's own text may not hold (\u0000)
    if (why := unstorable_within(sheet.values)) is not None:
        raise unprocessable(f"a sheet's names and texts {why}")
    return sheet


def read(db: Database, room_id: str, member_id: str) -> Stored | None:
    with db.read() as connection:
        return read_held(connection, room_id, member_id)


def read_held(connection: Connection, room_id: str, member_id: str) -> Stored | None:
    """A member's sheet as it is in the transaction of ``connection``."""
    row = connection.execute(
        select(sheets).where(sheets.c.room_id == room_id, sheets.c.member_id == member_id)
    ).first()
    return None if row is None else Stored(row.member_id, row.text, row.version, row.updated_at)


def read_all(db: Database, room_id: str) -> list[Stored]:
    with db.read() as connection:
        found = connection.execute(
            select(sheets).where(sheets.c.room_id == room_id).order_by(sheets.c.member_id)
        )
        return [Stored(row.member_id, row.text, row.version, row.updated_at) for row in found]


@dataclass(frozen=True)
class Change:
    """A sheet's new text and what happened, in words, for the log."""

    text: str
    action: str
    character: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Also:
    """What a change does besides, in its transaction (the play state it
    changes: :mod:`.play_store`): fields added to its log entry, and to its
    result (shown to whoever sees the entry, and in a hidden entry's
    placeholder under ``play``)."""

    fields: Mapping[str, Any]
    result: Mapping[str, Any]


Besides = Callable[[Connection, int], Also]
"""Called holding the room, with the new entry's seq: what else it does."""


def commit_change(
    db: Database, room_id: str, owner: Member, actor: Member, based_on: int, change: Change
) -> tuple[RollRecord, Stored]:
    """Store ``change`` to ``owner``'s sheet and enter it in the log as one
    sheet change (visible to the owner and the GM), if the stored sheet is
    still at version ``based_on`` (0: none yet)."""
    with db.write() as connection:
        row = hold(connection, room_id)
        version = version_of(connection, room_id, owner.id, based_on)
        record = sheet_record(row, owner, actor, change, version + 1)
        stored = _append(connection, db, record, owner.id, change.text, version)
    return record, stored


def sheet_record(
    row: Any, owner: Member, actor: Member, change: Change, version: int
) -> RollRecord:
    """The entry of ``change`` that leaves ``owner``'s sheet at ``version``,
    next in the log of the room held (its ``row``)."""
    seq, at = row.last_seq + 1, now()
    by = {} if actor.id == owner.id else {"by": actor.name}
    words = " ".join(change.lines)
    # the log keeps no points left: it is opened to all once its seed is
    # revealed, and the sheet's digest commits to them for its owner
    committed = " ".join(without_balance(line) for line in change.lines)
    entry, opening = sheet_entry(
        commitment=row.commitment, seq=seq, prev=row.last_hash, roller=owner.name,
        action=change.action, character=change.character, change=committed,
        sheet_text=change.text, at=at, extra_shown={"member": owner.id, **by},
    )  # fmt: skip
    result = {
        "kind": "sheet", "action": change.action, "character": change.character,
        "lines": list(change.lines), "version": version, "notation": None,
        "total": None, "label": None, **by,
    }  # fmt: skip
    return RollRecord(
        row.id, seq, owner.id, owner.name, entry.get("visibility", "gm"), row.epoch,
        row.commitment, None, "", words, None, None, result, at,
        None if opening is None else opening["salt"], entry["hash"], None, entry, opening,
    )  # fmt: skip


def commit_spend(
    db: Database,
    room_id: str,
    of: RollRecord,
    point: str,
    based_on: int,
    sheet_text: str | None,
    shown: Mapping[str, Any],
    besides: Besides | None = None,
    key: Key | None = None,
) -> tuple[RollRecord, Stored | None]:
    """Spend ``point`` on the roll ``of`` (the roller's own, under the seed in
    force) and store the roller's sheet with the point taken: one entry of
    the log, the roll made again from its own stream with the point in its
    text (:func:`fudgedice.log.spends.spend_entry`), as hidden as the roll.
    ``shown`` is added to its result: what was spent, in words, for all who
    see it, and (under :data:`.records.OWN`) for its roller and the GM.
    ``sheet_text`` None: the sheet stays as it is (a free invoke). ``key``:
    the request's Idempotency-Key, kept with the spend (:mod:`.keys`)."""
    own = of.opening["entry"] if of.opening is not None else of.entry
    if own is None:
        raise Problem(409, f"roll {of.seq} was made before rolls kept their log entry")
    with db.write() as connection:
        row = hold(connection, room_id)
        if row.epoch != of.epoch:
            raise Problem(
                409,
                f"the seed of roll {of.seq} is revealed: its next dice are known to all, "
                "so no point is spent on it now",
            )
        version = version_of(connection, room_id, of.member, based_on)
        _not_spent_yet(connection, of, str(own["text"]), point)
        seq, at = row.last_seq + 1, now()
        also = Also({}, {}) if besides is None else besides(connection, seq)
        labelled = {} if of.label is None else {"label": of.label}
        try:
            logged = spend_entry(
                server_seed=bytes.fromhex(row.seed), room=room_id, seq=seq, prev=row.last_hash,
                of=own, point=point, stream=row.stream, at=at, extra={**labelled, **also.fields},
            )  # fmt: skip
        except DiceError as error:
            raise Problem(422, error.message, hint=error.hint) from None
        assert logged.roll is not None  # a spend whose roll fails is refused
        result = {
            **logged.roll.to_dict(), "kind": "spend", "of": of.seq, "point": point, **shown,
            **also.result,
        }  # fmt: skip
        opening = logged.opening
        fields = logged.entry if opening is None else opening["entry"]
        record = RollRecord(
            room_id, seq, of.member, of.name, of.visibility, row.epoch, row.commitment, None,
            of.client_seed, fields["text"], of.label, None, result, at,
            None if opening is None else opening["salt"], logged.hash, None, logged.entry, opening,
        )  # fmt: skip
        claim_one(connection, record, key)
        if sheet_text is None:
            insert_rolls(connection, [record])
            advance(connection, db, record)
            return record, None
        stored = _append(connection, db, record, of.member, sheet_text, version)
    return record, stored


def _not_spent_yet(connection: Connection, of: RollRecord, text: str, point: str) -> None:
    """Refuses (409) a second ``point`` on the roll ``of``: it would draw the
    same dice again from the roll's stream and charge a point for nothing new.
    A further point follows the spend (its card), not the roll it replaced."""
    try:
        again = spent_text(text, point)
    except DiceError:
        return  # no such spend at all: spend_entry says why
    # a spend's text is its roll's with the point in it: only rows of that text can be one
    found = connection.execute(
        select(rolls.c.seq, rolls.c.result).where(
            rolls.c.room_id == of.room, rolls.c.member_id == of.member,
            rolls.c.seq > of.seq, rolls.c.epoch == of.epoch, rolls.c.text == again,
        )
    ).all()  # fmt: skip
    for seq, result in found:
        earlier = json.loads(result)
        if [earlier.get(key) for key in ("kind", "of", "point")] == ["spend", of.seq, point]:
            raise Problem(
                409,
                f"{_POINT_WORDS.get(point, point)} was spent on roll {of.seq} already "
                f"(entry {seq}): the same dice again would change nothing",
                hint=f"spend the next point on entry {seq}'s card",
            )


_POINT_WORDS = {"cp": "a Character Point", "invoke": "an invoke", "reroll": "a reroll invoke"}


def hold(connection: Connection, room_id: str) -> Any:
    row = room_row(connection, room_id, lock=True)
    if row is None:
        raise not_found()
    return row


def version_of(connection: Connection, room_id: str, member_id: str, based_on: int) -> int:
    """The stored sheet's version, which must be ``based_on``."""
    stored = read_held(connection, room_id, member_id)
    version = 0 if stored is None else stored.version
    if version != based_on:
        now_at = "no sheet" if stored is None else f"version {version}"
        raise Problem(
            409,
            f"the sheet changed: this change was made to version {based_on}, and it is at {now_at}",
            hint="load the sheet again, then make the change",
        )
    return version


def _append(
    connection: Connection,
    db: Database,
    record: RollRecord,
    member_id: str,
    text: str,
    version: int,
) -> Stored:
    """The entry, the sheet's new text and the room's new head, in the
    transaction that holds the room; the live feed hears of it at the commit."""
    insert_rolls(connection, [record])
    stored = store_sheet(connection, record, member_id, text, version)
    advance(connection, db, record)
    return stored


def store_sheet(
    connection: Connection, record: RollRecord, member_id: str, text: str, version: int
) -> Stored:
    """The sheet's new text over ``version`` (0: its first), as ``record`` left it."""
    if version == 0:
        connection.execute(
            insert(sheets).values(
                room_id=record.room, member_id=member_id, text=text, version=1,
                updated_at=record.at,
            )
        )  # fmt: skip
    else:
        connection.execute(
            update(sheets)
            .where(sheets.c.room_id == record.room, sheets.c.member_id == member_id)
            .values(text=text, version=version + 1, updated_at=record.at)
        )
    return Stored(member_id, text, version + 1, record.at)


def advance(
    connection: Connection, db: Database, record: RollRecord, first: int | None = None
) -> None:
    """The room's new head, once ``record`` (and the entries from ``first``
    on) is stored; the live feed hears of them at the commit."""
    connection.execute(
        update(rooms)
        .where(rooms.c.id == record.room)
        .values(last_seq=record.seq, last_hash=record.hash, active_at=record.at)
    )
    if db.postgres:
        notify(connection, f"rolls {record.room} {first or record.seq} {record.seq}")


def points_of(sheet: Sheet) -> dict[str, int]:
    """The points a sheet has left, as a spend answers them."""
    return {key: sheet.count(key) for key in POINTS if key in sheet.values}


def spent_again(db: Database, room_id: str, me: Member, key: Key | None) -> dict[str, Any] | None:
    """A spend sent again with its Idempotency-Key (None if ``key`` made none):
    the spend, with the sheet's version and points as they are now (a spend
    keeps no copy of its answer)."""
    spent = answered(db, room_id, me, key)
    if spent is None:
        return None
    stored = read(db, room_id, me.id)
    answer = {**spent.own(), "sheet_version": None if stored is None else stored.version}
    if stored is not None:
        answer["points"] = points_of(checked(stored.text))
    return answer
