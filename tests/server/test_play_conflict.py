"""A Fate conflict at the table over HTTP, on SQLite: a consequence healed on
its sheet leaves the table, and the conflict's end pays a fate point per
consequence taken in it and one for conceding. Each an entry of the log that
``fudgedice verify`` replays.
(The ``play_room`` and ``play_table`` fixtures: tests/server/conftest.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx


def sheet_action(room: Any, who: dict[str, Any], action: str, **body: Any) -> httpx.Response:
    """The GM's ``action`` (hit, heal) on ``who``'s sheet."""
    version = room.sheet(who)["version"]
    answer: httpx.Response = room.served.client.post(
        f"/api/rooms/{room.id}/members/{who['member']}/sheet/{action}",
        json={"version": version, **body},
        headers=room.headers(room.gm["token"]),
    )
    return answer


def test_a_healed_consequence_leaves_the_table_and_a_conflict_pays_at_its_end(
    play_table: Any, play_room: Any, tmp_path: Path
) -> None:
    room = play_room(play_table)
    ann, bob = room.ann, room.bob
    # taken before the conflict: no fate point at its end
    before = sheet_action(room, ann, "hit", amount=6, aspect="Broken arm", by=bob["member"])
    assert before.status_code == 200, before.text
    room.ok(room.gm, action="initiative", mode="notice")
    room.ok(room.gm, action="initiative", mode="notice", order=[ann["member"], bob["member"]])
    during = sheet_action(room, ann, "hit", amount=6, aspect="Cut cheek", by=bob["member"])
    assert during.status_code == 200, during.text
    arm = room.aspect(room.state(), "Broken arm")
    assert room.aspect(room.state(), "Cut cheek")["kind"] == "consequence"

    # the broken arm heals on the sheet, and leaves the table with an entry of its own
    healed = sheet_action(room, ann, "heal", what=arm["slot"])
    assert healed.status_code == 200, healed.text
    names = [aspect["name"] for aspect in room.state(bob)["play"]["aspects"]]
    assert names == ["Cut cheek"]
    listed = play_table.rolls(room.id, bob["token"])
    assert listed[-1]["kind"] == "play" and listed[-1]["action"] == "recover"
    assert listed[-1]["args"]["aspects"] == [arm["id"]] and "Broken arm" in listed[-1]["lines"][0]
    # stress healed: no consequence, no play entry
    assert sheet_action(room, ann, "heal", what="stress").status_code == 200
    assert play_table.rolls(room.id, bob["token"])[-1]["kind"] == "sheet"

    # the end: Ann took one consequence in it, Bob conceded
    assert room.play(ann, action="end_conflict").status_code == 403
    assert room.play(room.gm, action="end_conflict", conceded=["nobody"]).status_code == 404
    twice = room.play(room.gm, action="end_conflict", conceded=[bob["member"]] * 2)
    assert twice.status_code == 422 and "once" in twice.json()["error"]
    points = room.points(ann), room.points(bob)
    ended = room.ok(room.gm, action="end_conflict", conceded=[bob["member"]])
    assert ended["play"]["initiative"] is None
    assert (room.points(ann), room.points(bob)) == (points[0] + 1, points[1] + 1)
    entry = play_table.rolls(room.id, bob["token"])[-1]
    assert entry["action"] == "end_conflict"
    assert entry["args"]["awarded"] == {ann["member"]: 1, bob["member"]: 1}
    assert entry["points"] == {
        ann["member"]: [points[0], points[0] + 1], bob["member"]: [points[1], points[1] + 1]
    }  # fmt: skip
    assert "verified" in room.verified(tmp_path).lower()
