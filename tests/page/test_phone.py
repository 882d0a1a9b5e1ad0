"""The table on a phone (375 x 740, touch) through an evening: the log and
the roll line on one screen, your result where you rolled, a pill for the
entries that came while you read older ones, the connection's state always
in sight; and what a tab left in the background says: its title counts the
new entries, and a notification (asked for) tells of a mention or a compel.
The laptop keeps its two columns."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from secrets import token_hex
from typing import Any

from playwright.sync_api import FloatRect, Locator, Page, expect

PHONE = {"width": 375, "height": 740, "is_mobile": True, "has_touch": True}

NOTIFICATIONS = """
window.__notes = [];
window.__asked = 0;
class Recorded {
  constructor(title, options) { window.__notes.push({ title, body: (options || {}).body || "" }); }
  static requestPermission() {
    window.__asked += 1;
    sessionStorage.setItem("granted", "yes");  // kept by the browser, as a real grant is
    Recorded.permission = "granted";
    return Promise.resolve("granted");
  }
}
Recorded.permission = sessionStorage.getItem("granted") ? "granted" : "default";
window.Notification = Recorded;
window.__beeps = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() {
    const tone = super.createOscillator();
    const start = tone.start.bind(tone);
    tone.start = (...when) => { window.__beeps += 1; start(...when); };
    return tone;
  }
};
"""
"""A browser's notifications, recorded instead of shown, and its beeps counted."""

HIDDEN = """(state) => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
"""The page told that its tab is hidden, or shown again."""


def _box(locator: Locator) -> FloatRect:
    box = locator.bounding_box()
    assert box is not None, locator
    return box


def _uncovered(page: Page, locator: Locator) -> None:
    """``locator`` lies between the header and the docked roll line."""
    box = _box(locator)
    head = _box(page.locator(".room-head"))
    dock = _box(page.locator("#roller"))
    assert box["y"] >= head["y"] + head["height"] - 1, (box, head)
    assert box["y"] + box["height"] <= dock["y"] + 1, (box, dock)


def _room(server: Any, players: tuple[str, ...] = ("Ann",)) -> tuple[str, dict[str, Any]]:
    created = server.room("Friday game", gm_name="Gemma")
    seated = {"GM": {"token": created["gm_token"], "member": created["member"]}}
    for name in players:
        seated[name] = server.join(created["room"], name)
    return created["room"], seated


def _sit(seats: Callable[..., Any], server: Any, room: str, token: str, name: str) -> Any:
    seat = seats(name, **PHONE)
    seat.page.goto(f"{server.url}/r/{room}#token={token}")
    seat.wait_until_live()
    return seat


def test_a_roll_on_the_phone_shows_where_it_was_made(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    room, seated = _room(server)
    for number in range(3):
        server.roll(room, seated["GM"]["token"], f"4dF #{number}", client_seed=token_hex(16))
    ann = _sit(seats, server, room, seated["Ann"]["token"], "Ann")
    page = ann.page
    # on one screen: the connection's state, the log's newest entry and the roll line
    on_screen = ("#live", "#roll-text", "#roll-submit", "#roll-visibility", "#rolls .roll >> nth=0")
    for shown in on_screen:
        expect(page.locator(shown)).to_be_in_viewport()
    _uncovered(page, ann.card(3).locator("header"))
    page.fill("#roll-text", "4dF+1 #sneak")
    page.locator("#roll-submit").tap()
    card = ann.wait_for_roll(4)
    result = page.locator("#roll-result")
    expect(result).to_be_in_viewport()
    page.screenshot(path=artifacts / "phone-rolled-Ann.png")
    expect(result.locator(".what")).to_have_text(card.locator(".what").text_content() or "")
    expect(result.locator(".result")).to_have_text(card.locator(".result").text_content() or "")
    expect(result.locator(".die")).to_have_count(4)
    # the result hides no part of the log's newest entry
    expect(card).to_be_in_viewport()
    _uncovered(page, card.locator("header"))
    _uncovered(page, card.locator(".result"))
    ann.assert_fits(375)
    # the rest of the roll box opens above the roll line, and closes again
    expect(page.locator("#roll-difficulty")).to_be_hidden()
    page.locator("#roll-more").tap()
    expect(page.locator("#roll-difficulty")).to_be_in_viewport()
    page.screenshot(path=artifacts / "phone-more-Ann.png")
    page.locator("#roll-more").tap()
    expect(page.locator("#roll-difficulty")).to_be_hidden()
    page.locator("#roll-result button.dismiss").tap()
    expect(result).to_be_hidden()


def test_new_rolls_while_scrolled_away(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    room, seated = _room(server)
    gm = seated["GM"]["token"]
    for number in range(12):
        server.roll(room, gm, f"4dF #round {number}", client_seed=token_hex(16))
    ann = _sit(seats, server, room, seated["Ann"]["token"], "Ann")
    page = ann.page
    pill = page.locator("#new-rolls")
    # read at the top: a new roll shows in the log itself, and no pill
    server.roll(room, gm, "4dF #in sight", client_seed=token_hex(16))
    expect(ann.card(13)).to_be_in_viewport()
    expect(pill).to_be_hidden()
    # scrolled down to older rolls: a pill, and the connection's state still there
    page.locator("#rolls .roll >> nth=-1").scroll_into_view_if_needed()
    expect(ann.card(13)).not_to_be_in_viewport()
    server.roll(room, gm, "4dF #while away", client_seed=token_hex(16))
    server.roll(room, gm, "4dF #and again", client_seed=token_hex(16))
    ann.wait_for_roll(15)
    expect(pill).to_have_text("\u2191 2 new entries")
    expect(pill).to_be_in_viewport()
    expect(page.locator("#live")).to_be_in_viewport()
    expect(page.locator("#live")).to_have_text("live")
    page.screenshot(path=artifacts / "phone-pill-Ann.png")
    pill.tap()
    expect(ann.card(15)).to_be_in_viewport()
    _uncovered(page, ann.card(15).locator("header"))
    expect(pill).to_be_hidden()


def test_the_title_counts_what_came_while_hidden(server: Any, seats: Callable[..., Any]) -> None:
    room, seated = _room(server)
    ann = _sit(seats, server, room, seated["Ann"]["token"], "Ann")
    page = ann.page
    title = "Friday game \u00b7 fudgedice table"
    expect(page).to_have_title(title)
    page.evaluate(HIDDEN, "hidden")
    server.roll(room, seated["GM"]["token"], "4dF", client_seed=token_hex(16))
    ann.wait_for_roll(1)
    expect(page).to_have_title(f"(1) {title}")
    server.roll(room, seated["GM"]["token"], "4dF", client_seed=token_hex(16))
    server.roll(room, seated["Ann"]["token"], "4dF", client_seed=token_hex(16))  # her own
    ann.wait_for_roll(3)
    expect(page).to_have_title(f"(2) {title}")
    page.evaluate(HIDDEN, "visible")
    expect(page).to_have_title(title)


def test_a_notification_for_a_mention_and_a_compel(
    server: Any, gm_and_phone: Callable[..., Any], fate_sheet: str
) -> None:
    gm, bo, room = gm_and_phone("The docks", "fate", "Bo", fate_sheet, "Bob (fate)")
    page = bo.page
    page.add_init_script(NOTIFICATIONS)
    page.reload()
    bo.wait_until_live()
    notes = "() => window.__notes"
    # off by default, and asked for on the person's click only
    expect(page.locator("#notify-browser")).not_to_be_checked()
    expect(page.locator("#notify-sound")).not_to_be_checked()
    assert page.evaluate("() => window.__asked") == 0
    page.locator("#notify-settings summary").click()
    page.locator("#notify-browser").check()
    expect(page.locator("#notify-browser")).to_be_checked()
    assert page.evaluate("() => window.__asked") == 1
    assert page.evaluate("() => window.__beeps") == 0
    page.locator("#notify-sound").check()  # heard once, at the click
    assert page.evaluate("() => window.__beeps") == 1
    # the choice is kept by this browser
    page.reload()
    bo.wait_until_live()
    expect(page.locator("#notify-browser")).to_be_checked()

    token = gm.stored()[room]["token"]
    server.roll(room, token, "4dF #the guard looks elsewhere")
    named = server.roll(room, token, "4dF+2 #the guard spots bob")
    bo.wait_for_roll(named["seq"])
    # the card and the notification come from one entry of the feed: both are there
    recorded = page.evaluate(notes)
    assert [note["body"].split(" rolls ")[0] for note in recorded] == ["Gemma"], recorded
    assert "the guard spots bob" in recorded[0]["body"]
    assert page.evaluate("() => window.__beeps") == 1  # the reload's page: one, for the mention
    # a compel the GM offers Bob's player
    member = bo.stored()[room]["member"]
    offered = server.client.post(
        f"/api/rooms/{room}/play",
        headers={"Authorization": f"Bearer {token}"},
        json={"action": "compel", "member": member, "aspect": "Hot-headed", "text": "A brawl."},
    )
    assert offered.status_code == 201, offered.text
    expect(page.locator("#compels .compel")).to_contain_text("A brawl.")
    expect(page.locator("#compels .compel")).to_have_count(1)
    recorded = page.evaluate(notes)
    assert len(recorded) == 2, recorded
    assert recorded[1]["body"] == "A compel on Hot-headed: A brawl.", recorded


def test_the_laptop_keeps_two_columns(server: Any, seats: Callable[..., Any]) -> None:
    room, seated = _room(server)
    gm = seats("Gemma", width=1280, height=800)
    gm.page.goto(f"{server.url}/r/{room}#token={seated['GM']['token']}")
    gm.wait_until_live()
    left = _box(gm.page.locator(".columns > .left"))
    log = _box(gm.page.locator(".columns > .log"))
    assert left["x"] + left["width"] <= log["x"], (left, log)
    assert abs(left["y"] - log["y"]) < 2, (left, log)
    expect(gm.page.locator("#parts")).to_be_hidden()
    expect(gm.page.locator("#roll-more")).to_be_hidden()
    expect(gm.page.locator("#roll-difficulty")).to_be_visible()
    position = gm.page.locator("#roller").evaluate("(node) => getComputedStyle(node).position")
    assert position == "static"
    gm.page.fill("#roll-text", "4dF")
    gm.page.click("#roll-submit")
    # the result is read in the log, beside the roll box
    expect(gm.wait_for_roll(1)).to_be_in_viewport()
    expect(gm.page.locator("#roll-result")).to_be_hidden()


ABOUT = """async (cases) => {
  const { aboutMe } = await import("/static/notify.js");
  const me = { member: "m-ann", name: "Ann" };
  return cases.map((entry) => aboutMe(entry, me, "Cynere"));
}"""


def test_what_is_about_me(server: Any, seats: Callable[..., Any]) -> None:
    """Which entries a notification is for: a whisper to this member, a talk
    or a roll's label naming her or her character as a whole word; never her
    own, nor one hidden from her."""
    seat = seats("Ann", **PHONE)
    seat.page.goto(server.url)
    cases = [
        {"kind": "talk", "member": "m-gm", "name": "Gemma", "visibility": "whisper",
         "to": "m-ann", "text": "psst"},
        {"kind": "talk", "member": "m-gm", "name": "Gemma", "visibility": "whisper",
         "to": "m-bob", "text": "psst"},
        {"kind": "talk", "member": "m-gm", "name": "Gemma", "text": "ann, your turn"},
        {"kind": "talk", "member": "m-gm", "name": "Gemma", "text": "Annabel's turn"},
        {"member": "m-gm", "name": "Gemma", "label": "ogre swings at Cynere", "total": 3,
         "result": "+3 Good"},
        {"member": "m-ann", "name": "Ann", "label": "Ann sneaks"},
        {"member": "m-gm", "name": "Gemma", "visibility": "gm", "hidden": True},
    ]  # fmt: skip
    said = seat.page.evaluate(ABOUT, cases)
    assert said == [
        "Gemma whispers to you: psst",
        None,
        "Gemma: ann, your turn",
        None,
        "Gemma rolls ogre swings at Cynere: 3 +3 Good",
        None,
        None,
    ]
