"""What the security review of the table found (docs/table.md, "Limits"):
odds that cost a server seconds, rolls that bloat the history, 500s from
odd numbers and characters, limits a new member or room got round, pages
that loaded scripts from elsewhere."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

from fudgedice.server import exports, odds
from fudgedice.server.guards import RateLimit
from fudgedice.server.kept import Member
from fudgedice.server.problems import Problem

T = TypeVar("T")
COSTLY_ODDS = [
    "d6: 5D cp20 opp 5D cp20",
    "d6: 2D cp20 opp 2D cp20",
    "140d100",
    "10000dF",
    "3000d6",
    "3000d6>=4",
    "10d100*10d100",
]


@pytest.mark.parametrize("text", COSTLY_ODDS)
def test_costly_odds_are_refused_with_the_tables_message(served: Any, text: str) -> None:
    answer = served.client.get("/api/odds", params={"text": text})
    assert answer.status_code == 413, answer.text
    assert set(answer.json()) <= {"error", "position", "hint"} and answer.json()["error"]


def test_odds_within_the_tables_limits(served: Any) -> None:
    answer = served.client.get("/api/odds", params={"text": "d6: 5D cp5 opp 4D cp3"})
    assert answer.status_code == 200, answer.text
    refused = served.client.get("/api/odds", params={"text": "d6: 5D cp6 opp 4D"})
    assert refused.status_code == 413 and "cp5" in refused.json()["error"]


def test_odds_measured_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    started, finish = threading.Event(), threading.Event()

    def slow(text: str, system: str) -> bytes:
        started.set()
        finish.wait(30)
        return b"{}"

    monkeypatch.setattr(odds, "measured", slow)
    gate = odds.OddsGate(RateLimit(1000, 1000, "requests"))

    async def both() -> tuple[bytes, int]:
        first = asyncio.create_task(gate.answer("4dF", "fudge", "a"))
        await asyncio.to_thread(started.wait, 30)
        try:
            await gate.answer("4dF", "fudge", "b")
        except Problem as problem:
            status = problem.status
        finish.set()
        return await first, status

    assert _run(both()) == (b"{}", 503)


def test_odds_refused_past_an_addresss_allowance() -> None:
    gate = odds.OddsGate(RateLimit(0.01, 2, "requests from your address"))
    _run(gate.answer("4dF", "fudge", "10.0.0.1"))
    _run(gate.answer("4dF", "fudge", "10.0.0.1"))
    with pytest.raises(Problem) as refused:
        _run(gate.answer("4dF", "fudge", "10.0.0.1"))
    assert refused.value.status == 429
    assert _run(gate.answer("4dF", "fudge", "10.0.0.2")) != b""


def test_a_roll_of_too_many_dice_is_refused(served: Any) -> None:
    created = served.room("big rolls")
    token = created["gm_token"]
    answer = served.roll(created["room"], token, "501d6")
    assert answer.status_code == 413 and "500" in answer.json()["error"]
    assert served.roll(created["room"], token, "500d6").status_code == 201
    assert len(served.rolls(created["room"], token)) == 1


def test_seqs_past_what_a_column_holds_are_422(served: Any) -> None:
    created = served.room("numbers")
    room, token = created["room"], created["gm_token"]
    for params in ({"after": 2**63}, {"before": 10**20}):
        assert served.get(f"/api/rooms/{room}/rolls", token, **params).status_code == 422
    assert served.get(f"/api/rooms/{room}/live", token, after=2**63).status_code == 422
    served.roll(room, token, "4dF")
    for odd in ("\u00b2".encode("latin-1"), b"9" * 5000, b"-1"):
        with served.client.stream(
            "GET", f"/api/rooms/{room}/live", headers={**bearer(token), "Last-Event-ID": odd}
        ) as answer:
            assert answer.status_code == 200, odd


def test_control_format_and_surrogate_characters_are_422(served: Any) -> None:
    created = served.room("characters")
    room, token = created["room"], created["gm_token"]
    for bad in ("\ud800", "Ann\u202e", "A\u200bnn", "A\x00nn"):
        body = json.dumps({"name": bad})  # json.dumps writes a lone surrogate as \\ud800
        headers = {"Content-Type": "application/json"}
        assert served.client.post("/api/rooms", content=body, headers=headers).status_code == 422
        joined = served.client.post(f"/api/rooms/{room}/members", content=body, headers=headers)
        assert joined.status_code == 422, bad
        for field in ("label", "client_seed"):
            rolled = served.client.post(
                f"/api/rooms/{room}/rolls",
                content=json.dumps({"text": "4dF", field: bad}),
                headers={**headers, **bearer(token)},
            )
            assert rolled.status_code == 422, (field, bad)
        text = json.dumps({"text": f"4dF #a{bad}b"})
        rolled = served.client.post(
            f"/api/rooms/{room}/rolls", content=text, headers={**headers, **bearer(token)}
        )
        assert rolled.status_code == 422, bad
    assert served.rolls(room, token) == []


def test_no_pages_from_elsewhere_and_no_stored_answers(served: Any) -> None:
    for path in ("/api/docs", "/redoc", "/docs"):
        assert served.client.get(path).status_code == 404
    page = served.client.get("/static/index.html")
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    created = served.room("caching")
    assert served.client.get("/api/health").headers["cache-control"] == "no-store"
    info = served.get(f"/api/rooms/{created['room']}", created["gm_token"])
    assert info.headers["cache-control"] == "no-store"
    odds_answer = served.client.get("/api/odds", params={"text": "4dF"})
    assert odds_answer.headers["cache-control"] == "no-store"


def test_a_roll_is_answered_as_every_route_is(served: Any) -> None:
    """The roll route reads its own arguments (routers.rolls.RollRoute): its
    answers, its refusals and their headers are those of every other route."""
    created = served.room("headers")
    room, token = created["room"], created["gm_token"]
    made = served.roll(room, token, "4dF+1", label="<b>kept</b>")
    assert made.status_code == 201
    assert made.headers["content-type"] == "application/json"
    assert made.headers["cache-control"] == "no-store"
    assert made.json() == served.rolls(room, token)[-1]
    other = served.room("elsewhere")
    refusals = {
        400: served.roll(room, token, "4dF+"),
        401: served.client.post(f"/api/rooms/{room}/rolls", json={"text": "4dF"}),
        404: served.roll(other["room"], token, "4dF"),
        413: served.roll(room, token, "4dF", label="x" * 20_000),
        422: served.roll(room, token, "4dF", visibility="everyone"),
    }
    for status, answer in refusals.items():
        assert answer.status_code == status, answer.text
        assert answer.headers["content-type"] == "application/json"
        assert answer.headers["cache-control"] == "no-store"
        assert set(answer.json()) <= {"error", "position", "hint"} and answer.json()["error"]
    assert refusals[400].json()["position"] == 4
    # paths the route does not match are not rolls, whichever route answers them
    for path in (f"/api/rooms/{room}/x/rolls", "/api/rooms//rolls", f"/api/rooms/{room}/roll"):
        answer = served.client.post(
            path, json={"text": "4dF"}, headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code in (404, 405), (path, answer.status_code)
    assert len(served.rolls(room, token)) == 1


def test_each_address_has_an_allowance(
    start_server: Callable[..., Any], tmp_path: Any, table_of: Callable[..., Any]
) -> None:
    server = start_server(
        str(tmp_path / "t.sqlite3"), "--address-rate", "0.01", "--address-burst", "3"
    )
    table = table_of(server)
    rooms = [table.room(f"room {n}") for n in range(3)]
    refused = table.client.post("/api/rooms", json={"name": "one more"})
    assert refused.status_code == 429 and refused.headers["retry-after"]
    room = rooms[0]["room"]
    members = [table.join(room, f"player {n}") for n in range(3)]
    assert table.client.post(f"/api/rooms/{room}/members", json={"name": "p"}).status_code == 429
    # each member has an allowance of their own; the address's is spent all the same
    tokens = [member["token"] for member in members] + [rooms[0]["gm_token"]]
    answers = [table.roll(room, token, "4dF").status_code for token in tokens]
    assert answers == [201, 201, 201, 429]
    got = [table.client.get("/api/odds", params={"text": "4dF"}).status_code for _ in range(4)]
    assert got == [200, 200, 200, 429]
    # a forwarding header names no other address: the table trusts none
    forged = table.client.post(
        "/api/rooms",
        json={"name": "forged"},
        headers={"X-Forwarded-For": "203.0.113.9", "Forwarded": "for=203.0.113.9"},
    )
    assert forged.status_code == 429


def test_a_name_taken_in_a_room_is_refused_whatever_its_case(served: Any) -> None:
    created = served.room("names", gm_name="Gemma")
    room = created["room"]
    served.join(room, "Ann")
    for taken in ("GEMMA", "ann", " Ann "):
        answer = served.client.post(f"/api/rooms/{room}/members", json={"name": taken})
        assert answer.status_code == 409 and "already" in answer.json()["error"], taken
    assert served.join(served.room("elsewhere")["room"], "Ann")["name"] == "Ann"


def test_a_name_that_reads_as_another_or_as_the_gm_is_refused(served: Any) -> None:
    created = served.room("look-alikes", gm_name="Gemma")
    room, token, gm = created["room"], created["gm_token"], created["member"]
    served.join(room, "Ann")
    # "GM" is how the GM is shown, whatever the GM is called; a Cyrillic EM,
    # fullwidth letters, a Cyrillic A
    for taken in ("GM", "gm", "G\u041c", "\uff27\uff2d", "\u0410nn", "\u0410NN", "GEMMA"):
        answer = served.client.post(f"/api/rooms/{room}/members", json={"name": taken})
        assert answer.status_code == 409 and "reads as" in answer.json()["error"], taken
    for hidden in ("G\u200bM", "Ann\u202e", "A\nB", "An\u2028n", "\ufeffAnn"):
        answer = served.client.post(f"/api/rooms/{room}/members", json={"name": hidden})
        assert answer.status_code == 422 and "format" in answer.json()["error"], hidden
    for body in ({"name": "Table\u202e"}, {"name": "Table", "gm_name": "G\u200bM"}):
        assert served.client.post("/api/rooms", json=body).status_code == 422, body
    assert served.roll(room, token, "4dF", label="a\u2029b").status_code == 422
    sheet = 'system = "fate"\nname = "Bo\\u202Eb"\n[skills]\nFight = "Average"\n'
    put = served.client.put(
        f"/api/rooms/{room}/members/{gm}/sheet", json={"text": sheet}, headers=bearer(token)
    )
    assert put.status_code == 422 and put.json()["line"] == 2, put.text
    assert "character's name must not contain" in put.json()["error"]
    assert served.join(room, "Anne")["name"] == "Anne"


def test_the_csv_formula_guard_leaves_the_servers_ids_alone() -> None:
    # a member id is URL-safe base64 and may start with '-': a quote would make it another id
    row = next(iter(exports.csv_rows([], _viewer())))
    assert row.startswith("seq,at,member,")
    assert exports._cell("-Ab3", opaque=True) == "-Ab3"
    assert exports._cell("-Ab3") == "'-Ab3" and exports._cell("=1+1") == "'=1+1"


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a thread of its own: a page test's Playwright may have
    left this thread's event loop set as running."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _viewer() -> Member:
    return Member("-Ab3", "room", "Gemma", True)
