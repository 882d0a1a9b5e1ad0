"""Favourite rolls: each member's own list, kept by the server (read and
replaced whole), bounded, every text checked as a roll of the room's system;
no room reads another's, no member another's. A system's new character sheet,
as ``fudgedice sheet new`` writes it. On SQLite and on PostgreSQL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from fudgedice import sheets
from fudgedice.server.favourites import MAX_FAVOURITES


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _path(room: str) -> str:
    return f"/api/rooms/{room}/favourites"


def _put(served: Any, room: str, token: str, listed: list[dict[str, Any]]) -> httpx.Response:
    answer: httpx.Response = served.client.put(
        _path(room), json={"favourites": listed}, headers=bearer(token)
    )
    return answer


def _listed(served: Any, room: str, token: str) -> list[dict[str, Any]]:
    answer = served.get(_path(room), token)
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["favourites"]
    return found


def test_a_members_favourites_are_kept_in_order_and_replaced_whole(served: Any) -> None:
    created = served.room("favourites", system="fate")
    room, gm = created["room"], created["gm_token"]
    assert _listed(served, room, gm) == []
    wanted = [{"text": "Good+2 vs Great", "label": "Fight the guard"}, {"text": "4dF"}]
    put = _put(served, room, gm, wanted)
    assert put.status_code == 200, put.text
    assert put.json()["favourites"] == wanted
    assert _listed(served, room, gm) == wanted
    # a label of blanks is no label; texts are kept trimmed
    again = _put(served, room, gm, [{"text": "  Fair  ", "label": "  "}])
    assert again.status_code == 200, again.text
    assert _listed(served, room, gm) == [{"text": "Fair"}]
    assert _put(served, room, gm, []).status_code == 200
    assert _listed(served, room, gm) == []


def test_nobody_reads_another_members_or_another_rooms_favourites(served: Any) -> None:
    created = served.room("one", system="fudge")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")["token"]
    other = served.room("two", system="fudge")
    assert _put(served, room, gm, [{"text": "Great", "label": "GM's"}]).status_code == 200
    assert _put(served, room, ann, [{"text": "Fair", "label": "Ann's"}]).status_code == 200
    assert _listed(served, room, gm) == [{"text": "Great", "label": "GM's"}]
    assert _listed(served, room, ann) == [{"text": "Fair", "label": "Ann's"}]
    # the other room's GM: their own (empty) list, and nothing of the first room
    assert _listed(served, other["room"], other["gm_token"]) == []
    assert served.get(_path(room), other["gm_token"]).status_code == 404
    refused = _put(served, room, other["gm_token"], [{"text": "4dF"}])
    assert refused.status_code == 404, refused.text
    assert served.get(_path(room)).status_code == 401
    assert served.get(_path(room), "not-a-token").status_code == 401
    assert _listed(served, room, ann) == [{"text": "Fair", "label": "Ann's"}]


def test_favourites_are_bounded_and_checked_as_rolls_of_the_room(served: Any) -> None:
    created = served.room("bounds", system="d6")
    room, gm = created["room"], created["gm_token"]
    kept = [{"text": "4D+2 vs Moderate", "label": "Dodge"}]
    assert _put(served, room, gm, kept).status_code == 200
    too_many = [{"text": "3D"}] * (MAX_FAVOURITES + 1)
    refusals = {
        "too many": (too_many, 413),
        "a text of another system": ([{"text": "Good"}], 400),  # no ladder word in D6
        "bad text": ([{"text": "3D+"}], 400),
        "empty text": ([{"text": "  "}], 400),
        "too long a text": ([{"text": "3D+" + "1+" * 600 + "1"}], 413),
        "too long a label": ([{"text": "3D", "label": "x" * 201}], 413),
        "a control character": ([{"text": "3D", "label": "a\u0007b"}], 422),
        "too many dice": ([{"text": "1000D"}], 413),
        "a field unknown": ([{"text": "3D", "why": "no"}], 422),
    }
    for why, (listed, status) in refusals.items():
        answer = _put(served, room, gm, listed)
        assert answer.status_code == status, (why, answer.text)
        assert isinstance(answer.json()["error"], str) and answer.json()["error"], why
    # a list with one bad entry changes nothing
    mixed = _put(served, room, gm, [{"text": "2D"}, {"text": "3D+"}])
    assert mixed.status_code == 400 and "favourite 2" in mixed.json()["error"]
    assert _listed(served, room, gm) == kept
    full = [{"text": f"{n}D", "label": "l" * 200} for n in range(1, MAX_FAVOURITES + 1)]
    assert _put(served, room, gm, full).status_code == 200
    assert len(_listed(served, room, gm)) == MAX_FAVOURITES


def test_a_systems_sheet_template_is_the_clis(served: Any) -> None:
    for system in ("fate", "d6", "fudge"):
        answer = served.get(f"/api/systems/{system}/sheet-template", name="Cynere")
        assert answer.status_code == 200, answer.text
        assert answer.json()["text"] == sheets.new_sheet(system, "Cynere")
    plain = served.get("/api/systems/fae/sheet-template")
    assert plain.status_code == 200
    assert sheets.load_text(plain.json()["text"]).system == "fae"
    for bad, status in (("nosuch", 404), ("FATE", 200)):
        assert served.get(f"/api/systems/{bad}/sheet-template").status_code == status
    for name, status in (("x" * 61, 413), ("a\nb", 422), ("  ", 422)):
        answer = served.get("/api/systems/fate/sheet-template", name=name)
        assert answer.status_code == status, (name, answer.text)
        assert answer.json()["error"]


def test_lists_replaced_at_once_take_turns(served: Any) -> None:
    created = served.room("at once", system="fudge")
    room, gm = created["room"], created["gm_token"]
    lists = [[{"text": f"4dF+{n}"}] * (n % 3 + 1) for n in range(12)]

    def replace(listed: list[dict[str, Any]]) -> int:
        with httpx.Client(base_url=served.url, timeout=60) as client:
            answer = client.put(_path(room), json={"favourites": listed}, headers=bearer(gm))
            return answer.status_code

    with ThreadPoolExecutor(len(lists)) as pool:
        statuses = list(pool.map(replace, lists))
    assert statuses == [200] * len(lists)
    assert _listed(served, room, gm) in lists
