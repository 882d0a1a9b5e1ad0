"""A D6 round in a real browser: the GM starts a conflict ordered by
Perception; the player, on a 375 px phone, rolls Perception from the tracker
and the GM rolls an NPC's; the GM orders the round and moves it on, the actor
marked on both pages; a hit wounds the player's character, whose sheet then
shows the wound and every trait a die lower; the next round is rolled again.
Screenshots of each key state at 1280 and 375 px are kept to be looked at."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

import fudgedice

JAX = """\
system = "d6"
name = "Jax"
character_points = 2
[attributes]
Perception = "3D+1"
Strength = "3D"
[skills]
Search = "Perception+1D"
"""

OGRE = "d6: 1D+100 # initiative: Ogre"
"""The NPC's initiative, rolled by the GM: above anything 3D+1 rolls short of
sixteen sixes in a row."""


def test_a_d6_round_with_initiative_and_a_wound(
    server: Any, gm_and_phone: Callable[..., Any], artifacts: Path
) -> None:
    gm, ann, room = gm_and_phone("The raid", "d6", "Ann", JAX, "Jax (d6)")
    expect(ann.page.locator("#initiative")).to_be_hidden()  # no conflict yet

    # the GM starts a round ordered by Perception: the player rolls from the tracker
    gm.page.click("#initiative-setup summary")
    expect(gm.page.locator("#initiative-mode")).to_have_value("perception")
    gm.page.click("#initiative-start")
    expect(ann.page.locator("#initiative-line")).to_contain_text("Round 1")
    ann.page.click("#roll-initiative")
    jax_roll = ann.page.locator("#rolls .roll", has_text="initiative").first
    expect(jax_roll).to_contain_text("3D+1")
    gm.roll(OGRE)
    expect(gm.page.locator("#rolls .roll", has_text="initiative: Ogre")).to_have_count(1)
    ann.shoot(artifacts, "d6-round-1-rolled")

    gm.page.click("#initiative-order-rolls")
    order = {seat.name: seat.page.locator("#initiative-order li") for seat in (gm, ann)}
    expect(order["Ann"].locator(".who")).to_have_text(["Ogre", "Jax"])
    expect(order["Ann"].nth(0)).to_have_attribute("aria-current", "true")
    expect(ann.page.locator("#roll-initiative")).to_have_count(0)  # rolled, and ordered
    gm.shoot(artifacts, "d6-round-2-ordered")

    # the Ogre acts: a hit that beats Jax's resistance by 4 wounds him
    jax = gm.page.locator("#party .party-sheet", has_text="Jax (d6), Ann's")
    jax.locator("input.amount").fill("4")
    jax.locator("button.hit").click()
    sheet = ann.page.locator("#sheet")
    expect(sheet.locator(".wound")).to_have_text("wounded")
    expect(sheet.locator('button[data-trait="Perception"]')).to_have_text(
        "Perception 3D+1 \u2192 2D+1 (wounded -1D)"
    )
    expect(jax.locator(".trait-levels")).to_contain_text("Search 4D+1 \u2192 3D+1 (wounded -1D)")

    # Jax's turn, marked on the phone; past the last actor, round 2 is rolled again
    gm.page.click("#initiative-next")
    current = ann.page.locator("#initiative-order li[aria-current='true'] .who")
    expect(current).to_have_text("Jax")
    ann.shoot(artifacts, "d6-round-3-wounded")
    gm.shoot(artifacts, "d6-round-3-wounded")
    gm.page.click("#initiative-next")
    expect(ann.page.locator("#initiative-line")).to_contain_text("Round 2")
    ann.page.click("#roll-initiative")
    expect(ann.page.locator("#rolls .roll", has_text="wound=wounded").first).to_contain_text(
        "initiative"
    )
    gm.roll(OGRE)
    expect(gm.page.locator("#rolls .roll", has_text="initiative: Ogre")).to_have_count(2)
    gm.page.click("#initiative-order-rolls")
    expect(order["Ann"].locator(".who")).to_have_text(["Ogre", "Jax"])
    expect(gm.page.locator("#initiative-conceded input")).to_have_count(0)  # Fate's rule
    gm.page.click("#initiative-end")
    expect(ann.page.locator("#initiative")).to_be_hidden()
    ann.assert_fits(375)
    gm.assert_fits(1280)

    log = server.revealed_log(room, gm.stored()[room]["token"])
    report = fudgedice.verify(log)
    assert report.ok and report.complete, report
