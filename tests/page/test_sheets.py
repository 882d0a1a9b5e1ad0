"""A character sheet at the table, in a real browser: a player uploads their
sheet, clicks a trait to roll it, spends a Character Point from the roll's
card and sees the die added and the point gone; the GM sees the change in the
log, another player only a placeholder; a bad sheet is shown with its line;
the phone layout holds the sheet too."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from fudgedice import sheets

JAX = sheets.new_sheet("d6", "Jax").replace("character_points = 5", "character_points = 2")


def test_a_trait_rolls_and_a_point_is_spent_from_its_card(
    server: Any, seats: Callable[..., Any], tmp_path: Path
) -> None:
    gm = seats("Gemma")
    ann = seats("Ann")
    bob = seats("Bob")
    link = gm.create_room(server.url, "Sheets", "d6")
    ann.join(link)
    bob.join(link)
    page = ann.page
    expect(page.locator("#sheet-points")).to_contain_text("No sheet yet")

    # a sheet with a mistake: refused with its line, and nothing attached
    bad = tmp_path / "jax.toml"
    bad.write_text(JAX.replace('Dodge = "Agility+1D"', 'Dodge = "Agilty+1D"'))
    page.set_input_files("#sheet-file", str(bad))
    expect(page.locator("#sheet-status .error")).to_contain_text("sheet.toml:19:9")
    expect(page.locator("#sheet-status .error")).to_contain_text("did you mean 'agility'?")

    good = tmp_path / "jax-fixed.toml"
    good.write_text(JAX)
    page.set_input_files("#sheet-file", str(good))
    expect(page.locator("#sheet-title")).to_have_text("Jax (d6)")
    expect(page.locator("#sheet-points")).to_contain_text("Character Points: 2")
    gm.wait_for_roll(1)
    expect(gm.card(1)).to_contain_text("Ann attached the sheet of Jax (d6)")
    expect(bob.wait_for_roll(1)).to_contain_text("a change to a character sheet: hidden")

    page.fill("#roll-difficulty", "Moderate")
    page.locator('#sheet-traits button[data-trait="Dodge"]').click()
    card = ann.wait_for_roll(2)
    expect(card.locator(".notation")).to_have_text("d6: 4D vs Moderate")
    expect(card.locator(".label")).to_have_text("Jax, Dodge vs Moderate")
    # three dice and the Wild Die, whose 6s add dice of its own to its chain
    expect(card.locator(".die:not(.wild)")).to_have_count(3)
    expect(card.locator(".die.wild").first).to_be_visible()
    before = int(card.locator(".total").inner_text())
    expect(bob.wait_for_roll(2)).to_contain_text("Jax, Dodge vs Moderate")

    card.locator('button.spend[data-point="cp"]').click()
    spent = ann.wait_for_roll(3)
    expect(spent.locator(".spent")).to_have_text(
        "Jax spent 1 Character Point (1 left): a Character Point die on roll 2"
    )
    expect(spent.locator(".notation")).to_have_text("d6: 4D cp1 vs Moderate")
    expect(spent.locator(".die.cp").first).to_be_visible()
    cp_faces = [int(face) for face in spent.locator(".die.cp").evaluate_all(
        "dice => dice.map(die => die.dataset.face)")]  # fmt: skip
    assert int(spent.locator(".total").inner_text()) == before + sum(cp_faces)
    expect(page.locator("#sheet-points")).to_contain_text("Character Points: 1")
    expect(bob.wait_for_roll(3).locator(".spent")).to_contain_text("Character Point")

    # the last point goes, and with it the button
    spent.locator('button.spend[data-point="cp"]').click()
    ann.wait_for_roll(4)
    expect(page.locator("#sheet-points")).to_contain_text("Character Points: 0")
    expect(page.locator('#rolls button.spend[data-point="cp"]')).to_have_count(0)
    text = ann.page.input_value("#sheet-text")
    assert "character_points = 0" in text and "# a skill adds dice to its attribute" in text


def test_the_sheet_on_a_phone(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    phone = seats("Pat on a phone", width=375, height=812, is_mobile=True, has_touch=True)
    link = gm.create_room(server.url, "Phone sheets", "d6")
    phone.join(link)
    page = phone.page
    page.fill("#sheet-text", JAX.replace('"Jax"', '"Jax Pavan, a rather long name for a phone"'))
    page.click("#sheet-save")
    expect(page.locator("#sheet-title")).to_contain_text("Jax Pavan")
    page.locator('#sheet-traits button[data-trait="Search"]').click()
    card = phone.wait_for_roll(2)
    expect(card.locator('button.spend[data-point="cp"]')).to_be_visible()
    page.locator("#sheet .explain summary").click()
    phone.assert_fits(375)


def test_the_gm_sees_the_party_and_lands_a_hit(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    ann = seats("Ann")
    link = gm.create_room(server.url, "The party", "d6")
    ann.join(link)
    party = gm.page.locator("#party")
    expect(party).to_contain_text("No sheet is attached yet.")
    expect(ann.page.locator("#party")).to_have_count(0)  # a player reads only their own

    ann.page.fill("#sheet-text", JAX)
    ann.page.click("#sheet-save")
    expect(ann.page.locator("#sheet-title")).to_have_text("Jax (d6)")
    jax = party.locator(".party-sheet", has_text="Jax (d6), Ann's")
    expect(jax.locator(".points")).to_contain_text("Character Points: 2")

    # the GM's hit: a margin of 4 over resistance wounds Jax, in Ann's page too
    jax.locator("input.amount").fill("4")
    jax.locator("button.hit").click()
    expect(jax.locator(".sheet-page")).to_contain_text("Wound: wounded")
    expect(ann.page.locator("#sheet-page")).to_contain_text("Wound: wounded")
    expect(ann.wait_for_roll(2)).to_contain_text("(by Gemma)")

    # a heal to a wound the sheet doesn't have is refused, as text, and changes nothing
    jax.locator("input.what").fill("mortally wounded")
    jax.locator("button.heal").click()
    expect(party.locator("#party-status .error")).to_contain_text("no healing of wounded")
    jax.locator("input.what").fill("")
    jax.locator("button.heal").click()
    expect(jax.locator(".sheet-page")).to_contain_text("Wound: none")
    expect(ann.page.locator("#sheet-page")).to_contain_text("Wound: none")
