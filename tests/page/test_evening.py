"""An evening at the table, as each of the two people who spend it there
lives it. A player on a phone (375 x 740, touch): she joins from the share
link, makes her sheet from the room's template, rolls, sees the GM's rolls
arrive while she reads her sheet, talks, whispers to the GM, rolls blind,
saves a favourite and rolls it. The GM on a laptop (1280 px): he makes the
room, reads a player's talk, whisper and blind roll in full, answers the
whisper, rolls in secret and reveals the seed. Each evening ends with its
log checked as ``fudgedice verify`` checks it. The other person at the table
acts through the API, as their own page would (a fresh client seed to each
roll). Every state is shot through ``Seat.shoot``: at 375 and 1280 px, each
checked by axe."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from secrets import token_hex
from typing import Any

from click.testing import CliRunner
from playwright.sync_api import Locator, Page, expect

import fudgedice
from fudgedice import sheets
from fudgedice.cli import main

PHONE = {"width": 375, "height": 740, "is_mobile": True, "has_touch": True}


def _talk(server: Any, room: str, token: str, text: str, **to: str) -> dict[str, Any]:
    """``text`` said in ``room`` by the member of ``token`` (to whom ``to`` says)."""
    headers = {"Authorization": f"Bearer {token}"}
    said = server.client.post(f"/api/rooms/{room}/talk", json={"text": text, **to}, headers=headers)
    assert said.status_code == 201, said.text
    entry: dict[str, Any] = said.json()
    return entry


def _log(server: Any, room: str, token: str) -> dict[str, Any]:
    """The room's log as the member of ``token`` downloads it."""
    headers = {"Authorization": f"Bearer {token}"}
    answer = server.client.get(f"/api/rooms/{room}/log", headers=headers)
    assert answer.status_code == 200, answer.text
    log: dict[str, Any] = answer.json()
    return log


def _line(page: Page, words: str) -> Locator:
    """The talk entry of the page's log that says ``words``, once it is there."""
    line = page.locator("#rolls .roll.talk", has=page.locator(".words", has_text=words))
    expect(line).to_have_count(1)
    return line


def _say(page: Page, words: str, to: str) -> None:
    """``words`` said from the talk box to ``to`` (its choice's label), by touch."""
    page.locator("#talk-to").select_option(label=to)
    page.fill("#talk-text", words)
    page.locator("#talk-send").tap()
    expect(page.locator("#talk-text")).to_have_value("")


def _seq(card: Locator) -> int:
    return int(card.get_attribute("data-seq") or 0)


def _rolled_here(page: Page, card: Locator, label: str) -> None:
    """``card``, this player's newest roll, is also shown where she rolled."""
    result = page.locator("#roll-result")
    expect(result).to_be_in_viewport()
    expect(result.locator(".label")).to_have_text(label)
    expect(result.locator(".result")).to_have_text(card.locator(".result").text_content() or "")


def test_a_phone_players_evening(server: Any, seats: Callable[..., Any], artifacts: Path) -> None:
    created = server.room("Friday game", system="fate", gm_name="Gemma")
    room, gm = created["room"], created["gm_token"]
    pia = seats("Pia", **PHONE)
    page = pia.page
    # joined from the share link, her work goes on at the roll's text
    page.goto(f"{server.url}/r/{room}")
    expect(page.locator("#join-name")).to_be_focused()
    pia.shoot(artifacts, "evening-1-join")
    page.fill("#join-name", "Pia")
    page.locator("#join button[type=submit]").tap()
    pia.wait_until_live()
    expect(page.locator("#roll-text")).to_be_focused()
    member = pia.stored()[room]["member"]

    # a sheet from the room's template: a Fate sheet, named after her, saved as it is
    page.locator("#parts button", has_text="Sheet").tap()
    page.locator("#sheet-template").tap()
    expect(page.locator("#sheet-text")).to_have_value(sheets.new_sheet("fate", "Pia"))
    page.locator("#sheet-save").tap()
    expect(page.locator("#sheet-title")).to_have_text("Pia (fate)")
    expect(page.locator("#sheet-title")).to_be_focused()
    expect(page.locator("#sheet .aspects-own")).to_have_count(0)  # none filled in yet
    pia.wait_for_roll(1)  # the sheet's change, in the log
    pia.shoot(artifacts, "evening-2-sheet")

    # a trait's button rolls by name, and the result shows where she rolled
    page.locator('#sheet-traits button[data-trait="Fight"]').tap()
    _rolled_here(page, pia.wait_for_roll(2), "Pia, Fight")
    # reading her sheet, the log's newest out of sight: the GM's rolls make a pill
    expect(pia.card(2)).not_to_be_in_viewport()
    server.roll(room, gm, "4dF+2 #the guard swings", client_seed=token_hex(16))
    server.roll(room, gm, "4dF #the dog barks", client_seed=token_hex(16))
    pill = page.locator("#new-rolls")
    expect(pill).to_have_text("\u2191 2 new entries")
    expect(pill).to_be_in_viewport()
    expect(page.locator("#live")).to_be_in_viewport()
    # axe on this state as it is: at 1280 px (shoot's other width) the log's
    # newest would be in sight, and the pill rightly gone
    pia.assert_accessible("the pill")
    page.screenshot(path=artifacts / "evening-3-pill-Pia-375.png")
    pill.tap()
    expect(pia.card(4)).to_be_in_viewport()
    expect(pia.card(4).locator(".label")).to_have_text("the dog barks")
    expect(pill).to_be_hidden()

    # talk, and a whisper to the GM that the GM answers
    _say(page, "Can I climb the wall?", "public")
    expect(_line(page, "climb the wall").locator(".who")).to_have_text("Pia")
    _say(page, "I hide the ring in my boot", "whisper to Gemma (GM)")
    whisper = _line(page, "ring in my boot")
    expect(whisper.locator(".badge.talk-to")).to_have_text("whisper to Gemma")
    _talk(server, room, gm, "Nobody saw. Roll Stealth.", visibility="whisper", to=member)
    answer = _line(page, "Nobody saw")
    expect(answer.locator(".who")).to_have_text("Gemma")
    expect(answer.locator(".badge.talk-to")).to_have_text("whispered to you")
    pia.shoot(artifacts, "evening-4-talk")

    # a blind roll: a placeholder to her, the roll to the GM; then back to public
    page.locator("#roll-visibility").select_option("blind")
    expect(page.locator("#roll-visibility-badge")).to_have_text("blind: GM only")
    page.fill("#roll-text", "4dF+1 #stealth")
    page.locator("#roll-submit").tap()
    blind = page.locator("#rolls .roll.vis-blind.hidden-roll").first
    expect(blind.locator(".placeholder")).to_have_text("Your blind roll: only the GM sees it")
    blind_seq = _seq(blind)
    assert "stealth" not in page.locator("#history").inner_text()
    expect(page.locator("#roll-result .placeholder")).to_have_text(
        "Your blind roll: only the GM sees it"
    )
    pia.shoot(artifacts, "evening-5-blind")
    # what the next roll goes out with, on the roll line, and one tap back to public
    expect(page.locator("#roll-visibility-badge")).to_be_in_viewport()
    page.locator("#roll-back-public").tap()
    expect(page.locator("#roll-visibility")).to_have_value("public")
    seen_by_gm = [e for e in _log(server, room, gm)["entries"] if e["seq"] == blind_seq]
    assert "stealth" in str(seen_by_gm), seen_by_gm

    # a favourite saved (its label behind "More"), then rolled in one tap
    page.fill("#roll-text", "4dF+3")
    page.locator("#roll-more").tap()
    page.fill("#roll-label", "all-out attack")
    page.locator("#favourite-save").tap()
    chip = page.locator("#favourites button.favourite")
    expect(chip).to_have_text(["all-out attack"])
    pia.shoot(artifacts, "evening-6-favourite")
    page.fill("#roll-text", "")
    chip.tap()
    card = pia.wait_for_roll(blind_seq + 1)
    expect(card.locator(".label")).to_have_text("all-out attack")
    expect(card.locator(".notation")).to_have_text("fate: 4dF+3")
    # the box folded by the result, which shows above the roll line; the chip stays on it
    expect(page.locator("#roll-more")).to_have_attribute("aria-expanded", "false")
    _rolled_here(page, card, "all-out attack")
    expect(chip).to_be_in_viewport()
    pia.shoot(artifacts, "evening-7-rolled")

    # the evening's end: the seed revealed, her blind roll checked on her page, the log verified
    log = server.revealed_log(room, gm)
    report = fudgedice.verify(log)
    assert report.ok, report
    expect(pia.card(blind_seq).locator(".badge.verified")).to_have_count(1)
    assert fudgedice.verify(_log(server, room, pia.stored()[room]["token"])).ok
    assert pia.dialogs == []


def test_the_laptop_gms_evening(
    server: Any, seats: Callable[..., Any], artifacts: Path, tmp_path: Path
) -> None:
    gemma = seats("Gemma", width=1280, height=800)
    page = gemma.page
    link = gemma.create_room(server.url, "Friday game", "fate")
    expect(page.locator("#room-title")).to_be_focused()  # the room made: read from its name on
    room = link.rsplit("/", 1)[1]
    gemma.shoot(artifacts, "evening-gm-1-room")

    # a player joins from the link and, from her phone, talks, whispers and rolls blind
    pia = server.join(room, "Pia")
    expect(page.locator("#members")).to_contain_text("Pia")
    _talk(server, room, pia["token"], "Evening, all!")
    gm_member = gemma.stored()[room]["member"]
    _talk(server, room, pia["token"], "I pocket the ring", visibility="whisper", to=gm_member)
    blind = server.roll(
        room, pia["token"], "4dF+2 #sneaking past", visibility="blind", client_seed=token_hex(16)
    )
    # he reads each of them in full
    expect(_line(page, "Evening, all!").locator(".who")).to_have_text("Pia")
    whisper = _line(page, "pocket the ring")
    expect(whisper.locator(".badge.talk-to")).to_have_text("whispered to you")
    card = gemma.wait_for_roll(blind["seq"])
    expect(card.locator(".badge.vis-blind")).to_have_text("blind")
    expect(card.locator(".label")).to_have_text("sneaking past")
    expect(card.locator(".dice .die")).to_have_count(4)
    expect(card.locator(".result")).to_be_visible()
    gemma.shoot(artifacts, "evening-gm-2-player")

    # he answers the whisper: Pia reads it, nobody else could
    page.locator("#talk-to").select_option(label="whisper to Pia")
    page.fill("#talk-text", "The guard did not see.")
    page.press("#talk-text", "Enter")
    expect(page.locator("#talk-text")).to_have_value("")
    expect(_line(page, "did not see").locator(".badge.talk-to")).to_have_text("whisper to Pia")
    assert "The guard did not see." in str(_log(server, room, pia["token"])["entries"])

    # a secret roll: his own to read, a placeholder to her
    gemma.roll("Superb vs Legendary", label="the dragon wakes?", visibility="secret")
    secret = page.locator("#rolls .roll.vis-secret").first
    expect(secret.locator(".badge.vis-secret")).to_have_text("GM secret")
    expect(secret.locator(".label")).to_have_text("the dragon wakes?")
    secret_seq = _seq(secret)
    theirs = [e for e in _log(server, room, pia["token"])["entries"] if e["seq"] == secret_seq]
    assert theirs and theirs[0]["hidden"] and "dragon" not in str(theirs), theirs
    gemma.shoot(artifacts, "evening-gm-3-secret")

    # the reveal: two clicks, then every hidden roll of the seed is checked on his page
    page.locator("#fairness summary").click()
    page.click("#reveal")
    page.click("#reveal")
    for seq in (blind["seq"], secret_seq):
        expect(gemma.card(seq).locator(".badge.verified")).to_have_count(1)
    noted = (secret.locator(".hash-line code.hash").get_attribute("title") or "").split()[0]
    with page.expect_download() as downloading:
        page.click("#download-log")
    text = gemma.read(downloading.value)
    assert fudgedice.verify(json.loads(text)).ok
    kept = tmp_path / "log.json"
    kept.write_text(text, "utf-8")
    checked = CliRunner().invoke(main, ["verify", str(kept), "--hash", noted])
    assert checked.exit_code == 0, checked.output
    gemma.shoot(artifacts, "evening-gm-4-revealed")
    assert gemma.dialogs == []
