"""Character sheets at the table: attached, read by their owner and the GM
only, rolled by trait name, points spent from a roll, changes made; every
change an entry of the room's log that ``fudgedice verify`` checks, a spend
on a hidden roll as hidden as the roll. On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner

import fudgedice
from fudgedice import sheets
from fudgedice.cli import main

Rechain = Callable[[dict[str, Any]], dict[str, Any]]
"""The ``rechained`` fixture: a log with every hash made again."""

D6_SHEET = sheets.new_sheet("d6", "Jax").replace("character_points = 5", "character_points = 2")
FATE_SHEET = sheets.new_sheet("fate", "Cynere")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _sheet_path(room: str, member: str) -> str:
    return f"/api/rooms/{room}/members/{member}/sheet"


def _put(served: Any, room: str, member: dict[str, Any], text: str, version: int = 0) -> Any:
    return served.client.put(
        _sheet_path(room, member["member"]),
        json={"text": text, "version": version},
        headers=_bearer(member["token"]),
    )


def _page(served: Any, room: str, member: dict[str, Any], answer: dict[str, Any]) -> str:
    """The sheet's page: in ``answer``, or read again once its measure ends
    (a measure that outlasts the table's wait, while a new measuring process
    loads the engine on a loaded machine, answers the sheet without it)."""
    deadline = time.monotonic() + 120
    while answer["sheet"]["page"] is None and time.monotonic() < deadline:
        assert answer["sheet"]["page_error"], answer
        time.sleep(0.2)
        answer = served.get(_sheet_path(room, member["member"]), member["token"]).json()
    page: str = answer["sheet"]["page"]
    return page


def _post(served: Any, path: str, token: str, body: dict[str, Any]) -> httpx.Response:
    response: httpx.Response = served.client.post(path, json=body, headers=_bearer(token))
    return response


def _reveal(served: Any, room: str, gm: str) -> None:
    assert _post(served, f"/api/rooms/{room}/reveal", gm, {}).status_code == 200


def _gm(created: dict[str, Any]) -> dict[str, Any]:
    return {"member": created["member"], "token": created["gm_token"]}


def test_a_sheet_is_its_owners_and_the_gms(served: Any) -> None:
    created = served.room("sheets", system="d6")
    room, gm = created["room"], _gm(created)
    ann = served.join(room, "Ann")
    bob = served.join(room, "Bob")
    attached = _put(served, room, ann, D6_SHEET)
    assert attached.status_code == 200, attached.text
    body = attached.json()
    assert (body["version"], body["seq"], body["text"]) == (1, 1, D6_SHEET)
    assert body["sheet"]["name"] == "Jax" and body["sheet"]["system"] == "d6"
    assert {"name": "Dodge", "table": "skills", "level": "4D", "adjusted": None} in body["sheet"][
        "traits"
    ]
    assert body["sheet"]["points"] == {"character_points": 2, "fate_points": 1}
    assert "Dodge" in _page(served, room, ann, body)

    path = _sheet_path(room, ann["member"])
    assert served.get(path, ann["token"]).json()["text"] == D6_SHEET
    assert served.get(path, gm["token"]).json()["text"] == D6_SHEET
    refused = served.get(path, bob["token"])
    assert refused.status_code == 403 and "Jax" not in refused.text
    listed = {who: served.get(f"/api/rooms/{room}/sheets", m["token"]).json()["sheets"]
              for who, m in {"gm": gm, "ann": ann, "bob": bob}.items()}  # fmt: skip
    assert [len(listed[who]) for who in ("gm", "ann", "bob")] == [1, 1, 0]
    assert served.get(path).status_code == 401
    other = served.room("elsewhere")
    assert served.get(path, other["gm_token"]).status_code == 404
    assert served.get(_sheet_path(room, bob["member"]), bob["token"]).status_code == 404
    # a player attaches no sheet to another: the GM may
    assert _put(served, room, {**ann, "member": bob["member"]}, D6_SHEET).status_code == 403

    # a write made to an older version is refused, and nothing is changed
    stale = _put(served, room, ann, D6_SHEET.replace('"3D"', '"4D"', 1), version=0)
    assert stale.status_code == 409 and "version 1" in stale.json()["error"]
    edited = _put(served, room, ann, D6_SHEET.replace("Jax", "Jax Pavan"), version=1)
    assert edited.status_code == 200 and edited.json()["version"] == 2

    typo = D6_SHEET.replace('Dodge = "Agility+1D"', 'Dodge = "Agilty+1D"')
    bad = _put(served, room, ann, typo, 2)
    assert bad.status_code == 422
    problem = bad.json()
    line = D6_SHEET.splitlines().index('Dodge = "Agility+1D"') + 1
    assert (problem["line"], problem["column"]) == (line, 9), problem
    assert problem["error"].startswith(f"sheet.toml:{line}:9: ")
    assert problem["hint"] == "did you mean 'agility'?"
    assert served.get(path, ann["token"]).json()["version"] == 2

    # the sheet's changes are in the log: the owner and the GM see them, Bob a placeholder
    seen = {who: served.rolls(room, m["token"]) for who, m in {"ann": ann, "bob": bob}.items()}
    assert [r.get("kind") for r in seen["ann"]] == ["sheet", "sheet"]
    assert seen["ann"][0]["lines"] == ["Ann attached the sheet of Jax (d6)"]
    assert all(r["hidden"] and r["kind"] == "sheet" for r in seen["bob"])
    assert all("lines" not in r and "character" not in r for r in seen["bob"])


def test_a_trait_rolls_and_a_character_point_is_spent(
    served: Any, tmp_path: Path, rechained: Rechain
) -> None:
    created = served.room("d6 table", system="d6")
    room, gm = created["room"], _gm(created)
    ann = served.join(room, "Ann")
    bob = served.join(room, "Bob")
    wounded = D6_SHEET.replace('wound = "none"', 'wound = "wounded"')
    assert _put(served, room, ann, wounded).status_code == 200
    roll_path = _sheet_path(room, ann["member"]) + "/roll"
    rolled = _post(served, roll_path, ann["token"], {"request": "Dodge vs Moderate"})
    assert rolled.status_code == 201, rolled.text
    roll = rolled.json()
    # a Wounded character rolls -1D, and says so
    assert roll["notation"] == "d6: 4D wound=wounded vs Moderate # Jax, Dodge vs Moderate"
    assert "Jax is Wounded: wound=wounded" in roll["notes"]
    assert roll["label"] == "Jax, Dodge vs Moderate"
    plain = [die["value"] for die in roll["dice"]]

    assert _post(served, roll_path, bob["token"], {"request": "Dodge"}).status_code == 403
    unknown = _post(served, roll_path, ann["token"], {"request": "Dodgy vs Moderate"})
    assert unknown.status_code == 422 and "Dodge" in unknown.text

    spend = f"/api/rooms/{room}/rolls/{roll['seq']}/spend"
    assert _post(served, spend, bob["token"], {"point": "cp"}).status_code == 403
    assert _post(served, spend, ann["token"], {"point": "invoke"}).status_code == 422
    spent = _post(served, spend, ann["token"], {"point": "cp"})
    assert spent.status_code == 201, spent.text
    after = spent.json()
    assert (after["kind"], after["of"], after["point"]) == ("spend", roll["seq"], "cp")
    assert after["notation"] == "d6: 4D wound=wounded cp1 vs Moderate # Jax, Dodge vs Moderate"
    assert [die["value"] for die in after["dice"]][: len(plain)] == plain
    cp_dice = [die for die in after["dice"] if "character_point" in die["marks"]]
    assert cp_dice and after["total"] == roll["total"] + sum(die["value"] for die in cp_dice)
    assert after["points"]["character_points"] == 1
    # points follow points: a second die on the first spend, then none left
    again = _post(served, f"/api/rooms/{room}/rolls/{after['seq']}/spend", ann["token"],
                  {"point": "cp"})  # fmt: skip
    assert again.status_code == 201 and "cp2" in again.json()["notation"]
    empty = _post(served, spend, ann["token"], {"point": "cp"})
    assert empty.status_code == 422 and "0 Character Points" in empty.json()["error"]
    sheet = served.get(_sheet_path(room, ann["member"]), ann["token"]).json()
    assert sheet["sheet"]["points"]["character_points"] == 0 and sheet["version"] == 3
    assert "character_points = 0" in sheet["text"]

    # a hidden roll's spend is as hidden as the roll
    hidden = _post(served, roll_path, ann["token"], {"request": "Search", "visibility": "self"})
    assert hidden.status_code == 201
    hit = _post(served, _sheet_path(room, ann["member"]) + "/spend", ann["token"],
                {"version": 3, "point": "fp"})  # fmt: skip
    assert hit.status_code == 200, hit.text
    gm_hit = _post(served, _sheet_path(room, ann["member"]) + "/hit", gm["token"],
                   {"version": 4, "amount": 5})  # fmt: skip
    assert gm_hit.status_code == 200 and "severely wounded" in gm_hit.json()["text"]

    bobs = {r["seq"]: r for r in served.rolls(room, bob["token"])}
    anns = {r["seq"]: r for r in served.rolls(room, ann["token"])}
    assert bobs[after["seq"]]["total"] == after["total"]  # a public roll's spend is public
    assert bobs[hidden.json()["seq"]]["hidden"]
    assert anns[gm_hit.json()["seq"]]["lines"][-1] == "(by GM)"

    _reveal(served, room, gm["token"])

    for who, member in {"gm": gm, "ann": ann, "bob": bob}.items():
        log = served.get(f"/api/rooms/{room}/log", member["token"]).json()
        report = fudgedice.verify(log)
        assert report.ok and report.complete, (who, report)
        kinds = [entry.get("kind", "roll") for entry in log["entries"]]
        assert kinds == ["sheet", "roll", "spend", "spend", "roll", "sheet", "sheet"], kinds
        assert (report.checked, report.changes) == (4, 3)
        assert log["seeds"][0]["rolls"] == 2  # spends draw from their roll's nonce
        path = tmp_path / f"{who}.json"
        path.write_text(json.dumps(log))
        checked = CliRunner().invoke(main, ["verify", str(path)])
        assert checked.exit_code == 0, checked.output
        assert "3 sheet changes" in checked.output
    verified = {r["seq"]: r["verified"] for r in served.rolls(room, gm["token"])}
    assert verified == {1: None, 2: True, 3: True, 4: True, 5: True, 6: None, 7: None}

    # another Character Point die, the whole chain made again after it: the seed says no
    tampered = json.loads(json.dumps(log))
    tampered["entries"][2]["faces"][-1] = 7 - tampered["entries"][2]["faces"][-1]
    failure = fudgedice.verify(rechained(tampered)).failure
    assert failure is not None and failure.seq == 3 and "not those its seed gives" in failure.reason
    # a spend claimed on another's roll, or with another text, fails at that spend
    tampered = json.loads(json.dumps(log))
    tampered["entries"][2]["text"] = tampered["entries"][2]["text"].replace("cp1", "cp1+5")
    failure = fudgedice.verify(rechained(tampered)).failure
    assert failure is not None and failure.seq == 3 and "with the cp spent" in failure.reason

    # a spend once the roll's seed is revealed would know its die: refused
    more = served.get(_sheet_path(room, ann["member"]), ann["token"]).json()
    text = more["text"].replace("character_points = 0", "character_points = 3")
    assert _put(served, room, ann, text, more["version"]).status_code == 200
    late = _post(served, spend, ann["token"], {"point": "cp"})
    assert late.status_code == 409 and "revealed" in late.json()["error"]


def test_fate_invokes_and_rerolls_from_the_card(served: Any) -> None:
    created = served.room("fate table", system="fate")
    room, gm = created["room"], _gm(created)
    ann = served.join(room, "Ann")
    assert _put(served, room, ann, FATE_SHEET).status_code == 200
    roll_path = _sheet_path(room, ann["member"]) + "/roll"
    roll = _post(served, roll_path, ann["token"], {"request": "Fight vs Superb"}).json()
    spend = f"/api/rooms/{room}/rolls/{roll['seq']}/spend"
    invoked = _post(served, spend, ann["token"], {"point": "invoke"})
    assert invoked.status_code == 201, invoked.text
    assert invoked.json()["total"] == roll["total"] + 2
    assert invoked.json()["notation"].startswith("fate: Great+2 vs Superb")
    assert invoked.json()["points"]["fate_points"] == 2
    # a reroll draws four new dice from the roll's stream, unless it succeeds with style
    rerolled = _post(served, f"/api/rooms/{room}/rolls/{invoked.json()['seq']}/spend",
                     ann["token"], {"point": "reroll"})  # fmt: skip
    if invoked.json()["total"] - 5 >= 3:
        assert rerolled.status_code == 422
    else:
        assert rerolled.status_code == 201, rerolled.text
        assert len(rerolled.json()["dice"]) == 8
        assert rerolled.json()["points"]["fate_points"] == 1
    _reveal(served, room, gm["token"])
    report = fudgedice.verify(served.get(f"/api/rooms/{room}/log", gm["token"]).json())
    assert report.ok and report.complete, report


def _events_until(feed: Any, seq: int) -> dict[int, dict[str, Any]]:
    """The feed's rolls by seq, up to ``seq``."""
    seen: dict[int, dict[str, Any]] = {}
    for event, data in feed:
        if event == "roll":
            seen[data["seq"]] = data
            if data["seq"] == seq:
                return seen
    raise AssertionError(f"the feed ended before roll {seq}")


def test_points_left_are_shown_to_their_owner_and_the_gm_alone(served: Any) -> None:
    """A point spent on a public roll says to all what was spent; how many
    points are left, only to the sheet's owner and the GM: by no path
    (answers, the live feed, history, export, log before and after the
    reveal, the sheets) does another player read it."""
    created = served.room("points left", system="fate")
    room, gm = created["room"], _gm(created)
    ann, bob = served.join(room, "Ann"), served.join(room, "Bob")
    feeds = {"gm": gm, "ann": ann, "bob": bob}
    with (
        served.live(room, gm["token"]) as gm_feed,
        served.live(room, ann["token"]) as ann_feed,
        served.live(room, bob["token"]) as bob_feed,
    ):
        assert _put(served, room, ann, FATE_SHEET).status_code == 200
        roll_path = _sheet_path(room, ann["member"]) + "/roll"
        rolled = _post(served, roll_path, ann["token"], {"request": "Fight vs Fair"})
        assert rolled.status_code == 201, rolled.text
        spend = f"/api/rooms/{room}/rolls/{rolled.json()['seq']}/spend"
        invoked = _post(served, spend, ann["token"], {"point": "invoke"})
        assert invoked.status_code == 201, invoked.text
        on_sheet = _post(served, _sheet_path(room, ann["member"]) + "/spend", ann["token"],
                         {"version": 2, "point": "fate"})  # fmt: skip
        assert on_sheet.status_code == 200, on_sheet.text
        live = {
            who: _events_until(feed, 4)
            for who, feed in {"gm": gm_feed, "ann": ann_feed, "bob": bob_feed}.items()
        }
    owned = "Cynere spent 1 Fate Point (2 left): an invoke for +2 on roll 2"
    assert invoked.json()["spent"] == owned and "own" not in invoked.json()
    assert live["gm"][3]["spent"] == live["ann"][3]["spent"] == owned
    assert live["bob"][3]["spent"] == "1 Fate Point spent: an invoke for +2 on roll 2"
    assert live["bob"][3]["total"] == invoked.json()["total"]  # the spend itself is public
    assert "left)" not in json.dumps(live["bob"]) and '"own"' not in json.dumps(live["bob"])
    assert live["gm"][4]["lines"] == ["Cynere spent 1 Fate Point (1 left)"]

    def seen_by(member: dict[str, Any]) -> str:
        token, paths = (
            member["token"],
            [
                f"/api/rooms/{room}/rolls",
                f"/api/rooms/{room}/export",
                f"/api/rooms/{room}/log",
                f"/api/rooms/{room}/sheets",
            ],
        )
        answers = [served.get(path, token) for path in paths]
        answers.append(served.get(f"/api/rooms/{room}/export", token, format="csv"))
        with served.live(room, token, after=0) as feed:
            replayed = _events_until(feed, 4)
        assert all(answer.status_code == 200 for answer in answers)
        return "\n".join([*(answer.text for answer in answers), json.dumps(replayed)])

    assert "left)" not in seen_by(bob) and "Cynere spent" not in seen_by(bob)
    for owner in (gm, ann):
        assert "(2 left)" in seen_by(owner) and "(1 left)" in seen_by(owner)
    _reveal(served, room, gm["token"])
    # the log opens every hidden entry once its seed is revealed: the sheet
    # change it committed says what was spent, never what is left
    for who, member in feeds.items():
        log = served.get(f"/api/rooms/{room}/log", member["token"]).json()
        assert fudgedice.verify(log).ok, who
        assert "left)" not in json.dumps(log, ensure_ascii=False), who
        changes = [e["opening"]["entry"]["change"] for e in log["entries"] if "opening" in e]
        assert "Cynere spent 1 Fate Point" in changes, who
    assert "left)" not in seen_by(bob)


def test_a_point_is_spent_once_on_a_roll(served: Any) -> None:
    created = served.room("spent once", system="d6")
    room = created["room"]
    ann = served.join(room, "Ann")
    rich = D6_SHEET.replace("character_points = 2", "character_points = 5")
    assert _put(served, room, ann, rich).status_code == 200
    roll = _post(served, _sheet_path(room, ann["member"]) + "/roll", ann["token"],
                 {"request": "Dodge"}).json()  # fmt: skip
    spend = f"/api/rooms/{room}/rolls/{roll['seq']}/spend"
    first = _post(served, spend, ann["token"], {"point": "cp"})
    assert first.status_code == 201, first.text
    # the same die again, from the same stream: refused, and nothing charged
    again = _post(served, spend, ann["token"], {"point": "cp"})
    assert again.status_code == 409, again.text
    refused = again.json()
    assert f"on roll {roll['seq']} already" in refused["error"]
    assert str(first.json()["seq"]) in refused["hint"]
    sheet = served.get(_sheet_path(room, ann["member"]), ann["token"]).json()
    assert sheet["sheet"]["points"]["character_points"] == 4
    assert served.rolls(room, ann["token"])[-1]["seq"] == first.json()["seq"]
    # the next point follows the spend: a second die of its own
    second = _post(served, f"/api/rooms/{room}/rolls/{first.json()['seq']}/spend",
                   ann["token"], {"point": "cp"})  # fmt: skip
    assert second.status_code == 201 and "cp2" in second.json()["notation"]


def test_an_invoke_is_not_spent_again_after_a_reroll(served: Any) -> None:
    created = served.room("invoke once", system="fate")
    room = created["room"]
    ann = served.join(room, "Ann")
    assert _put(served, room, ann, FATE_SHEET).status_code == 200
    roll_path = _sheet_path(room, ann["member"]) + "/roll"
    roll = _post(served, roll_path, ann["token"], {"request": "Fight vs Legendary"}).json()
    spend = f"/api/rooms/{room}/rolls/{roll['seq']}/spend"
    assert _post(served, spend, ann["token"], {"point": "invoke"}).status_code == 201
    # against Legendary a Great never succeeds with style: a reroll always draws
    assert _post(served, spend, ann["token"], {"point": "reroll"}).status_code == 201
    again = _post(served, spend, ann["token"], {"point": "invoke"})
    assert again.status_code == 409 and "invoke" in again.json()["error"]
    twice = _post(served, spend, ann["token"], {"point": "reroll"})
    assert twice.status_code == 409 and "reroll" in twice.json()["error"]
    sheet = served.get(_sheet_path(room, ann["member"]), ann["token"]).json()
    assert sheet["sheet"]["points"]["fate_points"] == 1
