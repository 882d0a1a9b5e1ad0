"""Invokes on a roll and consequences taken in a hit or healed: the changes of
the play state that come with an entry of another kind (a point spent on a roll,
a sheet's hit), yet are logged as play is (docs/fairness.md, "Play").

* :func:`invoke`: the spend's entry carries ``aspect``, ``aspect_id``,
  ``free`` and ``points`` (or ``gm_pool``): :func:`fudgedice.log.play_entries.spend_fields`.
* :func:`consequence`: logged as a ``play`` entry of action ``consequence``,
  so that a later free invoke on it finds its free invoke in the log.
* :func:`recover`: consequences healed on a sheet leave the table, logged as
  a ``play`` entry of action ``recover``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .state import (
    FATE_SYSTEMS,
    MAX_TEXT,
    Played,
    PlayError,
    Table,
    add_aspect,
    copied,
    name_of,
    replace_aspect,
    text_of,
)

CONSEQUENCE: Final = "consequence"
"""The log's action of a consequence taken (it is no action of ``apply``)."""

RECOVER: Final = "recover"
"""The log's action of consequences healed on a sheet (no action of ``apply``)."""


def invoke(
    state: Mapping[str, Any], aspect: str, free: bool, table: Table, used: Sequence[str]
) -> Played:
    """An invoke on the actor's roll, naming ``aspect`` (an aspect id of the
    state, or a character aspect's name as written): a free invoke on it
    (a boost is gone once used), or 1 fate point off the actor's sheet (the
    GM's from the pool). ``used`` names the aspects already invoked on the
    roll (its chain of spends): the same aspect again only for free.

    >>> from fudgedice.play import Character, Table, apply, new_state
    >>> ann = Character("a", "Cynere", "fate", 3, 3, {}, ("Infamous Girl with Sword",), {})
    >>> table = Table(actor="a", gm=False, names={"a": "Ann"}, characters={"a": ann})
    >>> invoke(new_state(), "Infamous Girl with Sword", False, table, []).points
    {'a': (3, 2)}
    """
    state = copied(state)
    if not isinstance(free, bool):
        raise PlayError("free is true or false")
    found = _named(state, aspect, table)
    name = found["name"] if found is not None else text_of(aspect, "an aspect's name")
    if name in used and not free:
        raise PlayError(
            f"{name} was invoked on this roll already: again only with a free invoke", 422
        )
    who = name_of(table, table.actor)
    args: dict[str, Any] = {
        "aspect": name,
        "aspect_id": None if found is None else found["id"],
        "free": free,
    }
    if free:
        if found is None:
            raise PlayError(f"{name} has no free invoke: a character's aspect costs a fate point")
        _use_free(state, found, table)
        line = f"{who} uses a free invoke on {name}."
        return Played(state, {}, None, args, (line,))
    character = table.characters.get(table.actor)
    if character is not None and character.fate_points is not None:
        if character.system not in FATE_SYSTEMS:
            raise PlayError(f"{character.name}'s sheet keeps no fate points to invoke {name}")
        before = character.fate_points
        if before < 1:
            raise PlayError(f"{character.name} has no fate point to invoke {name}")
        line = f"{character.name} pays a fate point to invoke {name}."
        return Played(state, {table.actor: (before, before - 1)}, None, args, (line,))
    if table.gm:
        before = state["gm_pool"]
        if before < 1:
            raise PlayError(f"the GM's pool is empty: no fate point to invoke {name}")
        state["gm_pool"] = before - 1
        line = f"The GM pays a fate point from the pool to invoke {name}."
        return Played(state, {}, (before, before - 1), args, (line,))
    raise PlayError(f"{who} keeps no fate points to invoke {name} with")


def _named(state: Mapping[str, Any], aspect: object, table: Table) -> dict[str, Any] | None:
    """The state's aspect of that id, or None for a character aspect of
    that name (404 if it is neither)."""
    if not isinstance(aspect, str) or not aspect or len(aspect) > MAX_TEXT:
        raise PlayError("an invoke names its aspect: an aspect's id or a character's aspect")
    for each in state["aspects"]:
        if each["id"] == aspect:
            return dict(each)
    for character in table.characters.values():
        if aspect in character.aspects or aspect in character.consequences.values():
            return None
    raise PlayError(f"there is no aspect {aspect[:40]!r} at the table", 404)


def _use_free(state: dict[str, Any], aspect: dict[str, Any], table: Table) -> None:
    if aspect["free"] < 1:
        raise PlayError(f"{aspect['name']} has no free invoke left")
    if aspect["holder"] is not None and aspect["holder"] != table.actor:
        holder = name_of(table, aspect["holder"])
        raise PlayError(f"the free invokes of {aspect['name']} are {holder}'s", 403)
    aspect["free"] -= 1
    gone = aspect["kind"] == "boost" and aspect["free"] == 0
    replace_aspect(state, None if gone else aspect, aspect["id"])


def consequence(
    state: Mapping[str, Any], member: str, slot: str, name: str, holder: str | None
) -> Played:
    """A consequence ``member``'s character took in the slot ``slot``: an
    aspect named ``name`` with 1 free invoke for ``holder`` (who inflicted it;
    None: anyone at the GM's word). A slot holds one consequence: one taken
    again replaces the aspect it had.

    >>> from fudgedice.play import new_state
    >>> played = consequence(new_state(), "a", "mild", "Bruised ribs", "g")
    >>> aspect = played.state["aspects"][0]
    >>> aspect["kind"], aspect["free"], aspect["holder"]
    ('consequence', 1, 'g')
    """
    state = copied(state)
    name = text_of(name, "a consequence's name")
    slot = text_of(slot, "a consequence's slot")
    if not isinstance(member, str) or not member:
        raise PlayError("a consequence is a member's")
    if holder is not None and (not isinstance(holder, str) or not holder):
        raise PlayError("a consequence's free invoke is held by a member, or by anyone")
    if holder == member:
        raise PlayError("a consequence's free invoke is who inflicted it's, not its character's")
    taken = consequence_of(state, member, slot)
    if taken is not None:
        replace_aspect(state, None, taken["id"])
    made = add_aspect(
        state,
        {
            "name": name,
            "kind": CONSEQUENCE,
            "free": 1,
            "holder": holder,
            "by": holder,
            "scene": state["scene"],
            "member": member,
            "slot": slot,
        },
    )
    held = state.get("initiative")
    if isinstance(held, dict):  # taken in a conflict: a fate point when it ends
        taken = held.setdefault("taken", {})
        taken[member] = taken.get(member, 0) + 1
    args = {"aspect": made["id"], **{k: v for k, v in made.items() if k != "id"}}
    line = f"A {slot} consequence: {name}, with a free invoke."
    return Played(state, {}, None, args, (line,))


def consequence_of(state: Mapping[str, Any], member: str, slot: str) -> dict[str, Any] | None:
    """The consequence aspect ``member``'s character has in ``slot``, if any."""
    for each in state["aspects"]:
        if each["kind"] == CONSEQUENCE and (each["member"], each["slot"]) == (member, slot):
            return dict(each)
    return None


def recover(state: Mapping[str, Any], member: str, slots: Sequence[str]) -> Played:
    """The consequences of ``member``'s character healed in ``slots`` (its
    sheet's slots cleared): their aspects leave the table. A slot with no
    aspect is passed over (a consequence written on the sheet by hand);
    none at all is refused.

    >>> from fudgedice.play import new_state
    >>> hurt = consequence(new_state(), "a", "mild", "Bruised ribs", "g").state
    >>> healed = recover(hurt, "a", ["mild", "moderate"])
    >>> healed.state["aspects"], healed.args["aspects"], healed.lines
    ([], ['a1'], ('The mild consequence Bruised ribs heals.',))
    """
    state = copied(state)
    found = [aspect for slot in slots if (aspect := consequence_of(state, member, slot))]
    if not found:
        raise PlayError("no consequence of those slots is on the table", 404)
    for aspect in found:
        replace_aspect(state, None, aspect["id"])
    args = {
        "member": member,
        "aspects": [aspect["id"] for aspect in found],
        "slots": [aspect["slot"] for aspect in found],
        "names": [aspect["name"] for aspect in found],
    }
    lines = tuple(f"The {each['slot']} consequence {each['name']} heals." for each in found)
    return Played(state, {}, None, args, lines)
