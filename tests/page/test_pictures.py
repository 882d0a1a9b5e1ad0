"""The README's pictures of the page, taken from the current code at every run
(``test-artifacts/page/table.png``, ``table-phone.png`` and ``table-sheet.png``); ``make
screenshot`` copies them into ``docs/``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from secrets import token_hex
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
        # each with a fresh client seed, as the page sends: a picture of the
        # table shows rolls the host could not have foreseen
        server.roll(room, tokens[who], text, visibility=visibility, client_seed=token_hex(16))
    views = (("table.png", "GM", 1200, 980), ("table-phone.png", "Ann", 375, 812))
    for picture, who, width, height in views:
        seat = seats(who, width=width, height=height)
        page = seat.page
        page.goto(f"{server.url}/r/{room}#token={tokens[who]}")
        seat.wait_for_roll(len(SCENE))
        if width > 375:
            page.fill("#roll-text", "Good")
            page.fill("#roll-difficulty", "Great")
            expect(page.locator("#success")).to_contain_text("31/81")
        else:  # a phone: the log under the roll line, and her roll's result above it
            page.fill("#roll-text", "4dF+1 #climb the wall")
            page.click("#roll-submit")
            expect(page.locator("#roll-result")).to_contain_text("climb the wall")
        seat.assert_accessible(picture)
        page.screenshot(path=artifacts / picture)
        assert (artifacts / picture).read_bytes().startswith(b"\x89PNG")


JAX = """# jax.toml
system = "d6"
name = "Jax"
character_points = 5
fate_points = 1
wound = "none"

[attributes]
Dexterity = "3D+1"
Perception = "2D+2"

[skills]
Blaster = "Dexterity+1D"   # a skill adds dice to its attribute
Search = "Perception+1D"
"""


def test_the_readme_picture_of_a_sheet(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    """A player's sheet at the table: its traits as buttons, a roll by trait
    name, and a Character Point spent from the roll's card."""
    created = server.room("Friday game", system="d6", gm_name="Gemma")
    room = created["room"]
    ann = server.join(room, "Ann")
    seat = seats("Ann", width=1200, height=900)
    page = seat.page
    page.goto(f"{server.url}/r/{room}#token={ann['token']}")
    seat.wait_until_live()
    page.fill("#sheet-text", JAX)
    page.click("#sheet-save")
    expect(page.locator("#sheet-title")).to_have_text("Jax (d6)")
    page.fill("#roll-difficulty", "Moderate")
    page.locator('#sheet-traits button[data-trait="Blaster"]').click()
    seat.wait_for_roll(2).locator('button.spend[data-point="cp"]').click()
    seat.wait_for_roll(3)
    expect(page.locator("#sheet-points")).to_contain_text("Character Points: 4")
    seat.assert_accessible("table-sheet.png")
    page.locator(".columns").screenshot(path=artifacts / "table-sheet.png")
    assert (artifacts / "table-sheet.png").read_bytes().startswith(b"\x89PNG")
