"""Play attacked as a player, a GM and an outsider would: a roll made to
give more than one advantage, ids of one room used in another, hidden rolls
asked about, points raced, sizes at their bounds. Through the real app on
SQLite (the ``play_room`` and ``play_table`` fixtures: tests/server/conftest.py)."""

from __future__ import annotations

import concurrent.futures
import secrets
from collections.abc import Callable
from typing import Any

from fudgedice import sheets


def test_a_roll_makes_one_advantage_even_once_it_is_removed(
    play_table: Any, play_room: Any
) -> None:
    room = play_room(play_table)
    ann = room.ann
    rolled = room.roll(ann, "fate: Good vs Fair", faces=["+", "0", "0", "0"])
    made = room.ok(ann, action="advantage", of=rolled["seq"], name="Cornered")
    cornered = room.aspect({"play": made["play"]}, "Cornered")
    room.ok(ann, action="remove", aspect=cornered["id"])
    again = room.play(ann, action="advantage", of=rolled["seq"], name="Cornered again")
    assert again.status_code == 422, again.text
    assert "advantage already" in again.json()["error"]


def test_a_roll_invoked_on_makes_one_advantage_over_its_chain(
    play_table: Any, play_room: Any
) -> None:
    room = play_room(play_table)
    ann = room.ann
    rolled = room.roll(ann, "fate: Superb vs Terrible")
    room.ok(ann, action="advantage", of=rolled["seq"], name="Cornered")
    spent = room.spend(ann, rolled["seq"], aspect="Infamous Girl with Sword")
    assert spent.status_code == 201, spent.text
    again = room.play(ann, action="advantage", of=spent.json()["seq"], name="Twice")
    assert again.status_code == 422, again.text


def test_a_roll_of_an_earlier_scene_makes_no_advantage(play_table: Any, play_room: Any) -> None:
    room = play_room(play_table)
    ann = room.ann
    rolled = room.roll(ann, "fate: Superb vs Terrible")
    room.ok(ann, action="advantage", of=rolled["seq"], name="Cornered")
    room.ok(room.gm, action="scene", name="Later")
    again = room.play(ann, action="advantage", of=rolled["seq"], name="Cornered")
    assert again.status_code == 422, again.text


def racing(calls: list[Any]) -> list[int]:
    """Each call at once, from its own thread: the status of each answer."""
    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        return [future.result().status_code for future in [pool.submit(c) for c in calls]]


def once(statuses: list[int]) -> bool:
    """One answered 201, the others refused (a stale sheet, none left, gone)."""
    return statuses.count(201) == 1 and all(s in (201, 404, 409, 422) for s in statuses)


def test_points_and_free_invokes_raced_are_spent_once(play_table: Any, play_room: Any) -> None:
    raced(play_room(play_table))


def test_points_and_free_invokes_raced_are_spent_once_on_postgresql(
    postgres: Any, start_unlimited: Callable[[str], Any], table_of: Any, play_room: Any
) -> None:
    database = postgres.create_database(f"race_{secrets.token_hex(6)}")
    raced(play_room(table_of(start_unlimited(database))))


def raced(room: Any) -> None:
    """A fate point, a free invoke and a compel, each taken four times at once."""
    ann = room.ann
    room.ok(room.gm, action="award", member=room.bob["member"])  # Bob's 3 -> 4: not Ann's
    sheet = room.sheet(ann)
    text = sheet["text"].replace("fate_points = 3", "fate_points = 1")
    put = room.served.client.put(
        f"/api/rooms/{room.id}/members/{ann['member']}/sheet",
        json={"text": text, "version": sheet["version"]},
        headers=room.headers(ann["token"]),
    )
    assert put.status_code == 200, put.text
    rolls = [room.roll(ann, "fate: Fair vs Good")["seq"] for _ in range(4)]
    paid = racing([
        lambda seq=seq: room.spend(ann, seq, aspect="Infamous Girl with Sword") for seq in rolls
    ])  # fmt: skip
    assert once(paid) and room.points(ann) == 0

    made = room.ok(room.gm, action="aspect", name="Fog", free=1)
    fog = room.aspect({"play": made["play"]}, "Fog")
    rolls = [room.roll(ann, "fate: Fair vs Good")["seq"] for _ in range(4)]
    used = racing(
        [lambda seq=seq: room.spend(ann, seq, aspect=fog["id"], free=True) for seq in rolls]
    )
    assert once(used)
    assert room.aspect(room.state(), "Fog")["free"] == 0

    offered = room.ok(room.gm, action="compel", member=ann["member"], aspect="Infamous")
    compel = offered["play"]["compels"][0]["id"]
    answered = racing([lambda: room.play(ann, action="accept", compel=compel) for _ in range(4)])
    assert once(answered) and room.points(ann) == 1


def test_a_d6_sheets_fate_points_reach_no_other_player_through_play(
    play_table: Any, play_room: Any
) -> None:
    # GET play shows a D6 sheet's points to its owner and the GM only: no public entry tells them
    room = play_room(play_table, system="d6", sheets_=False)
    room.attach(room.ann, sheets.new_sheet("d6", "Han"))
    han = room.ann["member"]
    assert all(c["member"] != han for c in room.state(room.bob)["characters"])
    for action in ({"action": "award", "member": han}, {"action": "compel", "member": han,
                                                         "aspect": "Greedy"}):  # fmt: skip
        refused = room.play(room.gm, **action)
        assert refused.status_code == 422 and "of Fate's" in refused.json()["error"]
    assert not [r for r in play_table.rolls(room.id, room.bob["token"]) if r.get("points")]
    assert room.sheet(room.ann)["sheet"]["points"]["fate_points"] == 1


def test_an_advantage_on_a_hidden_roll_tells_nothing_of_it(play_table: Any, play_room: Any) -> None:
    room = play_room(play_table)
    for roller, visibility in ((room.ann, "gm"), (room.ann, "self"), (room.gm, "secret")):
        # a failure by 4 at least: an answer that read its shifts would say "failed by"
        hidden = room.roll(roller, "fate: Terrible vs Legendary", visibility=visibility)
        for who in (room.ann, room.bob, room.gm):
            answer = room.play(who, action="advantage", of=hidden["seq"], name="Spied")
            assert answer.status_code == 422, answer.text
            assert answer.json()["error"] == (
                f"roll {hidden['seq']} is hidden: an advantage would tell its shifts"
            )
    assert room.state(room.bob)["play"]["aspects"] == []


def test_a_hit_marked_by_its_own_player_gives_them_no_free_invoke(
    play_table: Any, play_room: Any
) -> None:
    room = play_room(play_table)
    ann = room.ann
    path = f"/api/rooms/{room.id}/members/{ann['member']}/sheet/hit"

    def hit(**body: Any) -> Any:
        version = room.sheet(ann)["version"]
        return room.served.client.post(
            path, json={"version": version, "amount": 6, **body}, headers=room.headers(ann["token"])
        )

    assert hit(by=ann["member"]).status_code == 422  # her own consequence is not hers to invoke
    taken = hit()
    assert taken.status_code == 200, taken.text
    [consequence] = [a for a in room.state()["play"]["aspects"] if a["kind"] == "consequence"]
    assert consequence["holder"] is None  # who inflicted it is the GM's word


def test_ids_of_one_room_reach_nothing_in_another(play_table: Any, play_room: Any) -> None:
    room, other = play_room(play_table), play_room(play_table)
    theirs = other.ok(other.gm, action="compel", member=other.ann["member"], aspect="Infamous")
    their_roll = other.roll(other.ann, "fate: Fair vs Good")["seq"]
    foreign = other.ann["member"]
    for who, body in (
        (room.gm, {"action": "award", "member": foreign}),
        (room.gm, {"action": "compel", "member": foreign, "aspect": "X"}),
        (room.gm, {"action": "aspect", "name": "X", "free": 1, "holder": foreign}),
        (room.ann, {"action": "accept", "compel": theirs["play"]["compels"][0]["id"]}),
        (room.ann, {"action": "advantage", "of": their_roll + 100, "name": "X"}),
    ):
        answer = room.play(who, **body)
        assert answer.status_code == 404, (body, answer.text)
    # another room's token reads and does nothing here
    assert room.served.get(f"/api/rooms/{room.id}/play", other.gm["token"]).status_code == 404
    assert room.play(other.gm, action="scene").status_code == 404
    assert other.spend(room.ann, their_roll, aspect="Infamous Girl with Sword").status_code == 404
    assert room.state()["play"]["compels"] == [] and other.points(other.ann) == 3
