"""The order of a conflict, as each system orders it (docs/contracts/rules.md section 7):

* ``notice`` / ``empathy`` (Fate Core): by Notice (ties: Athletics, then
  Physique) in a physical conflict, by Empathy (ties: Rapport, then Will) in
  a mental one, highest first; Fate Accelerated compares Quick (physical) or
  Careful (mental). What is still tied is listed in ``ties`` for the GM to
  order (``initiative`` again with ``order``).
* ``elective`` (Fate Condensed): whoever acts names who acts next, each once
  an exchange.
* ``perception`` (D6): everyone rolls Perception each round (a roll labelled
  ``initiative``, the GM's NPCs ``initiative: NAME``); highest first, the tied
  roll again and their later roll orders them among themselves.
* ``gm`` (Fudge, or any): the GM's order as given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .state import (
    FATE_SYSTEMS,
    Character,
    Played,
    PlayError,
    Table,
    gm_only,
    member_of,
    name_of,
    points_of,
    text_of,
)

MODES: Final = ("notice", "empathy", "elective", "perception", "gm")

MAX_ORDER: Final = 60
"""Characters and NPCs in one conflict."""

SKILLS: Final = {
    "notice": ("Notice", "Athletics", "Physique"),
    "empathy": ("Empathy", "Rapport", "Will"),
}
"""Fate Core: the skill that orders a conflict, and its tie-breaks."""

APPROACHES: Final = {"notice": ("Quick",), "empathy": ("Careful",)}
"""Fate Accelerated: the approach that orders a physical or a mental conflict."""

NPCS: Final = "NPCs"
"""Who acts for the GM's side in an elective order when the GM names no one."""


def ordering(character: Character, mode: str) -> tuple[int, ...]:
    """The values that order ``character`` in a ``notice`` or ``empathy``
    conflict, first to last (a skill the sheet lacks is Mediocre, 0).

    >>> hero = Character("m", "Cynere", "fate", 3, 3, {"Notice": 2, "Physique": 3}, (), {})
    >>> ordering(hero, "notice"), ordering(hero, "empathy")
    ((2, 0, 3), (0, 0, 0))
    """
    names = APPROACHES[mode] if character.system == "fae" else SKILLS[mode]
    lowered = {str(key).lower(): value for key, value in character.skills.items()}
    return tuple(int(lowered.get(name.lower(), 0)) for name in names)


def ties_of(entries: Sequence[Mapping[str, Any]], key: str) -> list[list[str]]:
    """The runs of neighbours with the same ``key``: who is still tied."""
    ties: list[list[str]] = []
    run: list[Mapping[str, Any]] = []
    for entry in [*entries, None]:
        if entry is not None and run and entry[key] == run[-1][key] and entry[key] is not None:
            run.append(entry)
            continue
        if len(run) > 1:
            ties.append([each["who"] for each in run])
        run = [] if entry is None else [entry]
    return ties


def start(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    """A conflict's order begins: round 1."""
    gm_only(table, "starts a conflict's order")
    mode = body.get("mode")
    if mode not in MODES:
        raise PlayError("an initiative's mode is one of " + ", ".join(MODES))
    given = _given(body.get("order"), table)
    entries: list[dict[str, Any]]
    ties: list[list[str]] = []
    since = None
    if mode in SKILLS:
        entries = _by_skill(mode, table, given)
        if not given:
            ties = ties_of(entries, "key")
        for entry in entries:
            entry["score"] = entry.pop("key", [None])[0]
    elif mode == "elective":
        entries = _elective(table, given, body.get("npcs"))
    elif mode == "perception":
        entries, since = [], table.last_seq
    else:
        if not given:
            raise PlayError("the GM's order lists who acts, first to last")
        entries = [_entry(who, table) for who in given]
    was = state.get("initiative")  # started again (a tie reordered): the same conflict
    state["initiative"] = {
        "mode": mode,
        "round": 1,
        "order": entries,
        "current": 0,
        "acted": [],
        "ties": ties,
        "since": since,
        "taken": dict(was.get("taken") or {}) if isinstance(was, dict) else {},
    }
    lines = [f"A conflict begins ({mode} order)."]
    if entries:
        lines.append("Order: " + ", ".join(entry["name"] for entry in entries) + ".")
    args = {"mode": mode, "order": [entry["who"] for entry in entries], "ties": ties}
    return Played(state, {}, None, {**args, "since": since}, tuple(lines))


def _given(raw: object, table: Table) -> list[str]:
    """The GM's order: member ids and NPC names, none twice."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MAX_ORDER:
        raise PlayError(f"an order is a list of at most {MAX_ORDER} members or NPC names")
    given = [
        who if isinstance(who, str) and who in table.names else text_of(who, "an NPC's name")
        for who in raw
    ]
    if len(set(given)) < len(given):
        raise PlayError("an order names each one once")
    return given


def _entry(who: str, table: Table, score: int | None = None) -> dict[str, Any]:
    character = table.characters.get(who)
    name = character.name if character is not None else name_of(table, who)
    return {"who": who, "name": name, "score": score, "roll": None}


def _by_skill(mode: str, table: Table, given: list[str]) -> list[dict[str, Any]]:
    """The Fate characters by their skill, highest first (join order among
    equals), or in the GM's order with the scores shown."""
    scored = {
        member: ordering(character, mode)
        for member, character in table.characters.items()
        if character.system in FATE_SYSTEMS
    }
    if given:
        return [
            {**_entry(who, table), "key": list(scored.get(who, (None,)))}
            for who in given  # NPCs take no score: the GM placed them
        ]
    ranked = sorted(scored, key=lambda member: scored[member], reverse=True)
    return [{**_entry(who, table), "key": list(scored[who])} for who in ranked]


def _elective(table: Table, given: list[str], npcs: object) -> list[dict[str, Any]]:
    """Everyone who acts in an exchange; the first is who starts."""
    names = [NPCS] if npcs is None else _given(npcs, table)
    everyone = [*table.characters, *(name for name in names if name not in table.characters)]
    if len(given) > 1:
        raise PlayError("an elective order names who starts, no more")
    first = given[0] if given else (names[0] if names else None)
    if first is not None and first not in everyone:
        raise PlayError(f"{name_of(table, first)} takes no part in this conflict")
    if first is not None:
        everyone.remove(first)
        everyone.insert(0, first)
    return [_entry(who, table) for who in everyone]


def next_actor(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    """The next actor; past the last, a new round (D6: rolled again)."""
    held = _held(state)
    order, current = held["order"], held["current"]
    if not order or (held["mode"] == "perception" and order[0]["score"] is None):
        raise PlayError("nobody is ordered yet: roll initiative and send order")
    acting = order[current]["who"]
    if held["mode"] == "elective":
        if not table.gm and acting != table.actor:
            raise PlayError("only the GM or who acts now names who acts next", 403)
        return _elective_next(state, held, body.get("to"), table)
    gm_only(table, "moves the order on")
    held["acted"].append(acting)
    held["current"] = current + 1
    lines = []
    if held["current"] == len(order):
        lines.append(_new_round(held, table))
    lines.append(f"{order[held['current']]['name']} acts.")
    args = {"round": held["round"], "current": order[held["current"]]["who"]}
    return Played(state, {}, None, {**args, "since": held["since"]}, tuple(lines))


def _new_round(held: dict[str, Any], table: Table) -> str:
    held["round"] += 1
    held["current"] = 0
    held["acted"] = []
    if held["mode"] == "perception":  # the D6 System rolls initiative every round
        held["since"] = table.last_seq
        held["ties"] = []
        for entry in held["order"]:
            entry.update(score=None, roll=None, rolls=[], totals=[])
        return f"Round {held['round']}: everyone rolls Perception again."
    return f"Round {held['round']} begins."


def _elective_next(state: dict[str, Any], held: dict[str, Any], to: object, table: Table) -> Played:
    order = held["order"]
    acting = order[held["current"]]["who"]
    acted = [*held["acted"], acting]
    left = [entry["who"] for entry in order if entry["who"] not in acted]
    lines = []
    if not left:
        held["round"] += 1
        acted, left = [], [entry["who"] for entry in order]
        lines.append(f"Exchange {held['round']} begins.")
    if to is None and len(left) == 1:
        to = left[0]
    if to not in left:
        who = "anyone" if len(left) == len(order) else ", ".join(_names(order, left))
        raise PlayError(f"who acts next is one who has not acted: {who}")
    held["acted"] = acted
    held["current"] = next(i for i, entry in enumerate(order) if entry["who"] == to)
    lines.append(f"{order[held['current']]['name']} acts.")
    args = {"round": held["round"], "current": to}
    return Played(state, {}, None, args, tuple(lines))


def _names(order: list[dict[str, Any]], who: list[str]) -> list[str]:
    return [entry["name"] for entry in order if entry["who"] in who]


def order(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    """D6: the round's order from the initiative rolls made since it began,
    highest first; the tied who rolled again are ordered by that roll."""
    gm_only(table, "orders the round")
    held = _held(state)
    if held["mode"] != "perception":
        raise PlayError("only a perception order is made from rolls")
    latest = _initiative_rolls(held["since"] or 0, table)
    entries = {entry["who"]: entry for entry in held["order"] if entry.get("rolls")}
    tied = {who for group in held["ties"] for who in group}
    for who, rolled in latest.items():
        entry = entries.get(who)
        if entry is None:  # an NPC's name is its own
            entries[who] = {**_entry(who, table), "rolls": [], "totals": []}
        elif who not in tied or rolled.seq <= entry["rolls"][-1]:
            continue  # the first roll of the round stands; only the tied roll again
        entries[who]["rolls"].append(rolled.seq)
        entries[who]["totals"].append(rolled.total)
    if not entries:
        raise PlayError("nobody has rolled initiative this round")
    ranked = sorted(entries.values(), key=lambda entry: entry["totals"], reverse=True)
    for entry in ranked:
        entry.update(score=entry["totals"][0], roll=entry["rolls"][0])
    held.update(order=ranked, current=0, acted=[], ties=ties_of(ranked, "totals"))
    lines = [
        "Order: "
        + ", ".join(f"{entry['name']} ({'/'.join(map(str, entry['totals']))})" for entry in ranked)
        + "."
    ]
    if held["ties"]:
        lines.append("Tied, to roll again: " + "; ".join(
            ", ".join(_names(ranked, group)) for group in held["ties"]
        ) + ".")  # fmt: skip
    listed = [{k: entry[k] for k in ("who", "name", "rolls", "totals")} for entry in ranked]
    args = {"since": held["since"], "order": listed, "ties": held["ties"]}
    return Played(state, {}, None, args, tuple(lines))


INITIATIVE: Final = "initiative"
"""The label of an initiative roll: a player's own, or ``initiative: NAME``
for the GM's roll of a character not played by a member."""


def read_initiative(label: str | None) -> tuple[bool, str | None]:
    """How a roll's label takes part in a D6 order: ``initiative`` is its
    roller's own roll (True, None), ``initiative: NAME`` the GM's roll of the
    character NAME (True, the text after the colon as written), any other
    label none (False, None). The one reading the table orders by and
    ``verify`` checks."""
    text = (label or "").strip()
    lowered = text.lower()
    if lowered == INITIATIVE:
        return True, None
    if lowered.startswith(f"{INITIATIVE}:"):
        return True, text[len(INITIATIVE) + 1 :]
    return False, None


def _initiative_rolls(since: int, table: Table) -> dict[str, Any]:
    """Each one's latest initiative roll after ``since``: a member's labelled
    ``initiative``, an NPC's ``initiative: NAME`` made by the GM."""
    latest: dict[str, Any] = {}
    for seq in sorted(table.rolls):
        rolled = table.rolls[seq]
        counts, named = read_initiative(rolled.label)
        if seq <= since or rolled.total is None or not counts:
            continue
        if named is None:
            who = rolled.member
        elif rolled.member == table.actor:
            who = text_of(named, "an NPC's name")
            if who in table.names:  # a member's id: the GM's roll would take their place
                continue
        else:
            continue
        latest[who] = rolled
    return latest


def end(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    """The conflict ends: each Fate character gains a fate point per
    consequence taken in it, and one for conceding (``conceded``: the GM
    names who did). A character whose sheet keeps no fate points gains none."""
    gm_only(table, "ends a conflict")
    held = _held(state)
    conceded = _conceded(body.get("conceded"), table)
    taken = {str(who): int(count) for who, count in (held.get("taken") or {}).items()}
    points: dict[str, tuple[int, int]] = {}
    awarded: dict[str, int] = {}
    lines = ["The conflict ends."]
    for member in dict.fromkeys([*taken, *conceded]):
        character = table.characters.get(member)
        if character is None or character.fate_points is None:
            continue  # no sheet of theirs keeps fate points any more
        if character.system not in FATE_SYSTEMS:
            continue  # the D6 System pays no point for a conflict's end
        count = taken.get(member, 0) + (member in conceded)
        awarded[member] = count
        points[member] = (character.fate_points, character.fate_points + count)
        why = []
        if member in taken:
            why.append(f"{taken[member]} consequence{'s' if taken[member] > 1 else ''} taken")
        if member in conceded:
            why.append("conceded")
        plural = "s" if count > 1 else ""
        lines.append(f"{character.name} gains {count} fate point{plural}: {', '.join(why)}.")
    state["initiative"] = None
    args = {"taken": taken, "conceded": conceded, "awarded": awarded}
    return Played(state, points, None, args, tuple(lines))


def _conceded(raw: object, table: Table) -> list[str]:
    """Who conceded: member ids of characters that keep fate points, none twice."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MAX_ORDER:
        raise PlayError(f"conceded is a list of at most {MAX_ORDER} member ids")
    conceded = [member_of(table, who) for who in raw]
    if len(set(conceded)) < len(conceded):
        raise PlayError("conceded names each one once")
    for member in conceded:
        points_of(table, member)  # a concession pays a fate point: of a Fate sheet
    return conceded


def _held(state: Mapping[str, Any]) -> dict[str, Any]:
    held = state.get("initiative")
    if not isinstance(held, dict):
        raise PlayError("no conflict is under way: start one with initiative")
    return held
