"""A whole Fate scene in a real browser: the GM (on a laptop) sets two
situation aspects; a player on a 375 px phone creates an advantage with style
from a roll whose outcome is certain, invokes it twice for free and once with
a fate point, accepts the GM's compel, takes a hit and names the consequence;
a reload keeps everything; the GM awards a point, starts a new scene and spends
from the pool; and the room's log verifies, play entries and all.
Screenshots of each key state at 1280 and 375 px are kept to be looked at."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, expect

import fudgedice

WITH_STYLE = "fate: 4dF+10 vs 0"
"""+6 to +14 shifts whatever the dice: an advantage with style, two free invokes."""


def _card(seat: Any, text: str) -> Locator:
    """The newest card of this seat's rolls whose roll reads ``text``."""
    card: Locator = seat.page.locator("#rolls .roll", has_text=text).first
    return card


def _seq(card: Locator) -> int:
    return int(card.get_attribute("data-seq") or 0)


def _spent_on(seat: Any, seq: int) -> Locator:
    """The card of the point spent on roll ``seq``, once it is there."""
    card: Locator = seat.page.locator("#rolls .roll.spend", has_text=f"on roll {seq}")
    card.wait_for()
    return card


def _invoke(card: Locator, aspect: str, *, free: bool) -> None:
    """An invoke for +2 from ``card``: the aspect chosen, free or paid."""
    actions = card.locator(".play-actions")
    select = actions.locator("select.invoke-aspect")
    option = select.locator("option", has_text=aspect).first
    select.select_option(value=option.get_attribute("value"))
    actions.locator("select.invoke-how").select_option("invoke")
    box = actions.locator("input.invoke-free")
    if free:
        expect(box).to_be_checked()
    elif box.is_checked():
        box.uncheck()
    actions.locator("button.invoke").click()


def test_a_whole_fate_scene(
    server: Any, gm_and_phone: Callable[..., Any], artifacts: Path, fate_sheet: str
) -> None:
    bob = fate_sheet + 'Notice = "Fair"\n'
    gm, bo, room = gm_and_phone("The docks", "fate", "Bo", bob, "Bob (fate)")
    aspects = {who.name: who.page.locator("#scene-aspects") for who in (gm, bo)}

    # the GM sets two situation aspects; both reach the phone live
    for name in ("Stacked crates", "Thick <i>fog</i>"):
        gm.page.fill("#gm-aspect-name", name)
        gm.page.click("#gm-add-aspect")
        expect(aspects["Gemma"].locator(".aspect-name", has_text=name)).to_have_count(1)
    expect(aspects["Bo"].locator("li.situation .aspect-name")).to_have_text(
        ["Stacked crates", "Thick <i>fog</i>"]
    )
    expect(aspects["Bo"].locator("i")).to_have_count(0)  # a name is text, never markup
    # a third, with a free invoke the GM gives Bob, then removed
    gm.page.fill("#gm-aspect-name", "Loose rope")
    gm.page.select_option("#gm-aspect-free", "1")
    gm.page.select_option("#gm-aspect-holder", label="free invokes for Bob")
    gm.page.click("#gm-add-aspect")
    rope = aspects["Bo"].locator("li.aspect", has_text="Loose rope")
    expect(rope).to_contain_text("for Bob")
    expect(rope.locator(".free-invokes .sr")).to_have_text("1 free invoke")
    aspects["Gemma"].locator("li.aspect", has_text="Loose rope").locator("button.remove").click()
    expect(rope).to_have_count(0)
    gm.shoot(artifacts, "fate-scene-1-aspects")
    bo.shoot(artifacts, "fate-scene-1-aspects")

    # an advantage with style: two free invokes, held by Bo
    bo.roll(WITH_STYLE)
    style = _card(bo, "succeed with style")
    style.locator("input.advantage-name").fill("Higher ground")
    style.locator("button.advantage").click()
    ground = aspects["Gemma"].locator("li.aspect", has_text="Higher ground")
    expect(ground.locator(".free-invokes .sr")).to_have_text("2 free invokes")
    expect(ground).to_contain_text("for Bob")

    # two free invokes on one roll (each on the spend before it), then one paid on another
    bo.roll("fate: 4dF+1 vs 3")
    first = _card(bo, "4dF+1 vs 3")
    expect(first.locator(".play-actions")).to_be_visible()
    _invoke(first, "Higher ground", free=True)
    expect(aspects["Bo"].locator("li.aspect", has_text="Higher ground")).to_contain_text(
        "1 free invoke"
    )
    second = _spent_on(bo, _seq(first))
    _invoke(second, "Higher ground", free=True)
    _spent_on(bo, _seq(second))
    expect(
        aspects["Bo"].locator("li.aspect", has_text="Higher ground").locator(".free-invokes")
    ).to_have_count(0)
    expect(bo.page.locator("#sheet-points")).to_contain_text("Fate Points: 3")
    bo.roll("fate: 4dF vs 2")
    third = _card(bo, "4dF vs 2")
    expect(third.locator(".play-actions")).to_be_visible()
    _invoke(third, "Higher ground", free=False)
    _spent_on(bo, _seq(third))
    expect(bo.page.locator("#sheet-points")).to_contain_text("Fate Points: 2")
    # every page's card of a spend names the aspect invoked, and what paid for it
    paid = gm.card(_seq(third) + 1).locator(".spent")
    expect(paid).to_have_text(re.compile(r"Fate Point .*\(Higher ground\)$"))
    free = gm.card(_seq(second)).locator(".spent")
    expect(free).to_have_text(re.compile(r"^a free invoke spent: .*\(Higher ground\)$"))
    gm.shoot(artifacts, "fate-scene-2-invokes")
    bo.shoot(artifacts, "fate-scene-2-invokes")

    # the GM compels Bob's trouble; Bo accepts: a fate point
    gm.page.select_option("#gm-member", label="Bob")
    gm.page.fill("#gm-compel-aspect", "Hot-headed")
    gm.page.fill("#gm-compel-text", "You pick a fight with the harbour master.")
    gm.page.click("#gm-compel")
    compel = bo.page.locator("#compels .compel")
    expect(compel).to_contain_text("the harbour master")
    bo.shoot(artifacts, "fate-scene-3-compel")
    compel.locator("button.accept").click()
    expect(bo.page.locator("#compels .compel")).to_have_count(0)
    expect(bo.page.locator("#sheet-points")).to_contain_text("Fate Points: 3")
    party = gm.page.locator("#play-party .play-character", has_text="Bob")
    expect(party.locator(".points")).to_contain_text("Fate Points: 3")

    # a 4-shift hit: the 2 box and a mild consequence, which Bo names
    bob = gm.page.locator("#party .party-sheet", has_text="Bob (fate)")
    bob.locator("input.amount").fill("4")
    bob.locator("button.hit").click()
    taken = aspects["Bo"].locator("li.consequence")
    expect(taken).to_contain_text("(name this")
    taken.locator("input.rename").fill("Twisted ankle")
    taken.locator("button", has_text="Name it").click()
    expect(aspects["Gemma"].locator("li.consequence .aspect-name")).to_have_text("Twisted ankle")
    expect(aspects["Gemma"].locator("li.consequence")).to_contain_text("for Gemma")
    expect(bo.page.locator("#sheet li[data-slot='mild'] strong")).to_have_text("Twisted ankle")
    gm.shoot(artifacts, "fate-scene-4-consequence")
    bo.shoot(artifacts, "fate-scene-4-consequence")

    # a reload keeps everything
    bo.page.reload()
    bo.wait_until_live()
    expect(aspects["Bo"].locator(".aspect-name")).to_have_text(
        ["Stacked crates", "Thick <i>fog</i>", "Higher ground", "Twisted ankle"]
    )
    expect(bo.page.locator("#sheet-points")).to_contain_text("Fate Points: 3")
    expect(bo.page.locator("#compels .compel")).to_have_count(0)
    bo.assert_fits(375)
    gm.assert_fits(1280)

    # the GM's award reaches Bo's sheet; a new scene keeps only the consequence and
    # fills the GM's pool with one point a player character, which the GM spends
    gm.page.select_option("#gm-member", label="Bob")
    gm.page.click("#gm-award")
    expect(bo.page.locator("#sheet-points")).to_contain_text("Fate Points: 4")
    gm.page.fill("#gm-scene-name", "The warehouse")
    gm.page.click("#gm-scene")
    expect(aspects["Bo"].locator(".aspect-name")).to_have_text(["Twisted ankle"])
    scene = bo.page.locator("#scene-line")
    expect(scene).to_have_text("Scene 2: The warehouse \u00b7 session 1 \u00b7 GM pool: 1")
    gm.page.click("#gm-spend")
    expect(scene).to_contain_text("GM pool: 0")
    gm.page.click("#gm-spend")  # refused: the pool is empty, and the page says so
    expect(gm.page.locator("#play-status .error")).to_be_visible()
    expect(scene).to_contain_text("GM pool: 0")

    # a conflict Bob concedes: a fate point at its end
    gm.page.click("#initiative-setup summary")
    gm.page.click("#initiative-start")
    expect(bo.page.locator("#initiative-line")).to_contain_text("Round 1")
    gm.page.locator("#initiative-conceded label", has_text="Bob").locator("input").check()
    gm.shoot(artifacts, "fate-scene-6-conceded")
    gm.page.click("#initiative-end")
    expect(bo.page.locator("#initiative")).to_be_hidden()
    expect(bo.page.locator("#sheet-points")).to_contain_text("Fate Points: 5")

    # the log, play entries and all, verifies
    log = server.revealed_log(room, gm.stored()[room]["token"])
    kinds = [entry.get("kind") for entry in log["entries"]]
    assert kinds.count("play") >= 5, kinds  # 2 aspects, advantage, compel, accept (and more)
    report = fudgedice.verify(log)
    assert report.ok and report.complete, report
    assert re.search(r"Higher ground", str(log["entries"]))
