"""The ``Idempotency-Key`` header (docs/table.md, "Retries"), through the API
on SQLite and PostgreSQL: a request sent again with its key is answered the
entry the key made (the same body, the same seq), never a second one; the
same key asking otherwise is refused; one member's key is theirs alone."""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

import fudgedice
from fudgedice import sheets
from fudgedice.server import connect, keys, store
from fudgedice.server.db import Database
from fudgedice.server.kept import Member, RollRecord, RollRequest
from fudgedice.server.problems import Problem
from fudgedice.server.schema import roll_keys
from fudgedice.server.writer import PAUSE_AFTER_COMMIT, Replayed, append_rolls

PROBES = 60
"""Rolls of a probe that fails one time in three or so: one fails but for
one run in billions."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def keyed(token: str, key: str) -> dict[str, str]:
    return {**bearer(token), "Idempotency-Key": key}


def post(served: Any, room: str, token: str, key: str, **body: Any) -> httpx.Response:
    answer: httpx.Response = served.client.post(
        f"/api/rooms/{room}/rolls", json=body, headers=keyed(token, key)
    )
    return answer


def test_a_roll_sent_again_with_its_key_is_the_first_roll(served: Any) -> None:
    created = served.room("Again")
    room, gm = created["room"], created["gm_token"]
    key = str(uuid.uuid4())
    first = post(served, room, gm, key, text="4dF+1", label="Notice", client_seed="abc")
    assert first.status_code == 201, first.text
    for _ in range(2):
        again = post(served, room, gm, key, text="4dF+1", label="Notice", client_seed="abc")
        assert again.status_code == 201, again.text
        assert again.content == first.content  # the same bytes: the same roll, as answered
    other = post(served, room, gm, str(uuid.uuid4()), text="4dF+1", label="Notice")
    assert other.json()["seq"] == first.json()["seq"] + 1  # a new key: a new roll
    assert [roll["seq"] for roll in served.rolls(room, gm)] == [1, 2]
    log = served.get(f"/api/rooms/{room}/log", gm).json()
    assert [entry["seq"] for entry in log["entries"]] == [1, 2]
    report = fudgedice.verify(log)  # one chain of two entries, the second after the first
    assert report.failure is None and report.entries == 2


def test_without_a_key_the_same_roll_twice_is_two_rolls(served: Any) -> None:
    created = served.room("Twice")
    room, gm = created["room"], created["gm_token"]
    seqs = [served.roll(room, gm, "4dF", client_seed="same").json()["seq"] for _ in range(2)]
    assert seqs == [1, 2]


@pytest.mark.parametrize(
    "changed",
    [
        {"text": "4dF+2"},
        {"visibility": "gm"},
        {"label": "Stealth"},
        {"label": None},
        {"client_seed": "other"},
        {"faces": ["+", "+", "-", "0"]},
    ],
)
def test_the_same_key_asking_for_another_roll_is_refused(
    served: Any, changed: dict[str, Any]
) -> None:
    created = served.room("Other")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")["token"]
    asked = {"text": "4dF+1", "visibility": "public", "label": "Notice", "client_seed": "abc"}
    key = str(uuid.uuid4())
    assert post(served, room, ann, key, **asked).status_code == 201
    refused = post(served, room, ann, key, **{**asked, **changed})
    assert refused.status_code == 422, refused.text
    assert "another request" in refused.json()["error"]
    assert len(served.rolls(room, gm)) == 1


def test_each_members_keys_are_their_own(served: Any) -> None:
    created = served.room("Mine")
    room, gm = created["room"], created["gm_token"]
    ann, bob = (served.join(room, name)["token"] for name in ("Ann", "Bob"))
    key = str(uuid.uuid4())
    secret = post(served, room, ann, key, text="4dF+3", visibility="self")
    assert secret.status_code == 201
    # Bob's key, the same as Ann's, reveals nothing of her roll: it makes Bob's own
    bobs = post(served, room, bob, key, text="4dF+3", visibility="self")
    assert bobs.status_code == 201
    assert bobs.json()["seq"] == 2 and bobs.json()["name"] == "Bob"
    # asking otherwise with it is no refusal either: the key is not Bob's yet in another room
    elsewhere = served.room("Elsewhere")
    there = post(served, elsewhere["room"], elsewhere["gm_token"], key, text="1dF")
    assert there.status_code == 201 and there.json()["seq"] == 1
    assert len(served.rolls(room, gm)) == 2


def test_a_hidden_roll_sent_again_is_answered_as_before(served: Any) -> None:
    created = served.room("Hidden")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")["token"]
    key = str(uuid.uuid4())
    blind = post(served, room, ann, key, text="4dF", visibility="blind")
    assert blind.status_code == 201
    assert blind.json()["hidden"] is True and "total" not in blind.json()
    again = post(served, room, ann, key, text="4dF", visibility="blind")
    assert again.content == blind.content  # its placeholder again: still blind to its roller
    shown = served.rolls(room, gm)
    assert len(shown) == 1 and shown[0]["total"] is not None  # the GM reads it


def test_a_failed_roll_sent_again_is_refused_with_its_seq_again(served: Any) -> None:
    created = served.room("Failed")
    room, gm = created["room"], created["gm_token"]
    probe = "1/((4dF+4)/5-1)"  # fails once drawn when 4dF+4 comes to 5 to 9
    for _ in range(PROBES):
        key = str(uuid.uuid4())
        failed = post(served, room, gm, key, text=probe)
        if failed.status_code == 400:
            break
    assert failed.status_code == 400 and "seq" in failed.json(), failed.text
    again = post(served, room, gm, key, text=probe)
    assert again.status_code == 400
    assert again.json() == failed.json()
    assert len(served.rolls(room, gm)) == failed.json()["seq"]  # no roll after the failed one


def test_the_same_key_sent_at_once_makes_one_roll(served: Any) -> None:
    created = served.room("At once")
    room, gm = created["room"], created["gm_token"]
    key = str(uuid.uuid4())
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: post(served, room, gm, key, text="4dF"), range(8)))
    assert {answer.status_code for answer in answers} == {201}
    assert len({answer.content for answer in answers}) == 1
    assert [roll["seq"] for roll in served.rolls(room, gm)] == [1]


@pytest.mark.parametrize("key", ["", "x" * 201, "caf\xe9", "tab\there"])
def test_a_key_that_is_no_key_is_refused(served: Any, key: str) -> None:
    created = served.room("Bad key")
    room, gm = created["room"], created["gm_token"]
    headers = [*bearer(gm).items(), ("Idempotency-Key", key.encode("latin-1"))]
    refused = served.client.post(f"/api/rooms/{room}/rolls", json={"text": "4dF"}, headers=headers)
    assert refused.status_code == 422, refused.text
    assert "Idempotency-Key" in refused.json()["error"]
    assert served.rolls(room, gm) == []


def test_the_longest_key_is_a_key(served: Any) -> None:
    created = served.room("Long key")
    room, gm = created["room"], created["gm_token"]
    key = "~ " + "k" * 198
    first = post(served, room, gm, key, text="4dF")
    assert first.status_code == 201
    assert post(served, room, gm, key, text="4dF").content == first.content


def test_a_spend_sent_again_with_its_key_is_the_spend(served: Any) -> None:
    created = served.room("Spent", system="d6")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")
    sheet = sheets.new_sheet("d6", "Jax").replace("character_points = 5", "character_points = 2")
    path = f"/api/rooms/{room}/members/{ann['member']}/sheet"
    attached = served.client.put(
        path, json={"text": sheet, "version": 0}, headers=bearer(ann["token"])
    )
    assert attached.status_code == 200, attached.text
    trait, key = {"request": "Dodge vs Moderate"}, str(uuid.uuid4())
    rolled = served.client.post(f"{path}/roll", json=trait, headers=keyed(ann["token"], key))
    assert rolled.status_code == 201, rolled.text
    again = served.client.post(f"{path}/roll", json=trait, headers=keyed(ann["token"], key))
    assert again.json() == rolled.json()  # a trait rolled by name: the same roll
    spend, key = f"/api/rooms/{room}/rolls/{rolled.json()['seq']}/spend", str(uuid.uuid4())
    spent = served.client.post(spend, json={"point": "cp"}, headers=keyed(ann["token"], key))
    assert spent.status_code == 201, spent.text
    assert spent.json()["points"]["character_points"] == 1
    again = served.client.post(spend, json={"point": "cp"}, headers=keyed(ann["token"], key))
    assert again.status_code == 201, again.text
    assert again.json() == spent.json()  # the same spend: no second point taken
    other = {"point": "cp", "version": 1}
    refused = served.client.post(spend, json=other, headers=keyed(ann["token"], key))
    assert refused.status_code == 422 and "another request" in refused.json()["error"]
    kinds = [roll.get("kind", "roll") for roll in served.rolls(room, gm)]
    assert kinds == ["sheet", "roll", "spend"]


def test_talk_sent_again_with_its_key_is_said_once(served: Any) -> None:
    created = served.room("Said")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")
    path, headers = f"/api/rooms/{room}/talk", keyed(ann["token"], "talk-1")
    said = {"text": "hello", "visibility": "whisper", "to": created["member"]}
    first = served.client.post(path, json=said, headers=headers)
    assert first.status_code == 201, first.text
    assert served.client.post(path, json=said, headers=headers).content == first.content
    refused = served.client.post(path, json={**said, "text": "HELLO"}, headers=headers)
    assert refused.status_code == 422
    assert [roll["seq"] for roll in served.rolls(room, gm)] == [1]


# ------------------------------------------------------- the writer in process


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        db = connect(str(tmp_path / "table.sqlite3"))
    else:
        pg = request.getfixturevalue("postgres")  # conftest's own server, a database each test
        db = connect(pg.create_database(f"keys_{secrets.token_hex(6)}"))
    yield db
    db.dispose()


def _asked(room: str, member: Member, text: str, key: str | None) -> RollRequest:
    return RollRequest(
        room, member, text, "fudge", "public", None, "", None,
        key=keys.key_of(key, "roll", text, "public", None, "", None),
    )  # fmt: skip


def test_a_batch_with_a_kept_key_is_drawn_again_its_keys_looked_up(database: Database) -> None:
    room, gm, _ = store.create_room(database, "Batch", "fudge", "GM")
    first = append_rolls(
        database, [_asked(room.id, gm, "4dF", "k1"), _asked(room.id, gm, "4dF", "k1")]
    )
    assert isinstance(first[0], RollRecord) and first[0].seq == 1
    assert isinstance(first[1], Replayed) and first[1].outcome is first[0]  # asked twice at once
    later = append_rolls(database, [
        _asked(room.id, gm, "4dF", None),
        _asked(room.id, gm, "4dF", "k1"),  # kept: the insert of the batch's keys fails
        _asked(room.id, gm, "4dF+1", "k1"),
        _asked(room.id, gm, "4dF", "k2"),
    ])  # fmt: skip
    assert isinstance(later[0], RollRecord) and later[0].seq == 2
    assert isinstance(later[1], Replayed) and isinstance(later[1].outcome, RollRecord)
    assert later[1].outcome.seq == 1 and later[1].outcome.hash == first[0].hash
    assert isinstance(later[2], Problem) and later[2].status == 422
    assert isinstance(later[3], RollRecord) and later[3].seq == 3
    assert [record.seq for record in store.list_rolls(database, room.id)] == [1, 2, 3]


def test_keys_past_a_day_are_swept(database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    room, gm, _ = store.create_room(database, "Swept", "fudge", "GM")
    (made,) = append_rolls(database, [_asked(room.id, gm, "4dF", "old")])
    assert isinstance(made, RollRecord)
    for since, left in ((keys.KEEP, [1]), (keys.KEEP + timedelta(milliseconds=1), [])):
        monkeypatch.setattr(keys, "_swept", -float("inf"))  # this process swept long ago
        with database.write() as connection:
            keys.sweep(connection, _later(made.at, since))
            assert connection.execute(select(roll_keys.c.seq)).scalars().all() == left
    (again,) = append_rolls(database, [_asked(room.id, gm, "4dF", "old")])
    assert isinstance(again, RollRecord) and again.seq == 2  # swept: the key makes a new roll


def _later(at: str, since: timedelta) -> str:
    then = datetime.fromisoformat(at.replace("Z", "+00:00")) + since
    return then.isoformat(timespec="milliseconds").replace("+00:00", "Z")


# ------------------------------------------- two processes, one killed between


ANSWER_WITHIN = 30.0
"""Seconds a test waits for a roll to be committed before it fails."""


def test_a_process_killed_between_commit_and_answer_its_retry_elsewhere_is_the_roll(
    postgres: Any,
    start_unlimited: Callable[[str], Any],
    table_of: Callable[[Any], Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = postgres.create_database(f"killed_{secrets.token_hex(6)}")
    # the first process waits, after each commit, far longer than the test takes
    monkeypatch.setenv(PAUSE_AFTER_COMMIT, "600")
    paused = start_unlimited(db)
    monkeypatch.delenv(PAUSE_AFTER_COMMIT)
    other = table_of(start_unlimited(db))
    created = other.room("Killed")
    room, gm = created["room"], created["gm_token"]
    key, body = str(uuid.uuid4()), {"text": "4dF+2", "label": "Fight", "client_seed": "c"}
    with ThreadPoolExecutor(1) as pool:
        sent = pool.submit(
            httpx.post, f"{paused.url}/api/rooms/{room}/rolls", json=body,
            headers=keyed(gm, key), timeout=ANSWER_WITHIN * 4,
        )  # fmt: skip
        deadline = time.monotonic() + ANSWER_WITHIN
        while not (kept := other.rolls(room, gm)):  # committed: the other process reads it
            assert time.monotonic() < deadline and not sent.done(), "the roll was not committed"
            time.sleep(0.02)
        assert not sent.done()  # committed, and not answered
        paused.kill()
        with pytest.raises(httpx.HTTPError):  # the client hears nothing: it sends it again
            sent.result()
    retried = other.client.post(f"/api/rooms/{room}/rolls", json=body, headers=keyed(gm, key))
    assert retried.status_code == 201, retried.text
    assert retried.json() == kept[0] and kept[0]["seq"] == 1
    otherwise = {**body, "text": "4dF+3"}
    refused = other.client.post(f"/api/rooms/{room}/rolls", json=otherwise, headers=keyed(gm, key))
    assert refused.status_code == 422
    assert other.rolls(room, gm) == kept  # the roll once, never twice
    assert other.roll(room, gm, "4dF").json()["seq"] == 2  # the next roll follows it
