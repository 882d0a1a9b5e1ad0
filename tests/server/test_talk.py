"""Talk and blind rolls at the table, against a real server on SQLite and
PostgreSQL: who reads which message or blind roll through ``GET .../rolls``,
the live feed, the log and the exports (a hidden one's words, faces or total
never reach anyone else, by any path); the refusals; the log verifying with
them before and after a reveal, talk kept closed by it and a blind roll opened.
(docs/table.md, "Talk"; docs/fairness.md, "Talk".)"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner

import fudgedice
from fudgedice.cli import main
from fudgedice.server import connect
from fudgedice.server.kept import Member, RollRecord, Shown

PLACEHOLDER = {"seq", "member", "name", "visibility", "hidden", "at", "verified"}
TALKED = {"seq", "kind", "member", "name", "visibility", "text", "to", "to_name", "at", "hash",
          "verified", "hidden"}  # fmt: skip
"""What the sender of a message is answered with, at least (the page's contract)."""
BLIND_TEXT = "7d6+4321"
"""A blind roll's text: never shown to its roller."""


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _talk(served: Any, room: str, who: dict[str, Any], text: str, **extra: Any) -> httpx.Response:
    answer: httpx.Response = served.client.post(
        f"/api/rooms/{room}/talk", json={"text": text, **extra}, headers=_bearer(who["token"])
    )
    return answer


def _room(served: Any, name: str) -> tuple[str, dict[str, dict[str, Any]]]:
    """A room and its members by name: the GM, Ann, Bob and Dan."""
    created = served.room(name)
    room = created["room"]
    members = {"gm": {"member": created["member"], "token": created["gm_token"]}}
    for name_ in ("ann", "bob", "dan"):
        members[name_] = served.join(room, name_.title())
    return room, members


def _said(
    served: Any, room: str, members: dict[str, dict[str, Any]]
) -> tuple[dict[int, set[str]], list[dict[str, Any]]]:
    """Every visibility of talk and two blind rolls: who reads each whole, by
    seq, and the answers."""
    made = [
        ("ann", "public", None, {"gm", "ann", "bob", "dan"}),
        ("ann", "gm", None, {"gm", "ann"}),
        ("ann", "self", None, {"ann"}),
        ("gm", "secret", None, {"gm"}),
        ("ann", "whisper", "bob", {"ann", "bob"}),
        ("bob", "whisper", "gm", {"bob", "gm"}),
    ]
    sees: dict[int, set[str]] = {}
    answers = []
    for seq, (who, visibility, to, readers) in enumerate(made, start=1):
        extra = {} if to is None else {"to": members[to]["member"]}
        answer = _talk(served, room, members[who], f"WORD{seq}", visibility=visibility, **extra)
        assert answer.status_code == 201, answer.text
        answers.append(answer.json())
        sees[seq] = readers
    for seq, who in ((7, "ann"), (8, "gm")):
        answer = served.roll(room, members[who]["token"], BLIND_TEXT, visibility="blind",
                             label=f"WORD{seq}")  # fmt: skip
        assert answer.status_code == 201, answer.text
        answers.append(answer.json())
        sees[seq] = {"gm"}
    return sees, answers


def test_the_sender_is_answered_with_the_message_and_a_blind_roller_with_a_placeholder(
    served: Any,
) -> None:
    room, members = _room(served, "answers")
    _, answers = _said(served, room, members)
    for seq, answer in enumerate(answers[:6], start=1):
        assert set(answer) >= TALKED and answer["seq"] == seq, answer
        assert (answer["kind"], answer["text"], answer["hidden"]) == ("talk", f"WORD{seq}", False)
        assert answer["nonce"] is None and answer["foreseeable"] is False
    whisper = answers[4]
    assert (whisper["to"], whisper["to_name"]) == (members["bob"]["member"], "Bob")
    assert answers[0]["to"] is None and answers[0]["to_name"] is None
    # Ann's own blind roll: a placeholder, nothing of its dice, text or label
    assert set(answers[6]) == PLACEHOLDER and answers[6]["visibility"] == "blind"
    assert answers[6]["hidden"] is True and "WORD7" not in json.dumps(answers[6])
    # the GM reads their own blind roll whole
    assert answers[7]["notation"] == BLIND_TEXT and answers[7]["total"] is not None


def test_every_reader_sees_each_message_and_blind_roll_as_they_may(served: Any) -> None:
    room, members = _room(served, "who sees what")
    sees, _ = _said(served, room, members)
    for who, member in members.items():
        token = member["token"]
        listed = served.rolls(room, token)
        exported = served.get(f"/api/rooms/{room}/export", token).json()["rolls"]
        log = served.get(f"/api/rooms/{room}/log", token).json()["entries"]
        rows = list(csv.DictReader(io.StringIO(
            served.get(f"/api/rooms/{room}/export", token, format="csv").text)))  # fmt: skip
        assert [r["seq"] for r in listed] == [e["seq"] for e in log] == list(range(1, 9))
        assert exported == listed
        for shown, entry, row in zip(listed, log, rows, strict=True):
            seq = shown["seq"]
            if who in sees[seq]:
                assert shown.get("text", "") + str(shown.get("label")) != ""
                assert f"WORD{seq}" in (shown.get("text"), shown.get("label")), (who, shown)
                assert row["hidden"] == "false"
                assert ("opening" in entry) == entry.get("hidden", False)
            else:
                kind = {"kind"} if seq <= 6 else set()
                assert set(shown) == PLACEHOLDER | kind and shown["hidden"] is True, (who, shown)
                assert entry["hidden"] is True and "opening" not in entry
                assert row["hidden"] == "true" and row["text"] == row["total"] == ""
        hidden_words = [f"WORD{seq}" for seq, readers in sees.items() if who not in readers]
        for path in ("rolls", "export", "export?format=csv", "log"):
            body = served.get(f"/api/rooms/{room}/{path}", token).text
            for word in hidden_words:
                assert word not in body, (who, path, word)
            if who not in ("gm",):  # a blind roll's text reaches no one but the GM
                assert BLIND_TEXT not in body, (who, path)


def test_the_live_feed_gives_a_whisper_to_its_two_readers_alone(served: Any) -> None:
    room, members = _room(served, "live talk")
    with contextlib.ExitStack() as stack:
        feeds = {who: stack.enter_context(served.live(room, m["token"]))
                 for who, m in members.items()}  # fmt: skip
        for feed in feeds.values():
            served.until(feed, "ready")
        _talk(served, room, members["ann"], "WORD-psst", visibility="whisper",
              to=members["bob"]["member"])  # fmt: skip
        served.roll(room, members["ann"]["token"], BLIND_TEXT, visibility="blind")
        _talk(served, room, members["dan"], "WORD-aloud")
        seen = {who: [served.until(feed, "roll") for _ in range(3)] for who, feed in feeds.items()}
    for who, (whisper, blind, aloud) in seen.items():
        assert aloud["text"] == "WORD-aloud" and aloud["kind"] == "talk"
        if who in ("ann", "bob"):
            assert whisper["text"] == "WORD-psst" and whisper["to_name"] == "Bob"
        else:
            assert set(whisper) == PLACEHOLDER | {"kind"} and whisper["kind"] == "talk"
        if who == "gm":
            assert blind["notation"] == BLIND_TEXT and "total" in blind
        else:  # its roller too
            assert set(blind) == PLACEHOLDER and blind["visibility"] == "blind"


def test_a_message_no_one_may_send_is_refused(served: Any) -> None:
    room, members = _room(served, "refusals")
    other, others = _room(served, "another room")
    ann, bob = members["ann"], members["bob"]
    for body, status in [
        ({"text": "", "visibility": "public"}, 400),
        ({"text": "   \n "}, 400),
        ({"text": "x" * 501}, 400),
        ({"text": "WORD\x07bell"}, 400),
        ({"text": "WORD", "visibility": "whisper"}, 400),
        ({"text": "WORD", "visibility": "whisper", "to": ann["member"]}, 400),
        ({"text": "WORD", "visibility": "whisper", "to": "nobody"}, 400),
        ({"text": "WORD", "visibility": "whisper", "to": others["ann"]["member"]}, 400),
        ({"text": "WORD", "to": bob["member"]}, 400),
        ({"text": "WORD", "visibility": "gm", "to": bob["member"]}, 400),
        ({"text": "WORD", "visibility": "secret"}, 422),
        ({"text": "WORD", "visibility": "blind"}, 422),
        ({"text": "WORD", "colour": "red"}, 422),
        ({"text": 5}, 422),
    ]:
        answer = served.client.post(f"/api/rooms/{room}/talk", json=body,
                                    headers=_bearer(ann["token"]))  # fmt: skip
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["error"] and "WORD" not in answer.json()["error"], body
    assert _talk(served, room, members["gm"], "x" * 500).status_code == 201  # the longest
    assert served.client.post(f"/api/rooms/{room}/talk", json={"text": "hi"}).status_code == 401
    assert _talk(served, other, ann, "hi").status_code == 404
    assert _talk(served, room + "x", ann, "hi").status_code == 404
    assert served.roll(room, ann["token"], "4dF", visibility="whisper").status_code == 422
    assert [r["seq"] for r in served.rolls(room, ann["token"])] == [1]


def _export(served: Any, room: str, token: str) -> dict[str, Any]:
    answer = served.get(f"/api/rooms/{room}/log", token)
    assert answer.status_code == 200, answer.text
    log: dict[str, Any] = answer.json()
    return log


def _reveal(served: Any, room: str, gm: dict[str, Any]) -> None:
    answer = served.client.post(f"/api/rooms/{room}/reveal", headers=_bearer(gm["token"]))
    assert answer.status_code == 200, answer.text


def test_the_log_verifies_with_talk_and_blind_rolls_before_and_after_a_reveal(
    served: Any, tmp_path: Path
) -> None:
    room, members = _room(served, "verified talk")
    assert served.roll(room, members["bob"]["token"], "4dF").status_code == 201
    sees, _ = _said(served, room, members)
    sees = {seq + 1: readers for seq, readers in sees.items()} | {1: set(members)}
    talk = range(2, 8)
    for who, member in members.items():
        report = fudgedice.verify(_export(served, room, member["token"]))
        assert report.ok and report.talk == 6 and report.checked == 0, (who, report)
    _reveal(served, room, members["gm"])
    logs = {who: _export(served, room, m["token"]) for who, m in members.items()}
    chains = {who: [entry["hash"] for entry in log["entries"]] for who, log in logs.items()}
    assert chains["gm"] == chains["ann"] == chains["bob"] == chains["dan"]
    for who, log in logs.items():
        report = fudgedice.verify(log)
        assert report.ok and report.complete, (who, report)
        assert (report.checked, report.talk, report.pending) == (3, 6, 0), (who, report)
        for entry in log["entries"]:
            if entry["seq"] in talk and entry.get("hidden"):
                # talk is no part of the dice: the reveal opens it to no one new
                assert ("opening" in entry) == (who in sees[entry["seq"]]), (who, entry)
            elif entry.get("hidden"):  # the blind rolls: opened to all by the reveal
                assert entry["opening"]["entry"]["text"] == BLIND_TEXT
        path = tmp_path / f"{who}.json"
        path.write_text(json.dumps(log))
        verified = CliRunner().invoke(main, ["verify", str(path)])
        assert verified.exit_code == 0 and "6 messages of talk" in verified.output, verified.output
    rolls = served.rolls(room, members["gm"]["token"])
    assert [r["verified"] for r in rolls] == [True, *[None] * 6, True, True]
    # the page of a reader who may not read it still shows no word of it
    assert "WORD2" not in served.get(f"/api/rooms/{room}/rolls", members["dan"]["token"]).text
    # talk goes on under the next seed; its log verifies again
    assert _talk(served, room, members["dan"], "after").status_code == 201
    assert fudgedice.verify(_export(served, room, members["dan"]["token"])).ok


def test_a_blind_roll_that_fails_once_drawn_tells_its_roller_nothing(served: Any) -> None:
    room, members = _room(served, "blind failures")
    probe = "1/((4dF+4)/5-1)"  # fails on some draws, rolls on others
    answers = [served.roll(room, members["ann"]["token"], probe, visibility="blind")
               for _ in range(40)]  # fmt: skip
    assert all(answer.status_code == 201 for answer in answers)
    assert all(set(answer.json()) == PLACEHOLDER for answer in answers)
    kept = served.rolls(room, members["gm"]["token"])
    assert any(roll.get("failed") for roll in kept) and not all(r.get("failed") for r in kept)


# ------------------------------------------------------------ in this process


@contextlib.contextmanager
def _here(served_here: Callable[..., Any], tmp_path: Path, **settings: Any) -> Iterator[Any]:
    db = connect(str(tmp_path / "talk.sqlite3"))
    try:
        with served_here(db, **settings) as here:
            yield here
    finally:
        db.dispose()


def test_talk_spends_the_allowance_rolls_spend(
    served_here: Callable[..., Any], tmp_path: Path
) -> None:
    with _here(served_here, tmp_path, rolls_per_second=0.001, burst=3) as here:
        created = here.room("busy")
        room, gm = created["room"], {"token": created["gm_token"]}
        assert _talk(here, room, gm, "one").status_code == 201
        assert here.roll(room, gm["token"], "4dF").status_code == 201
        assert _talk(here, room, gm, "two").status_code == 201
        refused = _talk(here, room, gm, "three")
        assert refused.status_code == 429 and refused.json()["error"]
        assert here.roll(room, gm["token"], "4dF").status_code == 429


def test_a_blind_rolls_roller_spends_nothing_on_it_and_makes_no_advantage(
    play_table: Any, play_room: Any
) -> None:
    room = play_room(play_table)
    blind = room.roll(room.ann, "fate: Good vs Fair", visibility="blind")
    assert set(blind) == PLACEHOLDER
    refused = room.spend(room.ann, blind["seq"])
    assert refused.status_code == 403 and "blind" in refused.json()["error"]
    assert "total" not in refused.text and "dice" not in refused.text
    aspect = room.play(room.ann, action="advantage", name="Cornered", of=blind["seq"])
    assert aspect.status_code == 422 and "hidden" in aspect.json()["error"]
    trait = play_table.client.post(
        f"/api/rooms/{room.id}/members/{room.ann['member']}/sheet/roll",
        json={"request": "Fight vs Fair", "visibility": "blind"},
        headers=_bearer(room.ann["token"]),
    )
    assert trait.status_code == 201, trait.text
    assert set(trait.json()) == PLACEHOLDER | {"notes"} and trait.json()["visibility"] == "blind"
    seen = {r["seq"]: r for r in play_table.rolls(room.id, room.gm["token"])}
    assert seen[trait.json()["seq"]]["total"] is not None and "dice" in seen[blind["seq"]]
    # the GM reads their own blind roll, and may spend on it
    room.attach(room.gm, PLAY_GM)
    mine = room.roll(room.gm, "fate: Good vs Fair", visibility="blind")
    assert "total" in mine
    spent = room.spend(room.gm, mine["seq"])
    assert spent.status_code == 201, spent.text


PLAY_GM = fudgedice.sheets.new_sheet("fate", "Nemesis")


def _record(seq: int, member: str, visibility: Any, to: str | None = None) -> RollRecord:
    result = {"kind": "talk", "text": f"words of {seq}", "to": to, "total": None}
    return RollRecord(
        "room", seq, member, member.upper(), visibility, 0, "c" * 64, None, "", f"words of {seq}",
        None, None, result, "2026-11-27T00:00:00.000Z", None, "h", None,
    )  # fmt: skip


def test_a_whispers_reader_is_shown_it_apart_from_the_readers_like_them() -> None:
    """The feed makes an event's chunk once for the readers alike (Shown):
    the one whispered to sees the whisper, any other player does not."""
    records = [_record(1, "ann", "whisper", "bob"), _record(2, "cy", "public"),
               _record(3, "ann", "blind")]  # fmt: skip
    readers = [Member(name, "room", name.title(), name == "gm")
               for name in ("dee", "bob", "gm", "ann", "cy", "eve")]  # fmt: skip
    shown = Shown(records)
    for reader in [*readers, *reversed(readers)]:
        expected = b"".join(record.frame_for(reader) for record in records)
        assert shown.frames_for(reader) == expected, reader
    assert b"words of 1" in shown.frames_for(readers[1])  # bob, to whom it is whispered
    assert b"words of 1" not in shown.frames_for(readers[0])  # dee, first to be served
    assert b"words of 1" not in shown.frames_for(readers[2])  # the GM: not one of the two
    assert b"words of 3" in shown.frames_for(readers[2])  # the blind roll: the GM's
    assert b"words of 3" not in shown.frames_for(readers[3])  # not its roller's
