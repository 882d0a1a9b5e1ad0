"""The roll box, the history and the fairness panel, in a browser."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect


def test_the_odds_of_what_is_typed(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    gm.create_room(server.url, "Odds")
    page = gm.page
    page.fill("#roll-text", "Good")
    page.fill("#roll-difficulty", "Great")
    # Good (+1) + 4dF against Great (+2): the dice must show +1 or better, 31 of 81 ways
    expect(page.locator("#success")).to_contain_text("31/81 (38.27%)")
    expect(page.locator("#odds-chart rect")).to_have_count(9)  # -3 .. +5
    values = [rect.get_attribute("data-value") for rect in page.locator("#odds-chart rect").all()]
    assert values == [str(value) for value in range(-3, 6)]
    page.fill("#roll-text", "Good vs Great #attack")
    # the text names its own difficulty: the field's, typed still, does not apply to it
    expect(page.locator("#difficulty-note")).to_contain_text("does not apply")
    expect(page.locator('#odds dd[data-event="success"]')).to_have_text("31/81 (38.27%)")
    page.fill("#roll-text", "4dF+")
    error = page.locator("#odds .error")
    expect(error).to_contain_text("unexpected end of the roll at column 5")
    # the caret stands under the column the message names
    expect(error.locator("pre.caret")).to_have_text("4dF+\n    ^")


def test_dice_read_by_hand(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    gm.create_room(server.url, "Read")
    page = gm.page
    page.check("#roll-read")
    page.fill("#roll-text", "4dF+1")
    page.fill("#roll-faces", "+ + - 0")
    page.click("#roll-submit")
    card = gm.wait_for_roll(1)
    expect(card.locator(".badge.hand")).to_have_text("by hand")
    expect(card.locator(".total")).to_have_text("2")
    expect(card.locator(".word")).to_have_text("+2 Great")
    faces = [die.get_attribute("data-face") for die in card.locator(".die").all()]
    assert faces == ["+", "+", "-", " "]
    page.fill("#roll-faces", "+ +")
    page.click("#roll-submit")
    expect(page.locator("#roll-status .error")).to_be_visible()
    expect(page.locator("#rolls .roll")).to_have_count(1)


def test_the_wild_die_pips_and_struck_dice(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    gm.create_room(server.url, "D6", "d6")
    page = gm.page
    page.check("#roll-read")
    page.fill("#roll-text", "4D+2 vs Moderate")
    page.fill("#roll-faces", "4 2 3 w5")
    page.click("#roll-submit")
    card = gm.wait_for_roll(1)
    dice = card.locator(".die")
    expect(dice).to_have_count(4)
    expect(card.locator(".die.wild")).to_have_count(1)
    expect(card.locator(".die.wild .tag")).to_have_text("W")
    expect(card.locator(".die.wild")).to_have_attribute("data-face", "5")
    # a d6 is drawn with pips: as many as its face
    assert [die.locator(".pip").count() for die in dice.all()] == [4, 2, 3, 5]
    expect(card.locator(".total")).to_have_text("16")
    expect(card.locator(".verdict")).to_have_text("success")
    # a Wild Die's 1 under crit=cancel takes itself and the highest die away: both struck
    page.fill("#roll-text", "3D crit=cancel")
    page.fill("#roll-faces", "5 2 w1")
    page.click("#roll-submit")
    card = gm.wait_for_roll(2)
    expect(card.locator(".die.struck")).to_have_count(2)
    expect(card.locator(".die:not(.struck)")).to_have_attribute("data-face", "2")
    expect(card.locator(".die.wild.struck")).to_have_attribute(
        "title", "1 · cancelled, wild · critical failure"
    )
    expect(card.locator(".total")).to_have_text("2")
    page.uncheck("#roll-read")
    page.fill("#roll-text", "4d6kh3")
    page.click("#roll-submit")
    expect(page.locator("#roll-status .error")).to_contain_text("die codes, not 4d6kh3")
    page.fill("#roll-text", "fudge: 4d6kh3")
    page.click("#roll-submit")
    dropped = gm.wait_for_roll(3).locator(".die.struck")
    expect(dropped).to_have_count(1)
    expect(dropped).to_have_attribute("title", re.compile(r"^\d · dropped · lowest$"))


def test_history_pages_filters_and_exports(server: Any, seats: Callable[..., Any]) -> None:
    created = server.room("History")
    room, gm_token = created["room"], created["gm_token"]
    ann, bob = server.join(room, "Ann"), server.join(room, "Bob")
    for turn in range(30):
        who = bob if turn % 3 == 0 else ann
        server.roll(room, who["token"], f"{turn + 1}d6")
    gm = seats("Gemma")
    asked: list[str] = []
    gm.page.on("request", lambda request: asked.append(request.url))
    # the GM's own link carries the token in its fragment, which the page keeps and hides
    gm.page.goto(f"{server.url}/r/{room}#token={gm_token}")
    first = gm.wait_for_roll(30)
    assert gm.page.url == f"{server.url}/r/{room}"
    assert gm.stored()[room]["gm"] is True
    expect(first.locator(".notation")).to_have_text("30d6")
    cards = gm.page.locator("#rolls .roll")
    expect(cards).to_have_count(25)  # one page
    gm.page.click("#older")
    expect(cards).to_have_count(30)
    expect(gm.page.locator("#older")).to_be_hidden()
    seqs = [int(card.get_attribute("data-seq") or 0) for card in cards.all()]
    assert seqs == list(range(30, 0, -1))  # newest first

    gm.page.select_option("#filter", label="Bob")
    expect(cards).to_have_count(10)
    assert {card.get_attribute("data-member") for card in cards.all()} == {bob["member"]}
    with gm.page.expect_download() as caught:
        gm.page.click("#export-json")
    exported: dict[str, Any] = json.loads(gm.read(caught.value))
    assert [roll["seq"] for roll in exported["rolls"]] == list(range(1, 31, 3))
    assert {roll["name"] for roll in exported["rolls"]} == {"Bob"}
    with gm.page.expect_download() as caught:
        gm.page.click("#export-csv")
    rows = list(csv.DictReader(io.StringIO(gm.read(caught.value))))
    assert [int(row["seq"]) for row in rows] == list(range(1, 31, 3))

    # a roll of someone else, made while the filter is on, stays out of the list
    server.roll(room, ann["token"], "d6")
    server.roll(room, bob["token"], "d8")
    expect(gm.wait_for_roll(32).locator(".notation")).to_have_text("d8")
    expect(gm.card(31)).to_have_count(0)
    gm.page.select_option("#filter", label="Everyone")
    expect(gm.wait_for_roll(31).locator(".notation")).to_have_text("d6")
    # the token went only in headers: no address the page asked for holds it
    assert any("/live" in url for url in asked) and any("/export" in url for url in asked)
    assert [url for url in asked if gm_token in url] == []


def test_a_reveal_marks_every_roll_verified(server: Any, seats: Callable[..., Any]) -> None:
    gm, ann = seats("Gemma"), seats("Ann")
    link = gm.create_room(server.url, "Reveal")
    ann.join(link)
    commitment = gm.page.locator("#commitment").inner_text()
    assert len(commitment) == 64
    expect(ann.page.locator("#commitment")).to_have_text(commitment)
    ann.page.locator("#fairness summary").click()
    ann.page.fill("#client-seed", "lucky")
    ann.page.locator("#client-seed").dispatch_event("change")
    ann.roll("4dF+1")
    ann.roll("2d6", visibility="gm")
    gm.roll("Good vs Great", visibility="secret")
    for seq in (1, 2, 3):
        gm.wait_for_roll(seq)
        ann.wait_for_roll(seq)
    expect(gm.page.locator("#rolls .badge.verified")).to_have_count(0)
    gm.page.locator("#fairness summary").click()
    gm.page.click("#reveal")
    gm.page.click("#reveal")  # the second click reveals
    for seat in (gm, ann):
        expect(seat.page.locator("#rolls .badge.verified")).to_have_count(3)
        expect(seat.page.locator("#seeds li")).to_have_count(2)
        expect(seat.page.locator("#seeds li").first).to_contain_text("revealed seed")
        expect(seat.page.locator("#commitment")).not_to_have_text(commitment)
    # Ann's roll used her client seed; the GM's secret stays a placeholder to her
    expect(ann.card(3)).to_have_class("roll vis-secret hidden-roll")
    with ann.page.expect_download() as caught:
        ann.page.click("#download-log")
    log = json.loads(ann.read(caught.value))
    assert [entry["seq"] for entry in log["entries"]] == [1, 2, 3]
    assert log["entries"][0]["client_seed"] == "lucky"


def test_the_feed_reconnects_and_misses_nothing(
    servers: Callable[..., Any], seats: Callable[..., Any]
) -> None:
    first = servers()
    gm = seats("Gemma")
    room = gm.create_room(first.url, "Outage").rsplit("/", 1)[1]
    gm.roll("4dF")
    gm.wait_for_roll(1)
    first.process.kill()  # SIGKILL: the feed breaks with no goodbye
    first.process.wait(timeout=30)
    expect(gm.page.locator("#live")).to_have_text("reconnecting")
    second = servers(port=first.port)
    second.roll(room, gm.stored()[room]["token"], "3d6", label="while the page was away")
    expect(gm.wait_for_roll(2).locator(".label")).to_have_text("while the page was away")
    expect(gm.page.locator("#live")).to_have_text("live")
    expect(gm.page.locator("#rolls .roll")).to_have_count(2)


def test_every_example_offered_is_a_roll(server: Any, seats: Callable[..., Any]) -> None:
    for system in ("fudge", "power", "3d6fudge", "d6"):
        gm = seats(f"GM of {system}")
        gm.create_room(server.url, f"Examples of {system}", system)
        page = gm.page
        chips = page.locator(".examples .chip")
        examples = chips.all_inner_texts()
        assert len(examples) >= 4
        for seq, example in enumerate(examples, 1):
            chips.nth(seq - 1).click()
            expect(page.locator("#roll-text")).to_have_value(example)
            expect(page.locator("#odds .notation")).to_contain_text(example)
            expect(page.locator("#odds .error")).to_have_count(0)
            page.click("#roll-submit")
            expect(gm.wait_for_roll(seq).locator(".notation")).to_contain_text(example)
        expect(page.locator("#roll-status .error")).to_have_count(0)


def test_the_gms_rolls_are_marked_by_member_not_name(
    server: Any, seats: Callable[..., Any]
) -> None:
    created = server.room("Who rolled", gm_name="Gemma")
    room, gm_token = created["room"], created["gm_token"]
    # a player may not be called "GM" or anything that reads as it (409), but
    # may come near; only the member id the server gave the GM earns the badge
    mallory = server.join(room, "The GM")
    server.roll(room, gm_token, "4dF")
    server.roll(room, mallory["token"], "4dF")
    ann = seats("Ann")
    ann.join(f"{server.url}/r/{room}")
    by_gm, by_mallory = ann.wait_for_roll(1), ann.wait_for_roll(2)
    expect(by_gm.locator(".badge.gm")).to_have_text("GM")
    expect(by_mallory.locator(".who")).to_have_text("The GM")
    expect(by_mallory.locator(".badge.gm")).to_have_count(0)


def test_a_fate_room_made_on_the_page(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    gm.create_room(server.url, "Fate", "fate")
    page = gm.page
    expect(page.locator(".badge.system")).to_have_text("Fate Core")
    # the roll box offers Fate's own examples, read on Fate's ladder
    expect(page.locator(".examples")).to_contain_text("Good+2 vs Great")
    page.check("#roll-read")
    page.fill("#roll-text", "Good+2 vs Great")
    page.fill("#roll-faces", "+ 0 - 0")
    page.click("#roll-submit")
    card = gm.wait_for_roll(1)
    # Good is +3 on Fate's ladder: +3 +2 and dice summing 0 is +5 Superb, one shift over Great
    expect(card).to_contain_text("+5 Superb")
    expect(card).to_contain_text("succeed, +1 shift")
