"""The small things an evening at the table shows: a bad roll's error said
once, a D6 roll's odds chart that keeps to where its chances are (its labels
apart on a phone), a card's date and the hash to note for ``verify --hash``,
a roll kept to oneself badged for whoever reads it, and a Fate room's results
that leave its ladder's name to the room."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from playwright.sync_api import Page, expect

from fudgedice.cli import main

BOXES = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
  const box = node.getBoundingClientRect();
  return [box.left, box.right, box.top, box.bottom];
})"""


def _boxes(page: Page, selector: str) -> list[list[float]]:
    boxes: list[list[float]] = page.evaluate(BOXES, selector)
    return boxes


def test_a_d6_rolls_odds_keep_to_its_chances_on_a_phone(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    gm = seats("Gemma", width=1280)
    phone = seats("Pia", width=375, height=740)
    phone.join(gm.create_room(server.url, "Wild dice", "d6"))
    page = phone.page
    page.fill("#roll-text", "3D")
    page.click("#roll-more")  # on a phone, the odds are behind "More"
    bars = page.locator("#odds-chart rect")
    expect(bars.last).to_have_attribute("data-tail", "more")
    # 3D's Wild Die explodes to 100 and past; the chart stops where 1 roll in 200 is left
    values = [int(bar.get_attribute("data-value") or 0) for bar in bars.all()]
    assert values == list(range(values[0], values[-1] + 1)) and 15 <= len(values) <= 30
    assert values[0] == 4 and bars.first.get_attribute("data-tail") == "less"
    expect(bars.last.locator("title")).to_contain_text(f"{values[-1]} or more: ")
    expect(page.locator("#odds .tails")).to_have_text(
        f"The bars at the ends hold the rare rest: 4 or less, {values[-1]} or more."
    )
    chart = _boxes(page, "#odds-chart")[0]
    drawn = _boxes(page, "#odds-chart rect")
    assert drawn[-1][1] > chart[0] + 0.9 * (chart[1] - chart[0])  # the bars fill the width
    labels = _boxes(page, "#odds-chart text")
    texts = [label.text_content() for label in page.locator("#odds-chart text").all()]
    assert texts[0] == "\u22644" and texts[-1] == f"{values[-1]}+"
    assert 5 <= len(labels) <= 10
    for left, right in pairwise(sorted(labels)):
        assert left[1] <= right[0], f"labels overlap: {texts}"
    assert all(chart[0] - 1 <= box[0] and box[1] <= chart[1] + 1 for box in labels)
    phone.shoot(artifacts, "edges-d6-odds")


def _one_error(page: Page) -> None:
    """The roll box shows one error, in the roll's status, whatever the odds do."""
    expect(page.locator("#roll-status .error")).to_have_count(1)
    expect(page.locator("#odds:not([aria-busy])")).to_have_count(1)
    expect(page.locator("#roll-form .error")).to_have_count(1)
    expect(page.locator("#roll-form .error > p:first-child")).to_have_count(1)


def test_a_bad_roll_says_its_error_once(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    gm.create_room(server.url, "Typos")
    page = gm.page
    page.fill("#roll-text", "4dF+")
    expect(page.locator("#odds .error")).to_contain_text("unexpected end of the roll")
    page.click("#roll-submit")
    _one_error(page)
    expect(page.locator("#roll-status .error")).to_contain_text("unexpected end of the roll")
    # sent before its odds were asked: the odds' answer does not say it again
    with page.expect_response(lambda answer: "/api/odds" in answer.url and "%2B%2B" in answer.url):
        page.fill("#roll-text", "4dF++")
        page.press("#roll-text", "Enter")
    _one_error(page)
    # typing again: the roll's error goes, the odds say what is wrong now
    page.fill("#roll-text", "4dF+1+")
    expect(page.locator("#roll-status .error")).to_have_count(0)
    expect(page.locator("#odds .error")).to_have_count(1)


def test_a_card_dates_its_roll_shows_its_hash_and_badges_it_for_its_reader(
    server: Any, seats: Callable[..., Any], artifacts: Path, tmp_path: Path
) -> None:
    gm = seats("Gemma", width=1280)
    clipboard = ["clipboard-read", "clipboard-write"]
    phone = seats("Pia", width=375, height=740, timezone_id="UTC", permissions=clipboard)
    link = gm.create_room(server.url, "Hashes")
    room = link.rsplit("/", 1)[1]
    phone.join(link)
    phone.roll("4dF+1", visibility="self", label="my secret plan")
    mine = phone.wait_for_roll(1)
    expect(mine.locator(".badge.vis-self")).to_have_text("to yourself")
    theirs = gm.wait_for_roll(1)
    expect(theirs.locator(".badge.vis-self")).to_have_text("to themself")
    expect(theirs.locator(".placeholder")).to_have_text("a roll kept to themself: hidden")

    # the date and the time, the exact moment in its title
    at = mine.locator("time").get_attribute("datetime") or ""
    day = datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(UTC)
    assert mine.locator("time").get_attribute("title") == at
    shown = mine.locator("time").inner_text()
    assert str(day.day) in shown.split() or f"{day.day}," in shown, shown
    assert day.strftime("%b") in shown and re.search(r"\d\d:\d\d", shown), shown

    # the hash: its first 16 hex digits shown, SEQ:HASH copied for verify --hash
    code = mine.locator(".hash-line code.hash")
    expect(code).to_have_text(re.compile(r"^[0-9a-f]{16}$"))
    mine.locator("button.copy-hash").click()
    expect(mine.locator("button.copy-hash")).to_have_text("copied")
    noted = phone.page.evaluate("() => navigator.clipboard.readText()")
    assert re.fullmatch(r"1:[0-9a-f]{64}", noted) and noted[2:].startswith(code.inner_text())
    assert noted in (code.get_attribute("title") or "")

    token = gm.stored()[room]["token"]
    log = tmp_path / "log.json"
    log.write_text(json.dumps(server.revealed_log(room, token)), "utf-8")
    checked = CliRunner().invoke(main, ["verify", str(log), "--hash", noted])
    assert checked.exit_code == 0, checked.output
    assert "the 1 roll follows from its revealed seed" in checked.output
    forged = CliRunner().invoke(main, ["verify", str(log), "--hash", "1:" + "0" * 16])
    assert forged.exit_code == 1, forged.output

    phone.page.locator("#fairness summary").click()
    phone.page.click("#check-mine")
    expect(phone.page.locator("#mine-checked")).to_have_text(
        "The 1 roll under your name was sent from this browser, its nonce the first."
    )
    phone.shoot(artifacts, "edges-hash")
    gm.shoot(artifacts, "edges-hash")


def test_a_fate_room_names_its_ladder_once(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma", width=1280)
    gm.create_room(server.url, "The docks", "fate")
    page = gm.page
    expect(page.locator(".badge.system")).to_have_text("Fate Core")
    gm.roll("Good opp Fair")
    card = gm.wait_for_roll(1)
    expect(card.locator(".word")).to_have_text(re.compile(r"^([+-]\d+|0) shifts?: [a-z ]+$"))
    expect(card.locator(".side-result")).to_have_count(2)
    gm.roll("Good vs Great")
    expect(gm.wait_for_roll(2).locator(".word")).to_have_text(
        re.compile(r"^[+-]\d \w+ vs \+4 Great: [a-z ]+, [+-]?\d shifts?$")
    )
    # another system's ladder than the room's is named
    gm.roll("fatecondensed: Good vs Fair")
    expect(gm.wait_for_roll(3).locator(".word")).to_contain_text(" (Fate Condensed): ")
    said = page.locator("#rolls").inner_text()
    assert "Fate Core" not in said, said  # the explanations, folded, are the engine's own
