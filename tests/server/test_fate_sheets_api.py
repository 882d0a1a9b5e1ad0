"""Fate Condensed's and Fate Accelerated's sheets at the table: a hit through
``POST .../sheet/hit`` checks Condensed's 1-point boxes, an approach rolls by
name, and an invoke is spent from either sheet on its roll's card; the log
verifies."""

from __future__ import annotations

from typing import Any

import httpx

import fudgedice
from fudgedice import sheets

CONDENSED = sheets.new_sheet("fatecondensed", "Zird")
FAE = sheets.new_sheet("fae", "Abigail")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _path(room: str, member: str) -> str:
    return f"/api/rooms/{room}/members/{member}/sheet"


def _post(served: Any, path: str, token: str, body: dict[str, Any]) -> httpx.Response:
    response: httpx.Response = served.client.post(path, json=body, headers=_bearer(token))
    return response


def _attach(served: Any, room: str, member: dict[str, Any], text: str) -> None:
    attached = served.client.put(
        _path(room, member["member"]),
        json={"text": text, "version": 0},
        headers=_bearer(member["token"]),
    )
    assert attached.status_code == 200, attached.text


def test_a_condensed_hit_checks_1_point_boxes(served: Any) -> None:
    created = served.room("condensed", system="fatecondensed")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")
    _attach(served, room, ann, CONDENSED)
    path = _path(room, ann["member"])
    hit = _post(served, f"{path}/hit", gm, {"version": 1, "amount": 5})
    assert hit.status_code == 200, hit.text
    assert "physical = [1, 2, 3, 4, 5]" in hit.json()["text"]  # Physique Good: 6 boxes
    assert hit.json()["sheet"]["system"] == "fatecondensed"
    mental = _post(served, f"{path}/hit", gm,
                   {"version": 2, "amount": 6, "track": "mental", "aspect": "Shaken"})  # fmt: skip
    assert mental.status_code == 200, mental.text
    # Will Fair: 4 boxes, so a mild consequence and all four
    assert "mental = [1, 2, 3, 4]" in mental.json()["text"]
    assert 'mild = "Shaken"' in mental.json()["text"]
    wrong = _post(served, f"{path}/hit", gm, {"version": 3, "amount": 1, "track": "stress"})
    assert wrong.status_code == 422 and "no stress track 'stress'" in wrong.json()["error"]
    log = [entry["lines"] for entry in served.rolls(room, ann["token"])]
    assert log[1][0] == "Zird took a 5-shift physical hit: checked 5 physical stress boxes"


def test_an_approach_rolls_by_name_and_an_invoke_is_spent_on_its_card(served: Any) -> None:
    created = served.room("accelerated", system="fae")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")
    _attach(served, room, ann, FAE)
    path = _path(room, ann["member"])
    rolled = _post(served, f"{path}/roll", ann["token"], {"request": "Clever vs Superb"})
    assert rolled.status_code == 201, rolled.text
    roll = rolled.json()
    assert roll["notation"] == "fae: Good vs Superb # Abigail, Clever vs Superb"
    invoked = _post(served, f"/api/rooms/{room}/rolls/{roll['seq']}/spend", ann["token"],
                    {"point": "invoke"})  # fmt: skip
    assert invoked.status_code == 201, invoked.text
    assert invoked.json()["notation"].startswith("fae: Good+2 vs Superb")
    assert invoked.json()["total"] == roll["total"] + 2
    assert invoked.json()["points"]["fate_points"] == 2
    hit = _post(served, f"{path}/hit", gm, {"version": 2, "amount": 3})
    assert hit.status_code == 200 and "stress = [3]" in hit.json()["text"]
    assert _post(served, f"/api/rooms/{room}/reveal", gm, {}).status_code == 200
    report = fudgedice.verify(served.get(f"/api/rooms/{room}/log", gm).json())
    assert report.ok and report.complete, report
