"""Talk, blind rolls and favourites as a hostile member would use them: each
test here is an attack that once worked, kept so that it stays refused
(docs/table.md, "Talk" and "Favourite rolls")."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fudgedice.server import connect, favourites, rolling


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.contextmanager
def _here(served_here: Callable[..., Any], tmp_path: Path, **settings: Any) -> Iterator[Any]:
    db = connect(str(tmp_path / "attacks.sqlite3"))
    try:
        with served_here(db, **settings) as here:
            yield here
    finally:
        db.dispose()


def _put(here: Any, room: str, token: str, texts: list[str]) -> httpx.Response:
    answer: httpx.Response = here.client.put(
        f"/api/rooms/{room}/favourites",
        json={"favourites": [{"text": text} for text in texts]},
        headers=_bearer(token),
    )
    return answer


def _nested(number: int) -> str:
    """A roll text slow to read (deep brackets), a different one for each number."""
    return "4dF+" + "(" * 30 + "1" + ")" * 30 + f"+{number}"


def test_favourites_are_charged_as_the_roll_texts_they_send(
    served_here: Callable[..., Any], tmp_path: Path
) -> None:
    # one request sends up to 30 roll texts, each read as a roll's is: it was
    # charged as one roll, so a member read 30 texts for the allowance of one
    with _here(served_here, tmp_path, rolls_per_second=0.001, burst=5) as here:
        created = here.room("favourites", system="fate")
        room, token = created["room"], created["gm_token"]
        assert _put(here, room, token, [_nested(n) for n in range(3)]).status_code == 200
        # three new texts, and two rolls of the allowance left
        refused = _put(here, room, token, [_nested(n) for n in range(6)])
        assert refused.status_code == 429 and refused.json()["error"]
        assert [each["text"] for each in _listed(here, room, token)] == [
            _nested(n) for n in range(3)
        ]
        # the texts the list holds are not new: removing one costs a single roll
        assert _put(here, room, token, [_nested(0), _nested(1)]).status_code == 200
        assert here.roll(room, token, "4dF").status_code == 201
        assert here.roll(room, token, "4dF").status_code == 429


def test_favourites_are_charged_to_the_address_too(
    served_here: Callable[..., Any], tmp_path: Path
) -> None:
    # each member has an allowance of their own: many members of one address
    # would read the roll texts of many allowances, as rolls may not
    limits = {"rolls_per_second": 1000, "burst": 1000, "address_rate": 0.001, "address_burst": 4}
    with _here(served_here, tmp_path, **limits) as here:
        created = here.room("favourites", system="fate")
        room = created["room"]
        ann, bob = here.join(room, "Ann"), here.join(room, "Bob")
        assert _put(here, room, ann["token"], [_nested(n) for n in range(3)]).status_code == 200
        refused = _put(here, room, bob["token"], [_nested(n) for n in range(3, 6)])
        assert refused.status_code == 429 and "address" in refused.json()["error"]


def test_a_list_longer_than_the_burst_waits_for_a_full_allowance(
    served_here: Callable[..., Any], tmp_path: Path
) -> None:
    # charged as the burst at most: a long list is never refused for good
    with _here(served_here, tmp_path, rolls_per_second=0.001, burst=4) as here:
        created = here.room("favourites", system="fate")
        room, token = created["room"], created["gm_token"]
        texts = [f"4dF+{n}" for n in range(favourites.MAX_FAVOURITES)]
        assert _put(here, room, token, texts).status_code == 200
        assert len(_listed(here, room, token)) == favourites.MAX_FAVOURITES


def test_a_list_sent_again_reads_only_its_new_texts(
    served_here: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # else a list of 30 slow texts, kept once, is read whole at every change
    read: list[str] = []
    program = rolling.program

    def counted(text: str, system: str) -> Any:
        read.append(text)
        return program(text, system)

    monkeypatch.setattr(rolling, "program", counted)
    with _here(served_here, tmp_path) as here:
        created = here.room("favourites", system="fate")
        room, token = created["room"], created["gm_token"]
        assert _put(here, room, token, [_nested(n) for n in range(4)]).status_code == 200
        read.clear()
        assert _put(here, room, token, [_nested(n) for n in range(5)]).status_code == 200
        assert read == [_nested(4)]


def _listed(here: Any, room: str, token: str) -> list[dict[str, Any]]:
    answer = here.get(f"/api/rooms/{room}/favourites", token)
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["favourites"]
    return found


def test_a_player_may_not_join_as_the_gm_is_marked_in_the_lists_of_members(served: Any) -> None:
    # the page lists the GM as "Gemma (GM)" among those to whisper to (and in
    # the log's filter): a player named so was a second "Gemma (GM)" there,
    # and a whisper meant for the GM went to them
    room = served.room("whispers", gm_name="Gemma")["room"]
    for name in ("Gemma (GM)", "Gemma(gm)", "Gemma ( GM )", "Gemma \uff08\uff27\uff2d\uff09",
                 "Gemma (G\u041c)"):  # fmt: skip
        answer = served.client.post(f"/api/rooms/{room}/members", json={"name": name})
        assert answer.status_code == 409 and "GM" in answer.json()["error"], name
    for name in ("Bob (GMT)", "(GM) fan", "Magnus"):
        assert served.join(room, name)["name"] == name
