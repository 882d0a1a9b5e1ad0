"""Play at the table as entries of the log (docs/fairness.md, "Play"): an
aspect set, a fate point awarded, a compel answered, a scene begun, a
conflict's order. Such an entry draws nothing (no nonce) and is public: fate
points, aspects and the order of a conflict lie on the table for all to see.

What the log proves of it is its place in the chain and its arithmetic,
which ``verify`` replays (:mod:`.play_checks`): ``points`` names each
character's fate points before and after, ``gm_pool`` the GM's pool, ``args``
what the action resolved (the aspect's id and free invokes, the roll an
advantage was made with and its shifts, the rolls a D6 order follows).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..errors import DiceValueError
from ..play import ACTIONS, CONSEQUENCE, RECOVER, Played
from .canonical import is_hex64
from .entries import chained, checked_member, checked_name, now

PLAY_ACTIONS: Final = (*ACTIONS, CONSEQUENCE, RECOVER)
"""The actions a play entry records: the table's, and a consequence taken in
a hit or healed on a sheet."""

PLAY_FIELDS: Final = (
    "seq",
    "at",
    "roller",
    "visibility",
    "kind",
    "action",
    "member",
    "args",
    "points",
    "gm_pool",
    "lines",
    "nonce",
    "commitment",
)
"""A play entry's own fields: ``roller`` is the actor's name, ``member`` their id."""

MAX_LINES: Final = 100
"""Lines of an entry's words (a session's refresh names every character)."""


def play_entry(
    *,
    commitment: str,
    seq: int,
    prev: str,
    roller: str,
    member: str,
    played: Played,
    action: str,
    at: str | None = None,
) -> dict[str, Any]:
    """The public entry of an action at the table, chained after ``prev``.

    >>> from fudgedice.play import Table, apply, new_state
    >>> gm = Table(actor="g", gm=True, names={"g": "Gina"}, characters={})
    >>> played = apply(new_state(), {"action": "aspect", "name": "Dark"}, gm)
    >>> entry = play_entry(commitment="0" * 64, seq=1, prev="0" * 64, roller="Gina",
    ...                    member="g", played=played, action="aspect")
    >>> entry["kind"], entry["args"]["aspect"], entry["nonce"], play_fields_error(entry)
    ('play', 'a1', None, None)
    """
    fields: dict[str, Any] = {
        "seq": seq,
        "at": now() if at is None else at,
        "roller": checked_name(roller, "a roller's name"),
        "visibility": "public",
        "kind": "play",
        "action": action,
        "member": checked_member(member),
        "args": played.args,
        "points": {who: list(pair) for who, pair in played.points.items()},
        "gm_pool": None if played.gm_pool is None else list(played.gm_pool),
        "lines": list(played.lines),
        "nonce": None,
        "commitment": commitment,
    }
    wrong = play_fields_error(fields)
    if wrong is not None:
        raise DiceValueError(f"a play entry's fields: {wrong}")
    return chained(fields, prev)


def spend_fields(played: Played) -> dict[str, Any]:
    """What a point spent on a roll adds to its entry's own fields when it
    invokes an aspect (:func:`fudgedice.play.invoke`): ``aspect`` (its name),
    ``aspect_id`` (None: a character's aspect), ``free``, and ``points``
    (the roller's fate points before and after) or ``gm_pool``."""
    fields: dict[str, Any] = {
        "aspect": played.args["aspect"],
        "aspect_id": played.args["aspect_id"],
        "free": played.args["free"],
    }
    for pair in played.points.values():
        fields["points"] = list(pair)
    if played.gm_pool is not None:
        fields["gm_pool"] = list(played.gm_pool)
    return fields


def _pair_error(value: object) -> bool:
    """Not a [before, after] of whole numbers of at least 0."""
    return not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value)
    )


def play_fields_error(fields: Mapping[str, Any]) -> str | None:
    """What is wrong with a play entry's own fields, or None."""
    missing = [name for name in PLAY_FIELDS if name not in fields]
    if missing:
        return f"it lacks {', '.join(missing)}"
    for name in ("at", "roller", "member"):
        if not isinstance(fields[name], str):
            return f"its {name} is not text"
    if fields["action"] not in PLAY_ACTIONS:
        return f"its action is not one of {', '.join(PLAY_ACTIONS)}"
    if fields["visibility"] != "public":
        return "a play entry is public"
    if fields["nonce"] is not None:
        return "a play entry draws nothing: its nonce is null"
    if not is_hex64(fields["commitment"]):
        return "its commitment is not 64 hex digits"
    if not isinstance(fields["args"], dict):
        return "its args are not an object"
    points = fields["points"]
    if not isinstance(points, dict) or any(_pair_error(pair) for pair in points.values()):
        return "its points are not member ids with [before, after], whole numbers from 0"
    if fields["gm_pool"] is not None and _pair_error(fields["gm_pool"]):
        return "its gm_pool is not null or [before, after], whole numbers from 0"
    lines = fields["lines"]
    if not isinstance(lines, list) or len(lines) > MAX_LINES:
        return f"its lines are not a list of at most {MAX_LINES}"
    if not all(isinstance(line, str) for line in lines):
        return "its lines are not text"
    return None
