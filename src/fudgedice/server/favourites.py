"""Favourite rolls (docs/table.md, "Favourite rolls"): each member's own list
of roll texts, each with an optional label, kept by the server so that it
follows the member from one device to another.

A list is read and replaced whole by its member alone; nobody else reads it,
the GM included, and it is no part of the room's log (rolling a favourite is
a roll like any other). It is bounded (:data:`MAX_FAVOURITES` entries, each
text a roll text of the room's system within the roll's own bounds), and
checked entirely before it is stored: a list with one bad entry changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select

from . import rolling
from .db import Database
from .problems import Problem, not_found
from .schema import favourites, members
from .store import now

MAX_FAVOURITES = 30
"""Favourite rolls a member keeps: a row of chips, not a library."""


@dataclass(frozen=True)
class Favourite:
    """One favourite roll: its text as typed, and the label its chip shows."""

    text: str
    label: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text} | ({"label": self.label} if self.label else {})


def new_texts(given: list[tuple[str, str | None]], known: frozenset[str]) -> int:
    """How many of the texts ``given`` the member's list does not hold yet
    (``known``): each is read as a roll's text is, so a change is charged as
    that many rolls (a chip added or removed: one)."""
    return sum(text.strip() not in known for text, _ in given)


def checked(
    given: list[tuple[str, str | None]], system: str, known: frozenset[str] = frozenset()
) -> list[Favourite]:
    """The list as it is kept, or the refusal of its first bad entry: a text
    the room's system does not read (400, its column), too long (413), holding
    what no text may (422); more than :data:`MAX_FAVOURITES` entries (413).
    A text the member's list holds already (``known``) was read when it was
    kept: it is not read again, so that a list sent over and over costs only
    its new texts."""
    if len(given) > MAX_FAVOURITES:
        raise Problem(413, f"at most {MAX_FAVOURITES} favourite rolls, not {len(given)}")
    kept = []
    for number, (text, label) in enumerate(given, 1):
        try:
            written = text.strip()
            if written not in known:
                rolling.roll_size(rolling.program(written, system))
            named = (
                None
                if not label or not label.strip()
                else rolling.name(label, "a label", rolling.MAX_LABEL)
            )
        except Problem as problem:
            problem.error = f"favourite {number}: {problem.error}"
            raise
        kept.append(Favourite(written, named))
    return kept


def read(db: Database, room_id: str, member_id: str) -> list[Favourite]:
    with db.read() as connection:
        row = connection.execute(
            select(favourites.c.entries).where(
                favourites.c.room_id == room_id, favourites.c.member_id == member_id
            )
        ).first()
    if row is None:
        return []
    return [Favourite(each["text"], each.get("label")) for each in json.loads(row.entries)]


def store(db: Database, room_id: str, member_id: str, kept: list[Favourite]) -> None:
    """Replace the member's list by ``kept`` (checked already): the last write wins."""
    entries = json.dumps([each.to_dict() for each in kept], ensure_ascii=False)
    where = (favourites.c.room_id == room_id, favourites.c.member_id == member_id)
    with db.write() as connection:
        # the member's row held (PostgreSQL; SQLite's write lock holds the whole
        # database): two devices replacing the list at once take turns, where
        # both would delete and then both insert the same key
        held = select(members.c.id).where(members.c.id == member_id).with_for_update()
        if connection.execute(held).first() is None:
            raise not_found()  # the room was deleted meanwhile
        connection.execute(delete(favourites).where(*where))
        connection.execute(
            insert(favourites).values(
                room_id=room_id, member_id=member_id, entries=entries, updated_at=now()
            )
        )
