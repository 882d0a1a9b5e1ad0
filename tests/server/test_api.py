"""The API contract of docs/contracts/table.md, against a real server on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import fudgedice
from fudgedice.cli import main

HIDDEN_TEXT = "7d6+1234"
"""A roll text that, with the labels below, must never reach a reader who may not see it."""


def _players(
    served: Any, **room: Any
) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    created = served.room(**room)
    gm = {"member": created["member"], "token": created["gm_token"]}
    return (
        created["room"],
        gm,
        served.join(created["room"], "Ann"),
        served.join(created["room"], "Bob"),
    )


def test_a_room_a_member_and_a_roll(served: Any) -> None:
    created = served.room("Friday game")
    assert set(created) >= {"room", "name", "system", "gm_token", "commitment", "url"}
    assert created["system"] == "fudge" and created["name"] == "Friday game"
    assert re.fullmatch(r"[0-9a-f]{64}", created["commitment"])
    assert created["url"].endswith(f"/r/{created['room']}")
    assert len(created["gm_token"]) >= 32  # 256 bits, base64
    ann = served.join(created["room"], "Ann")
    assert set(ann) >= {"member", "name", "token"} and ann["name"] == "Ann"
    answer = served.roll(created["room"], ann["token"], "4dF+1", label="Sneak")
    assert answer.status_code == 201, answer.text
    roll = answer.json()
    assert roll["seq"] == 1 and roll["member"] == ann["member"] and roll["name"] == "Ann"
    assert roll["visibility"] == "public" and roll["nonce"] == 0 and roll["label"] == "Sneak"
    assert roll["notation"] == "4dF+1" and len(roll["dice"]) == 4
    assert roll["total"] == sum(die["value"] for die in roll["dice"]) + 1
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", roll["at"])
    assert served.rolls(created["room"], created["gm_token"]) == [roll]
    second = served.roll(created["room"], created["gm_token"], "Good vs Great").json()
    # nonces are each member's own: the GM's first, then Ann's second
    assert (second["seq"], second["nonce"], second["verdict"] is not None) == (2, 0, True)
    again = served.roll(created["room"], ann["token"], "4dF").json()
    assert (again["seq"], again["nonce"], again["foreseeable"]) == (3, 1, True)


def test_the_rooms_system_reads_a_text_without_a_prefix(served: Any) -> None:
    room, gm, _, _ = _players(served, name="D6 night", system="d6")
    roll = served.roll(room, gm["token"], "3D+1").json()
    assert roll["system"] == "d6"
    assert served.roll(room, gm["token"], "fudge: 4dF").json()["system"] == "fudge"
    refused = served.roll(room, gm["token"], "3D+Q")
    with pytest.raises(fudgedice.DiceError) as cli:
        fudgedice.roll("d6: 3D+Q")
    assert refused.status_code == 400
    assert refused.json()["error"] == cli.value.message
    assert refused.json()["position"] == (cli.value.position or 0) - len("d6: ")


@pytest.mark.parametrize("text", ["4dF+", "3d6kh4", "2d6 vs Goood", "d0"])
def test_bad_roll_text_is_the_clis_message_and_column(served: Any, text: str) -> None:
    room, gm, _, _ = _players(served, name="errors")
    answer = served.roll(room, gm["token"], text)
    with pytest.raises(fudgedice.DiceError) as cli:
        fudgedice.roll(text)
    assert answer.status_code == 400
    body = answer.json()
    assert body["error"] == cli.value.message
    assert body.get("position") == cli.value.position and body.get("hint") == cli.value.hint


def test_the_engines_own_budgets_are_400(served: Any) -> None:
    room, gm, _, _ = _players(served, name="big")
    answer = served.roll(room, gm["token"], "10001d6")
    assert answer.status_code == 400 and "limit" in answer.json()["error"]
    assert served.rolls(room, gm["token"]) == []


def _post_all_visibilities(
    served: Any,
) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    room, gm, ann, bob = _players(served, name="secrets")
    for who, visibility in [
        (ann, "public"),
        (ann, "gm"),
        (ann, "self"),
        (gm, "secret"),
        (gm, "gm"),
    ]:
        label = f"LBL-{visibility}-{who['member']}"
        answer = served.roll(room, who["token"], HIDDEN_TEXT, visibility=visibility, label=label)
        assert answer.status_code == 201, answer.text
    return room, gm, ann, bob


SEES = {
    # seq: (visibility, the readers who see it whole)
    1: ("public", {"gm", "ann", "bob"}),
    2: ("gm", {"gm", "ann"}),
    3: ("self", {"ann"}),
    4: ("secret", {"gm"}),
    5: ("gm", {"gm"}),
}


def test_hidden_rolls_are_placeholders_in_rolls_export_and_log(served: Any) -> None:
    room, gm, ann, bob = _post_all_visibilities(served)
    for who, member in {"gm": gm, "ann": ann, "bob": bob}.items():
        token = member["token"]
        listed = served.rolls(room, token)
        exported = served.get(f"/api/rooms/{room}/export", token).json()["rolls"]
        log = served.get(f"/api/rooms/{room}/log", token).json()["entries"]
        assert [r["seq"] for r in listed] == [r["seq"] for r in exported] == [1, 2, 3, 4, 5]
        assert [e["seq"] for e in log] == [1, 2, 3, 4, 5]
        for roll, export, entry in zip(listed, exported, log, strict=True):
            visibility, seen_by = SEES[roll["seq"]]
            assert roll["visibility"] == visibility
            if who in seen_by:
                assert roll["notation"] == HIDDEN_TEXT and "total" in roll
                assert export == roll
            else:
                for shown in (roll, export):
                    assert set(shown) == {
                        "seq",
                        "member",
                        "name",
                        "visibility",
                        "hidden",
                        "at",
                        "verified",
                    }
                    assert shown["hidden"] is True
                assert entry.get("hidden") is True and "opening" not in entry
        bodies = [
            served.get(f"/api/rooms/{room}/{path}", token).text
            for path in ("rolls", "export", "export?format=csv", "log")
        ]
        hidden_labels = [
            f"LBL-{SEES[seq][0]}-{m}" for seq, m in
            [(2, ann["member"]), (3, ann["member"]), (4, gm["member"]), (5, gm["member"])]
            if who not in SEES[seq][1]
        ]  # fmt: skip
        for body in bodies:
            for label in hidden_labels:
                assert label not in body, f"{who} read {label}"


def test_csv_export_has_a_line_a_roll_and_no_formula(served: Any) -> None:
    room, gm, _, _ = _players(served, name="csv")
    mallory = served.join(room, '=HYPERLINK("http://x")')
    served.roll(room, mallory["token"], "4dF", label="+1 to hit")
    served.roll(room, gm["token"], "3d6", visibility="secret")
    answer = served.get(f"/api/rooms/{room}/export", mallory["token"], format="csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert [row["seq"] for row in rows] == ["1", "2"]
    assert rows[0]["name"] == '\'=HYPERLINK("http://x")' and rows[0]["label"] == "'+1 to hit"
    assert rows[0]["text"] == "4dF" and rows[0]["hidden"] == "false"
    assert rows[1]["hidden"] == "true" and rows[1]["text"] == "" and rows[1]["total"] == ""
    # the member ids the server made are copied as they are, even one that starts with '-'
    assert rows[0]["member"] == mallory["member"] and rows[1]["member"] == gm["member"]


def test_a_player_may_not_roll_secret(served: Any) -> None:
    room, _, ann, _ = _players(served, name="no secret")
    answer = served.roll(room, ann["token"], "4dF", visibility="secret")
    assert answer.status_code == 422 and answer.json()["error"]


def test_tokens(served: Any) -> None:
    room, gm, ann, _ = _players(served, name="one")
    other, other_gm, _, _ = _players(served, name="two")
    path = f"/api/rooms/{room}/rolls"
    served.roll(room, ann["token"], "4dF", label="only in room one")
    assert served.client.get(path).status_code == 401
    assert served.get(path, "x" * 43).status_code == 401
    assert (
        served.client.get(path, headers={"Authorization": f"Basic {ann['token']}"}).status_code
        == 401
    )
    for where in ("rolls", "log", "export", "live"):
        answer = served.get(f"/api/rooms/{room}/{where}", other_gm["token"])
        assert answer.status_code == 404, where
        assert "only in room one" not in answer.text
    assert served.roll(room, other_gm["token"], "4dF").status_code == 404
    assert served.get(f"/api/rooms/{other}x/rolls", other_gm["token"]).status_code == 404
    assert served.client.post(f"/api/rooms/{other}x/members", json={"name": "A"}).status_code == 404
    assert served.get(f"/api/rooms/{room}", gm["token"]).json()["me"]["gm"] is True


def test_a_token_the_server_knows_is_refused_in_another_room(served: Any) -> None:
    """A roll looks its token up in memory once seen: the answers are the same
    as the database's, for the token's own room and for any other."""
    room, _, ann, _ = _players(served, name="remembered")
    other, other_gm, _, _ = _players(served, name="elsewhere")
    assert served.roll(room, ann["token"], "4dF").status_code == 201  # now known
    assert served.roll(other, ann["token"], "4dF").status_code == 404
    assert served.roll(f"{room}x", ann["token"], "4dF").status_code == 404
    path = f"/api/rooms/{room}/rolls"
    basic = {"Authorization": f"Basic {ann['token']}"}
    assert served.client.post(path, json={"text": "4dF"}, headers=basic).status_code == 401
    assert served.client.post(path, json={"text": "4dF"}).status_code == 401
    assert served.roll(room, ann["token"] + "x", "4dF").status_code == 401
    assert [r["seq"] for r in served.rolls(room, ann["token"])] == [1]
    assert served.rolls(other, other_gm["token"]) == []


def test_sizes_and_malformed_fields(served: Any) -> None:
    room, gm, _, _ = _players(served, name="sizes")
    path = f"/api/rooms/{room}/rolls"
    headers = {"Authorization": f"Bearer {gm['token']}", "Content-Type": "application/json"}
    huge = json.dumps({"text": "4dF", "label": "x" * 20_000})
    assert served.client.post(path, content=huge, headers=headers).status_code == 413
    chunks = (part.encode() for part in [huge[:1000], huge[1000:]])  # no Content-Length
    assert served.client.post(path, content=chunks, headers=headers).status_code == 413
    assert served.roll(room, gm["token"], "1+" * 600 + "1").status_code == 413
    assert served.roll(room, gm["token"], "4dF", label="y" * 201).status_code == 413
    assert (
        served.client.post(f"/api/rooms/{room}/members", json={"name": "n" * 61}).status_code == 413
    )
    for body in (
        {},
        {"text": 4},
        {"text": "4dF", "visibility": "everyone"},
        {"text": "4dF", "x": 1},
    ):
        answer = served.client.post(path, json=body, headers=headers)
        assert answer.status_code == 422, body
        assert set(answer.json()) <= {"error", "position", "hint"} and answer.json()["error"]
    assert served.client.post(path, content=b"{not json", headers=headers).status_code == 422
    assert served.client.post("/api/rooms", json={"name": "  "}).status_code == 422
    assert (
        served.client.post("/api/rooms", json={"name": "a", "system": "chess"}).status_code == 422
    )
    assert served.rolls(room, gm["token"]) == []


def test_names_are_kept_as_typed(served: Any) -> None:
    created = served.room("<b>room</b>")
    name = "<img src=x onerror=alert(1)>"
    member = served.join(created["room"], name)
    assert member["name"] == name
    roll = served.roll(created["room"], member["token"], "4dF", label="<script>x</script>").json()
    assert (roll["name"], roll["label"]) == (name, "<script>x</script>")
    page = served.client.get(f"/r/{created['room']}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert name not in page.text


def test_dice_read_by_hand(served: Any) -> None:
    room, _, ann, _ = _players(served, name="read")
    read = served.roll(room, ann["token"], "4dF+1", faces=["+", "+", "-", "0"]).json()
    assert (read["total"], read["by_hand"], read["nonce"]) == (2, True, None)
    assert served.roll(room, ann["token"], "4dF").json()["nonce"] == 0  # reading draws no nonce
    wrong = served.roll(room, ann["token"], "4dF", faces=["+", "+"])
    assert wrong.status_code == 400


def test_paging_and_filtering(served: Any) -> None:
    room, gm, ann, bob = _players(served, name="pages")
    for index in range(12):
        served.roll(room, (ann if index % 3 else bob)["token"], "4dF")

    def seqs(**params: Any) -> list[int]:
        return [r["seq"] for r in served.rolls(room, gm["token"], **params)]

    assert seqs() == list(range(1, 13))
    assert seqs(after=5, limit=3) == [6, 7, 8]
    assert seqs(before=5, limit=3) == [2, 3, 4]
    assert seqs(before=13, limit=2) == [11, 12]
    assert seqs(member=bob["member"]) == [1, 4, 7, 10]
    assert seqs(member=bob["member"], before=10, limit=2) == [4, 7]
    assert served.get(f"/api/rooms/{room}/rolls", gm["token"], limit=501).status_code == 422
    csv_rows = served.get(
        f"/api/rooms/{room}/export", gm["token"], format="csv", member=ann["member"]
    )
    assert len(csv_rows.text.strip().splitlines()) == 1 + 8


def test_odds(served: Any) -> None:
    answer = served.client.get("/api/odds", params={"text": "4dF+1 vs Good"})
    assert answer.status_code == 200
    assert answer.json() == json.loads(json.dumps(fudgedice.odds("4dF+1 vs Good").to_dict()))
    d6 = served.client.get("/api/odds", params={"text": "3D", "system": "d6"}).json()
    assert d6 == json.loads(json.dumps(fudgedice.odds("d6: 3D").to_dict()))
    bad = served.client.get("/api/odds", params={"text": "4dF+"})
    assert bad.status_code == 400 and "position" in bad.json()
    assert served.client.get("/api/odds", params={"text": "1+" * 600}).status_code == 413
    # measuring and writing out are one request: one budget of work
    costly = served.client.get("/api/odds", params={"text": "238d100+230d99"})
    assert costly.status_code == 413  # a limit, as every engine limit at the table
    assert "left of the limit of 0.6 s for one request" in costly.json()["error"]


def _check_chain(log: dict[str, Any], *, complete: bool) -> None:
    """The exported log, checked as anyone would: with ``fudgedice verify``."""
    report = fudgedice.verify(log)
    assert report.ok, report.failure
    assert report.complete is complete, report
    assert report.entries == len(log["entries"]) == log["head"]["seq"]


def test_reveal_publishes_the_seed_and_marks_rolls_verified(served: Any) -> None:
    room, gm, ann, bob = _post_all_visibilities(served)
    served.roll(room, ann["token"], "3d6", client_seed="lucky")
    before = served.get(f"/api/rooms/{room}", bob["token"]).json()
    assert (
        served.client.post(
            f"/api/rooms/{room}/reveal", headers={"Authorization": f"Bearer {bob['token']}"}
        ).status_code
        == 403
    )
    answer = served.client.post(
        f"/api/rooms/{room}/reveal", headers={"Authorization": f"Bearer {gm['token']}"}
    )
    assert answer.status_code == 200
    revealed = answer.json()
    assert revealed["commitment"] == before["commitment"]
    assert (
        hashlib.sha256(bytes.fromhex(revealed["server_seed"])).hexdigest() == before["commitment"]
    )
    assert revealed["next_commitment"] != before["commitment"]
    after = served.get(f"/api/rooms/{room}", bob["token"]).json()
    assert after["commitment"] == revealed["next_commitment"]
    assert all(r["verified"] is True for r in served.rolls(room, bob["token"]))
    later = served.roll(room, bob["token"], "4dF").json()
    assert (later["nonce"], later["commitment"], later["verified"]) == (
        0,
        after["commitment"],
        None,
    )
    log = served.get(f"/api/rooms/{room}/log", bob["token"]).json()
    assert [e["seq"] for e in log["entries"]] == list(range(1, 8))
    assert all("opening" in e for e in log["entries"] if e.get("hidden"))  # revealed: checkable
    _check_chain(log, complete=False)  # the roll after the reveal waits for the next one
    assert served.rolls(room, bob["token"])[2]["hidden"] is True  # the roll itself stays hidden


def test_a_log_before_reveal_chains_and_hides(served: Any) -> None:
    room, _, _, bob = _post_all_visibilities(served)
    log = served.get(f"/api/rooms/{room}/log", bob["token"]).json()
    assert log["seeds"][0]["server_seed"] is None
    _check_chain(log, complete=False)
    assert HIDDEN_TEXT not in json.dumps([e for e in log["entries"] if e.get("hidden")])


def test_a_rooms_log_verifies_with_the_cli(served: Any, tmp_path: Path) -> None:
    """A D6 room: rolls without the prefix, a label, dice read by hand, a GM
    secret, a reveal and a new seed; the exported log is what `fudgedice
    verify` reads, and a tampered copy fails, named."""
    room, gm, ann, _ = _players(served, name="D6 log", system="d6")
    assert served.roll(room, ann["token"], "3D+1", label="climb", client_seed="ann's").is_success
    assert served.roll(room, ann["token"], "4D", faces=["4", "2", "5", "w6", "w3"]).is_success
    assert served.roll(room, gm["token"], "5D vs 15", visibility="secret").is_success
    served.client.post(
        f"/api/rooms/{room}/reveal", headers={"Authorization": f"Bearer {gm['token']}"}
    )
    assert served.roll(room, ann["token"], "fudge: Good vs Great").is_success
    log = served.get(f"/api/rooms/{room}/log", ann["token"]).json()
    texts = [entry.get("text") for entry in log["entries"]]
    assert texts == ["d6: 3D+1", "d6: 4D", None, "fudge: Good vs Great"]
    assert log["entries"][0]["label"] == "climb" and log["entries"][1]["by_hand"] is True
    assert log["entries"][2]["opening"]["entry"]["text"] == "d6: 5D vs 15"
    path = tmp_path / "room.json"
    path.write_text(json.dumps(log))
    verified = CliRunner().invoke(main, ["verify", str(path)])
    assert verified.exit_code == 3, verified.output  # the last roll waits for the next reveal
    assert "chain intact: 3 rolls checked; 1 waits for its" in verified.output
    log["entries"][0]["total"] += 1
    path.write_text(json.dumps(log))
    failed = CliRunner().invoke(main, ["verify", str(path)])
    assert failed.exit_code == 1 and "FAILED at seq 1" in failed.output
