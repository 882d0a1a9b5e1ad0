"""A conflict's order as each system makes it (docs/contracts/rules.md section 7): Fate
Core by Notice or Empathy and their tie-breaks, Fate Condensed's elective
order, D6 Perception rolled each round, the GM's order."""

from __future__ import annotations

from typing import Any

import pytest

from fudgedice.play import Character, PlayError, Rolled, Table, apply, new_state

NAMES = {"g": "Gina", "a": "Ann", "b": "Bob", "c": "Cy"}


def fate(member: str, name: str, **skills: int) -> Character:
    return Character(member, name, "fate", 3, 3, skills, (), {})


def run(state: dict[str, Any], table: Table, **action: Any) -> Any:
    return apply(state, action, table)


def test_notice_orders_with_athletics_then_physique_breaking_ties() -> None:
    characters = {
        "a": fate("a", "Ann", Notice=2, Athletics=1, Physique=3),
        "b": fate("b", "Bob", Notice=2, Athletics=1, Physique=4),
        "c": fate("c", "Cy", Notice=3),
    }
    gm = Table("g", True, NAMES, characters)
    played = run(new_state(), gm, action="initiative", mode="notice")
    held = played.state["initiative"]
    assert [e["who"] for e in held["order"]] == ["c", "b", "a"]
    assert [e["score"] for e in held["order"]] == [3, 2, 2]
    assert held["ties"] == [] and held["round"] == 1 and held["current"] == 0


def test_empathy_ties_left_to_the_gm_in_join_order() -> None:
    characters = {
        "a": fate("a", "Ann", Empathy=1, Rapport=2, Will=1),
        "b": fate("b", "Bob", Empathy=1, Rapport=2, Will=1),
        "c": fate("c", "Cy", Empathy=1, Rapport=2, Will=2),
    }
    gm = Table("g", True, NAMES, characters)
    held = run(new_state(), gm, action="initiative", mode="empathy").state["initiative"]
    assert [e["who"] for e in held["order"]] == ["c", "a", "b"] and held["ties"] == [["a", "b"]]
    again = run(new_state(), gm, action="initiative", mode="empathy", order=["c", "b", "a", "Ogre"])
    held = again.state["initiative"]
    assert [e["who"] for e in held["order"]] == ["c", "b", "a", "Ogre"] and held["ties"] == []
    assert held["order"][3] == {"who": "Ogre", "name": "Ogre", "score": None, "roll": None}


def test_fate_accelerated_compares_quick_or_careful() -> None:
    quick = Character("a", "Ann", "fae", 3, 3, {"Quick": 3, "Careful": 0}, (), {})
    careful = Character("b", "Bob", "fae", 3, 3, {"Quick": 1, "Careful": 2}, (), {})
    gm = Table("g", True, NAMES, {"a": quick, "b": careful})
    physical = run(new_state(), gm, action="initiative", mode="notice").state["initiative"]
    mental = run(new_state(), gm, action="initiative", mode="empathy").state["initiative"]
    assert [e["who"] for e in physical["order"]] == ["a", "b"]
    assert [e["who"] for e in mental["order"]] == ["b", "a"]


def test_the_order_moves_on_and_rounds_turn() -> None:
    gm = Table("g", True, NAMES, {})
    state = run(new_state(), gm, action="initiative", mode="gm", order=["b", "Ogre"]).state
    state = run(state, gm, action="next").state
    assert state["initiative"]["current"] == 1 and state["initiative"]["acted"] == ["b"]
    turned = run(state, gm, action="next")
    assert turned.state["initiative"]["round"] == 2 and turned.state["initiative"]["current"] == 0
    assert turned.lines == ("Round 2 begins.", "Bob acts.")
    with pytest.raises(PlayError) as caught:
        run(state, Table("b", False, NAMES, {}), action="next")
    assert caught.value.status == 403
    ended = run(state, gm, action="end_conflict")
    assert ended.state["initiative"] is None
    with pytest.raises(PlayError, match="no conflict"):
        run(ended.state, gm, action="next")
    with pytest.raises(PlayError, match="lists who acts"):
        run(new_state(), gm, action="initiative", mode="gm")
    with pytest.raises(PlayError, match="mode is one of"):
        run(new_state(), gm, action="initiative", mode="speed")
    with pytest.raises(PlayError, match="each one once"):
        run(new_state(), gm, action="initiative", mode="gm", order=["b", "b"])


def test_elective_order_lets_who_acts_name_who_is_next() -> None:
    characters = {"a": fate("a", "Ann"), "b": fate("b", "Bob")}
    gm = Table("g", True, NAMES, characters)
    ann, bob = (Table(who, False, NAMES, characters) for who in ("a", "b"))
    state = run(new_state(), gm, action="initiative", mode="elective", order=["a"]).state
    assert [e["who"] for e in state["initiative"]["order"]] == ["a", "b", "NPCs"]
    with pytest.raises(PlayError) as caught:
        run(state, bob, action="next", to="NPCs")
    assert caught.value.status == 403
    state = run(state, ann, action="next", to="NPCs").state
    with pytest.raises(PlayError, match="has not acted: Bob"):
        run(state, gm, action="next", to="a")
    state = run(state, gm, action="next").state  # the one left acts
    assert state["initiative"]["order"][state["initiative"]["current"]]["who"] == "b"
    # the last of the exchange names anyone, themselves too, to begin the next
    turned = run(state, bob, action="next", to="b")
    assert turned.state["initiative"]["round"] == 2 and turned.state["initiative"]["acted"] == []
    assert turned.lines == ("Exchange 2 begins.", "Bob acts.")


def rolled(seq: int, member: str, total: int, label: str = "initiative") -> Rolled:
    return Rolled(seq, member, label, total, None, "d6")


def test_perception_orders_the_rolls_of_the_round_and_ties_roll_again() -> None:
    state = run(new_state(), Table("g", True, NAMES, {}, last_seq=10), action="initiative",
                mode="perception").state  # fmt: skip
    assert state["initiative"]["since"] == 10 and state["initiative"]["order"] == []
    rolls = {r.seq: r for r in (
        rolled(9, "a", 30), rolled(11, "a", 12), rolled(12, "b", 15), rolled(13, "c", 12),
        rolled(14, "g", 14, "initiative: Ogre"), rolled(15, "b", 9, "attack"),
    )}  # fmt: skip
    gm = Table("g", True, NAMES, {}, rolls, last_seq=15)
    with pytest.raises(PlayError, match="nobody is ordered"):
        run(state, gm, action="next")
    first = run(state, gm, action="order")
    held = first.state["initiative"]
    assert [(e["who"], e["score"], e["roll"]) for e in held["order"]] == [
        ("b", 15, 12), ("Ogre", 14, 14), ("a", 12, 11), ("c", 12, 13),
    ]  # fmt: skip
    assert held["ties"] == [["a", "c"]]
    # the tied roll again: the later roll orders them, and only them
    more = {**rolls, 16: rolled(16, "c", 8), 17: rolled(17, "a", 5), 18: rolled(18, "b", 2)}
    second = run(first.state, gm._replace(rolls=more), action="order")
    held = second.state["initiative"]
    assert [e["who"] for e in held["order"]] == ["b", "Ogre", "c", "a"] and held["ties"] == []
    assert second.args["order"][2] == {"who": "c", "name": "Cy", "rolls": [13, 16],
                                       "totals": [12, 8]}  # fmt: skip
    # past the last actor, a new round: everyone rolls again
    state = second.state
    for _ in range(3):
        state = run(state, gm, action="next").state
    turned = run(state, gm._replace(last_seq=20), action="next")
    assert turned.state["initiative"]["round"] == 2 and turned.state["initiative"]["since"] == 20
    with pytest.raises(PlayError, match="nobody has rolled"):
        run(turned.state, gm._replace(last_seq=20), action="order")


def test_an_order_from_rolls_is_perceptions_alone() -> None:
    gm = Table("g", True, NAMES, {})
    state = run(new_state(), gm, action="initiative", mode="gm", order=["b"]).state
    with pytest.raises(PlayError, match="only a perception order"):
        run(state, gm, action="order")


def test_the_gms_roll_by_name_orders_no_member() -> None:
    # "initiative: a" names a character "a", never the member a: Ann's own roll orders her
    state = run(new_state(), Table("g", True, NAMES, {}, last_seq=1), action="initiative",
                mode="perception").state  # fmt: skip
    rolls = {r.seq: r for r in (rolled(2, "a", 5), rolled(3, "g", 30, "initiative: a"))}
    held = run(state, Table("g", True, NAMES, {}, rolls, 3), action="order").state["initiative"]
    assert [(e["who"], e["score"], e["roll"]) for e in held["order"]] == [("a", 5, 2)]
