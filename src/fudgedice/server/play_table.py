"""The table an action of play is decided on (:mod:`fudgedice.play`), built
from the room's members and sheets, and the room's play as its members are
shown it.

At a Fate table a character's fate points, aspects, stress and consequences
lie on the table as tokens and cards: every member reads them. The rest of a
sheet (and any part of a sheet of another system) stays its owner's and the
GM's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .. import play
from ..errors import DiceError
from ..log.entries import roll_label
from ..log.play_entries import play_entry
from ..memory import SizedCache, estimate
from ..sheets import Edit, Sheet, SheetError, load_text, name_consequence, set_points
from .kept import Member, RollRecord
from .play_store import (
    Held,
    Outcome,
    SheetEdit,
    initiative_rolls,
    roll_at,
    root_of,
)
from .problems import Problem
from .sheet_store import SOURCE, Stored

MAX_NAME: Final = 120
"""Characters in an aspect's name, an id or an NPC's name in a request."""
MAX_WORDS: Final = 500
"""Characters in a compel's text or an action's why."""
MAX_COUNT: Final = 5
"""Fate points an award gives, or the GM pool spends, at once."""
MAX_ORDER: Final = 50
"""Actors in an initiative order given by the GM."""

FATE_STATE: Final = "stress"
"""The sheets' state of Fate's rules (``SheetLevels.state``): fate points,
aspects, stress and consequences."""


def aspects_of(sheet: Sheet) -> list[str]:
    """A Fate character's own aspects: high concept, trouble, the others."""
    named = [sheet.values.get(key) for key in ("high_concept", "trouble")]
    return [str(text) for text in named if text] + [a for a in sheet.texts("aspects") if a]


def public_part(member: str, sheet: Sheet) -> dict[str, Any]:
    """What every member reads of ``member``'s Fate character."""
    return {
        "member": member, "name": sheet.name, "system": sheet.system,
        "fate_points": sheet.count("fate_points"), "refresh": sheet.count("refresh"),
        "aspects": aspects_of(sheet),
        "stress": {
            track: {"boxes": list(boxes), "checked": sheet.stress()[track]}
            for track, boxes in sheet.stress_tracks().items()
        },
        "consequences": {
            slot: {"shifts": shifts, "aspect": sheet.consequences().get(slot)}
            for slot, shifts in sheet.consequence_slots().items()
        },
    }  # fmt: skip


def _owners_part(member: str, sheet: Sheet) -> dict[str, Any]:
    """What a sheet of another system shows its owner and the GM here (its
    page and the rest are the sheet's routes')."""
    state: dict[str, Any] = {}
    if sheet.state == "wound level":
        state["wound"] = sheet.d6_wound()
    elif sheet.state == "wound track":
        state["wounds"] = sheet.wounds()
    points = {key: sheet.count(key) for key in ("fudge_points", "ep", "character_points",
                                                 "fate_points") if key in sheet.values}  # fmt: skip
    return {"member": member, "name": sheet.name, "system": sheet.system,
            "points": points, **state}  # fmt: skip


@dataclass(frozen=True)
class SheetView:
    """What play reads of one text of a member's sheet, made once."""

    character: play.Character
    shown: dict[str, Any]
    """The character as the table shows it."""
    public: bool
    """Shown to every member (a Fate character), or to its owner and the GM only."""


SHEET_VIEWS: Final = 4096
"""Sheet texts kept read for play, the least used dropped first."""
_VIEWS: SizedCache[tuple[str, bytes], SheetView] = SizedCache(
    "sheets as play reads them", SHEET_VIEWS
)


def view_of(stored: Stored) -> SheetView | None:
    """``stored`` as play reads it (None: the sheet no longer reads), kept
    by its text: an action or a read of the table reads every sheet of the
    room, and a sheet's text is read once, not at each."""
    key = (stored.member, hashlib.sha256(stored.text.encode("utf-8", "surrogatepass")).digest())
    found = _VIEWS.get(key)
    if found is not None:
        return found
    try:
        sheet = load_text(stored.text, SOURCE)
    except DiceError:  # checked when stored: only a change of the rules since makes one
        return None
    public = sheet.state == FATE_STATE
    shown = (public_part if public else _owners_part)(stored.member, sheet)
    view = SheetView(character_of(stored.member, sheet), shown, public)
    return _VIEWS.put(key, view, estimate(view) + 200)


def characters(
    kept: Sequence[Stored], members: Sequence[Member], viewer: Member
) -> list[dict[str, Any]]:
    """Every character of the room as ``viewer`` is shown it, in the order
    their members joined."""
    by_member = {stored.member: stored for stored in kept}
    shown = []
    for member in members:
        view = view_of(by_member[member.id]) if member.id in by_member else None
        if view is not None and (view.public or viewer.gm or viewer.id == member.id):
            shown.append(view.shown)
    return shown


def character_of(member: str, sheet: Sheet) -> play.Character:
    """What the rules of play read of a member's sheet."""
    skills = {trait.name: trait.level.value for trait in sheet.traits.values()}
    fate = sheet.state == FATE_STATE
    return play.Character(
        member, sheet.name, sheet.system,
        sheet.count("fate_points") if "fate_points" in sheet.values else None,
        sheet.count("refresh") if "refresh" in sheet.values else None,
        skills, tuple(aspects_of(sheet)) if fate else (),
        sheet.consequences() if fate else {},
    )  # fmt: skip


def rolled_of(record: RollRecord, root: int = 0) -> play.Rolled:
    """What the rules of play read of a logged roll (or a point spent on one,
    ``root`` the first roll of its chain)."""
    details = record.result.get("details")
    shifts = details.get("shifts") if isinstance(details, dict) else None
    total = record.result.get("total")
    return play.Rolled(
        record.seq, record.member, roll_label(record.text, record.label) or None,
        total if isinstance(total, int) else None,
        shifts if isinstance(shifts, int) and not isinstance(shifts, bool) else None,
        str(record.result.get("system", "")), root,
    )  # fmt: skip


def table_of(
    actor: Member,
    members: Sequence[Member],
    kept: Mapping[str, Stored],
    rolls: Sequence[RollRecord] = (),
    last_seq: int = 0,
    roots: Mapping[int, int] | None = None,
) -> play.Table:
    """The table as ``actor`` acts at it: the members in the order they
    joined, each one's character, the rolls the action names."""
    characters = {
        member.id: view.character
        for member in members
        if member.id in kept and (view := view_of(kept[member.id])) is not None
    }
    return play.Table(
        actor=actor.id, gm=actor.gm, names={member.id: member.name for member in members},
        characters=characters, rolls={
            record.seq: rolled_of(record, (roots or {}).get(record.seq, 0)) for record in rolls
        },
        last_seq=last_seq,
    )  # fmt: skip


def shown(
    system: str,
    state: dict[str, Any] | None,
    kept: Sequence[Stored],
    members: Sequence[Member],
    viewer: Member,
) -> dict[str, Any]:
    """``GET /api/rooms/{room}/play``: the state and the characters."""
    return {
        "system": system,
        "play": play.new_state() if state is None else state,
        "characters": characters(kept, members, viewer),
    }


def refused(error: play.PlayError) -> Problem:
    """A refusal of the rules of play, as the API answers it."""
    status = error.status if error.status in (403, 404, 409, 422) else 422
    return Problem(status, error.message, hint=error.hint)


@dataclass(frozen=True)
class Decision:
    """An action of ``actor``, decided on the room as it is when held."""

    actor: Member
    members: Sequence[Member]
    action: Mapping[str, Any]

    def __call__(self, held: Held) -> Outcome:
        rolls = self._rolls(held)
        roots = {
            record.seq: root_of(held.connection, self.actor.room, record)
            for record in rolls
            if self.action["action"] == "advantage"
        }
        table = table_of(self.actor, self.members, held.sheets, rolls, held.last_seq, roots)
        state = play.new_state() if held.state is None else held.state
        try:
            played = play.apply(state, self.action, table)
        except play.PlayError as error:
            raise refused(error) from None
        return outcome(self.actor, str(self.action["action"]), played)

    def _rolls(self, held: Held) -> list[RollRecord]:
        """The rolls the action reads: an advantage's roll, a round's initiative rolls."""
        name, of = self.action["action"], self.action.get("of")
        if name == "advantage" and isinstance(of, int):
            found = roll_at(held.connection, self.actor.room, of)
            if found is not None and found.hidden:
                raise Problem(422, f"roll {of} is hidden: an advantage would tell its shifts")
            return [] if found is None else [found]
        if name == "order" and held.state is not None:
            since = (held.state.get("initiative") or {}).get("since")
            return initiative_rolls(held.connection, self.actor.room, int(since or 0))
        return []


def outcome(actor: Member, action: str, played: play.Played) -> Outcome:
    """What the store keeps of ``played``: its entry, its record's result."""

    def entry(commitment: str, seq: int, prev: str, at: str) -> dict[str, Any]:
        return play_entry(
            commitment=commitment, seq=seq, prev=prev, roller=actor.name, member=actor.id,
            played=played, action=action, at=at,
        )  # fmt: skip

    result = {
        "kind": "play", "action": action, "lines": list(played.lines), "play": played.state,
        "points": {member: list(change) for member, change in played.points.items()},
        "gm_pool": None if played.gm_pool is None else list(played.gm_pool),
        "args": played.args, "notation": None, "total": None, "label": None,
    }  # fmt: skip
    return Outcome(played.state, entry, result, sheet_edits(played), " ".join(played.lines))


def sheet_edits(played: play.Played) -> dict[str, SheetEdit]:
    """What ``played`` changes on the sheets: fate points, a consequence renamed."""
    edits: dict[str, SheetEdit] = {
        member: _points_edit(before, after) for member, (before, after) in played.points.items()
    }
    args = played.args
    if {"slot", "member", "was"} <= set(args):
        edits[str(args["member"])] = _renamed(str(args["slot"]), str(args["name"]))
    return edits


def _points_edit(before: int, after: int) -> SheetEdit:
    def edit(sheet: Sheet) -> Edit:
        if sheet.count("fate_points") != before:
            raise SheetError(f"{sheet.name}'s fate points changed under the action")
        return set_points(sheet, "fate_points", after, f"{sheet.name}: {before} -> {after}")

    return edit


def _renamed(slot: str, name: str) -> SheetEdit:
    def edit(sheet: Sheet) -> Edit | None:
        # a consequence healed since is no longer on the sheet: only the aspect is renamed
        return name_consequence(sheet, slot, name) if slot in sheet.consequences() else None

    return edit
