"""A conflict's consequences and its end (docs/contracts/rules.md section 7):
a consequence healed leaves the table; at the end, a fate point per
consequence taken in the conflict and one for conceding."""

from __future__ import annotations

from typing import Any

import pytest

from fudgedice.play import (
    Character,
    PlayError,
    Table,
    apply,
    consequence,
    consequence_of,
    new_state,
    recover,
)

NAMES = {"g": "Gina", "a": "Ann", "b": "Bob", "d": "Dee", "e": "Eve"}
ANN = Character("a", "Cynere", "fate", 2, 3, {"Notice": 2}, (), {})
BOB = Character("b", "Landon", "fatecondensed", 0, 3, {"Notice": 1}, (), {})
DEE = Character("d", "Jax", "d6", 1, None, {"Perception": 3}, (), {})
"""A D6 character: Fate Points of the D6 System, which no conflict's end pays."""
EVE = Character("e", "Mo", "fudge", None, None, {}, (), {})


def table(actor: str = "g") -> Table:
    return Table(actor, actor == "g", NAMES, {"a": ANN, "b": BOB, "d": DEE, "e": EVE})


def play(state: dict[str, Any], actor: str = "g", **action: Any) -> Any:
    return apply(state, action, table(actor))


def test_recover_removes_the_healed_slots_aspects_only() -> None:
    state = consequence(new_state(), "a", "mild", "Bruised", "b").state
    state = consequence(state, "a", "moderate", "Cracked ribs", "b").state
    state = consequence(state, "b", "mild", "Winded", "a").state
    healed = recover(state, "a", ["mild", "severe"])
    assert [aspect["name"] for aspect in healed.state["aspects"]] == ["Cracked ribs", "Winded"]
    assert healed.args == {"member": "a", "aspects": ["a1"], "slots": ["mild"],
                           "names": ["Bruised"]}  # fmt: skip
    assert consequence_of(state, "a", "mild") is not None  # the state given is left as it was
    assert consequence_of(healed.state, "a", "mild") is None
    both = recover(state, "a", ["mild", "moderate"])
    assert [aspect["name"] for aspect in both.state["aspects"]] == ["Winded"]
    with pytest.raises(PlayError, match="no consequence of those slots") as caught:
        recover(healed.state, "a", ["mild"])
    assert caught.value.status == 404


def test_a_conflicts_end_pays_for_consequences_taken_in_it_and_for_conceding() -> None:
    state = consequence(new_state(), "a", "mild", "Before the fight", "g").state
    state = play(state, action="initiative", mode="notice").state
    state = consequence(state, "a", "moderate", "Cut", "b").state
    state = consequence(state, "a", "mild", "Bruised", "b").state  # the slot again: counted
    # ordered again (a tie): the same conflict, its consequences kept
    state = play(state, action="initiative", mode="notice", order=["b", "a"]).state
    assert state["initiative"]["taken"] == {"a": 2}
    ended = play(state, action="end_conflict", conceded=["b"])
    assert ended.state["initiative"] is None
    assert ended.points == {"a": (2, 4), "b": (0, 1)}
    assert ended.args == {"taken": {"a": 2}, "conceded": ["b"], "awarded": {"a": 2, "b": 1}}
    assert ended.lines == (
        "The conflict ends.",
        "Cynere gains 2 fate points: 2 consequences taken.",
        "Landon gains 1 fate point: conceded.",
    )
    # a conflict of nothing pays nothing
    quiet = play(play(new_state(), action="initiative", mode="gm", order=["a"]).state,
                 action="end_conflict")  # fmt: skip
    assert (quiet.points, quiet.args["awarded"]) == ({}, {})


@pytest.mark.parametrize(
    ("actor", "conceded", "status", "match"),
    [
        ("a", ["a"], 403, "only the GM ends a conflict"),
        ("g", ["zz"], 404, "no member 'zz'"),
        ("g", ["a", "a"], 422, "each one once"),
        ("g", ["d"], 422, "Jax's sheet keeps no fate points of Fate's"),
        ("g", ["e"], 422, "Mo's sheet keeps no fate points"),
        ("g", "a", 422, "conceded is a list"),
    ],
)
def test_a_concession_is_refused_when_it_should_be(
    actor: str, conceded: object, status: int, match: str
) -> None:
    state = play(new_state(), action="initiative", mode="notice").state
    with pytest.raises(PlayError, match=match) as caught:
        play(state, actor, action="end_conflict", conceded=conceded)
    assert caught.value.status == status
