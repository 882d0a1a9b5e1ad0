"""Less typing at the table, in a real browser: the roll box's Difficulty
applies to what Roll sends and to the sheet's trait buttons (the card shows
the verdict); favourite rolls kept by the server, rolled in one click, still
there after a reload and on another device, never another member's; a new
sheet from the room's system's template; and the visibility chosen shown
beside the Roll button and the traits, with one click back to public.
Screenshots of each at 1280 and 375 px are kept to be looked at."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from fudgedice import sheets


def _newest(seat: Any) -> Locator:
    """The newest card of this seat's rolls."""
    card: Locator = seat.page.locator("#rolls .roll").first
    return card


def _rolled(seat: Any, seq: int) -> Locator:
    """Roll ``seq``'s card, once it is there and the newest."""
    card: Locator = seat.wait_for_roll(seq)
    expect(_newest(seat)).to_have_attribute("data-seq", str(seq))
    return card


def _options(page: Page) -> None:
    """The roll box's options in sight, as a person opens them: on a phone
    they are behind "More" (folded again by each roll's result)."""
    more = page.locator("#roll-more")
    if more.is_visible() and more.get_attribute("aria-expanded") == "false":
        more.click()
    expect(page.locator("#roll-label")).to_be_visible()


def _warmed(server: Any) -> None:
    """The server's measuring process started and ready: a sheet attached
    next is answered with its page without waiting for a new interpreter to
    load the engine (seconds, on a loaded machine)."""
    measured = server.client.get("/api/odds", params={"text": "4dF"}, timeout=120)
    assert measured.status_code == 200, measured.text


def test_the_difficulty_applies_to_the_roll_box_and_the_traits(
    server: Any, gm_and_phone: Callable[..., Any], artifacts: Path, fate_sheet: str
) -> None:
    _warmed(server)
    gm, bo, _ = gm_and_phone("Difficulty", "fate", "Bo", fate_sheet, "Bob (fate)")
    page = bo.page
    expect(page.locator("#sheet-against")).to_have_count(0)  # one field, the roll box's
    page.fill("#roll-text", "Good #climb")
    _options(page)
    page.fill("#roll-difficulty", "Great")
    # the odds are the roll's as Roll sends it, and both roll buttons say what it is against
    expect(page.locator("#success")).to_contain_text("Chance of success vs Great")
    expect(page.locator("#roll-difficulty-badge")).to_have_text("Great")
    expect(page.locator("#sheet-difficulty-badge")).to_have_text("Great")
    page.click("#roll-submit")
    card = _rolled(bo, 2)  # 1 is the sheet attached
    expect(card.locator(".notation")).to_have_text("fate: Good vs Great")
    expect(card.locator(".label")).to_have_text("climb")
    expect(card.locator(".verdict")).to_have_text(_verdict(card.locator(".word")))
    # the box folded on the phone, the roll line still says what it is against
    expect(page.locator("#roll-difficulty-badge")).to_be_in_viewport()
    # a trait button: against the same field
    page.locator('#sheet-traits button[data-trait="Fight"]').click()
    card = _rolled(bo, 3)
    expect(card.locator(".notation")).to_have_text("fate: Good vs Great")
    expect(card.locator(".label")).to_have_text("Bob, Fight vs Great")
    expect(card.locator(".verdict")).to_be_visible()
    expect(gm.wait_for_roll(3).locator(".verdict")).to_be_visible()
    bo.shoot(artifacts, "less-typing-1-difficulty")
    # a text naming its own difficulty keeps it
    page.fill("#roll-text", "Good vs Fair")
    expect(page.locator("#difficulty-note")).to_contain_text("does not apply")
    page.click("#roll-submit")
    expect(_rolled(bo, 4).locator(".notation")).to_have_text("fate: Good vs Fair")
    # cleared: no difficulty, no verdict
    page.click("#roll-difficulty-clear")
    expect(page.locator("#roll-difficulty")).to_have_value("")
    expect(page.locator("#sheet-difficulty-badge")).to_be_hidden()
    page.fill("#roll-text", "Good")
    page.click("#roll-submit")
    card = _rolled(bo, 5)
    expect(card.locator(".notation")).to_have_text("fate: Good")
    expect(card.locator(".verdict")).to_have_count(0)
    page.locator('#sheet-traits button[data-trait="Physique"]').click()
    expect(_rolled(bo, 6).locator(".label")).to_have_text("Bob, Physique")
    assert bo.errors == [] and gm.errors == []


def _verdict(word: Locator) -> str:
    """The verdict a Fate result's words end in: ``...: tie, 0 shifts`` -> ``tie``."""
    said = word.inner_text()
    return {"fail": "failure", "tie": "tie"}.get(_outcome(said), "success")


def _outcome(said: str) -> str:
    return said.rsplit(": ", 1)[1].split(",")[0]


def test_favourites_are_kept_by_the_server(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    created = server.room("Favourites", system="d6")
    room = created["room"]
    ann = server.join(room, "Ann")
    phone = seats("Ann", width=375, height=800)
    page = phone.page
    page.goto(f"{server.url}/r/{room}#token={ann['token']}")
    phone.wait_until_live()
    expect(page.locator("#favourites")).to_be_hidden()
    page.fill("#roll-text", "4D+2")
    _options(page)
    page.fill("#roll-label", "Dodge")
    page.click("#favourite-save")
    page.fill("#roll-text", "3D")
    page.fill("#roll-label", "")
    page.click("#favourite-save")
    chips = page.locator("#favourites button.favourite")
    expect(chips).to_have_text(["Dodge", "3D"])
    # one click rolls it, against the Difficulty, for whoever the roll box says
    page.fill("#roll-text", "")
    page.fill("#roll-difficulty", "Moderate")
    page.select_option("#roll-visibility", "gm")
    chips.first.click()
    card = _rolled(phone, 1)
    expect(card.locator(".notation")).to_have_text("d6: 4D+2 vs Moderate")
    expect(card.locator(".label")).to_have_text("Dodge")
    expect(card.locator(".badge.vis-gm")).to_be_visible()
    expect(card.locator(".verdict")).to_be_visible()
    # the box folded: the favourites are still on the docked roll line, one tap each
    expect(chips.first).to_be_in_viewport()
    phone.shoot(artifacts, "less-typing-2-favourites")
    # a bad text is refused, its error said once, and nothing is saved
    page.fill("#roll-text", "4D+")
    _options(page)
    page.click("#favourite-save")
    expect(page.locator("#favourites-status .error")).to_have_count(1)
    expect(chips).to_have_count(2)

    # after a reload, and on another device: the server's list
    page.reload()
    phone.wait_until_live()
    expect(page.locator("#favourites button.favourite")).to_have_text(["Dodge", "3D"])
    laptop = seats("Ann on a laptop", width=1280)
    laptop.page.goto(f"{server.url}/r/{room}#token={ann['token']}")
    laptop.wait_until_live()
    expect(laptop.page.locator("#favourites button.favourite")).to_have_text(["Dodge", "3D"])
    # another member of the room has none of them
    gm = seats("Gemma", width=1280)
    gm.page.goto(f"{server.url}/r/{room}#token={created['gm_token']}")
    gm.wait_until_live()
    expect(gm.page.locator("#favourites")).to_be_hidden()
    expect(gm.page.locator("#favourites button.favourite")).to_have_count(0)

    # removed on the laptop: gone on the phone after a reload
    laptop.page.get_by_role("button", name="remove the favourite Dodge").click()
    expect(laptop.page.locator("#favourites button.favourite")).to_have_text(["3D"])
    page.reload()
    phone.wait_until_live()
    expect(page.locator("#favourites button.favourite")).to_have_text(["3D"])


def _from_template(page: Page, system: str, title: str) -> None:
    """The template of ``system`` into the editor (shown as its example first), saved."""
    editor = page.locator("#sheet-text")
    expect(editor).to_have_attribute("placeholder", sheets.new_sheet(system, "Pat"))
    page.click("#sheet-template")
    expect(editor).to_have_value(sheets.new_sheet(system, "Pat"))
    page.click("#sheet-save")
    expect(page.locator("#sheet-title")).to_have_text(title)
    expect(page.locator("#sheet-traits button.trait").first).to_be_visible()


def test_a_new_sheet_from_the_rooms_template(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    _warmed(server)
    for system, title in (("fate", "Pat (fate)"), ("d6", "Pat (d6)")):
        created = server.room(f"Template {system}", system=system)
        pat = server.join(created["room"], "Pat")
        seat = seats(f"Pat {system}", width=375, height=800)
        seat.page.goto(f"{server.url}/r/{created['room']}#token={pat['token']}")
        seat.wait_until_live()
        _from_template(seat.page, system, title)
        seat.shoot(artifacts, f"less-typing-3-template-{system}")


def test_the_visibility_beside_every_roll_button(
    server: Any, gm_and_phone: Callable[..., Any], artifacts: Path, fate_sheet: str
) -> None:
    _warmed(server)
    gm, bo, _ = gm_and_phone("Who sees it", "fate", "Bo", fate_sheet, "Bob (fate)")
    page = bo.page
    badges = [page.locator("#roll-visibility-badge"), page.locator("#sheet-visibility-badge")]
    for badge in badges:
        expect(badge).to_be_hidden()
    page.select_option("#roll-visibility", "gm")
    for badge in badges:
        expect(badge).to_have_text("to the GM")
    bo.shoot(artifacts, "less-typing-4-visibility")
    page.locator('#sheet-traits button[data-trait="Fight"]').click()
    expect(_rolled(bo, 2).locator(".badge.vis-gm")).to_be_visible()
    expect(gm.wait_for_roll(2).locator(".label")).to_have_text("Bob, Fight")
    # one click back to public, beside the traits: the select follows
    page.click("#sheet-back-public")
    expect(page.locator("#roll-visibility")).to_have_value("public")
    for badge in badges:
        expect(badge).to_be_hidden()
    page.locator('#sheet-traits button[data-trait="Fight"]').click()
    expect(_rolled(bo, 3).locator(".badge")).to_have_count(0)
    # and beside the Roll button
    page.select_option("#roll-visibility", "self")
    expect(badges[0]).to_have_text("to myself")
    expect(page.locator("#roll-back-public")).to_be_in_viewport()
    page.click("#roll-back-public")
    expect(page.locator("#roll-visibility")).to_have_value("public")
    bo.roll("Good")
    expect(_rolled(bo, 4).locator(".badge")).to_have_count(0)
    expect(gm.wait_for_roll(4)).to_contain_text("Good")
