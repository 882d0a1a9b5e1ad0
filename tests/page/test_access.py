"""The table's page read without seeing it or without a mouse: a heading on
every page and no axe finding at all on the landing page, the join form and a
room; a skip link to the log; dice named in words; each new entry of the log
spoken once as a sentence through a live region (the history already there
never); and the focus, after joining, saving a sheet, spending a point,
invoking an aspect and clicking Roll (disabled while the roll is sent), on
where the work goes on, never on the page's body."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from fudgedice import sheets

EVERY_IMPACT = ("critical", "serious", "moderate", "minor")
JAX = sheets.new_sheet("d6", "Jax").replace("character_points = 5", "character_points = 2")
FUDGE: list[dict[str, Any]] = [
    {"sides": "F", "face": face, "kept": True, "marks": []} for face in ("+", " ", "-", "+")
]


def _sentence(page: Page, roll: dict[str, Any]) -> str:
    """The sentence the log's voice says of ``roll``: speech.js itself, in the page."""
    said: str = page.evaluate(
        "async (roll) => (await import('/static/speech.js')).rollSentence(roll)", roll
    )
    return said


def _focused(page: Page) -> str:
    """The focused element, as its tag, id and seq: never the page's body."""
    held: str = page.evaluate(
        """() => { const at = document.activeElement;
            return `${at.tagName}#${at.id}[${at.dataset.seq || ""}]`; }"""
    )
    return held


def test_a_roll_is_said_as_one_sentence(server: Any, seats: Callable[..., Any]) -> None:
    page = seats("Ann").page
    page.goto(server.url)
    fudge = {"seq": 4, "name": "Ann", "notation": "4dF+2", "total": 3, "result": "+3 Great"}
    assert _sentence(page, {**fudge, "dice": FUDGE}) == (
        "Ann rolled 4dF+2: plus, blank, minus, plus: +3, Great."
    )
    labelled = {**fudge, "notation": "4dF+2 #climb", "label": "climb", "visibility": "gm"}
    assert _sentence(page, {**labelled, "dice": FUDGE}).startswith(
        "Ann rolled climb, 4dF+2 (to the GM): plus,"
    )
    wild = [
        {"sides": 6, "face": "4", "marks": []},
        {"sides": 6, "face": "1", "kept": False, "marks": ["dropped"]},
        {"sides": 6, "face": "6", "marks": ["exploded", "wild"]},
        {"sides": 6, "face": "3", "marks": ["from_explosion", "wild"]},
    ]
    d6 = {"seq": 5, "name": "Jax", "notation": "d6: 3D vs Easy", "dice": wild, "total": 13}
    assert _sentence(page, {**d6, "verdict": "success", "result": "success vs 10 (+3)"}) == (
        "Jax rolled d6: 3D vs Easy: 4, 1 (dropped), Wild Die 6 (exploded), Wild Die 3: "
        "13, success vs 10 (+3)."
    )
    assert _sentence(page, {**d6, "result": None, "notation": "3d6"}).endswith(": 13.")
    sides = [
        {"notation": "Good", "dice": FUDGE[:2], "result": "+2 Great"},
        {"notation": "Fair", "dice": FUDGE[2:], "result": "+0 Fair"},
    ]
    opposed = {"seq": 6, "name": "Bo", "notation": "Good opp Fair", "sides": sides, "total": 2}
    assert _sentence(page, {**opposed, "result": "relative degree +2: Good wins by 2"}) == (
        "Bo rolled Good opp Fair: Good: plus, blank: +2 Great; Fair: minus, plus: +0 Fair: "
        "relative degree +2: Good wins by 2."
    )
    hidden = {"seq": 7, "name": "Gemma", "hidden": True, "visibility": "secret"}
    assert _sentence(page, hidden) == "Gemma: a secret roll of the GM: hidden."
    spend = {**fudge, "kind": "spend", "spent": "1 Fate Point spent: an invoke on roll 4"}
    assert _sentence(page, {**spend, "dice": FUDGE}) == (
        "1 Fate Point spent: an invoke on roll 4. Ann rolled 4dF+2: plus, blank, minus, plus: "
        "+3, Great."
    )
    play = {"seq": 8, "name": "Gemma", "kind": "play", "lines": ["GM sets the aspect On fire."]}
    assert _sentence(page, play) == "GM sets the aspect On fire."
    talk = {"seq": 9, "name": "Bo", "kind": "talk", "text": "I duck!", "to_name": None}
    assert _sentence(page, talk) == "Bo says: I duck!"
    assert _sentence(page, {**talk, "to_name": "Gemma"}) == "Bo whispers to Gemma: I duck!"
    assert _sentence(page, {**talk, "hidden": True, "text": None}) == ""
    failed = {**fudge, "failed": True, "error": "too many dice", "dice": FUDGE[:1]}
    assert _sentence(page, failed) == "Ann rolled 4dF+2: plus: failed, too many dice."


def test_each_new_entry_is_spoken_once(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    link = gm.create_room(server.url, "Read aloud")
    room = link.rsplit("/", 1)[1]
    bob = server.join(room, "Bob")["token"]
    server.roll(room, bob, "4dF", label="before Ann came")
    ann = seats("Ann", width=375, height=800)
    ann.join(link)
    ann.wait_for_roll(1)
    voice = ann.page.locator("#log-voice p")
    # the log itself is no live region: it would read every card, the history too
    expect(ann.page.locator("#rolls")).not_to_have_attribute("aria-live", re.compile("."))
    expect(ann.page.locator("#log-voice")).to_have_attribute("aria-live", "polite")

    rolled = server.roll(room, bob, "4dF+2", label="climb")
    card = ann.wait_for_roll(2)
    dice = card.locator(".die").evaluate_all("all => all.map(one => one.ariaLabel)")
    assert dice and set(dice) <= {"plus", "blank", "minus"}, dice
    expect(card.locator(".die[role=img]")).to_have_count(4)
    number, word = rolled["result"].split(" ", 1)
    expect(voice).to_have_text([f"Bob rolled climb, 4dF+2: {', '.join(dice)}: {number}, {word}."])

    ann.roll("4dF-1")  # one's own roll, placed from the answer and from the feed: said once
    expect(voice.nth(1)).to_contain_text(re.compile(r"^Ann rolled 4dF-1: (plus|blank|minus), "))
    # the Roll button, disabled while the roll was sent, holds the focus again
    expect(ann.page.locator("#roll-submit")).to_be_focused()
    gm.roll("Great", visibility="secret")
    expect(voice.nth(2)).to_have_text("Gemma: a secret roll of the GM: hidden.")
    server.roll(room, bob, "2d6")
    expect(voice.nth(3)).to_contain_text(re.compile(r"^Bob rolled 2d6: \d, \d: \d+\.$"))
    expect(voice).to_have_count(4)  # roll 1, from before, never; none twice
    said = voice.all_inner_texts()
    assert not any("before Ann came" in one for one in said), said


def test_landing_join_and_room_pages_read_well(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma", width=1280)
    gm.page.goto(server.url)
    expect(gm.page.locator("h1")).to_have_text("Start a table")
    gm.assert_accessible("the landing page", EVERY_IMPACT)
    link = gm.create_room(server.url, "Headings")
    # the room made: its page starts at its name
    expect(gm.page.locator("h1#room-title")).to_be_focused()
    gm.assert_accessible("the room just made", EVERY_IMPACT)

    ann = seats("Ann", width=375, height=800)
    ann.page.goto(link)
    expect(ann.page.locator("h1")).to_have_text("Join this table")
    expect(ann.page.locator("#join-name")).to_be_focused()
    ann.assert_accessible("the join form", EVERY_IMPACT)
    ann.join(link)
    # joined to roll: the roll's text holds the focus, and the page has one h1, the room's
    expect(ann.page.locator("#roll-text")).to_be_focused()
    expect(ann.page.locator("h1")).to_have_text("Headings")
    ann.assert_accessible("the room just joined", EVERY_IMPACT)


def test_the_skip_link_goes_to_the_log(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    created = server.room("Long table", gm_name="Gemma")
    room = created["room"]
    ann = server.join(room, "Ann")
    server.roll(room, ann["token"], "4dF")
    seat = seats("Ann", width=375, height=800)
    page = seat.page
    page.goto(f"{server.url}/r/{room}#token={ann['token']}")
    seat.wait_for_roll(1)
    skip = page.locator("#skip-to-log")
    hidden = skip.bounding_box()
    assert hidden is not None and hidden["y"] + hidden["height"] <= 0, hidden  # off the screen
    page.keyboard.press("Tab")  # the first Tab of the page
    expect(skip).to_be_focused()
    expect(skip).to_have_text("Skip to the log")
    shown = skip.bounding_box()
    assert shown is not None and shown["y"] >= 0, shown  # on the screen once focused
    seat.assert_accessible("the skip link focused")
    page.screenshot(path=artifacts / "skip-link-phone.png")
    page.keyboard.press("Enter")
    expect(page.locator("#history h2")).to_be_focused()
    page.keyboard.press("Tab")  # on into the log, not back to the top
    assert page.evaluate("() => !!document.activeElement.closest('#history')"), _focused(page)
    assert page.url == f"{server.url}/r/{room}"  # the address is left as it was


def test_focus_follows_a_saved_sheet_and_a_point_spent(
    server: Any, seats: Callable[..., Any]
) -> None:
    gm = seats("Gemma")
    link = gm.create_room(server.url, "Focus", "d6")
    ann = seats("Ann")
    ann.join(link)
    page = ann.page
    page.fill("#sheet-text", JAX)
    page.click("#sheet-save")
    title = page.locator("#sheet-title")
    expect(title).to_have_text("Jax (d6)")
    expect(title).to_be_focused()  # the editor closed: the saved sheet's name

    page.locator('#sheet-traits button[data-trait="Dodge"]').click()
    card = ann.wait_for_roll(2)
    expect(card.locator(".die.wild").first).to_have_attribute("aria-label", re.compile("^Wild Die"))
    card.locator('button.spend[data-point="cp"]').click()
    spent = ann.wait_for_roll(3)
    expect(spent.locator(".die.cp").first).to_have_attribute(
        "aria-label", re.compile(r"^Character Point die \d")
    )
    expect(page.locator("#sheet-points")).to_contain_text("Character Points: 1")
    # the roll made again with the point: its card, still after the feed redrew it
    expect(gm.wait_for_roll(3)).to_be_visible()
    expect(ann.card(3)).to_be_focused()
    assert _focused(page) == "ARTICLE#[3]"


def test_focus_follows_an_invoke(
    server: Any, gm_and_phone: Callable[..., Any], fate_sheet: str
) -> None:
    gm, bo, _ = gm_and_phone("Invokes", "fate", "Bo", fate_sheet, "Bob (fate)")
    gm.page.fill("#gm-aspect-name", "On fire")
    gm.page.click("#gm-add-aspect")
    expect(bo.page.locator("#scene-aspects .aspect-name")).to_have_text(["On fire"])
    bo.roll("fate: 4dF vs 2")
    card = bo.page.locator("#rolls .roll", has_text="4dF vs 2").first
    actions = card.locator(".play-actions")
    actions.locator("select.invoke-aspect").select_option(label="On fire")
    actions.locator("button.invoke").click()
    invoked = bo.page.locator("#rolls .roll.spend", has_text="(On fire)")
    expect(invoked).to_be_focused()
    expect(bo.page.locator("#sheet-points")).to_contain_text("Fate Points: 2")
    expect(invoked).to_be_focused()
