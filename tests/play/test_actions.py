"""Every action at the table: allowed to whom it is, refused (with the right
status) to whom it is not, and the state it leaves; invokes and consequences."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from fudgedice.log.play_entries import play_entry, play_fields_error
from fudgedice.play import (
    ACTIONS,
    Character,
    PlayError,
    Rolled,
    Table,
    apply,
    consequence,
    invoke,
    new_state,
)
from fudgedice.play.state import MAX_ADVANTAGES

NAMES = {"g": "Gina", "a": "Ann", "b": "Bob", "d": "Dee"}
ANN = Character("a", "Cynere", "fate", 2, 3, {"Notice": 2}, ("Infamous Girl with Sword",), {})
BOB = Character("b", "Landon", "fatecondensed", 0, 3, {"Notice": 1}, ("Hot-headed",), {})
DEE = Character("d", "Jax", "d6", None, None, {"Perception": 3}, (), {})
CHARACTERS = {"a": ANN, "b": BOB, "d": DEE}


def table(actor: str = "g", **rolls: Rolled) -> Table:
    return Table(actor, actor == "g", NAMES, CHARACTERS, {r.seq: r for r in rolls.values()})


def play(state: dict[str, Any], actor: str = "g", **action: Any) -> Any:
    return apply(state, action, table(actor))


def refused(status: int, state: dict[str, Any], actor: str, match: str, **action: Any) -> None:
    with pytest.raises(PlayError, match=match) as caught:
        play(state, actor, **action)
    assert caught.value.status == status


def test_the_actions_are_those_of_the_table() -> None:
    assert set(ACTIONS) == {
        "aspect", "advantage", "remove", "rename", "award", "compel", "accept", "refuse",
        "gm_spend", "scene", "session", "initiative", "next", "order", "end_conflict",
    }  # fmt: skip


def test_an_action_never_changes_the_state_it_is_given() -> None:
    state = play(new_state(), action="aspect", name="Fog", free=2).state
    kept = copy.deepcopy(state)
    play(state, action="scene", name="Docks")
    play(state, action="remove", aspect="a1")
    assert state == kept


def test_the_gm_sets_aspects_and_boosts() -> None:
    state = play(new_state(), action="aspect", name="  On   fire ", free=2).state
    state = play(state, action="aspect", name="Dazed", boost=True, holder="a").state
    first, boost = state["aspects"]
    assert first == {
        "id": "a1", "name": "On fire", "kind": "situation", "free": 2, "holder": None,
        "by": "g", "scene": 1,
    }  # fmt: skip
    assert (boost["kind"], boost["free"], boost["holder"]) == ("boost", 1, "a")
    refused(403, state, "a", "only the GM", action="aspect", name="Mine")
    refused(422, state, "g", "from 0 to 2", action="aspect", name="Big", free=3)
    refused(422, state, "g", "is empty", action="aspect", name="   ")
    refused(422, state, "g", "control character", action="aspect", name="a\u202eb")
    refused(404, state, "g", "no member", action="aspect", name="X", holder="zz")


@pytest.mark.parametrize(
    ("shifts", "kind", "free"),
    [(0, "boost", 1), (2, "situation", 1), (3, "situation", 2), (6, "situation", 2)],
)
def test_an_advantage_follows_its_rolls_shifts(shifts: int, kind: str, free: int) -> None:
    rolled = Rolled(7, "a", None, 4, shifts, "fate")
    played = apply(new_state(), {"action": "advantage", "of": 7, "name": "Cornered"},
                   table("a", r=rolled))  # fmt: skip
    aspect = played.state["aspects"][0]
    assert (aspect["kind"], aspect["free"], aspect["holder"], aspect["of"]) == (kind, free, "a", 7)
    assert played.args["shifts"] == shifts
    again = {"action": "advantage", "of": 7, "name": "Twice"}
    with pytest.raises(PlayError, match="made an advantage already"):
        apply(played.state, again, table("a", r=rolled))


@pytest.mark.parametrize(
    ("rolled", "actor", "status", "match"),
    [
        (Rolled(7, "a", None, 1, -1, "fate"), "a", 422, "failed by 1"),
        (Rolled(7, "a", None, 1, None, "fate"), "a", 422, "against an opposition"),
        (Rolled(7, "a", None, 12, 2, "d6"), "a", 422, "no Fate roll"),
        (Rolled(7, "b", None, 1, 2, "fate"), "a", 403, "not yours"),
        (Rolled(8, "a", None, 1, 2, "fate"), "a", 404, "no roll 7"),
    ],
)
def test_an_advantage_refused(rolled: Rolled, actor: str, status: int, match: str) -> None:
    with pytest.raises(PlayError, match=match) as caught:
        apply(new_state(), {"action": "advantage", "of": 7, "name": "X"}, table(actor, r=rolled))
    assert caught.value.status == status


def test_a_scene_remembers_a_bounded_number_of_advantages() -> None:
    # each advantage's roll is kept to refuse it a second: at the bound, a clear refusal
    state = {**new_state(), "advantages": list(range(1, MAX_ADVANTAGES + 1))}
    fresh = Rolled(MAX_ADVANTAGES + 1, "a", None, 1, 2, "fate")
    with pytest.raises(PlayError, match=f"at most {MAX_ADVANTAGES} advantages") as caught:
        apply(state, {"action": "advantage", "of": fresh.seq, "name": "X"}, table("a", r=fresh))
    assert caught.value.status == 422
    scene = play(state, action="scene").state  # a new scene forgets them
    made = apply(scene, {"action": "advantage", "of": 2000, "name": "X"},
                 table("a", r=fresh._replace(seq=2000))._replace(last_seq=0))  # fmt: skip
    assert made.state["advantages"] == [2000]


def test_remove_and_rename() -> None:
    rolled = Rolled(3, "a", None, 4, 1, "fate")
    state = apply(new_state(), {"action": "advantage", "of": 3, "name": "Smoke"},
                  table("a", r=rolled)).state  # fmt: skip
    state = consequence(state, "b", "mild", "(name this mild consequence)", "a").state
    refused(403, state, "b", "only the GM or its owner", action="remove", aspect="a1")
    refused(404, state, "g", "no aspect 'a9'", action="remove", aspect="a9")
    renamed = play(state, "b", action="rename", aspect="a2", name="Bruised ribs")
    assert renamed.state["aspects"][1]["name"] == "Bruised ribs"
    assert renamed.args == {
        "aspect": "a2", "name": "Bruised ribs", "was": "(name this mild consequence)",
        "member": "b", "slot": "mild",
    }  # fmt: skip
    refused(403, state, "a", "only the GM or its owner", action="rename", aspect="a2", name="X")
    gone = play(state, "a", action="remove", aspect="a1").state
    assert [aspect["id"] for aspect in gone["aspects"]] == ["a2"]


def test_a_consequence_is_removed_by_the_gm_alone() -> None:
    # its free invoke is who inflicted it's: the hurt player may name it, not take it away
    state = consequence(new_state(), "b", "mild", "Bruised ribs", "a").state
    refused(403, state, "b", "only the GM removes a consequence", action="remove", aspect="a1")
    refused(403, state, "a", "only the GM removes a consequence", action="remove", aspect="a1")
    assert play(state, "g", action="remove", aspect="a1").state["aspects"] == []


def test_a_session_of_a_crowd_refreshes_in_a_few_words() -> None:
    # every player of the largest room: an entry's lines stay under the log's limit
    crowd = {f"m{i}": Character(f"m{i}", f"C{i}", "fate", 0, 3, {}, (), {}) for i in range(500)}
    table = Table("g", True, {"g": "Gina", **{m: m for m in crowd}}, crowd)
    played = apply(new_state(), {"action": "session"}, table)
    assert len(played.points) == 500 and len(played.lines) == 3
    assert played.lines[1] == "500 characters refresh."
    assert (
        play_fields_error(
            play_entry(
                commitment="0" * 64,
                seq=1,
                prev="0" * 64,
                roller="Gina",
                member="g",
                played=played,
                action="session",
            )
        )
        is None
    )


def test_awards_and_compels_move_fate_points() -> None:
    state = new_state()
    award = play(state, action="award", member="a", count=2, why="a great scene")
    assert award.points == {"a": (2, 4)} and award.state == state
    refused(403, state, "a", "only the GM", action="award", member="a")
    refused(404, state, "g", "no member", action="award", member="zz")
    refused(422, state, "g", "keeps no fate points", action="award", member="d")
    refused(422, state, "g", "from 1 to 5", action="award", member="a", count=0)
    state = play(state, action="compel", member="b", aspect="Hot-headed", text="a brawl").state
    state = play(state, action="compel", member="a", aspect="Infamous").state
    assert [c["id"] for c in state["compels"]] == ["c1", "c2"]
    refused(403, state, "a", "only the compelled", action="accept", compel="c1")
    refused(404, state, "b", "no compel", action="accept", compel="c9")
    refused(422, state, "b", "no fate point to refuse", action="refuse", compel="c1")
    accepted = play(state, "b", action="accept", compel="c1")
    assert accepted.points == {"b": (0, 1)} and [c["id"] for c in accepted.state["compels"]] == [
        "c2"
    ]
    paid = play(accepted.state, "a", action="refuse", compel="c2")
    assert paid.points == {"a": (2, 1)} and paid.state["compels"] == []


def test_the_gm_pool_is_spent_and_filled_by_a_scene() -> None:
    state = new_state()
    refused(422, state, "g", "holds 0 fate points", action="gm_spend")
    scene = play(state, action="scene", name="The docks")
    # one point per player character keeping fate points: Ann and Bob, not Dee's d6 sheet
    assert scene.gm_pool == (0, 2) and scene.state["gm_pool"] == 2
    spent = play(scene.state, action="gm_spend", count=2, why="an NPC invokes")
    assert spent.gm_pool == (2, 0) and spent.state["gm_pool"] == 0
    refused(403, scene.state, "a", "only the GM", action="gm_spend")


def test_a_new_scene_keeps_consequences_only() -> None:
    state = play(new_state(), action="aspect", name="Fog").state
    state = play(state, action="compel", member="a", aspect="Infamous").state
    state = consequence(state, "a", "mild", "Cut", "g").state
    scene = play(state, action="scene", name="Aftermath")
    assert [a["name"] for a in scene.state["aspects"]] == ["Cut"]
    assert scene.state["compels"] == [] and scene.state["scene"] == 2
    assert scene.state["scene_name"] == "Aftermath" and scene.args["removed"] == ["a1"]
    refused(403, state, "a", "only the GM", action="scene")


def test_a_new_session_refreshes() -> None:
    rich = Character("a", "Cynere", "fate", 5, 3, {}, (), {})
    rich_table = Table("g", True, NAMES, {"a": rich, "b": BOB, "d": DEE})
    played = apply(new_state(), {"action": "session"}, rich_table)
    # Bob's 0 rise to his refresh; Ann keeps her 5; Dee's sheet keeps no fate points
    assert played.points == {"b": (0, 3)}
    assert played.args["refresh"] == {"a": 3, "b": 3}
    assert (played.state["session"], played.state["scene"]) == (2, 2)
    refused(403, new_state(), "b", "only the GM", action="session")


@pytest.mark.parametrize("action", [{"action": "dance"}, {"action": 3}, {}])
def test_an_unknown_action_is_refused(action: dict[str, Any]) -> None:
    with pytest.raises(PlayError, match="no action at the table") as caught:
        apply(new_state(), action, table())
    assert caught.value.status == 422


def test_an_invoke_pays_a_point_or_a_free_invoke() -> None:
    state = play(new_state(), action="aspect", name="Fog", free=1).state
    state = play(state, action="aspect", name="Dazed", boost=True, holder="b").state
    paid = invoke(state, "Infamous Girl with Sword", False, table("a"), [])
    assert paid.points == {"a": (2, 1)} and paid.args == {
        "aspect": "Infamous Girl with Sword", "aspect_id": None, "free": False,
    }  # fmt: skip
    free = invoke(state, "a1", True, table("a"), [])
    assert free.points == {} and free.state["aspects"][0]["free"] == 0
    with pytest.raises(PlayError, match="no free invoke left"):
        invoke(free.state, "a1", True, table("a"), [])
    with pytest.raises(PlayError, match="Bob's") as caught:
        invoke(state, "a2", True, table("a"), [])
    assert caught.value.status == 403
    boost = invoke(state, "a2", True, table("b"), [])
    assert [a["id"] for a in boost.state["aspects"]] == ["a1"]  # a boost is gone once used


def test_an_invoke_refused() -> None:
    state = play(new_state(), action="aspect", name="Fog", free=2).state
    with pytest.raises(PlayError, match="no fate point to invoke"):
        invoke(state, "Hot-headed", False, table("b"), [])
    with pytest.raises(PlayError, match="invoked on this roll already"):
        invoke(state, "a1", False, table("a"), ["Fog"])
    assert invoke(state, "a1", True, table("a"), ["Fog"]).args["free"] is True
    with pytest.raises(PlayError, match="costs a fate point"):
        invoke(state, "Hot-headed", True, table("a"), [])
    with pytest.raises(PlayError, match="no aspect") as caught:
        invoke(state, "Unheard of", False, table("a"), [])
    assert caught.value.status == 404
    with pytest.raises(PlayError, match="keeps no fate points"):
        invoke(state, "a1", False, table("d"), [])


def test_the_gm_invokes_from_the_pool() -> None:
    state = play(new_state(), action="scene").state
    paid = invoke(state, "Hot-headed", False, table("g"), [])
    assert paid.gm_pool == (2, 1) and paid.state["gm_pool"] == 1 and paid.points == {}
    empty = {**state, "gm_pool": 0}
    with pytest.raises(PlayError, match="pool is empty"):
        invoke(empty, "Hot-headed", False, table("g"), [])


def test_a_consequence_is_an_aspect_with_a_free_invoke_for_who_inflicted_it() -> None:
    played = consequence(new_state(), "a", "mild", "Bruised", "b")
    assert played.args == {
        "aspect": "a1", "name": "Bruised", "kind": "consequence", "free": 1, "holder": "b",
        "by": "b", "scene": 1, "member": "a", "slot": "mild",
    }  # fmt: skip
    again = consequence(played.state, "a", "mild", "Broken arm", None)
    assert [a["name"] for a in again.state["aspects"]] == ["Broken arm"]
    used = invoke(played.state, "a1", True, table("b"), [])
    assert used.state["aspects"][0]["free"] == 0  # it stays: a consequence is no boost
