"""Logs of play forged by a server that cheats, each entry made by the rules
from a state tampered with between two actions, every hash right: ``verify``
names each at its entry (a roll's second advantage, an advantage from an
earlier scene's roll, a compel answered that was never offered, a free
invoke used by who does not hold it, a D6 order that gives one actor
another's roll)."""

from __future__ import annotations

import fudgedice
from fudgedice.play import Table, apply, consequence

from .test_play_log import NAMES, Rechain, Room, a_session


def failure(room: Room, rechained: Rechain) -> tuple[int | None, str]:
    found = fudgedice.verify(rechained(room.document())).failure
    assert found is not None
    return found.seq, found.reason


def test_a_roll_made_to_give_two_advantages_is_named(rechained: Rechain) -> None:
    room = Room()
    rolled = room.roll("fate: Superb vs Terrible", "a")
    room.play("a", (rolled,), action="advantage", of=rolled, name="Cornered")
    room.play("a", action="remove", aspect="a1")
    assert fudgedice.verify(rechained(room.document())).failure is None
    room.state["advantages"] = []  # the state forgets the roll made one
    again = room.play("a", (rolled,), action="advantage", of=rolled, name="Cornered again")
    seq, why = failure(room, rechained)
    assert seq == again and f"roll {rolled} made an advantage already" in why


def test_an_advantage_from_an_earlier_scenes_roll_is_named(rechained: Rechain) -> None:
    room = Room()
    rolled = room.roll("fate: Superb vs Terrible", "a")
    room.play("g", action="scene", name="Later")
    room.state["scene_since"] = 0  # the state forgets where the scene began
    late = room.play("a", (rolled,), action="advantage", of=rolled, name="Cornered")
    seq, why = failure(room, rechained)
    assert seq == late and "made before the scene began" in why


def test_a_compel_answered_that_was_never_offered_is_named(rechained: Rechain) -> None:
    room = Room()
    room.state["compels"].append({"id": "c9", "member": "a", "aspect": "Infamous", "text": ""})
    accepted = room.play("a", action="accept", compel="c9")  # a fate point from nothing
    seq, why = failure(room, rechained)
    assert seq == accepted and "c9" in why


def test_a_compel_answered_twice_is_named(rechained: Rechain) -> None:
    room = Room()
    room.play("g", action="compel", member="a", aspect="Infamous")
    offered = dict(room.state["compels"][0])
    room.play("a", action="accept", compel=offered["id"])
    room.state["compels"].append(offered)  # offered once, taken twice
    again = room.play("a", action="accept", compel=offered["id"])
    seq, why = failure(room, rechained)
    assert seq == again and offered["id"] in why


def test_a_free_invoke_used_by_who_does_not_hold_it_is_named(rechained: Rechain) -> None:
    room = Room()
    room.play("g", action="aspect", name="Fog", free=1, holder="b")
    rolled = room.roll("fate: Fair vs Great", "a")
    room.state["aspects"][0]["holder"] = "a"  # Bob's free invoke handed to Ann
    used = room.invoke(rolled, "a1", True)
    seq, why = failure(room, rechained)
    assert seq == used and "Bob" not in why and "b's" in why


def test_an_order_that_gives_one_actor_anothers_roll_is_named(rechained: Rechain) -> None:
    _, at = a_session()
    room, _ = a_session()
    document = room.document()
    order = document["entries"][at["order"] - 1]["args"]["order"]
    assert [place["who"] for place in order] == ["b", "a", "Orc"]
    order[0]["who"], order[1]["who"] = "a", "b"  # Ann takes Bob's +20, still highest first
    found = fudgedice.verify(rechained(document)).failure
    assert found is not None and found.seq == at["order"]
    assert f"seq {at['roll_b']}, which is b's roll, not a's" in found.reason


def test_an_order_from_a_players_roll_for_a_character_by_name_is_named(
    rechained: Rechain,
) -> None:
    room = Room()
    room.play("g", action="initiative", mode="perception")
    rolled = room.roll("d6: 3D+20 # initiative: Orc", "a")  # Ann rolls for the GM's Orc
    cheat = Table("a", True, NAMES, {}, {rolled: room.rolled(rolled)}, len(room.entries))
    ordered = room.log("g", apply(room.state, {"action": "order"}, cheat), "order")
    seq, why = failure(room, rechained)
    assert seq == ordered and "a character's roll by name not the GM's" in why


def test_a_consequence_whose_free_invoke_is_its_own_players_is_named(rechained: Rechain) -> None:
    room = Room()
    played = consequence(room.state, "b", "mild", "Bruised", "a")
    played.args["holder"] = played.state["aspects"][0]["holder"] = "b"  # Bob's on his own
    hurt = room.log("g", played, "consequence")
    seq, why = failure(room, rechained)
    assert seq == hurt and "held by its own character's player" in why
