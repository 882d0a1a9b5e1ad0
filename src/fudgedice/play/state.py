"""A room's play state (docs/fate.md, "Playing a scene"): plain JSON-able
dicts, so that a table stores it as JSON and its page reads it as it is.

What the state holds is what lives on the table and on no sheet: the scene
and the session, the GM's pool of fate points, the scene's aspects (situation
aspects, boosts, consequences) with their free invokes, the compels on offer,
and the conflict's order. Fate points themselves stay on the sheets: an
action reads them from the :class:`Table` it is given and says how they
change (:attr:`Played.points`), for whoever keeps the sheets to write.
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from ..errors import DiceValueError

FATE_SYSTEMS: Final = ("fate", "fatecondensed", "fae")
"""The sheet systems that play with fate points, aspects and refresh."""

MAX_ASPECTS: Final = 200
"""Aspects a room's state holds at once (a scene has a handful)."""

MAX_COMPELS: Final = 50
"""Compels on offer at once."""

MAX_ADVANTAGES: Final = 1000
"""Advantages a scene's state remembers (each needs a roll of its own)."""

MAX_TEXT: Final = 200
"""Characters of an aspect's name, a compel's text or a reason."""


class PlayError(DiceValueError):
    """An action refused: ``status`` 403 (not the actor's to do), 404 (no
    such aspect, compel or member), 422 (the rules refuse it)."""

    def __init__(self, message: str, status: int = 422, *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.status = status


class Character(NamedTuple):
    """What an action reads of a member's sheet."""

    member: str
    """The member id of the character's owner."""
    name: str
    system: str
    """The sheet's system: ``fate``, ``fatecondensed``, ``fae``, ``d6``, ``fudge``, ..."""
    fate_points: int | None
    """None: the sheet keeps none."""
    refresh: int | None
    skills: Mapping[str, int]
    """Trait name -> ladder value."""
    aspects: tuple[str, ...]
    """High concept, trouble and the other aspects, as written."""
    consequences: Mapping[str, str]
    """Slot -> text, the slots taken only."""


class Rolled(NamedTuple):
    """A logged roll an action names, looked up by whoever keeps the log."""

    seq: int
    member: str
    label: str | None
    total: int | None
    shifts: int | None
    """The margin against the roll's opposition; None: it had none."""
    system: str
    root: int = 0
    """The first roll of its chain of spends (0: ``seq`` itself): a roll
    and the spends on it are one roll, that makes one advantage."""


class Table(NamedTuple):
    """Who acts, and what the table knows of its members, for one action."""

    actor: str
    """The member id of who acts."""
    gm: bool
    """The actor holds the GM's token."""
    names: Mapping[str, str]
    """Member id -> member name, every member of the room."""
    characters: Mapping[str, Character]
    """Member id -> their sheet's character, in the order the members joined."""
    rolls: Mapping[int, Rolled] = {}
    """The rolls an action names: an advantage's ``of``, the initiative rolls."""
    last_seq: int = 0
    """The room's last seq: where a D6 round's initiative rolls begin."""


class Played(NamedTuple):
    """An action applied: the new state and what changed, for the log."""

    state: dict[str, Any]
    """The new state (the state given is never changed)."""
    points: dict[str, tuple[int, int]]
    """Member id -> fate points (before, after), for each character whose changed."""
    gm_pool: tuple[int, int] | None
    """The GM's pool (before, after) when it changed."""
    args: dict[str, Any]
    """The action's resolved arguments, for its log entry."""
    lines: tuple[str, ...]
    """What happened, in words."""


def new_state() -> dict[str, Any]:
    """A room's play state before its first action: scene 1 of session 1,
    no aspect, no compel, no conflict. ``scene_since`` is the room's last
    seq when the scene began and ``advantages`` the rolls (the first of each
    chain of spends) that made an advantage in it: a roll makes one, in its
    own scene.

    >>> new_state()["scene"], new_state()["aspects"]
    (1, [])
    """
    return {
        "scene": 1,
        "scene_name": "",
        "session": 1,
        "gm_pool": 0,
        "aspects": [],
        "compels": [],
        "initiative": None,
        "next_id": 1,
        "scene_since": 0,
        "advantages": [],
    }


def copied(state: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy of ``state`` to change, with any key a new state has
    and an older one lacks."""
    fresh = new_state()
    fresh.update(copy.deepcopy(dict(state)))
    return fresh


def new_id(state: dict[str, Any], prefix: str) -> str:
    """The next id of the state (``a4``, ``c5``): short, never reused."""
    number = state["next_id"]
    state["next_id"] = number + 1
    return f"{prefix}{number}"


def text_of(value: object, what: str, *, empty: bool = False) -> str:
    """An aspect's name, a compel's text, a reason: text of at most
    :data:`MAX_TEXT` characters with no control character, trimmed."""
    if value is None and empty:
        return ""
    if not isinstance(value, str):
        raise PlayError(f"{what} is text")
    value = " ".join(value.split())
    if not value and not empty:
        raise PlayError(f"{what} is empty")
    if len(value) > MAX_TEXT:
        raise PlayError(f"{what} has at most {MAX_TEXT} characters, not {len(value)}")
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in value):
        raise PlayError(f"{what} holds a control character")
    return value


def count_of(value: object, what: str, low: int, high: int, default: int) -> int:
    """A whole number from ``low`` to ``high`` (``default`` when absent)."""
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PlayError(f"{what} is a whole number from {low} to {high}")
    return value


def find_aspect(state: Mapping[str, Any], aspect_id: object) -> dict[str, Any]:
    """The state's aspect of id ``aspect_id`` (404 if none)."""
    for aspect in state["aspects"]:
        if aspect["id"] == aspect_id:
            return dict(aspect)
    raise PlayError(f"there is no aspect {str(aspect_id)[:20]!r} in this scene", 404)


def replace_aspect(state: dict[str, Any], aspect: dict[str, Any] | None, aspect_id: str) -> None:
    """The aspect of id ``aspect_id`` replaced by ``aspect`` (None: removed)."""
    kept = [each for each in state["aspects"] if each["id"] != aspect_id]
    if aspect is not None:
        at = next(i for i, each in enumerate(state["aspects"]) if each["id"] == aspect_id)
        kept.insert(at, aspect)
    state["aspects"] = kept


def add_aspect(state: dict[str, Any], aspect: dict[str, Any]) -> dict[str, Any]:
    """``aspect`` added under a new id (refused past :data:`MAX_ASPECTS`)."""
    if len(state["aspects"]) >= MAX_ASPECTS:
        raise PlayError(f"a room holds at most {MAX_ASPECTS} aspects: remove some first")
    made = {"id": new_id(state, "a"), **aspect}
    state["aspects"].append(made)
    return made


def name_of(table: Table, member: str) -> str:
    """A member's name (their id if the table does not know it)."""
    return table.names.get(member, member)


def member_of(table: Table, value: object) -> str:
    """A member id of the room (404 if none)."""
    if not isinstance(value, str) or value not in table.names:
        raise PlayError(f"there is no member {str(value)[:40]!r} in this room", 404)
    return value


def points_of(table: Table, member: str) -> tuple[Character, int]:
    """The member's character and their fate points (422 if their sheet keeps none)."""
    character = table.characters.get(member)
    if character is None:
        raise PlayError(f"{name_of(table, member)} has no character sheet in this room")
    if character.fate_points is None or character.system not in FATE_SYSTEMS:
        # a D6 sheet's Fate Points are its owner's and the GM's to read: a public
        # entry of play would tell them (they change on the sheet)
        raise PlayError(f"{character.name}'s sheet keeps no fate points of Fate's")
    return character, character.fate_points


def gm_only(table: Table, what: str) -> None:
    """Refuses (403) an action only the GM takes."""
    if not table.gm:
        raise PlayError(f"only the GM {what}", 403)


def fate_characters(table: Table) -> list[Character]:
    """The player characters that keep fate points at a Fate table."""
    return [
        character
        for member, character in table.characters.items()
        if character.system in FATE_SYSTEMS
        and character.fate_points is not None
        and not (table.gm and member == table.actor)
    ]
