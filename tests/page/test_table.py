"""Two players and a GM at one table, each in a browser of their own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

XSS_NAME = "<img src=x onerror=alert(1)>"


def _dice(seat: Any, seq: int) -> list[str | None]:
    return [die.get_attribute("data-face") for die in seat.card(seq).locator(".dice .die").all()]


def test_a_public_roll_reaches_everyone(server: Any, seats: Callable[..., Any]) -> None:
    gm, ann, bob = seats("Gemma"), seats("Ann"), seats("Bob")
    link = gm.create_room(server.url, "Friday game")
    ann.join(link)
    bob.join(link)
    ann.roll("4dF+1", label="sneak")
    mine = ann.wait_for_roll(1)
    expect(mine.locator(".who")).to_have_text("Ann")
    faces = _dice(ann, 1)
    assert len(faces) == 4 and all(face in {"+", " ", "-"} for face in faces), faces
    total = mine.locator(".total").inner_text()
    for other in (gm, bob):
        card = other.wait_for_roll(1)
        expect(card.locator(".who")).to_have_text("Ann")
        expect(card.locator(".label")).to_have_text("sneak")
        expect(card.locator(".total")).to_have_text(total)
        assert _dice(other, 1) == faces
        # drawn as faces: a Fudge die is +, blank or a minus sign, never a number
        shown = card.locator(".die .face").all_inner_texts()
        assert [{"+": "+", " ": "", "-": "\u2212"}[face or ""] for face in faces] == shown
    expect(gm.page.locator("#members")).to_contain_text("Ann")


def test_a_gm_secret_roll_is_a_placeholder_to_players(
    server: Any, seats: Callable[..., Any]
) -> None:
    gm, ann, bob = seats("Gemma"), seats("Ann"), seats("Bob")
    link = gm.create_room(server.url, "Secrets")
    ann.join(link)
    bob.join(link)
    gm.roll("Superb+3 vs Legendary", label="ambush-check", visibility="secret")
    own = gm.wait_for_roll(1)
    expect(own.locator(".badge.vis-secret")).to_have_text("GM secret")
    expect(own.locator(".label")).to_have_text("ambush-check")
    expect(own.locator(".dice .die")).to_have_count(4)
    for player in (ann, bob):
        card = player.wait_for_roll(1)
        expect(card).to_have_class("roll vis-secret hidden-roll")
        expect(card.locator(".placeholder")).to_be_visible()
        expect(card.locator(".who")).to_have_text("Gemma")
        assert card.locator(".dice, .total, .label, .notation, .explain").count() == 0
        history = player.page.locator("#history").inner_text()
        assert "ambush" not in history and "Legendary" not in history
    # the placeholder held its place: a public roll after it is seq 2 for everyone
    bob.roll("4dF")
    for seat in (gm, ann, bob):
        expect(seat.wait_for_roll(2).locator(".who")).to_have_text("Bob")
    # only the GM may roll in secret (anyone may roll blind); a player's roll
    # "to the GM" is the GM's and theirs
    visibilities = ann.page.locator("#roll-visibility option").evaluate_all(
        "options => options.map(option => option.value)"
    )
    assert visibilities == ["public", "gm", "self", "blind"]
    ann.roll("2d6", label="for-the-gm", visibility="gm")
    expect(gm.wait_for_roll(3).locator(".label")).to_have_text("for-the-gm")
    expect(ann.wait_for_roll(3).locator(".label")).to_have_text("for-the-gm")
    expect(bob.wait_for_roll(3)).to_have_class("roll vis-gm hidden-roll")
    ann.roll("2d6", label="mine-alone", visibility="self")
    expect(ann.wait_for_roll(4).locator(".label")).to_have_text("mine-alone")
    for other in (gm, bob):
        expect(other.wait_for_roll(4)).to_have_class("roll vis-self hidden-roll")
        assert "mine-alone" not in other.page.locator("#history").inner_text()


def test_a_name_of_markup_is_shown_as_text(server: Any, seats: Callable[..., Any]) -> None:
    gm, mallory = seats("Gemma"), seats(XSS_NAME)
    link = gm.create_room(server.url, "<b>room</b><script>alert(2)</script>")
    mallory.join(link)
    expect(mallory.page.locator("#room-title")).to_have_text("<b>room</b><script>alert(2)</script>")
    expect(mallory.page.locator("#me")).to_have_text(XSS_NAME)
    mallory.roll("4dF", label="<svg onload=alert(3)>")
    for seat in (gm, mallory):
        card = seat.wait_for_roll(1)
        expect(card.locator(".who")).to_have_text(XSS_NAME)
        expect(card.locator(".label")).to_have_text("<svg onload=alert(3)>")
    expect(gm.page.locator("#members")).to_contain_text(XSS_NAME)
    gm.page.select_option("#filter", label=XSS_NAME)
    expect(gm.card(1)).to_be_visible()
    for seat in (gm, mallory):
        page = seat.page
        # the page builds no image, no script of its own making and no svg but the chart
        assert page.locator("#main img, #main script, #rolls svg").count() == 0
        assert page.evaluate("() => document.querySelectorAll('[onerror], [onload]').length") == 0
        assert seat.dialogs == []


def test_the_phone_layout(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    phone = seats("Pat on a phone", width=375, height=812, is_mobile=True, has_touch=True)
    link = gm.create_room(server.url, "A room with a rather long name for a small screen", "d6")
    phone.join(link)
    page = phone.page
    page.click("#roll-more")  # the odds open above the docked roll line
    page.fill("#roll-text", "4D+2")
    page.fill("#roll-difficulty", "Moderate")
    expect(page.locator("#success")).to_contain_text("Chance of success vs Moderate")
    phone.roll("4D+2 vs Moderate", label="x" * 200)
    phone.assert_fits(375)
    # folded away again by the roll's result, the log in reach
    expect(page.locator("#roll-more")).to_have_attribute("aria-expanded", "false")
    gm.roll("3D+1 opp 4D cp2", label="Opposed-and-unbroken-" * 9)
    phone.wait_for_roll(2)
    page.locator("#rolls .roll .explain summary").first.click()
    page.locator("#fairness summary").click()
    phone.assert_fits(375)


def test_the_page_runs_only_its_own_files(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma")
    asked: list[str] = []
    gm.page.on("request", lambda request: asked.append(request.url))
    answer = gm.page.goto(server.url)
    assert answer is not None
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "'unsafe-inline'" not in policy
    gm.create_room(server.url, "Own files")
    gm.page.fill("#roll-text", "4dF")
    expect(gm.page.locator("#odds-chart")).to_be_visible()
    # no script is written into the page: every one is a file of the server's own
    inline = gm.page.evaluate("() => [...document.scripts].filter(script => !script.src).length")
    assert inline == 0
    elsewhere = [url for url in asked if not url.startswith((server.url, "data:"))]
    assert elsewhere == []
    # checked again at every load, so a new version of the page never runs beside an old one
    script = server.client.get("/static/main.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cache-control"] == "no-cache"
    assert server.client.get("/static/%2e%2e/app.py").status_code == 404
