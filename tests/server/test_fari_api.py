"""Characters from Fari at the table: ``PUT .../sheet`` with ``"format":
"fari"`` attaches a Fate character's ``.fari.json`` (kept as the sheet's TOML,
as ``fudgedice sheet import`` makes it), and ``GET .../sheet?format=fari`` gives the
file back, as Fari imports it. On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fudgedice import sheets
from fudgedice.sheets.fari import import_fari

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "fari" / "cynere-fate-core.fari.json"


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _path(room: str, member: dict[str, Any]) -> str:
    return f"/api/rooms/{room}/members/{member['member']}/sheet"


def _put(served: Any, room: str, member: dict[str, Any], body: dict[str, Any]) -> Any:
    return served.client.put(_path(room, member), json=body, headers=_bearer(member["token"]))


def test_a_fari_character_is_attached_and_given_back(served: Any) -> None:
    created = served.room("fari", system="fate")
    room, gm = created["room"], {"member": created["member"], "token": created["gm_token"]}
    ann, bob = served.join(room, "Ann"), served.join(room, "Bob")
    golden = GOLDEN.read_text("utf-8")
    attached = _put(served, room, ann, {"text": golden, "version": 0, "format": "fari"})
    assert attached.status_code == 200, attached.text
    body = attached.json()
    assert body["text"] == import_fari(golden, "character.fari.json")  # the sheet kept is TOML
    assert body["sheet"]["name"] == "Cynere" and body["sheet"]["system"] == "fate"
    logged = served.rolls(room, ann["token"])
    assert [entry["lines"] for entry in logged] == [
        ["Ann attached the sheet of Cynere (fate), from Fari"]
    ]

    for reader in (ann, gm):
        given = served.get(_path(room, ann), reader["token"], format="fari")
        assert given.status_code == 200, given.text
        assert given.text == golden
        assert given.headers["content-type"].startswith("application/json")
        assert given.headers["content-disposition"] == (
            "attachment; filename=\"character.fari.json\"; filename*=UTF-8''"
            + quote("Cynere.fari.json", safe="")
        )
    assert served.get(_path(room, ann), bob["token"], format="fari").status_code == 403
    assert served.get(_path(room, ann), ann["token"], format="toml").status_code == 422
    assert served.get(_path(room, ann), ann["token"]).json()["text"] == body["text"]
    assert served.get(_path(room, bob), bob["token"], format="fari").status_code == 404
    assert served.get(_path(room, ann), format="fari").status_code == 401

    # a change made at the table goes to Fari with the rest as it was
    hit = served.client.post(
        _path(room, ann) + "/hit",
        json={"version": 1, "amount": 1, "track": "mental"},
        headers=_bearer(ann["token"]),
    )
    assert hit.status_code == 200, hit.text
    expected = json.loads(golden)
    for column in expected["pages"][0]["rows"][0]["columns"]:
        for section in column["sections"]:
            for block in section["blocks"]:
                if block["label"] == "MENTAL":  # box 1 was checked: a 1-shift hit checks box 2
                    block["value"][1]["checked"] = True
    given = served.get(_path(room, ann), ann["token"], format="fari").text
    assert given == json.dumps(expected, separators=(",", ":"), ensure_ascii=False)


def test_bad_fari_files_are_422_with_a_clear_error(served: Any) -> None:
    created = served.room("fari-bad", system="fate")
    room = created["room"]
    ann = served.join(room, "Ann")
    golden = GOLDEN.read_text("utf-8")
    cases = {
        '{"name": "Cynere",\n "pages": [}': "character.fari.json:2:12: not Fari's JSON",
        '{"fariType": "scene"}': "this Fari file is a 'scene', not a character",
        json.dumps({**json.loads(golden), "version": 2}): "fudgedice reads versions 4 to 6",
        golden.replace('"value":"4"', '"value":"four"'): "'four' is not a skill's level",
        json.dumps({**json.loads(golden), "x": "a" * 66_000}): "more than 65,536 bytes",
    }
    for text, said in cases.items():
        refused = _put(served, room, ann, {"text": text, "version": 0, "format": "fari"})
        assert refused.status_code == 422, refused.text
        assert said in refused.json()["error"], refused.json()
    assert _put(served, room, ann, {"text": golden, "format": "yaml"}).status_code == 422
    # as TOML, the same text is no sheet
    assert _put(served, room, ann, {"text": golden}).status_code == 422
    assert served.get(_path(room, ann), ann["token"], format="fari").status_code == 404


def test_only_a_fate_sheet_is_given_as_fari(served: Any) -> None:
    created = served.room("fari-d6", system="d6")
    room = created["room"]
    ann = served.join(room, "Ann")
    jax = sheets.new_sheet("d6", "Jax")
    assert _put(served, room, ann, {"text": jax, "version": 0}).status_code == 200
    refused = served.get(_path(room, ann), ann["token"], format="fari")
    assert refused.status_code == 422
    assert "a d6 sheet has no Fari character: only Fate sheets do" in refused.json()["error"]
