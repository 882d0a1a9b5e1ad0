"""What the store hands the API: a room, a member, a roll as kept; and who may
see which roll.

A roll's two JSON forms (the whole roll, and the placeholder of a hidden one)
are built once per roll, however many readers it goes to, as compact UTF-8
JSON by orjson: a table's busiest path writes each roll's JSON twice (its row,
its answer), and the standard library took several times as long.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Final

import orjson

from ..log.canonical import DRAWLESS, Visibility, opens_at_reveal

if TYPE_CHECKING:
    from .keys import Key


def json_bytes(value: Any) -> bytes:
    """``value`` as compact JSON in UTF-8. orjson refuses what JSON itself
    allows (an integer past 64 bits, a key that is not text): those go
    through the standard library, which writes them all."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def json_text(value: Any) -> str:
    return json_bytes(value).decode()


OWN: Final = "own"
"""The key of a roll's result under which it keeps what only its roller and
the GM are shown, merged into the roll's JSON for them (:meth:`RollRecord.own`)
and left out for everyone else: a point spent says to all what was spent, and
to them how many points are left."""


@dataclass(frozen=True)
class Member:
    id: str
    room: str
    name: str
    gm: bool

    def to_dict(self) -> dict[str, Any]:
        return {"member": self.id, "name": self.name, "gm": self.gm}


@dataclass(frozen=True)
class Room:
    id: str
    name: str
    system: str
    epoch: int
    commitment: str
    last_seq: int
    created_at: str


@dataclass(frozen=True, eq=False)
class RollRequest:
    """A roll asked for and checked, waiting for its room's next ``seq``."""

    room: str
    member: Member
    text: str
    """As typed; read in ``system`` unless it names its own."""
    system: str
    visibility: Visibility
    label: str | None
    client_seed: str
    faces: list[str] | None
    """Dice rolled by hand, to be read instead of drawn."""
    heavy: bool = False
    """Its text tosses more than :data:`.caches.LIGHT_DICE` dice: committed alone."""
    via: str = ""
    """Where it was asked: "" at the table's API, "discord" by a slash command
    (whose answer shows it in the channel: it is not posted there again)."""
    key: Key | None = None
    """Its ``Idempotency-Key`` (:mod:`.keys`): sent again, it is answered the
    roll this key made."""


@dataclass(eq=False)
class RollRecord:
    """One roll as stored."""

    room: str
    seq: int
    member: str
    name: str
    visibility: Visibility
    epoch: int
    commitment: str
    nonce: int | None
    client_seed: str
    text: str
    label: str | None
    faces: list[str] | None
    result: dict[str, Any]
    at: str
    salt: str | None
    hash: str
    verified: bool | None
    entry: dict[str, Any] | None = None
    """The roll's entry in the log (docs/fairness.md): a hidden roll's placeholder."""
    opening: dict[str, Any] | None = None
    """A hidden roll's salt and whole entry: shown to those who may see the
    roll, and to everyone once its seed is revealed."""
    error: str | None = None
    """Why the roll failed once its dice were drawn (docs/fairness.md: drawn
    dice are kept); None for a roll that did not."""
    via: str = ""
    """Where it was asked (:attr:`RollRequest.via`), known to the process that
    wrote it alone: it is not stored."""

    @property
    def hidden(self) -> bool:
        """Kept from someone: chained as a placeholder in the log."""
        return self.visibility != "public"

    def visible_to(self, viewer: Member) -> bool:
        """Whether ``viewer`` is shown the entry whole (else its placeholder)."""
        if self.visibility == "public":
            return True
        if self.visibility == "blind":  # the GM's to read, not its roller's
            return viewer.gm
        if viewer.id == self.member:
            return True
        if self.visibility == "whisper":  # its sender and the one it is to, the GM or not
            return viewer.id == self.to
        # "gm": the roller and the GM; "secret": the GM's own; "self": the roller only
        return viewer.gm and self.visibility in {"gm", "secret"}

    @property
    def to(self) -> str | None:
        """The member a whisper is to (kept in its result): None for any other entry."""
        to = self.result.get("to") if self.visibility == "whisper" else None
        return to if isinstance(to, str) else None

    def opened_to(self, viewer: Member, revealed: set[int]) -> bool:
        """Whether the log ``viewer`` exports shows a hidden entry's opening:
        to those who may see it, and to everyone once its seed is revealed
        (``revealed``: those seeds' epochs), but for talk, which no reveal opens."""
        if self.opening is None:
            return False
        if self.visible_to(viewer):
            return True
        return self.epoch in revealed and opens_at_reveal(self.result.get("kind"))

    def sees_own(self, viewer: Member) -> bool:
        """Whether ``viewer`` is shown the result's :data:`OWN` part: its
        roller and the GM are, once it has one."""
        return OWN in self.result and (viewer.gm or viewer.id == self.member)

    def own(self) -> dict[str, Any]:
        """:meth:`full`, with what only its roller and the GM are shown."""
        return {**self.full(), **self.result.get(OWN, {})}

    def full(self) -> dict[str, Any]:
        """The project's roll JSON and where the roll stands in the room: what
        every member who may see the roll sees (no :data:`OWN` part)."""
        shown = self.result
        if OWN in shown:
            shown = {key: value for key, value in shown.items() if key != OWN}
        return {
            **shown,
            "label": self.label if self.label is not None else self.result.get("label"),
            "seq": self.seq,
            "member": self.member,
            "name": self.name,
            "visibility": self.visibility,
            "nonce": self.nonce,
            "client_seed": self.client_seed,
            "commitment": self.commitment,
            "by_hand": self.faces is not None,
            "faces_given": self.faces,
            # drawn with the empty client seed: whoever holds the room's seed
            # could have computed these dice before the roll was asked for
            "foreseeable": self.faces is None
            and not self.client_seed
            and self.result.get("kind") not in DRAWLESS,
            "at": self.at,
            "hash": self.hash,
            "verified": self.verified,
        }

    def placeholder(self) -> dict[str, Any]:
        """What a reader who may not see the roll gets: that it was made, by
        whom and how hidden; no face, total, text or label."""
        return {
            "seq": self.seq,
            "member": self.member,
            "name": self.name,
            "visibility": self.visibility,
            "hidden": True,
            "at": self.at,
            "verified": self.verified,
            # a sheet's change or a point spent: shown as such, with nothing of what it did
            **({"kind": self.result["kind"]} if "kind" in self.result else {}),
            # the table's play state it left (an aspect's free invoke used, a
            # consequence taken): public at the table, and nothing of the dice
            **({"play": self.result["play"]} if "play" in self.result else {}),
        }

    @cached_property
    def full_json(self) -> bytes:
        return json_bytes(self.full())

    @cached_property
    def placeholder_json(self) -> bytes:
        return json_bytes(self.placeholder())

    @cached_property
    def own_json(self) -> bytes:
        return json_bytes(self.own())

    @cached_property
    def own_frame(self) -> bytes:
        return b"id: %d\nevent: roll\ndata: %b\n\n" % (self.seq, self.own_json)

    @cached_property
    def full_frame(self) -> bytes:
        """The roll as one event of the live feed (Server-Sent Events)."""
        return b"id: %d\nevent: roll\ndata: %b\n\n" % (self.seq, self.full_json)

    @cached_property
    def placeholder_frame(self) -> bytes:
        return b"id: %d\nevent: roll\ndata: %b\n\n" % (self.seq, self.placeholder_json)

    def frame_for(self, viewer: Member) -> bytes:
        if not self.visible_to(viewer):
            return self.placeholder_frame
        return self.own_frame if self.sees_own(viewer) else self.full_frame

    def for_viewer(self, viewer: Member) -> dict[str, Any]:
        if not self.visible_to(viewer):
            return self.placeholder()
        return self.own() if self.sees_own(viewer) else self.full()

    def json_for(self, viewer: Member) -> bytes:
        if not self.visible_to(viewer):
            return self.placeholder_json
        return self.own_json if self.sees_own(viewer) else self.full_json


class Shown:
    """The rolls of one event of the live feed as each reader sees them, joined
    into one chunk: made once for all the readers who see them alike, not once
    a reader (a room's twenty watchers mostly see the same)."""

    def __init__(self, records: Sequence[RollRecord]) -> None:
        self.records = records
        # members who see some of these rolls otherwise than the readers like
        # them in being the GM or not: the rollers of rolls hidden, or with a
        # part for the roller and the GM alone, and the members whispered to
        self._apart = {
            record.member for record in records if record.hidden or OWN in record.result
        } | {record.to for record in records if record.to is not None}
        self._made: dict[tuple[bool, str | None], bytes] = {}

    def frames_for(self, viewer: Member) -> bytes:
        # who sees a hidden roll depends on being the GM and on being its
        # roller or the one it is whispered to (RollRecord.visible_to): readers
        # alike in these see alike
        apart = viewer.id if viewer.id in self._apart else None
        made = self._made.get((viewer.gm, apart))
        if made is None:
            made = b"".join(record.frame_for(viewer) for record in self.records)
            self._made[viewer.gm, apart] = made
        return made
