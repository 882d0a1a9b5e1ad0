"""A roll whose answer is lost, in a real browser: the table kept it, the
page heard nothing. Sent again, it goes with the same Idempotency-Key and is
answered the roll kept, never rolled twice; the next roll takes a fresh key
(docs/table.md, "Retries")."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import APIResponse, Route, expect

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def test_a_roll_whose_answer_was_lost_is_answered_when_sent_again(
    server: Any, seats: Callable[..., Any]
) -> None:
    gm = seats("Gemma")
    link = gm.create_room(server.url, "Lost answers")
    room = link.rsplit("/", 1)[1]
    keys: list[str | None] = []
    lost: list[APIResponse] = []

    def lose_the_first_answer(route: Route) -> None:
        keys.append(route.request.headers.get("idempotency-key"))
        if lost:
            route.continue_()
            return
        lost.append(route.fetch())  # the table keeps the roll ...
        route.abort()  # ... and its answer never reaches the page

    gm.page.route("**/api/rooms/*/rolls", lose_the_first_answer)
    gm.roll("4dF+1")
    expect(gm.page.locator("#roll-status")).to_contain_text("can't be reached")
    gm.roll("4dF+1")  # sent again: the same roll, the same key
    gm.wait_for_roll(1)
    gm.roll("4dF+1")  # a new roll: a fresh key
    gm.wait_for_roll(2)
    assert lost[0].status == 201
    assert len(keys) == 3 and all(key and UUID.fullmatch(key) for key in keys), keys
    assert keys[0] == keys[1] != keys[2]
    token = gm.stored()[room]["token"]
    rolls = server.client.get(
        f"/api/rooms/{room}/rolls", headers={"Authorization": f"Bearer {token}"}
    ).json()["rolls"]
    assert [roll["seq"] for roll in rolls] == [1, 2]  # the lost roll once, never twice
    expect(gm.page.locator("#rolls .roll")).to_have_count(2)
