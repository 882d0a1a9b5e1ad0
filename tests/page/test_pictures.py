"""The README's pictures of the page, taken from the current code at every run
(``test-artifacts/page/table.png`` and ``table-phone.png``); ``make
screenshot`` copies them into ``docs/``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

SCENE = (
    ("Ann", "4dF+1 #sneak past the guard", "public"),
    ("Bob", "Good opp Fair #arm wrestling", "public"),
    ("GM", "Superb vs Legendary #the dragon wakes?", "secret"),
    ("Ann", "4dF@4d6", "public"),
    ("Bob", "Great #perception", "gm"),
    ("GM", "Fair+1 vs Good #the guard notices", "public"),
)


def test_the_readme_pictures(server: Any, seats: Callable[..., Any], artifacts: Path) -> None:
    created = server.room("Friday game", gm_name="Gemma")
    room = created["room"]
    tokens = {"GM": created["gm_token"]}
    for name in ("Ann", "Bob"):
        tokens[name] = server.join(room, name)["token"]
    for who, text, visibility in SCENE:
        server.roll(room, tokens[who], text, visibility=visibility)
    views = (("table.png", "GM", 1200, 980), ("table-phone.png", "Ann", 375, 812))
    for picture, who, width, height in views:
        seat = seats(who, width=width, height=height)
        page = seat.page
        page.goto(f"{server.url}/r/{room}#token={tokens[who]}")
        seat.wait_for_roll(len(SCENE))
        page.fill("#roll-text", "Good")
        page.fill("#roll-difficulty", "Great")
        expect(page.locator("#success")).to_contain_text("31/81")
        page.screenshot(path=artifacts / picture)
        assert (artifacts / picture).read_bytes().startswith(b"\x89PNG")
