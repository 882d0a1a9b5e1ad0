"""The host attack, replayed: whoever hosts the table holds the room's server
seed (here, read from the database file the server writes), and with an
empty client seed could compute a player's next roll before it was made.
The page sends a fresh random client seed (128 bits from the browser's
cryptographic generator) with every roll, so the host's forecast misses; a
roll the server did not answer is sent again with the same client seed, so
that dropping a roll gains the host nothing (docs/fairness.md)."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Route, expect

import fudgedice
from fudgedice.stream import room_stream

TEXT = "10d6"
"""Ten dice: a forecast right by chance is one in sixty million."""


def _forecast(seed: bytes, room: str, member: str, client_seed: str, nonce: int) -> list[int]:
    stream = room_stream(seed, room, client_seed, nonce, member=member)
    return fudgedice.roll(TEXT, stream=stream).tosses


def _values(roll: dict[str, Any]) -> list[int]:
    return [die["value"] for die in roll["dice"]]


def test_the_host_cannot_foresee_a_roll_made_through_the_page(
    servers: Callable[..., Any], seats: Callable[..., Any], tmp_path: Path
) -> None:
    served = servers()
    gm = seats("Gemma")
    link = gm.create_room(served.url, "Hosted")
    room = link.rsplit("/", 1)[1]
    player = seats("Pia")
    player.join(link)
    pia = player.stored()[room]
    with sqlite3.connect(tmp_path / "table.sqlite3") as connection:
        (seed_hex,) = connection.execute("SELECT seed FROM rooms WHERE id = ?", (room,)).fetchone()
    seed = bytes.fromhex(seed_hex)

    sent: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []

    def watch(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        if not dropped and len(sent) == 2:  # the third roll: the host drops it unanswered
            dropped.append(body)
            route.abort()
            return
        sent.append(body)
        route.continue_()

    player.page.route("**/api/rooms/*/rolls", watch)
    for seq in (1, 2):
        player.roll(TEXT)
        player.wait_for_roll(seq)
    player.roll(TEXT)
    expect(player.page.locator("#roll-status")).to_contain_text("can't be reached")
    player.roll(TEXT)  # sent again: the same roll, the same client seed
    player.wait_for_roll(3)
    player.roll(TEXT)
    player.wait_for_roll(4)

    seeds = [body["client_seed"] for body in sent]
    assert all(re.fullmatch(r"[0-9a-f]{32}", seed) for seed in seeds), seeds
    assert dropped[0]["client_seed"] == seeds[2], "a retry keeps its client seed"
    assert len(set(seeds)) == 4, "a fresh client seed for every roll"

    rolls = served.client.get(
        f"/api/rooms/{room}/rolls", headers={"Authorization": f"Bearer {pia['token']}"}
    ).json()["rolls"]
    assert [roll["nonce"] for roll in rolls] == [0, 1, 2, 3]
    for roll, client_seed in zip(rolls, seeds, strict=True):
        nonce = roll["nonce"]
        assert roll["client_seed"] == client_seed and roll["foreseeable"] is False
        # what the host could compute before the roll: the seed and the empty client seed
        assert _values(roll) != _forecast(seed, room, pia["member"], "", nonce)
        # what anyone computes after it, with the client seed the page chose
        assert _values(roll) == _forecast(seed, room, pia["member"], client_seed, nonce)
    expect(player.card(1).locator(".foreseeable")).to_have_count(0)
    kept = player.page.evaluate(f"() => JSON.parse(localStorage.getItem('fudgedice:own:{room}'))")
    assert [own["client_seed"] for own in kept["rolls"]] == seeds
    assert kept["pending"] is None
    player.page.locator("#fairness summary").click()
    player.page.click("#check-mine")
    expect(player.page.locator("#mine-checked")).to_have_text(
        "All 4 rolls under your name were sent from this browser, their nonces with no gap."
    )

    # an API client that sends no client seed: the host's forecast is right, and the roll says so
    bare = served.roll(room, pia["token"], TEXT)
    assert _values(bare) == _forecast(seed, room, pia["member"], "", 4)
    assert bare["foreseeable"] is True
    expect(player.wait_for_roll(5).locator(".foreseeable")).to_contain_text("could have foreseen")
    # a roll under Pia's name that her browser did not send (another device, or a forgery)
    player.page.click("#check-mine")
    expect(player.page.locator("#mine-checked")).to_have_text(
        "Rolls under your name not sent from this browser: #5."
    )


def test_a_roll_that_fails_on_its_dice_is_kept_on_the_page(
    server: Any, seats: Callable[..., Any]
) -> None:
    gm = seats("Gemma")
    gm.create_room(server.url, "Probes")
    # divides by zero when its 4dF comes up +1 or better: 31 rolls in 81
    for seq in range(1, 31):
        gm.roll("1/((4dF+4)/5-1)")
        card = gm.wait_for_roll(seq)
        if card.locator(".failed").count():
            break
    else:
        raise AssertionError("thirty rolls and not one failed")
    expect(card.locator(".failed")).to_contain_text("failed: division by zero")
    expect(gm.page.locator("#roll-status .kept")).to_contain_text(f"kept as #{seq}")
