"""Invokes and consequences at the table: an advantage and its free
invokes, a boost gone once used, a paid invoke naming a character's aspect,
the same aspect twice on a roll only for free, an invoke on a hidden roll
that keeps its dice hidden, a Fate hit's consequence with a free invoke for
whoever inflicted it. On SQLite in process, and one scene on PostgreSQL
through ``fudgedice serve`` (a hit's two entries one transaction, heard live
through NOTIFY)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx


def test_an_advantage_and_its_free_invokes(play_table: Any, play_room: Any, tmp_path: Path) -> None:
    room = play_room(play_table)
    ann = room.ann
    # a roll read by hand: +4 on Good vs Fair is 5 shifts, with style
    styled = room.roll(ann, "fate: Good vs Fair", faces=["+", "+", "+", "+"])
    made = room.ok(ann, action="advantage", of=styled["seq"], name="Cornered")
    cornered = room.aspect({"play": made["play"]}, "Cornered")
    assert (cornered["free"], cornered["holder"]) == (2, ann["member"])
    assert room.play(ann, action="advantage", of=styled["seq"], name="Again").status_code == 422
    bobs = room.roll(room.bob, "fate: Fair vs Fair", faces=["0", "0", "0", "0"])
    assert room.play(ann, action="advantage", of=bobs["seq"], name="No").status_code == 403
    assert room.play(ann, action="advantage", of=9999, name="No").status_code == 404

    # a spend refused (dice read by hand take none) uses no free invoke: one transaction
    by_hand = room.spend(ann, styled["seq"], aspect=cornered["id"], free=True)
    assert by_hand.status_code == 422 and "by hand" in by_hand.json()["error"]
    assert room.aspect(room.state(), "Cornered")["free"] == 2
    rolled = room.roll(ann, "fate: Fair vs Superb")
    first = room.spend(ann, rolled["seq"], aspect=cornered["id"], free=True)
    assert first.status_code == 201, first.text
    assert first.json()["aspect"] == "Cornered" and first.json()["free"] is True
    assert (
        first.json()["spent"]
        == f"a free invoke spent: an invoke for +2 on roll {rolled['seq']} (Cornered)"
    )
    assert room.points(ann) == 3  # a free invoke costs no point
    # the same aspect again on the roll: free, yes; for a point, no
    second = room.spend(ann, first.json()["seq"], aspect=cornered["id"], free=True)
    assert second.status_code == 201, second.text
    assert room.aspect(room.state(), "Cornered")["free"] == 0
    paid_again = room.spend(ann, second.json()["seq"], aspect=cornered["id"])
    assert paid_again.status_code == 422 and "already" in paid_again.json()["error"]
    none_left = room.spend(ann, second.json()["seq"], aspect=cornered["id"], free=True)
    assert none_left.status_code == 422
    # a character aspect, for a fate point
    paid = room.spend(ann, second.json()["seq"], aspect="Infamous Girl with Sword")
    assert paid.status_code == 201, paid.text
    assert paid.json()["points"] == {"fate_points": 2} and room.points(ann) == 2
    assert paid.json()["spent"].startswith("Cynere spent 1 Fate Point (2 left): an invoke for +2")
    seen_by_bob = play_table.rolls(room.id, room.bob["token"])[-1]
    assert seen_by_bob["spent"] == (
        f"1 Fate Point spent: an invoke for +2 on roll {second.json()['seq']} "
        "(Infamous Girl with Sword)"
    )
    assert room.spend(ann, paid.json()["seq"], aspect="No such aspect").status_code == 404
    assert room.spend(ann, paid.json()["seq"], free=True).status_code == 422

    # a boost goes once used; a free invoke is its holder's
    boost = room.ok(room.gm, action="aspect", name="Slippery", boost=True)
    slippery = room.aspect({"play": boost["play"]}, "Slippery")
    theirs = room.ok(room.gm, action="aspect", name="Bob's", free=1)
    bobs_aspect = room.aspect({"play": theirs["play"]}, "Bob's")
    again = room.roll(ann, "fate: Fair vs Good")
    assert room.spend(ann, again["seq"], aspect=slippery["id"], free=True).status_code == 201
    assert all(a["name"] != "Slippery" for a in room.state()["play"]["aspects"])
    room.ok(room.gm, action="remove", aspect=bobs_aspect["id"])
    held = room.ok(room.gm, action="aspect", name="Held", free=1)
    assert held["play"]["aspects"][-1]["holder"] is None  # anyone's, at the GM's word
    room.verified(tmp_path)


def test_an_invoke_on_a_hidden_roll_keeps_the_dice_hidden(
    play_table: Any, play_room: Any, tmp_path: Path
) -> None:
    room = play_room(play_table)
    boost = room.ok(room.gm, action="aspect", name="Shadows", boost=True)
    shadows = room.aspect({"play": boost["play"]}, "Shadows")
    hidden = room.roll(room.ann, "fate: Good vs Great", visibility="gm")
    spent = room.spend(room.ann, hidden["seq"], aspect=shadows["id"], free=True)
    assert spent.status_code == 201, spent.text
    seen = {r["seq"]: r for r in play_table.rolls(room.id, room.bob["token"])}
    shown = seen[spent.json()["seq"]]
    assert shown["hidden"] is True and shown["kind"] == "spend"
    assert shown["play"]["aspects"] == []  # the boost is gone for all to see
    for secret in ("total", "dice", "faces", "aspect", "notation", "text", "result"):
        assert secret not in shown and secret not in seen[hidden["seq"]]
    # what it tells is the table's state, which every member reads anyway
    assert set(shown) == {"seq", "member", "name", "visibility", "hidden", "at", "verified",
                          "kind", "play"}  # fmt: skip
    assert shown["play"] == room.state(room.bob)["play"]
    # the GM sees the invoke
    gms = play_table.rolls(room.id, room.gm["token"])
    assert gms[-1]["aspect"] == "Shadows" and gms[-1]["free"] is True
    # a paid invoke on another's hidden roll: only its roller spends
    assert room.spend(room.bob, hidden["seq"], aspect="Disowned Noble").status_code == 403
    room.verified(tmp_path)


def test_a_consequence_is_an_aspect_with_a_free_invoke_for_who_inflicted_it(
    play_table: Any, play_room: Any, tmp_path: Path
) -> None:
    room = play_room(play_table)
    ann, bob = room.ann, room.bob
    path = f"/api/rooms/{room.id}/members/{ann['member']}/sheet/hit"

    def hit(**body: Any) -> httpx.Response:
        version = room.sheet(ann)["version"]
        answer: httpx.Response = room.served.client.post(
            path, json={"version": version, **body}, headers=room.headers(room.gm["token"])
        )
        return answer

    assert hit(amount=6, aspect="Broken arm", by="nobody").status_code == 404
    light = hit(amount=1)
    assert light.status_code == 200 and room.state()["play"]["aspects"] == []
    heavy = hit(amount=6, aspect="Broken arm", by=bob["member"])
    assert heavy.status_code == 200, heavy.text
    taken = room.sheet(ann)["text"]
    assert 'mild = "Broken arm"' in taken or 'moderate = "Broken arm"' in taken
    arm = room.aspect(room.state(bob), "Broken arm")
    assert (arm["kind"], arm["free"], arm["holder"], arm["member"]) == (
        "consequence", 1, bob["member"], ann["member"]
    )  # fmt: skip
    # the hit is Ann's and the GM's; the consequence is on the table
    listed = play_table.rolls(room.id, bob["token"])
    assert [(r.get("kind"), r.get("hidden", False)) for r in listed[-2:]] == [
        ("sheet", True), ("play", False)
    ]  # fmt: skip
    assert listed[-1]["action"] == "consequence"
    # Ann's own hit, by default inflicted by whoever sends it
    assert (room.state()["play"]["aspects"][0]["holder"]) == bob["member"]

    # its free invoke is Bob's
    roll = room.roll(ann, "fate: Fair vs Good")
    assert room.spend(ann, roll["seq"], aspect=arm["id"], free=True).status_code == 403
    bobs = room.roll(bob, "fate: Fair vs Good")
    assert room.spend(bob, bobs["seq"], aspect=arm["id"], free=True).status_code == 201

    # its owner names it, on the sheet too
    renamed = room.ok(ann, action="rename", aspect=arm["id"], name="Arm in a sling")
    assert room.aspect({"play": renamed["play"]}, "Arm in a sling")["free"] == 0
    assert "Arm in a sling" in room.sheet(ann)["text"]
    assert room.play(bob, action="rename", aspect=arm["id"], name="Mine").status_code == 403
    # a new scene keeps it
    room.ok(room.gm, action="scene")
    assert room.aspect(room.state(), "Arm in a sling")["kind"] == "consequence"
    room.verified(tmp_path)


def test_a_scene_on_postgresql(
    postgres: Any,
    start_unlimited: Callable[[str], Any],
    table_of: Any,
    play_room: Any,
    tmp_path: Path,
) -> None:
    database = postgres.create_database(f"play_{secrets.token_hex(6)}")
    served = table_of(start_unlimited(database))
    room = play_room(served)
    ann, bob = room.ann, room.bob
    with served.live(room.id, bob["token"]) as events:
        served.until(events, "ready")
        room.ok(room.gm, action="aspect", name="Fog", free=1)
        heard: Any = served.until(events, "roll")
        while heard.get("kind") != "play":
            heard = served.until(events, "roll")
        assert room.aspect({"play": heard["play"]}, "Fog")["free"] == 1

        room.ok(room.gm, action="award", member=ann["member"], count=1)
        assert room.points(ann) == 4 and room.sheet(ann)["version"] == 2
        styled = room.roll(ann, "fate: Good vs Fair", faces=["+", "+", "0", "0"])
        made = room.ok(ann, action="advantage", of=styled["seq"], name="Pinned")
        pinned = room.aspect({"play": made["play"]}, "Pinned")
        assert pinned["free"] == 2
        rolled = room.roll(ann, "fate: Fair vs Great")
        spent = room.spend(ann, rolled["seq"], aspect=pinned["id"], free=True)
        assert spent.status_code == 201, spent.text

        hit = served.client.post(
            f"/api/rooms/{room.id}/members/{ann['member']}/sheet/hit",
            json={"version": 2, "amount": 6, "aspect": "Cracked ribs", "by": bob["member"]},
            headers=room.headers(room.gm["token"]),
        )
        assert hit.status_code == 200, hit.text
        # both entries of the hit come live, the consequence last
        heard = [served.until(events, "roll")]
        while heard[-1].get("action") != "consequence":
            heard.append(served.until(events, "roll"))
        assert heard[-2]["kind"] == "sheet" and heard[-2]["hidden"] is True
        assert heard[-1]["seq"] == heard[-2]["seq"] + 1
    ribs = room.aspect(room.state(bob), "Cracked ribs")
    assert (ribs["holder"], ribs["free"]) == (bob["member"], 1)
    assert "play entries" in room.verified(tmp_path)


def test_the_gm_invokes_from_the_pool(play_table: Any, play_room: Any, tmp_path: Path) -> None:
    room = play_room(play_table)
    fire = room.aspect(room.ok(room.gm, action="aspect", name="On fire"), "On fire")
    npc = room.roll(room.gm, "fate: Good vs Great")
    assert room.spend(room.gm, npc["seq"], aspect=fire["id"]).status_code == 422  # pool empty
    assert room.ok(room.gm, action="scene")["play"]["gm_pool"] == 2
    fire = room.aspect(room.ok(room.gm, action="aspect", name="On fire"), "On fire")
    paid = room.spend(room.gm, npc["seq"], aspect=fire["id"])
    assert paid.status_code == 201, paid.text
    assert paid.json()["play"]["gm_pool"] == 1 and room.state()["play"]["gm_pool"] == 1
    assert paid.json()["spent"].startswith("a fate point of the GM's pool spent")
    # a D6 point is no invoke
    assert room.spend(room.gm, paid.json()["seq"], aspect=fire["id"], point="cp").status_code == 422
    room.verified(tmp_path)
