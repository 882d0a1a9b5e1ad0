"""A GM deletes the room from the page: behind a confirmation that offers the
log first (downloaded, it verifies), then the room is gone for everyone, a
player's page told by the live feed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from playwright.sync_api import expect

from fudgedice.cli import main


def test_a_gm_deletes_the_room_after_downloading_its_log(
    server: Any, seats: Callable[..., Any], artifacts: Path, tmp_path: Path
) -> None:
    gm = seats("Gemma", width=1280)
    phone = seats("Pia", width=375, height=800)
    link = gm.create_room(server.url, "Short lived")
    room = link.rsplit("/", 1)[1]
    phone.join(link)
    phone.roll("4dF+1")
    gm.wait_for_roll(1)
    expect(phone.page.locator("#delete-room")).to_have_count(0)  # the GM's alone

    page = gm.page
    page.locator("#fairness summary").click()
    page.click("#delete-room")
    box = page.locator("#delete-box")
    expect(box).to_be_visible()
    expect(page.locator("#delete-room")).to_have_attribute("aria-expanded", "true")
    gm.shoot(artifacts, "delete-confirm")
    page.click("#delete-cancel")  # kept: nothing happens
    expect(box).to_be_hidden()
    page.click("#delete-room")
    with page.expect_download() as caught:
        page.click("#delete-download")
    log = tmp_path / "log.json"
    log.write_text(gm.read(caught.value), "utf-8")
    checked = CliRunner().invoke(main, ["verify", str(log)])
    assert checked.exit_code in (0, 3), checked.output  # nothing fails; the seed not revealed

    page.click("#delete-confirm")
    expect(page.locator("#room-gone")).to_have_text("This room was deleted")
    expect(phone.page.locator("#room-gone")).to_have_text("This room was deleted")
    assert room not in gm.stored() and room not in phone.stored()
    gm.shoot(artifacts, "delete-done")
    phone.page.goto(link)  # the link leads nowhere now
    expect(phone.page.locator("#join")).to_be_visible()
    phone.page.fill("#join-name", "Pia")
    phone.page.click("#join button[type=submit]")
    expect(phone.page.locator("#join .error")).to_contain_text("no such room")
