"""Table talk and the blind roll in a real browser: the GM on a laptop, a
player on a 375 px phone and a third member. The player says something
public (markup and Markdown shown as the words typed), whispers to the GM,
the GM whispers back, and the third member sees neither whisper; a blind
roll, typed and from a trait, is a placeholder to its roller and the whole
roll to the GM. Screenshots of each key state at 1280 and 375 px."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, expect

import fudgedice

SAID = "<img src=x onerror=alert(1)> **bold** & <b>not bold</b>"
"""Words that would be markup or Markdown, were they read as such."""


def _say(seat: Any, words: str, to: str = "public", *, enter: bool = False) -> None:
    """Says ``words`` to ``to`` (an option's label) from the talk box."""
    page = seat.page
    page.locator("#talk-to").select_option(label=to)
    page.fill("#talk-text", words)
    if enter:
        page.press("#talk-text", "Enter")
    else:
        page.click("#talk-send")
    # sent: the box is empty again and keeps the focus, for the next line
    expect(page.locator("#talk-text")).to_have_value("")
    expect(page.locator("#talk-text")).to_be_focused()


def _line(seat: Any, words: str) -> Locator:
    """The talk entry of this seat's log that says ``words``, once it is there."""
    words_shown = seat.page.locator(".words", has_text=words)
    line: Locator = seat.page.locator("#rolls .roll.talk", has=words_shown)
    expect(line).to_have_count(1)
    return line


def _seq(card: Locator) -> int:
    return int(card.get_attribute("data-seq") or 0)


def _log_of(server: Any, room: str, seat: Any) -> dict[str, Any]:
    """The room's log as ``seat`` downloads it."""
    headers = {"Authorization": f"Bearer {seat.stored()[room]['token']}"}
    answer = server.client.get(f"/api/rooms/{room}/log", headers=headers)
    assert answer.status_code == 200, answer.text
    log: dict[str, Any] = answer.json()
    return log


def _choices(seat: Any) -> list[str]:
    shown: list[str] = seat.page.locator("#talk-to option").all_inner_texts()
    return shown


def test_talk_whispers_and_a_blind_roll(
    server: Any,
    gm_and_phone: Callable[..., Any],
    seats: Callable[..., Any],
    artifacts: Path,
    fate_sheet: str,
) -> None:
    gm, bo, room = gm_and_phone("The tavern", "fate", "Bo", fate_sheet, "Bob (fate)")
    cy = seats("Cy")
    cy.join(f"{server.url}/r/{room}")
    # the whispers follow who is here: Cy joined after Bo's page was drawn
    expect(bo.page.locator("#talk-to option", has_text="whisper to Cy")).to_have_count(1)
    whispers = ["whisper to Gemma (GM)", "whisper to Cy"]
    assert _choices(bo) == ["public", "to the GM", "to myself", *whispers]
    assert "GM secret" in _choices(gm) and "whisper to Bo" in _choices(gm)

    # said in public, with Enter: everyone reads the very words, as text
    _say(bo, SAID, enter=True)
    for seat in (gm, bo, cy):
        line = _line(seat, "**bold**")
        expect(line.locator(".words")).to_have_text(SAID)
        expect(line.locator(".who")).to_have_text("Bo")
        expect(line.locator(".badge.talk-to")).to_have_count(0)  # public: no mark
        expect(line.locator("img, b")).to_have_count(0)
    gm.shoot(artifacts, "talk-1-public")
    bo.shoot(artifacts, "talk-1-public")

    # a whisper to the GM, and the GM's answer: between the two of them only
    _say(bo, "I pocket the ring", "whisper to Gemma (GM)")
    expect(_line(bo, "pocket the ring").locator(".badge.talk-to")).to_have_text("whisper to Gemma")
    expect(_line(gm, "pocket the ring").locator(".badge.talk-to")).to_have_text("whispered to you")
    _say(gm, "Roll Deceive, quietly", "whisper to Bo")
    expect(_line(gm, "Deceive").locator(".badge.talk-to")).to_have_text("whisper to Bo")
    answer = _line(bo, "Deceive")
    expect(answer.locator(".badge.talk-to")).to_have_text("whispered to you")
    expect(answer.locator(".who")).to_have_text("Gemma")
    # a word to the GM and a note to self, each marked for whoever reads it
    _say(bo, "Bob eyes the door", "to the GM")
    expect(_line(gm, "eyes the door").locator(".badge.talk-to")).to_have_text("to the GM")
    _say(bo, "remember: the ring", "to myself")
    expect(_line(bo, "remember: the ring").locator(".badge.talk-to")).to_have_text("note to self")
    # Cy reads the public line said after them all: what came before is in, and
    # nothing hidden drew a line (the feed and the log are in seq order)
    _say(gm, "The barkeep looks up")
    _line(cy, "barkeep looks up")
    for hidden in ("pocket the ring", "Deceive", "eyes the door", "the ring"):
        assert hidden not in cy.page.locator("#history").inner_text()
    expect(cy.page.locator("#rolls .roll.talk")).to_have_count(2)
    _line(gm, "barkeep looks up")
    assert "remember" not in gm.page.locator("#history").inner_text()  # a note to self is Bo's only
    gm.shoot(artifacts, "talk-2-whispers")
    bo.shoot(artifacts, "talk-2-whispers")

    # a refusal (a control character) is shown once, by the box, and goes as one types
    bo.page.fill("#talk-text", "ding\u0007")
    bo.page.click("#talk-send")
    expect(bo.page.locator("#talk-status .error")).to_have_count(1)
    bo.page.locator("#talk-text").press_sequentially("x")
    expect(bo.page.locator("#talk-status .error")).to_have_count(0)

    blind_seq = _blind_rolls(gm, bo, cy)
    gm.shoot(artifacts, "talk-3-blind")
    bo.shoot(artifacts, "talk-3-blind")

    # read again from the log after a reload: the same lines, the same marks
    bo.page.reload()
    bo.wait_until_live()
    expect(_line(bo, "Deceive").locator(".badge.talk-to")).to_have_text("whispered to you")
    expect(_line(bo, "**bold**").locator(".words")).to_have_text(SAID)

    # the seed revealed: the blind roll is checked, on every page and in Bo's
    # own log, where it is opened; the whispers stay closed to Cy
    log = server.revealed_log(room, gm.stored()[room]["token"])
    assert fudgedice.verify(log).ok
    for seat in (bo, cy):
        expect(seat.card(blind_seq).locator(".badge.verified")).to_have_count(1)
    own = _log_of(server, room, bo)
    opened = [entry for entry in own["entries"] if entry["seq"] == blind_seq]
    assert "sneaking" in str(opened) and fudgedice.verify(own).ok
    assert "Deceive" not in str(_log_of(server, room, cy))
    assert "Deceive" not in cy.page.locator("#history").inner_text()
    assert not any(seat.dialogs for seat in (gm, bo, cy))


def _blind_rolls(gm: Any, bo: Any, cy: Any) -> int:
    """Bo rolls blind, typed and from a trait: Bo and Cy see a placeholder, the
    GM the dice; returns the typed roll's seq."""
    bo.roll("4dF+2", label="sneaking", visibility="blind")
    own = bo.page.locator("#rolls .roll.hidden-roll.vis-blind").first
    expect(own.locator(".placeholder")).to_have_text("Your blind roll: only the GM sees it")
    seq = _seq(own)
    card = gm.wait_for_roll(seq)
    expect(card.locator(".dice .die")).to_have_count(4)
    expect(card.locator(".label")).to_have_text("sneaking")
    expect(card.locator(".badge.vis-blind")).to_have_text("blind")
    other = cy.wait_for_roll(seq)
    expect(other.locator(".placeholder")).to_have_text("a blind roll: only the GM sees it")
    for seat in (bo, cy):
        expect(seat.card(seq).locator(".dice, .total, .label")).to_have_count(0)
        assert "sneaking" not in seat.page.locator("#history").inner_text()

    # a trait's button rolls as the roll box says: blind too
    bo.page.locator('#sheet-traits button[data-trait="Fight"]').click()
    trait = bo.card(seq + 1)
    expect(trait.locator(".placeholder")).to_have_text("Your blind roll: only the GM sees it")
    expect(gm.wait_for_roll(seq + 1).locator(".label")).to_contain_text("Fight")
    expect(trait.locator(".dice")).to_have_count(0)

    # Bo's own check of the rolls under their name: the two nonces the blind
    # rolls took unseen are no gap before the public roll after them
    bo.roll("4dF", visibility="public")
    expect(bo.wait_for_roll(seq + 2).locator(".dice .die")).to_have_count(4)
    bo.page.locator("#fairness summary").click()
    bo.page.click("#check-mine")
    checked = bo.page.locator("#mine-checked")
    expect(checked).to_contain_text(
        "The 1 roll under your name was sent from this browser, its nonce with no gap."
    )
    expect(checked).to_contain_text("Your 2 blind rolls are checked once the seed is revealed.")
    return seq
