"""Talk at the table (docs/table.md, "Talk"): a message entered in the room's
log, hidden as a roll may be or whispered to one member, and shown as text.

A message holds the room (as a sheet's change does: :mod:`.sheet_store`)
from reading its ``seq`` and head to the commit, so the log's ``seq`` has no
gap; it draws nothing, so the room is held only for its few statements.
"""

from __future__ import annotations

from typing import Any

from ..log.canonical import Visibility
from ..log.talk_entries import talk_entry
from .db import Database
from .kept import Member, RollRecord
from .keys import Key, claim_one
from .sheet_store import advance, hold
from .store import insert_rolls, now


def commit_talk(
    db: Database,
    room_id: str,
    sender: Member,
    text: str,
    visibility: Visibility,
    to: Member | None,
    key: Key | None = None,
) -> RollRecord:
    """Enter ``sender``'s message (its words checked already) in the room's
    log, ``to`` the member a whisper goes to; ``key`` its Idempotency-Key."""
    with db.write() as connection:
        row = hold(connection, room_id)
        record = talk_record(row, sender, text, visibility, to)
        claim_one(connection, record, key)
        insert_rolls(connection, [record])
        advance(connection, db, record)
    return record


def talk_record(
    row: Any, sender: Member, text: str, visibility: Visibility, to: Member | None
) -> RollRecord:
    """The message's entry, next in the log of the room held (its ``row``):
    its words and whom it is to kept in the record's result, as a sheet's
    change keeps what it did."""
    seq, at = row.last_seq + 1, now()
    entry, opening = talk_entry(
        commitment=row.commitment, seq=seq, prev=row.last_hash, roller=sender.name,
        member=sender.id, text=text, visibility=visibility, to=None if to is None else to.id,
        at=at,
    )  # fmt: skip
    fields = entry if opening is None else opening["entry"]
    result = {
        "kind": "talk", "text": fields["text"], "to": fields["to"],
        "to_name": None if to is None else to.name, "hidden": False, "total": None,
        "notation": None,
    }  # fmt: skip
    return RollRecord(
        row.id, seq, sender.id, sender.name, visibility, row.epoch, row.commitment, None, "",
        fields["text"], None, None, result, at, None if opening is None else opening["salt"],
        entry["hash"], None, entry, opening,
    )  # fmt: skip
