"""Play at the table over HTTP, through the real app on SQLite: the GM's
aspects, a player's advantage and its free invokes, fate points awarded,
compels accepted and refused, scenes and sessions, consequences, initiative.
Every action an entry of the room's log that ``fudgedice verify`` checks;
who may do what; hidden rolls kept hidden. One scene on PostgreSQL too,
through ``fudgedice serve``: a hit's two entries are one transaction, heard
live through NOTIFY."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from fudgedice import sheets
from fudgedice.cli import main
from fudgedice.server.db import connect

Served = Callable[..., contextlib.AbstractContextManager[Any]]

FATE = sheets.new_sheet("fate", "Cynere").replace(
    'high_concept = ""', 'high_concept = "Infamous Girl with Sword"'
)
"""Fight Great, Athletics Good, Physique Good, Notice Fair; refresh 3, 3 fate points."""
LANDON = (
    sheets.new_sheet("fate", "Landon")
    .replace('high_concept = ""', 'high_concept = "Disowned Noble"')
    .replace('Notice = "Fair"', 'Notice = "Great"')
    .replace('Fight = "Great"', 'Fight = "Fair"')
)
"""Notice Great: first in a Notice order."""


@pytest.fixture
def table(tmp_path: Path, served_here: Served) -> Iterator[Any]:
    db = connect(str(tmp_path / "play.sqlite3"))
    try:
        with served_here(db) as served:
            yield served
    finally:
        db.dispose()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Room:
    """A Fate room: the GM, Ann (Cynere) and Bob (Landon), sheets attached."""

    def __init__(self, served: Any, system: str = "fate", sheets_: bool = True) -> None:
        self.served = served
        created = served.room("Docks", system=system)
        self.id = created["room"]
        self.gm = {"member": created["member"], "token": created["gm_token"]}
        self.ann = served.join(self.id, "Ann")
        self.bob = served.join(self.id, "Bob")
        if sheets_:
            self.attach(self.ann, FATE)
            self.attach(self.bob, LANDON)

    def attach(self, who: dict[str, Any], text: str) -> None:
        path = f"/api/rooms/{self.id}/members/{who['member']}/sheet"
        put = self.served.client.put(
            path, json={"text": text, "version": 0}, headers=bearer(who["token"])
        )
        assert put.status_code == 200, put.text

    def play(self, who: dict[str, Any], **body: Any) -> httpx.Response:
        answer: httpx.Response = self.served.client.post(
            f"/api/rooms/{self.id}/play", json=body, headers=bearer(who["token"])
        )
        return answer

    def ok(self, who: dict[str, Any], **body: Any) -> dict[str, Any]:
        answer = self.play(who, **body)
        assert answer.status_code == 201, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def state(self, who: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = self.served.get(f"/api/rooms/{self.id}/play", (who or self.gm)["token"])
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def sheet(self, who: dict[str, Any]) -> dict[str, Any]:
        path = f"/api/rooms/{self.id}/members/{who['member']}/sheet"
        answer = self.served.get(path, self.gm["token"])
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def points(self, who: dict[str, Any]) -> int:
        return int(self.sheet(who)["sheet"]["points"]["fate_points"])

    def roll(self, who: dict[str, Any], text: str, **extra: Any) -> dict[str, Any]:
        rolled = self.served.roll(self.id, who["token"], text, **extra)
        assert rolled.status_code == 201, rolled.text
        found: dict[str, Any] = rolled.json()
        return found

    def spend(self, who: dict[str, Any], seq: int, **body: Any) -> httpx.Response:
        answer: httpx.Response = self.served.client.post(
            f"/api/rooms/{self.id}/rolls/{seq}/spend",
            json={"point": "invoke", **body},
            headers=bearer(who["token"]),
        )
        return answer

    def verified(self, tmp_path: Path) -> str:
        """``fudgedice verify`` of the room's log once its seed is revealed."""
        revealed = self.served.client.post(
            f"/api/rooms/{self.id}/reveal", json={}, headers=bearer(self.gm["token"])
        )
        assert revealed.status_code == 200, revealed.text
        exported = self.served.get(f"/api/rooms/{self.id}/log", self.gm["token"])
        assert exported.status_code == 200, exported.text
        path = tmp_path / "room.log.json"
        path.write_text(exported.text)
        result = CliRunner().invoke(main, ["verify", str(path)])
        assert result.exit_code == 0, result.output
        return result.output


def aspect_named(state: dict[str, Any], name: str) -> dict[str, Any]:
    found = [a for a in state["play"]["aspects"] if a["name"] == name]
    assert len(found) == 1, state["play"]["aspects"]
    aspect: dict[str, Any] = found[0]
    return aspect


def test_the_gm_sets_aspects_and_players_may_not(table: Any) -> None:
    room = Room(table)
    made = room.ok(room.gm, action="aspect", name="On fire", free=1)
    assert made["lines"] and made["seq"] == 3
    fire = aspect_named({"play": made["play"]}, "On fire")
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
    listed = table.rolls(room.id, room.bob["token"])
    plays = [r for r in listed if r.get("kind") == "play"]
    assert [r["action"] for r in plays] == ["aspect", "aspect", "remove"]
    assert all(r["visibility"] == "public" and "play" in r for r in plays)


def test_fate_points_awarded_compels_accepted_and_refused(table: Any, tmp_path: Path) -> None:
    room = Room(table)
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
    entry = table.rolls(room.id, room.ann["token"])[-1]
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


def test_a_scene_and_a_session(table: Any) -> None:
    room = Room(table)
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
        headers=bearer(room.ann["token"]),
    )
    assert spent.status_code == 200, spent.text
    room.ok(room.gm, action="award", member=room.bob["member"], count=2)
    assert (room.points(room.ann), room.points(room.bob)) == (0, 5)
    session = room.ok(room.gm, action="session")
    assert session["play"]["session"] == 2 and session["play"]["scene"] == 3
    assert (room.points(room.ann), room.points(room.bob)) == (3, 5)
    entry = table.rolls(room.id, room.bob["token"])[-1]
    assert entry["action"] == "session" and entry["points"] == {room.ann["member"]: [0, 3]}


def test_an_advantage_and_its_free_invokes(table: Any, tmp_path: Path) -> None:
    room = Room(table)
    ann = room.ann
    # a roll read by hand: +4 on Good vs Fair is 5 shifts, with style
    styled = room.roll(ann, "fate: Good vs Fair", faces=["+", "+", "+", "+"])
    made = room.ok(ann, action="advantage", of=styled["seq"], name="Cornered")
    cornered = aspect_named({"play": made["play"]}, "Cornered")
    assert (cornered["free"], cornered["holder"]) == (2, ann["member"])
    assert room.play(ann, action="advantage", of=styled["seq"], name="Again").status_code == 422
    bobs = room.roll(room.bob, "fate: Fair vs Fair", faces=["0", "0", "0", "0"])
    assert room.play(ann, action="advantage", of=bobs["seq"], name="No").status_code == 403
    assert room.play(ann, action="advantage", of=9999, name="No").status_code == 404

    rolled = room.roll(ann, "fate: Fair vs Superb")
    first = room.spend(ann, rolled["seq"], aspect=cornered["id"], free=True)
    assert first.status_code == 201, first.text
    assert first.json()["aspect"] == "Cornered" and first.json()["free"] is True
    assert room.points(ann) == 3  # a free invoke costs no point
    # the same aspect again on the roll: free, yes; for a point, no
    second = room.spend(ann, first.json()["seq"], aspect=cornered["id"], free=True)
    assert second.status_code == 201, second.text
    assert aspect_named(room.state(), "Cornered")["free"] == 0
    paid_again = room.spend(ann, second.json()["seq"], aspect=cornered["id"])
    assert paid_again.status_code == 422 and "already" in paid_again.json()["error"]
    none_left = room.spend(ann, second.json()["seq"], aspect=cornered["id"], free=True)
    assert none_left.status_code == 422
    # a character aspect, for a fate point
    paid = room.spend(ann, second.json()["seq"], aspect="Infamous Girl with Sword")
    assert paid.status_code == 201, paid.text
    assert paid.json()["points"] == {"fate_points": 2} and room.points(ann) == 2
    assert room.spend(ann, paid.json()["seq"], aspect="No such aspect").status_code == 404
    assert room.spend(ann, paid.json()["seq"], free=True).status_code == 422

    # a boost goes once used; a free invoke is its holder's
    boost = room.ok(room.gm, action="aspect", name="Slippery", boost=True)
    slippery = aspect_named({"play": boost["play"]}, "Slippery")
    theirs = room.ok(room.gm, action="aspect", name="Bob's", free=1)
    bobs_aspect = aspect_named({"play": theirs["play"]}, "Bob's")
    again = room.roll(ann, "fate: Fair vs Good")
    assert room.spend(ann, again["seq"], aspect=slippery["id"], free=True).status_code == 201
    assert all(a["name"] != "Slippery" for a in room.state()["play"]["aspects"])
    room.ok(room.gm, action="remove", aspect=bobs_aspect["id"])
    held = room.ok(room.gm, action="aspect", name="Held", free=1)
    assert held["play"]["aspects"][-1]["holder"] is None  # anyone's, at the GM's word
    room.verified(tmp_path)


def test_an_invoke_on_a_hidden_roll_keeps_the_dice_hidden(table: Any, tmp_path: Path) -> None:
    room = Room(table)
    boost = room.ok(room.gm, action="aspect", name="Shadows", boost=True)
    shadows = aspect_named({"play": boost["play"]}, "Shadows")
    hidden = room.roll(room.ann, "fate: Good vs Great", visibility="gm")
    spent = room.spend(room.ann, hidden["seq"], aspect=shadows["id"], free=True)
    assert spent.status_code == 201, spent.text
    seen = {r["seq"]: r for r in table.rolls(room.id, room.bob["token"])}
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
    gms = table.rolls(room.id, room.gm["token"])
    assert gms[-1]["aspect"] == "Shadows" and gms[-1]["free"] is True
    # a paid invoke on another's hidden roll: only its roller spends
    assert room.spend(room.bob, hidden["seq"], aspect="Disowned Noble").status_code == 403
    room.verified(tmp_path)


def test_a_consequence_is_an_aspect_with_a_free_invoke_for_who_inflicted_it(
    table: Any, tmp_path: Path
) -> None:
    room = Room(table)
    ann, bob = room.ann, room.bob
    path = f"/api/rooms/{room.id}/members/{ann['member']}/sheet/hit"

    def hit(**body: Any) -> httpx.Response:
        version = room.sheet(ann)["version"]
        answer: httpx.Response = room.served.client.post(
            path, json={"version": version, **body}, headers=bearer(room.gm["token"])
        )
        return answer

    assert hit(amount=6, aspect="Broken arm", by="nobody").status_code == 404
    light = hit(amount=1)
    assert light.status_code == 200 and room.state()["play"]["aspects"] == []
    heavy = hit(amount=6, aspect="Broken arm", by=bob["member"])
    assert heavy.status_code == 200, heavy.text
    taken = room.sheet(ann)["text"]
    assert 'mild = "Broken arm"' in taken or 'moderate = "Broken arm"' in taken
    arm = aspect_named(room.state(bob), "Broken arm")
    assert (arm["kind"], arm["free"], arm["holder"], arm["member"]) == (
        "consequence", 1, bob["member"], ann["member"]
    )  # fmt: skip
    # the hit is Ann's and the GM's; the consequence is on the table
    listed = table.rolls(room.id, bob["token"])
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
    assert aspect_named({"play": renamed["play"]}, "Arm in a sling")["free"] == 0
    assert "Arm in a sling" in room.sheet(ann)["text"]
    assert room.play(bob, action="rename", aspect=arm["id"], name="Mine").status_code == 403
    # a new scene keeps it
    room.ok(room.gm, action="scene")
    assert aspect_named(room.state(), "Arm in a sling")["kind"] == "consequence"
    room.verified(tmp_path)


def test_initiative_by_notice_and_by_empathy(table: Any) -> None:
    room = Room(table)
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


def test_d6_initiative_is_ordered_by_perception_rolls(table: Any, tmp_path: Path) -> None:
    room = Room(table, system="d6", sheets_=False)
    jax = sheets.new_sheet("d6", "Jax").replace('Perception = "3D"', 'Perception = "2D"')
    room.attach(room.ann, jax)
    room.attach(room.bob, sheets.new_sheet("d6", "Kira"))
    started = room.ok(room.gm, action="initiative", mode="perception")["play"]["initiative"]
    assert started["mode"] == "perception"
    assert room.play(room.gm, action="order").status_code == 422  # nobody rolled yet

    def perception(who: dict[str, Any], faces: list[str]) -> dict[str, Any]:
        answer = room.served.client.post(
            f"/api/rooms/{room.id}/members/{who['member']}/sheet/roll",
            json={"request": "Perception #initiative"},
            headers=bearer(who["token"]),
        )
        assert answer.status_code == 201, answer.text
        rolled: dict[str, Any] = answer.json()
        assert rolled["label"] == "initiative"
        return rolled

    ann_roll, bob_roll = perception(room.ann, []), perception(room.bob, [])
    orc = room.roll(room.gm, "d6: 3D # initiative: Orc")
    hidden = room.roll(room.ann, "d6: 9D # initiative", visibility="gm")
    ordered = room.ok(room.gm, action="order")["play"]["initiative"]
    totals = {ann_roll["seq"]: ann_roll["total"], bob_roll["seq"]: bob_roll["total"],
              orc["seq"]: orc["total"]}  # fmt: skip
    rolls = [entry["roll"] for entry in ordered["order"]]
    assert hidden["seq"] not in rolls  # a hidden roll orders nobody
    assert sorted(rolls) == sorted(totals)
    assert [totals[seq] for seq in rolls] == sorted(totals.values(), reverse=True)
    assert any(entry["name"] == "Orc" for entry in ordered["order"])
    room.verified(tmp_path)


def test_a_play_entry_comes_live(table: Any) -> None:
    room = Room(table)
    with table.live(room.id, room.bob["token"]) as events:
        table.until(events, "ready")
        room.ok(room.gm, action="aspect", name="Rain", free=2)
        data = table.until(events, "roll")
        while data.get("kind") != "play":
            data = table.until(events, "roll")
    assert data["action"] == "aspect" and data["lines"]
    assert aspect_named({"play": data["play"]}, "Rain")["free"] == 2


def test_a_scene_on_postgresql(
    postgres: Any, start_unlimited: Callable[[str], Any], table_of: Any, tmp_path: Path
) -> None:
    database = postgres.create_database(f"play_{secrets.token_hex(6)}")
    served = table_of(start_unlimited(database))
    room = Room(served)
    ann, bob = room.ann, room.bob
    with served.live(room.id, bob["token"]) as events:
        served.until(events, "ready")
        room.ok(room.gm, action="aspect", name="Fog", free=1)
        heard: Any = served.until(events, "roll")
        while heard.get("kind") != "play":
            heard = served.until(events, "roll")
        assert aspect_named({"play": heard["play"]}, "Fog")["free"] == 1

        room.ok(room.gm, action="award", member=ann["member"], count=1)
        assert room.points(ann) == 4 and room.sheet(ann)["version"] == 2
        styled = room.roll(ann, "fate: Good vs Fair", faces=["+", "+", "0", "0"])
        made = room.ok(ann, action="advantage", of=styled["seq"], name="Pinned")
        pinned = aspect_named({"play": made["play"]}, "Pinned")
        assert pinned["free"] == 2
        rolled = room.roll(ann, "fate: Fair vs Great")
        spent = room.spend(ann, rolled["seq"], aspect=pinned["id"], free=True)
        assert spent.status_code == 201, spent.text

        hit = served.client.post(
            f"/api/rooms/{room.id}/members/{ann['member']}/sheet/hit",
            json={"version": 2, "amount": 6, "aspect": "Cracked ribs", "by": bob["member"]},
            headers=bearer(room.gm["token"]),
        )
        assert hit.status_code == 200, hit.text
        # both entries of the hit come live, the consequence last
        heard = [served.until(events, "roll")]
        while heard[-1].get("action") != "consequence":
            heard.append(served.until(events, "roll"))
        assert heard[-2]["kind"] == "sheet" and heard[-2]["hidden"] is True
        assert heard[-1]["seq"] == heard[-2]["seq"] + 1
    ribs = aspect_named(room.state(bob), "Cracked ribs")
    assert (ribs["holder"], ribs["free"]) == (bob["member"], 1)
    assert "play entries" in room.verified(tmp_path)
