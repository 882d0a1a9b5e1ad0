"""``apply(state, action, table)``: one action at the table, checked and
applied (docs/contracts/rules.md section 7; docs/fate.md, "Playing a scene").

Each action is a function of the state (copied, never changed in place), the
action's body and the table; each returns a :class:`.state.Played` whose
``args`` and ``lines`` become the action's entry of the log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..render.numbers import counted
from . import initiative
from .state import (
    FATE_SYSTEMS,
    MAX_ADVANTAGES,
    MAX_COMPELS,
    Played,
    PlayError,
    Table,
    add_aspect,
    copied,
    count_of,
    fate_characters,
    find_aspect,
    gm_only,
    member_of,
    name_of,
    new_id,
    points_of,
    replace_aspect,
    text_of,
)

Action = Callable[[dict[str, Any], Mapping[str, Any], Table], Played]


def apply(state: Mapping[str, Any], action: Mapping[str, Any], table: Table) -> Played:
    """The action ``action["action"]`` applied to (a copy of) ``state``, or a
    :class:`.state.PlayError` that says why not.

    >>> from fudgedice.play import Table, new_state
    >>> gm = Table(actor="g", gm=True, names={"g": "Gina"}, characters={})
    >>> played = apply(new_state(), {"action": "aspect", "name": "On fire"}, gm)
    >>> played.state["aspects"][0]["name"], played.lines
    ('On fire', ('Gina sets the aspect On fire.',))
    """
    if not isinstance(action, Mapping):
        raise PlayError("an action is a JSON object")
    name = action.get("action")
    run = _ACTIONS.get(name) if isinstance(name, str) else None
    if run is None:
        raise PlayError(
            f"{str(name)[:40]!r} is no action at the table", hint="actions: " + ", ".join(ACTIONS)
        )
    return run(copied(state), action, table)


def _aspect(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    gm_only(table, "sets a scene's aspects")
    name = text_of(body.get("name"), "an aspect's name")
    boost = body.get("boost", False)
    if not isinstance(boost, bool):
        raise PlayError("boost is true or false")
    free = 1 if boost else count_of(body.get("free"), "free invokes", 0, 2, 0)
    holder = body.get("holder")
    if holder is not None:
        holder = member_of(table, holder)
    made = add_aspect(
        state,
        {
            "name": name,
            "kind": "boost" if boost else "situation",
            "free": free,
            "holder": holder,
            "by": table.actor,
            "scene": state["scene"],
        },
    )
    what = "the boost" if boost else "the aspect"
    extra = f" with {_invokes(free)}" if free and not boost else ""
    line = f"{name_of(table, table.actor)} sets {what} {name}{extra}."
    return Played(state, {}, None, _aspect_args(made), (line,))


def _advantage(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    """A create-an-advantage: its aspect's free invokes follow from the
    shifts of the roll it names."""
    name = text_of(body.get("name"), "an aspect's name")
    of = body.get("of")
    rolled = table.rolls.get(of) if isinstance(of, int) and not isinstance(of, bool) else None
    if rolled is None:
        raise PlayError(f"there is no roll {str(of)[:20]} to create an advantage with", 404)
    if rolled.member != table.actor:
        raise PlayError(f"roll {rolled.seq} is not yours: an advantage is made by its roll", 403)
    if rolled.system not in FATE_SYSTEMS or rolled.shifts is None:
        raise PlayError(
            f"roll {rolled.seq} is no Fate roll against an opposition",
            hint="roll with vs or opp: fate: Good vs Fair",
        )
    root = rolled.root or rolled.seq
    if root <= state["scene_since"]:
        raise PlayError(f"roll {rolled.seq} was made before this scene: no advantage now")
    made_by = state["advantages"]
    if root in made_by or any(aspect.get("of") == rolled.seq for aspect in state["aspects"]):
        raise PlayError(f"roll {rolled.seq} made an advantage already")
    if len(made_by) >= MAX_ADVANTAGES:
        raise PlayError(f"a scene makes at most {MAX_ADVANTAGES} advantages")
    free = advantage_free(rolled.shifts)
    if free is None:
        raise PlayError(f"roll {rolled.seq} failed by {-rolled.shifts}: no advantage")
    boost = rolled.shifts == 0
    state["advantages"] = [*made_by, root]
    made = add_aspect(
        state,
        {
            "name": name,
            "kind": "boost" if boost else "situation",
            "free": free,
            "holder": table.actor,
            "by": table.actor,
            "scene": state["scene"],
            "of": rolled.seq,
        },
    )
    who = name_of(table, table.actor)
    if boost:
        line = f"{who} ties and gets the boost {name}."
    else:
        line = f"{who} creates the advantage {name} with {_invokes(free)}."
    return Played(state, {}, None, {**_aspect_args(made), "shifts": rolled.shifts}, (line,))


def advantage_free(shifts: int) -> int | None:
    """The free invokes a create-an-advantage of ``shifts`` gives: None (it
    failed), 1 (a tie: a boost), 1 (a success), 2 (with style: 3 or more).

    >>> [advantage_free(shifts) for shifts in (-1, 0, 1, 2, 3, 5)]
    [None, 1, 1, 1, 2, 2]
    """
    if shifts < 0:
        return None
    return 2 if shifts >= 3 else 1


def _remove(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    aspect = find_aspect(state, body.get("aspect"))
    if not table.gm and aspect["kind"] == "consequence":
        # its free invoke is whoever inflicted it's; the sheet heals it, the GM takes it away
        raise PlayError(f"only the GM removes a consequence: {aspect['name']}", 403)
    if not table.gm and aspect.get("by") != table.actor:
        raise PlayError(f"only the GM or its owner removes {aspect['name']}", 403)
    replace_aspect(state, None, aspect["id"])
    line = f"{name_of(table, table.actor)} removes the aspect {aspect['name']}."
    return Played(state, {}, None, {"aspect": aspect["id"], "name": aspect["name"]}, (line,))


def _rename(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    aspect = find_aspect(state, body.get("aspect"))
    owner = aspect.get("member") if aspect["kind"] == "consequence" else aspect.get("by")
    if not table.gm and owner != table.actor:
        raise PlayError(f"only the GM or its owner renames {aspect['name']}", 403)
    name = text_of(body.get("name"), "an aspect's name")
    before = aspect["name"]
    aspect["name"] = name
    replace_aspect(state, aspect, aspect["id"])
    args = {"aspect": aspect["id"], "name": name, "was": before}
    if aspect["kind"] == "consequence":
        args.update(member=aspect["member"], slot=aspect["slot"])
    line = f"{name_of(table, table.actor)} renames {before} to {name}."
    return Played(state, {}, None, args, (line,))


def _award(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    gm_only(table, "awards fate points")
    member = member_of(table, body.get("member"))
    character, before = points_of(table, member)
    count = count_of(body.get("count"), "an award", 1, 5, 1)
    why = text_of(body.get("why"), "an award's reason", empty=True)
    line = f"The GM awards {character.name} {_points(count)}" + (f": {why}." if why else ".")
    args = {"member": member, "count": count, "why": why}
    return Played(state, {member: (before, before + count)}, None, args, (line,))


def _compel(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    gm_only(table, "offers compels")
    member = member_of(table, body.get("member"))
    character, _ = points_of(table, member)
    aspect = text_of(body.get("aspect"), "a compel's aspect")
    text = text_of(body.get("text"), "a compel's text", empty=True)
    if len(state["compels"]) >= MAX_COMPELS:
        raise PlayError(f"at most {MAX_COMPELS} compels wait at once: settle some first")
    compel = {"id": new_id(state, "c"), "member": member, "aspect": aspect, "text": text}
    state["compels"].append(compel)
    line = f"The GM compels {character.name}'s {aspect}" + (f": {text}" if text else ".")
    args = {"compel": compel["id"], "member": member, "aspect": aspect, "text": text}
    return Played(state, {}, None, args, (line,))


def _answer(accepted: bool) -> Action:
    def answer(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
        found = [each for each in state["compels"] if each["id"] == body.get("compel")]
        if not found:
            raise PlayError(f"there is no compel {str(body.get('compel'))[:20]!r} on offer", 404)
        compel = found[0]
        if compel["member"] != table.actor:
            raise PlayError("only the compelled player answers a compel", 403)
        character, before = points_of(table, compel["member"])
        if not accepted and before < 1:
            raise PlayError(f"{character.name} has no fate point to refuse the compel")
        after = before + 1 if accepted else before - 1
        state["compels"] = [each for each in state["compels"] if each["id"] != compel["id"]]
        verb = "accepts the compel on" if accepted else "pays a fate point to refuse the compel on"
        line = f"{character.name} {verb} {compel['aspect']}."
        args = {"compel": compel["id"], "member": compel["member"], "aspect": compel["aspect"]}
        return Played(state, {compel["member"]: (before, after)}, None, args, (line,))

    return answer


def _gm_spend(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    gm_only(table, "spends from the GM's pool")
    count = count_of(body.get("count"), "a spend", 1, 5, 1)
    why = text_of(body.get("why"), "a spend's reason", empty=True)
    before = state["gm_pool"]
    if before < count:
        raise PlayError(f"the GM's pool holds {_points(before)}, not {count}")
    state["gm_pool"] = before - count
    line = f"The GM spends {_points(count)} from the pool" + (f": {why}." if why else ".")
    return Played(state, {}, (before, before - count), {"count": count, "why": why}, (line,))


def _scene(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    gm_only(table, "starts a new scene")
    return new_scene(state, body, table, {}, ())


def new_scene(
    state: dict[str, Any],
    body: Mapping[str, Any],
    table: Table,
    points: dict[str, tuple[int, int]],
    lines: tuple[str, ...],
) -> Played:
    """The next scene: its situation aspects and boosts go with the old one
    (consequences stay), so do the compels on offer; the GM's pool is one
    fate point per player character that keeps them."""
    name = text_of(body.get("name"), "a scene's name", empty=True)
    gone = [each["id"] for each in state["aspects"] if each["kind"] != "consequence"]
    state["aspects"] = [each for each in state["aspects"] if each["kind"] == "consequence"]
    state["compels"] = []
    state["scene"] += 1
    state["scene_name"] = name
    state["scene_since"], state["advantages"] = table.last_seq, []
    before, pool = state["gm_pool"], len(fate_characters(table))
    state["gm_pool"] = pool
    called = f" ({name})" if name else ""
    line = f"Scene {state['scene']}{called} begins: the GM's pool holds {_points(pool)}."
    args = {"scene": state["scene"], "name": name, "removed": gone, "pool": pool}
    pool_change = None if before == pool else (before, pool)
    return Played(state, points, pool_change, args, (*lines, line))


def _session(state: dict[str, Any], body: Mapping[str, Any], table: Table) -> Played:
    """A new session: every Fate character's points up to their refresh."""
    gm_only(table, "starts a new session")
    points: dict[str, tuple[int, int]] = {}
    refresh: dict[str, int] = {}
    lines = []
    for character in fate_characters(table):
        before = character.fate_points
        if character.refresh is None or before is None:
            continue
        refresh[character.member] = character.refresh
        if before < character.refresh:
            points[character.member] = (before, character.refresh)
            lines.append(f"{character.name} refreshes to {_points(character.refresh)}.")
    if len(lines) > NAMED_REFRESHES:  # an entry's words stay short: its points name each
        lines = [f"{len(lines)} characters refresh."]
    state["session"] += 1
    played = new_scene(state, body, table, points, (f"Session {state['session']} begins.", *lines))
    args = {**played.args, "session": state["session"], "refresh": refresh}
    return played._replace(args=args)


NAMED_REFRESHES: Final = 20
"""Characters a session's words name one by one as they refresh (more: counted)."""


def _invokes(count: int) -> str:
    return counted(count, "free invoke")


def _points(count: int) -> str:
    return counted(count, "fate point")


def _aspect_args(aspect: Mapping[str, Any]) -> dict[str, Any]:
    """An aspect as its entry's ``args`` name it."""
    return {"aspect": aspect["id"], **{k: v for k, v in aspect.items() if k != "id"}}


_ACTIONS: Final[dict[str, Action]] = {
    "aspect": _aspect,
    "advantage": _advantage,
    "remove": _remove,
    "rename": _rename,
    "award": _award,
    "compel": _compel,
    "accept": _answer(True),
    "refuse": _answer(False),
    "gm_spend": _gm_spend,
    "scene": _scene,
    "session": _session,
    "initiative": initiative.start,
    "next": initiative.next_actor,
    "order": initiative.order,
    "end_conflict": initiative.end,
}

ACTIONS: Final = tuple(_ACTIONS)
"""The actions a table takes (``POST .../play``'s ``action``)."""
