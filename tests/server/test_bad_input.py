"""What neither database stores, and numbers past what its columns hold,
answered 4xx with the API's ``{"error"}`` on SQLite and on PostgreSQL: never a
500, never a dropped connection; and seqs past 2**31-1, which the columns do
hold, answered as any other."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from fudgedice import sheets
from fudgedice.server.inputs import PlainInput


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


BIG = 2**31
"""Past a 32-bit column."""
HUGE = 2**63
"""Past a 64-bit column."""


def _room(served: Any) -> tuple[str, str, dict[str, Any]]:
    created = served.room("Inputs", system="d6")
    player = served.join(created["room"], "Ann")
    return created["room"], created["gm_token"], player


def _refused(answer: httpx.Response, *statuses: int) -> str:
    assert answer.status_code in statuses, (answer.status_code, answer.text)
    assert answer.headers["content-type"] == "application/json"
    error: str = answer.json()["error"]
    return error


def test_nul_and_non_utf8_in_a_path_or_query_are_400(served: Any) -> None:
    room, gm, _ = _room(served)
    auth = bearer(gm)
    client = served.client
    for path in ("/api/rooms/a%00b", "/api/rooms/%ff", "/api/rooms/%ED%A0%80", "/r/a%00b"):
        assert "path" in _refused(client.get(path, headers=auth), 400)
    assert "path" in _refused(client.post("/api/rooms/x%00/rolls", json={"text": "4D"}), 400)
    assert "path" in _refused(client.post(f"/api/rooms/{room}%00/members", json={"name": "B"}), 400)
    for query in ("member=%00", "member=%C3%28", "after=1%00"):
        answer = client.get(f"/api/rooms/{room}/rolls?{query}", headers=auth)
        assert "query string" in _refused(answer, 400)
    answer = client.get(f"/api/rooms/{room}/export?member=a%00", headers=auth)
    assert "NUL" in _refused(answer, 400)
    assert "NUL" in _refused(client.get("/api/odds?text=4dF%00"), 400)
    # the same room answers as ever once the request is plain
    assert client.get(f"/api/rooms/{room}/rolls?member=nobody", headers=auth).status_code == 200


def test_the_page_refused_is_refused_in_json_as_its_document_says(served: Any) -> None:
    """The page is HTML, its refusals JSON: the OpenAPI document says both."""
    document = served.client.get("/api/openapi.json").json()
    for path in ("/?a=%00", f"/r/{_room(served)[0]}?a=%04%00"):
        answer = served.client.get(path)
        assert "NUL" in _refused(answer, 400)
        assert answer.headers["content-type"] == "application/json"
    for path in ("/", "/r/{room}"):
        refused = document["paths"][path]["get"]["responses"]["4XX"]["content"]
        assert list(refused) == ["application/json"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/rooms", {"name": "a\x00b"}),
        ("/api/rooms", {"name": "Table", "gm_name": "G\x00M"}),
        ("/api/rooms", {"name": "Table", "system": "d6\x00"}),
        ("{room}/members", {"name": "\x00"}),
        ("{room}/rolls", {"text": "4D\x00"}),
        ("{room}/rolls", {"text": "4D", "label": "a\x00"}),
        ("{room}/rolls", {"text": "4D", "client_seed": "\x00"}),
        ("{room}/rolls", {"text": "4D", "faces": ["1", "\x00"]}),
        ("{room}/members/{me}/sheet/roll", {"request": "Dodge\x00"}),
        ("{room}/members/{me}/sheet/raise", {"version": 1, "trait": "Dodge\x00"}),
        ("{room}/rolls/1/spend", {"point": "cp\x00"}),
    ],
)
def test_nul_in_a_json_string_is_422(served: Any, path: str, body: dict[str, Any]) -> None:
    room, _, player = _room(served)
    url = path.format(room=f"/api/rooms/{room}", me=player["member"])
    answer = served.client.post(url, json=body, headers=bearer(player["token"]))
    assert "NUL" in _refused(answer, 422)


def test_lone_surrogates_in_a_json_body_are_422(served: Any) -> None:
    room, _, player = _room(served)
    headers = {**bearer(player["token"]), "Content-Type": "application/json"}
    sheet = f"/api/rooms/{room}/members/{player['member']}/sheet"
    for url, raw in (
        (f"/api/rooms/{room}/members", b'{"name": "a\\ud800"}'),
        (f"/api/rooms/{room}/rolls", b'{"text": "4D", "label": "\\udfff"}'),
        (sheet + "/raise", b'{"version": 1, "trait": "\\ud83d"}'),
    ):
        answer = served.client.post(url, content=raw, headers=headers)
        _refused(answer, 422)
    answer = served.client.put(sheet, content=b'{"text": "\\ud800", "version": 0}', headers=headers)
    assert "surrogate" in _refused(answer, 422)


def test_a_header_with_nul_is_400_before_any_route() -> None:
    """An HTTP server refuses such a header itself; an ASGI app is refused it too."""
    sent: list[dict[str, Any]] = []

    async def route(*_: Any) -> None:
        raise AssertionError("the route ran")

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    scope = {
        "type": "http", "method": "GET", "path": "/api/rooms/x", "raw_path": b"/api/rooms/x",
        "query_string": b"", "headers": [(b"authorization", b"Bearer a\x00b")],
    }  # fmt: skip
    asyncio.run(PlainInput(route)(scope, receive, send))
    assert sent[0]["status"] == 400
    assert json.loads(sent[1]["body"]) == {
        "error": "the header authorization must not contain NUL bytes"
    }


def test_seqs_past_32_bits_are_answered_and_past_64_bits_refused(served: Any) -> None:
    room, gm, player = _room(served)
    assert served.roll(room, player["token"], "4D").status_code == 201
    for params in ({"after": BIG}, {"before": BIG}, {"after": HUGE - 1}, {"before": HUGE - 1}):
        answer = served.get(f"/api/rooms/{room}/rolls", gm, **params)
        assert answer.status_code == 200, answer.text
        expected = [] if "after" in params else [1]
        assert [roll["seq"] for roll in answer.json()["rolls"]] == expected
    refused: list[dict[str, Any]] = [
        {"after": HUGE}, {"before": HUGE}, {"after": 10**30}, {"limit": HUGE}, {"after": -1},
        {"after": "1e9"}, {"after": "1.5"}, {"limit": 0}, {"before": 0}, {"after": "NaN"},
    ]  # fmt: skip
    for params in refused:
        _refused(served.get(f"/api/rooms/{room}/rolls", gm, **params), 422)
    _refused(served.get(f"/api/rooms/{room}/live", gm, after=HUGE), 422)
    with served.live(room, gm, after=BIG) as events:
        assert next(events)[0] == "ready"
    resumed = {**bearer(gm), "Last-Event-ID": str(BIG)}
    with served.client.stream("GET", f"/api/rooms/{room}/live", headers=resumed) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")


def test_a_spend_on_a_seq_past_any_column_is_refused(served: Any) -> None:
    room, _, player = _room(served)
    auth = bearer(player["token"])
    for seq, status in ((HUGE - 1, 404), (HUGE, 422), (10**40, 422), (BIG, 404), (0, 422)):
        answer = served.client.post(
            f"/api/rooms/{room}/rolls/{seq}/spend", json={"point": "cp"}, headers=auth
        )
        _refused(answer, status)
    # the server still answers on the same connection, and the next request is served
    assert served.roll(room, player["token"], "4D").status_code == 201


def test_integers_past_a_column_in_a_body_are_422(served: Any) -> None:
    room, _, player = _room(served)
    sheet = f"/api/rooms/{room}/members/{player['member']}/sheet"
    auth = bearer(player["token"])
    text = sheets.new_sheet("d6", "Jax")
    assert served.client.put(sheet, json={"text": text}, headers=auth).status_code == 200
    for body in ({"text": text, "version": HUGE}, {"text": text, "version": -HUGE}):
        assert "at most" in _refused(served.client.put(sheet, json=body, headers=auth), 422)
    hits: list[dict[str, int]] = [
        {"version": HUGE},
        {"version": 1, "amount": 10**30},
        {"version": 1, "amount": 1, "count": HUGE},
    ]
    for hit in hits:
        _refused(served.client.post(sheet + "/hit", json=hit, headers=auth), 422)
    spend = served.client.post(
        f"/api/rooms/{room}/rolls/1/spend", json={"point": "cp", "version": HUGE}, headers=auth
    )
    _refused(spend, 422)


@pytest.mark.parametrize(
    "query",
    [
        "text=4dF&system=nothing",
        f"text={'9' * 400}dF",
        f"text={2**64}d{2**64}",
        "text=1000000000d1000000000",
        f"text=d6%3A+{10**40}D",
        "text=",
        "system=fudge",
    ],
)
def test_absurd_odds_are_refused(served: Any, query: str) -> None:
    _refused(served.client.get(f"/api/odds?{query}"), 400, 413, 422)


@pytest.mark.parametrize(
    ("was", "becomes"),
    [
        ('name = "Jax"', 'name = "J\\u0000ax"'),
        ('player = ""', 'player = "\\U00000000"'),
        ('Dodge = "Agility+1D"', '"Do\\u0000dge" = "Agility+1D"'),
    ],
)
def test_nul_written_as_a_toml_escape_in_a_sheet_is_422(
    served: Any, was: str, becomes: str
) -> None:
    room, _, player = _room(served)
    text = sheets.new_sheet("d6", "Jax")
    assert was in text
    answer = served.client.put(
        f"/api/rooms/{room}/members/{player['member']}/sheet",
        json={"text": text.replace(was, becomes), "version": 0},
        headers=bearer(player["token"]),
    )
    # the one rule for names refuses it first, naming the character it found
    assert "(U+0000)" in _refused(answer, 422)
