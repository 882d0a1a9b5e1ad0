"""Play at the table over HTTP, through the real app on SQLite: the GM's
aspects, fate points awarded, compels accepted and refused, scenes and
sessions, initiative, a play entry heard live. Every action an entry of the
room's log that ``fudgedice verify`` checks; who may do what.
(The ``play_room`` and ``play_table`` fixtures: tests/server/conftest.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fudgedice import sheets


def test_the_gm_sets_aspects_and_players_may_not(play_table: Any, play_room: Any) -> None:
    room = play_room(play_table)
    made = room.ok(room.gm, action="aspect", name="On fire", free=1)
    assert made["lines"] and made["seq"] == 3
    fire = room.aspect({"play": made["play"]}, "On fire")
    assert (fire["kind"], fire["free"], fire["holder"]) == ("situation", 1, None)
    room.ok(room.gm, action="aspect", name="Off balance", boost=True)

    refused = room.play(room.ann, action="aspect", name="Mine")
    assert refused.status_code == 403 and "error" in refused.json()
    assert room.play(room.ann, action="remove", aspect=fire["id"]).status_code == 403
    assert room.play(room.gm, action="remove", aspect="a99").status_code == 404
    assert room.play(room.gm, action="award", member="nobody").status_code == 404
    for bad in (
        {"action": "aspect", "name": "x" * 121},
        {"action": "juggle"},
        {"action": "award", "member": room.ann["member"], "count": 99},
        {"action": "aspect", "name": "On fire", "free": 3},
        {"action": "compel", "member": room.ann["member"], "aspect": "A", "text": "t" * 501},
        {"action": "aspect", "name": "Bad", "extra": 1},
    ):
        answer = room.play(room.gm, **bad)
        assert answer.status_code == 422 and answer.json()["error"], (bad, answer.text)
    anonymous = room.served.client.post(f"/api/rooms/{room.id}/play", json={"action": "scene"})
    assert anonymous.status_code == 401

    # every member reads the scene and each Fate character's table part
    seen = room.state(room.bob)
    assert [a["name"] for a in seen["play"]["aspects"]] == ["On fire", "Off balance"]
    cynere = next(c for c in seen["characters"] if c["member"] == room.ann["member"])
    assert (cynere["fate_points"], cynere["refresh"]) == (3, 3)
    assert cynere["aspects"] == ["Infamous Girl with Sword"]
    assert cynere["consequences"]["mild"] == {"shifts": 2, "aspect": None}
    assert "skills" not in cynere and "text" not in cynere

    room.ok(room.gm, action="remove", aspect=fire["id"])
    assert [a["name"] for a in room.state()["play"]["aspects"]] == ["Off balance"]
    # each action is a public play entry of the log
    listed = play_table.rolls(room.id, room.bob["token"])
    plays = [r for r in listed if r.get("kind") == "play"]
    assert [r["action"] for r in plays] == ["aspect", "aspect", "remove"]
    assert all(r["visibility"] == "public" and "play" in r for r in plays)
    assert not any(r["foreseeable"] for r in plays)  # they draw no dice


def test_fate_points_awarded_compels_accepted_and_refused(
    play_table: Any, play_room: Any, tmp_path: Path
) -> None:
    room = play_room(play_table)
    before = room.sheet(room.ann)
    awarded = room.ok(room.gm, action="award", member=room.ann["member"], count=2, why="style")
    assert awarded["lines"] == ["The GM awards Cynere 2 fate points: style."]
    after = room.sheet(room.ann)
    assert after["version"] == before["version"] + 1
    assert after["sheet"]["points"]["fate_points"] == 5
    # the sheet's comments are kept: only the points changed
    assert after["text"] == before["text"].replace("fate_points = 3", "fate_points = 5")
    assert room.play(room.ann, action="award", member=room.ann["member"]).status_code == 403

    compel = room.ok(room.gm, action="compel", member=room.ann["member"], aspect="Infamous",
                     text="a rival recognises you")  # fmt: skip
    [offered] = compel["play"]["compels"]
    assert room.play(room.bob, action="accept", compel=offered["id"]).status_code == 403
    assert room.play(room.ann, action="accept", compel="c99").status_code == 404
    room.ok(room.ann, action="accept", compel=offered["id"])
    assert room.points(room.ann) == 6 and room.state()["play"]["compels"] == []

    offered = room.ok(room.gm, action="compel", member=room.bob["member"], aspect="Disowned")
    room.ok(room.bob, action="refuse", compel=offered["play"]["compels"][0]["id"])
    assert room.points(room.bob) == 2
    entry = play_table.rolls(room.id, room.ann["token"])[-1]
    assert entry["points"] == {room.bob["member"]: [3, 2]}

    # no fate point, no refusal
    for _ in range(2):
        room.ok(room.bob, action="refuse",
                compel=room.ok(room.gm, action="compel", member=room.bob["member"],
                               aspect="Disowned")["play"]["compels"][0]["id"])  # fmt: skip
    last = room.ok(room.gm, action="compel", member=room.bob["member"], aspect="Disowned")
    broke = room.play(room.bob, action="refuse", compel=last["play"]["compels"][0]["id"])
    assert broke.status_code == 422 and "fate point" in broke.json()["error"]
    assert room.points(room.bob) == 0
    assert "play entries" in room.verified(tmp_path)


def test_a_scene_and_a_session(play_table: Any, play_room: Any) -> None:
    room = play_room(play_table)
    room.ok(room.gm, action="aspect", name="Dark alley", free=1)
    room.ok(room.gm, action="compel", member=room.ann["member"], aspect="Infamous")
    room.ok(room.gm, action="gm_spend", count=1) if room.state()["play"]["gm_pool"] else None
    scene = room.ok(room.gm, action="scene", name="The docks")
    assert scene["play"]["scene"] == 2 and scene["play"]["scene_name"] == "The docks"
    assert scene["play"]["aspects"] == [] and scene["play"]["compels"] == []
    assert scene["play"]["gm_pool"] == 2  # one a player character with a Fate sheet
    room.ok(room.gm, action="gm_spend", count=2, why="a twist")
    assert room.play(room.gm, action="gm_spend").status_code == 422  # the pool is empty
    assert room.play(room.ann, action="scene").status_code == 403

    # a refresh raises fate points to the refresh, and never lowers them
    spent = room.served.client.post(
        f"/api/rooms/{room.id}/members/{room.ann['member']}/sheet/spend",
        json={"version": 1, "point": "fate", "count": 3},
        headers=room.headers(room.ann["token"]),
    )
    assert spent.status_code == 200, spent.text
    room.ok(room.gm, action="award", member=room.bob["member"], count=2)
    assert (room.points(room.ann), room.points(room.bob)) == (0, 5)
    session = room.ok(room.gm, action="session")
    assert session["play"]["session"] == 2 and session["play"]["scene"] == 3
    assert (room.points(room.ann), room.points(room.bob)) == (3, 5)
    entry = play_table.rolls(room.id, room.bob["token"])[-1]
    assert entry["action"] == "session" and entry["points"] == {room.ann["member"]: [0, 3]}


def test_initiative_by_notice_and_by_empathy(play_table: Any, play_room: Any) -> None:
    room = play_room(play_table)
    ann, bob = room.ann["member"], room.bob["member"]
    assert room.play(room.ann, action="initiative", mode="notice").status_code == 403
    notice = room.ok(room.gm, action="initiative", mode="notice")["play"]["initiative"]
    # Landon's Notice is Great, Cynere's Fair
    assert [entry["who"] for entry in notice["order"]] == [bob, ann]
    assert notice["current"] == 0 and notice["round"] == 1
    after = room.ok(room.gm, action="next")["play"]["initiative"]
    assert after["current"] == 1
    assert room.play(room.ann, action="next").status_code == 403
    after = room.ok(room.gm, action="next")["play"]["initiative"]
    assert (after["round"], after["current"]) == (2, 0)

    # Empathy: both Average, Rapport both Average, Will Fair: still tied, for the GM to order
    empathy = room.ok(room.gm, action="initiative", mode="empathy")["play"]["initiative"]
    assert empathy["ties"] == [[ann, bob]]
    ordered = room.ok(room.gm, action="initiative", mode="empathy", order=[bob, ann])
    assert [entry["who"] for entry in ordered["play"]["initiative"]["order"]] == [bob, ann]
    room.ok(room.gm, action="end_conflict")
    assert room.state()["play"]["initiative"] is None
    assert room.play(room.gm, action="next").status_code == 422


def test_d6_initiative_is_ordered_by_perception_rolls(
    play_table: Any, play_room: Any, tmp_path: Path
) -> None:
    room = play_room(play_table, system="d6", sheets_=False)
    jax = sheets.new_sheet("d6", "Jax").replace('Perception = "3D"', 'Perception = "2D"')
    room.attach(room.ann, jax)
    room.attach(room.bob, sheets.new_sheet("d6", "Kira"))
    # a D6 sheet's points and wound are its owner's and the GM's
    bobs_view = room.state(room.bob)["characters"]
    assert [c["name"] for c in bobs_view] == ["Kira"]
    assert bobs_view[0]["wound"] == "none" and bobs_view[0]["points"]["fate_points"] == 1
    assert [c["name"] for c in room.state()["characters"]] == ["Jax", "Kira"]
    started = room.ok(room.gm, action="initiative", mode="perception")["play"]["initiative"]
    assert started["mode"] == "perception"
    assert room.play(room.gm, action="order").status_code == 422  # nobody rolled yet

    def perception(who: dict[str, Any], faces: list[str]) -> dict[str, Any]:
        answer = room.served.client.post(
            f"/api/rooms/{room.id}/members/{who['member']}/sheet/roll",
            json={"request": "Perception #initiative"},
            headers=room.headers(who["token"]),
        )
        assert answer.status_code == 201, answer.text
        rolled: dict[str, Any] = answer.json()
        assert rolled["label"] == "initiative"
        return rolled

    ann_roll, bob_roll = perception(room.ann, []), perception(room.bob, [])
    orc = room.roll(room.gm, "d6: 3D # initiative: Orc")
    hidden = room.roll(room.ann, "d6: 9D # initiative", visibility="gm")
    # a label typed in the Label field (beside the text) orders as one in the text does
    beside = room.roll(room.gm, "d6: 9D", label="initiative: Goblin")
    other = room.roll(room.gm, "d6: 9D # initiative: Troll", label="ambush")  # its label: ambush
    ordered = room.ok(room.gm, action="order")["play"]["initiative"]
    totals = {ann_roll["seq"]: ann_roll["total"], bob_roll["seq"]: bob_roll["total"],
              orc["seq"]: orc["total"], beside["seq"]: beside["total"]}  # fmt: skip
    rolls = [entry["roll"] for entry in ordered["order"]]
    assert hidden["seq"] not in rolls  # a hidden roll orders nobody
    assert other["seq"] not in rolls
    assert sorted(rolls) == sorted(totals)
    assert [totals[seq] for seq in rolls] == sorted(totals.values(), reverse=True)
    names = {entry["name"] for entry in ordered["order"]}
    assert {"Orc", "Goblin"} <= names and "Troll" not in names
    room.verified(tmp_path)


def test_a_play_entry_comes_live(play_table: Any, play_room: Any) -> None:
    room = play_room(play_table)
    with play_table.live(room.id, room.bob["token"]) as events:
        play_table.until(events, "ready")
        room.ok(room.gm, action="aspect", name="Rain", free=2)
        data = play_table.until(events, "roll")
        while data.get("kind") != "play":
            data = play_table.until(events, "roll")
    assert data["action"] == "aspect" and data["lines"]
    assert room.aspect({"play": data["play"]}, "Rain")["free"] == 2


def test_an_elective_order_passes_from_actor_to_actor(play_table: Any, play_room: Any) -> None:
    room = play_room(play_table)
    ann, bob = room.ann["member"], room.bob["member"]
    started = room.ok(room.gm, action="initiative", mode="elective", order=[ann], npcs=["Thugs"])
    held = started["play"]["initiative"]
    assert [entry["who"] for entry in held["order"]] == [ann, bob, "Thugs"]
    assert held["current"] == 0
    # who acts now names who acts next; another player may not
    assert room.play(room.bob, action="next", to=bob).status_code == 403
    assert room.play(room.ann, action="next", to=ann).status_code == 422  # acted already
    passed = room.ok(room.ann, action="next", to="Thugs")["play"]["initiative"]
    assert passed["order"][passed["current"]]["who"] == "Thugs"
    last = room.ok(room.gm, action="next")["play"]["initiative"]  # one left: Bob
    assert last["order"][last["current"]]["who"] == bob
    again = room.ok(room.bob, action="next", to=ann)["play"]["initiative"]
    assert again["round"] == 2 and again["order"][again["current"]]["who"] == ann
