"""A sheet's state where people look, in a real browser: after a hit, the
player's sheet panel and the GM's party list show the wound and each trait's
lowered level; a Fudge Point is spent and a trait raised with EP from the
page; a Fate sheet's stress boxes and a consequence named in the hit are shown
by name, to a screen reader as "box 1 checked"."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

FARI = Path(__file__).resolve().parents[1] / "data" / "fari"

ASHLEY = """\
system = "fudge"
name = "Ashley"
fudge_points = 3
ep = 5
[traits]
Melee = "Good"
Climbing = "Fair"
"""


def test_a_wound_lowers_the_traits_where_people_look(
    server: Any, seats: Callable[..., Any]
) -> None:
    gm = seats("Gemma")
    ann = seats("Ann", width=375, height=800)
    link = gm.create_room(server.url, "State", "fudge")
    ann.join(link)
    ann.attach(ASHLEY, "Ashley (fudge)")
    sheet = ann.page.locator("#sheet")
    expect(sheet.locator("#sheet-points")).to_contain_text("Fudge Points: 3 \u00b7 EP: 5")

    ashley = gm.page.locator("#party .party-sheet", has_text="Ashley (fudge), Ann's")
    ashley.locator("input.amount").fill("3")
    ashley.locator("button.hit").click()
    # the hit reaches the player's panel live: Hurt, and every trait one lower
    melee = sheet.locator('button[data-trait="Melee"]')
    expect(melee).to_have_text("Melee +1 Good \u2192 +0 Fair (Hurt -1)")
    expect(sheet.locator(".wound-level[data-level='Hurt'] .box.checked")).to_have_count(1)
    expect(sheet.locator(".wound-level[data-level='Hurt'] .sr")).to_have_text("Hurt box 1 checked")
    expect(ashley.locator(".trait-levels")).to_contain_text(
        "Melee +1 Good \u2192 +0 Fair (Hurt -1)"
    )
    expect(ashley).to_contain_text("now Hurt")

    # a Fudge Point spent and Climbing raised with EP, by the player's buttons
    ann.page.click("#spend-fudge-point")
    expect(sheet.locator("#sheet-points")).to_contain_text("Fudge Points: 2")
    raise_climbing = sheet.locator('button[data-raise="Climbing"]')
    expect(raise_climbing).to_have_attribute("aria-label", "Raise Climbing with EP")
    raise_climbing.focus()
    ann.page.keyboard.press("Enter")
    expect(sheet.locator('button[data-trait="Climbing"]')).to_contain_text("Climbing +1 Good")
    expect(sheet.locator("#sheet-points")).to_contain_text("EP: 3")  # Good costs 2
    expect(ashley.locator(".points")).to_contain_text("Fudge Points: 2 \u00b7 EP: 3")
    ann.assert_fits(375)


def test_fate_stress_and_a_named_consequence(
    server: Any, seats: Callable[..., Any], fate_sheet: str
) -> None:
    gm = seats("Gemma")
    bo = seats("Bo")
    link = gm.create_room(server.url, "Stress", "fate")
    bo.join(link)
    bo.attach(fate_sheet, "Bob (fate)")
    bob = gm.page.locator("#party .party-sheet", has_text="Bob (fate), Bo's")
    expect(bob.locator(".boxes[data-track='physical'] .box")).to_have_count(2)

    # 4 shifts: no box of 4, so the mild consequence takes 2 and the 2-box the rest
    bob.locator("input.amount").fill("4")
    bob.locator("input.consequence-name").fill("Bruised <b>ribs</b>")
    bob.locator("button.hit").click()
    mine = bo.page.locator("#sheet")
    expect(mine.locator("li[data-slot='mild'] strong")).to_have_text("Bruised <b>ribs</b>")
    expect(mine.locator("li[data-slot='mild'] b")).to_have_count(0)  # text, never markup
    expect(mine.locator(".boxes[data-track='physical'] .box.checked .sr")).to_have_text(
        ["box 2 checked"]
    )
    expect(mine.locator(".aspects-own")).to_contain_text("Hot-headed")
    expect(bob.locator("li[data-slot='mild']")).to_contain_text("Bruised <b>ribs</b>")

    # the GM picks the track: a mental hit of 1 checks the mental 1-box, not a physical one
    bob.locator("select.track").select_option("mental")
    bob.locator("input.amount").fill("1")
    bob.locator("button.hit").click()
    expect(mine.locator(".boxes[data-track='mental'] .box.checked .sr")).to_have_text(
        ["box 1 checked"]
    )
    expect(mine.locator(".boxes[data-track='physical'] .box.checked .sr")).to_have_text(
        ["box 2 checked"]
    )

    # a roll's card offers the character's own aspects to invoke, the consequence among them
    bo.roll("fate: 4dF vs 1")
    options = bo.page.locator("#rolls .roll", has_text="4dF vs 1").locator(
        "select.invoke-aspect option"
    )
    expect(options).to_contain_text(["Sword for hire", "Hot-headed"])
    assert "Bruised <b>ribs</b>" in options.all_text_contents()


def test_a_fari_character_is_uploaded_and_downloaded_again(
    server: Any, seats: Callable[..., Any]
) -> None:
    gm = seats("Gemma")
    cy = seats("Cy")
    link = gm.create_room(server.url, "Fari", "fate")
    cy.join(link)
    cy.page.set_input_files("#sheet-file", str(FARI / "cynere-fate-core.fari.json"))
    expect(cy.page.locator("#sheet-title")).to_have_text("Cynere (fate)")
    expect(cy.page.locator("#sheet .aspects-own")).to_contain_text("Infamous Girl with Sword")
    expect(cy.page.locator("#sheet-points")).to_contain_text("Fate Points: 2")
    assert 'high_concept = "Infamous Girl with Sword"' in cy.page.input_value("#sheet-text")
    expect(cy.wait_for_roll(1)).to_contain_text("from Fari")

    cy.page.locator("#sheet-editor summary").click()
    with cy.page.expect_download() as downloaded:
        cy.page.click("#sheet-to-fari")
    again = json.loads(cy.read(downloaded.value))
    assert again["name"] == "Cynere" and again["fariType"] == "character"
