"""The page heals itself, tried as a player would: a phone whose connection
goes silent without closing, a roll's answer that skips a roll, a point
clicked twice, a link with another member's seat, someone joining, dice read
by hand. Each is a person at the table in a browser of their own."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Route, expect

from fudgedice import sheets

WATCHDOG_S = 4
"""The page's watchdog in these tests (``?watchdog=``): 30 s by default."""


@dataclass
class _Link:
    """One connection through the proxy: the browser's socket and the server's."""

    client: socket.socket
    upstream: socket.socket
    feed: bool = False  # it carried a request for the live feed
    silent: bool = False  # bytes are swallowed both ways, and nothing is closed


@dataclass
class SilentProxy:
    """A TCP relay to the server whose live feed connections can be made to
    go silent without closing, as a phone's do when it changes networks: the
    connections made afterwards work."""

    upstream: int
    listener: socket.socket = field(init=False)
    links: list[_Link] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}"

    def silence_feeds(self) -> None:
        for link in self.links:
            link.silent = link.silent or link.feed

    def close(self) -> None:
        self.listener.close()
        for link in self.links:
            for end in (link.client, link.upstream):
                end.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            link = _Link(client, socket.create_connection(("127.0.0.1", self.upstream)))
            self.links.append(link)
            for source, sink in ((client, link.upstream), (link.upstream, client)):
                threading.Thread(target=self._pump, args=(link, source, sink), daemon=True).start()

    @staticmethod
    def _pump(link: _Link, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                link.feed = link.feed or (source is link.client and b"/live?" in data)
                if not link.silent:
                    sink.sendall(data)
        except OSError:
            pass
        for end in (link.client, link.upstream):
            end.close()


@pytest.fixture
def proxy(server: Any) -> Iterator[SilentProxy]:
    relay = SilentProxy(server.port)
    try:
        yield relay
    finally:
        relay.close()


def test_a_silent_feed_is_given_up_and_every_missed_roll_caught_up(
    server: Any, seats: Callable[..., Any], proxy: SilentProxy
) -> None:
    created = server.room("Wi-Fi switch")
    room, gm_token = created["room"], created["gm_token"]
    ann = server.join(room, "Ann")
    phone = seats("Ann", width=375, height=812)
    asked: list[str] = []
    phone.page.on("request", lambda request: asked.append(request.url))
    phone.page.goto(f"{proxy.url}/r/{room}?watchdog={WATCHDOG_S}#token={ann['token']}")
    phone.wait_until_live()
    server.roll(room, gm_token, "4dF", label="before")
    phone.wait_for_roll(1)
    proxy.silence_feeds()  # the connection stays open; nothing comes through it
    for turn in range(3):
        server.roll(room, gm_token, "4dF", label=f"missed {turn + 1}")
    # no byte for the watchdog's period: the indicator says so, then the feed is made again
    # (checked at every frame: the page is back within a second, between two of expect's looks)
    phone.page.wait_for_function(
        "() => document.querySelector('#live.off')?.textContent === 'reconnecting'",
        polling="raf",
    )
    for seq in (2, 3, 4):
        expect(phone.wait_for_roll(seq).locator(".label")).to_have_text(f"missed {seq - 1}")
    expect(phone.page.locator("#live:not(.off)")).to_have_text("live")
    feeds = [url for url in asked if "/live?" in url]
    assert any("after=1" in url for url in feeds[1:]), feeds  # resumed from the last roll it had
    server.roll(room, gm_token, "4dF", label="after")
    expect(phone.wait_for_roll(5).locator(".label")).to_have_text("after")
    expect(phone.page.locator("#rolls .roll")).to_have_count(5)
    phone.assert_fits(375)


def test_a_gap_in_seq_is_read_at_once(server: Any, seats: Callable[..., Any]) -> None:
    created = server.room("Gaps")
    room, gm_token = created["room"], created["gm_token"]
    ann = server.join(room, "Ann")
    seat = seats("Ann", width=1280, height=900)
    held: list[Route | None] = []

    def silent(route: Route) -> None:
        if held and held[0] is None:  # the test is over: refused at once
            route.fulfill(status=503)
        else:
            held.append(route)  # never answered

    # the live feed never answers: whatever the page shows, it read otherwise
    seat.page.route("**/api/rooms/*/live?*", silent)
    seat.page.goto(f"{server.url}/r/{room}#token={ann['token']}")
    seat.page.locator("#roll-text").wait_for()
    server.roll(room, gm_token, "3d6", label="made while the feed was silent")
    seat.roll("4dF", label="mine")
    expect(seat.wait_for_roll(2).locator(".label")).to_have_text("mine")
    # the answer to the page's own roll was seq 2 while it had 0: roll 1 is fetched at once
    expect(seat.wait_for_roll(1).locator(".label")).to_have_text("made while the feed was silent")
    expect(seat.page.locator("#live")).not_to_have_text("live")
    assert held, "the page never asked for its live feed"
    waiting, held[:] = list(held), [None]
    for route in filter(None, waiting):  # answered: nothing left pending at the close
        route.fulfill(status=503)


D6_SHEET = sheets.new_sheet("d6", "Jax")


def test_a_point_is_spent_once_and_the_spent_card_offers_no_more(
    server: Any, seats: Callable[..., Any]
) -> None:
    created = server.room("Spend once", system="d6")
    room = created["room"]
    ann = server.join(room, "Ann")
    headers = {"Authorization": f"Bearer {ann['token']}"}
    path = f"/api/rooms/{room}/members/{ann['member']}/sheet"
    put = server.client.put(path, json={"text": D6_SHEET, "version": 0}, headers=headers)
    assert put.status_code == 200, put.text
    laptop, phone = seats("Ann laptop", width=1280, height=900), seats("Ann phone", 375, 812)
    for seat in (laptop, phone):
        seat.page.goto(f"{server.url}/r/{room}#token={ann['token']}")
        seat.wait_until_live()
    laptop.page.locator('#sheet-traits button[data-trait="Dodge"]').click()
    for seat in (laptop, phone):
        expect(seat.wait_for_roll(2).locator("button.spend")).to_have_count(1)
    laptop.card(2).locator('button.spend[data-point="cp"]').click()
    for seat in (laptop, phone):
        # the spend's card offers the next point; the roll it replaced offers none
        expect(seat.wait_for_roll(3).locator(".spent")).to_contain_text("Character Point")
        expect(seat.card(3).locator('button.spend[data-point="cp"]')).to_have_count(1)
        expect(seat.card(2).locator("button.spend")).to_have_count(0)
    # a page that had not heard yet, clicking again: the server says no, with why
    again = server.client.post(
        f"/api/rooms/{room}/rolls/2/spend", json={"point": "cp"}, headers=headers
    )
    assert again.status_code == 409 and "already" in again.json()["error"]
    phone.card(3).locator('button.spend[data-point="cp"]').click()
    for seat in (laptop, phone):
        expect(seat.wait_for_roll(4).locator(".notation")).to_contain_text("cp2")
        expect(seat.card(3).locator("button.spend")).to_have_count(0)
    expect(phone.page.locator("#sheet-points")).to_contain_text("Character Points: 3")
    phone.assert_fits(375)


def test_a_link_with_another_seat_replaces_none(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    gm = seats("Gemma", width=375, height=812)
    link = gm.create_room(server.url, "Two seats")
    room = link.rsplit("/", 1)[1]
    gm_token = gm.stored()[room]["token"]
    ann = server.join(room, "Ann")
    # the GM opens a player's link: the GM seat stays, Ann's is kept beside it
    gm.page.goto(f"{link}#token={ann['token']}")
    offer = gm.page.locator("#seat-offer")
    expect(offer).to_contain_text("Ann")
    kept = gm.stored()[room]
    assert (kept["token"], kept["gm"]) == (gm_token, True)
    assert {one["token"] for one in kept["seats"]} == {gm_token, ann["token"]}
    expect(gm.page.locator("#reveal")).to_have_count(1)  # still the GM's page
    expect(gm.page.locator("#seat-choice option")).to_have_text(["Gemma (GM)", "Ann"])
    gm.assert_fits(375)
    gm.assert_accessible("the seat offered")
    gm.page.screenshot(path=artifacts / "seat-offer-phone.png")
    gm.page.click("#sit-offered")
    expect(gm.page.locator("#seat-choice")).to_have_value(ann["token"])
    gm.wait_until_live()
    expect(gm.page.locator("#reveal")).to_have_count(0)
    expect(gm.page.locator("#seat-offer")).to_have_count(0)
    assert gm.stored()[room]["token"] == ann["token"]
    gm.roll("4dF", label="as Ann")
    expect(gm.wait_for_roll(1).locator(".who")).to_have_text("Ann")
    # and back: the GM seat was never lost
    gm.page.select_option("#seat-choice", label="Gemma (GM)")
    expect(gm.page.locator("#seat-choice")).to_have_value(gm_token)
    gm.wait_until_live()
    expect(gm.page.locator("#reveal")).to_have_count(1)
    assert (gm.stored()[room]["token"], gm.stored()[room]["gm"]) == (gm_token, True)


def test_a_member_joining_is_shown_at_once(server: Any, seats: Callable[..., Any]) -> None:
    gm = seats("Gemma", width=1280, height=900)
    link = gm.create_room(server.url, "Who is here")
    room = link.rsplit("/", 1)[1]
    server.join(room, "Ann")
    # no roll of Ann's, no reload: the live feed's word that she joined
    expect(gm.page.locator("#members")).to_contain_text("Ann")
    expect(gm.page.locator("#filter option")).to_have_text(["Everyone", "Gemma (GM)", "Ann"])


def test_dice_read_by_hand_are_badged_for_what_is_checked(
    server: Any, seats: Callable[..., Any]
) -> None:
    gm = seats("Gemma", width=1280, height=900)
    gm.create_room(server.url, "By hand")
    page = gm.page
    page.check("#roll-read")
    page.fill("#roll-text", "4dF")
    page.fill("#roll-faces", "+ 0 - +")
    page.click("#roll-submit")
    gm.wait_for_roll(1)
    page.uncheck("#roll-read")
    gm.roll("4dF")
    gm.wait_for_roll(2)
    page.locator("#fairness summary").click()
    page.click("#reveal")
    page.click("#reveal")
    # the seed checks drawn dice; of dice read by hand, only their reading
    expect(gm.card(1).locator(".badge.verified")).to_have_text("\u2713 reading checked")
    expect(gm.card(2).locator(".badge.verified")).to_have_text("\u2713 verified")


def test_a_tab_past_the_seats_feeds_pauses_instead_of_taking_one_back(
    server: Any, seats: Callable[..., Any]
) -> None:
    """A member holds a few live feeds at once: the tab whose feed a newer tab
    replaced says so and stays paused, rather than reconnecting and closing
    another of the member's tabs in turn, round and round."""
    gm = seats("Gemma", width=1280, height=900)
    link = gm.create_room(server.url, "Many tabs")
    tabs = []
    for _ in range(4):  # the same browser, so the same seat
        tab = gm.context.new_page()
        tab.goto(link)
        tab.locator("#live:not(.off)", has_text="live").wait_for()
        tabs.append(tab)
    expect(gm.page.locator("#live")).to_have_text(
        "paused: followed in your other tabs (reload to follow here)"
    )
    gm.roll("4dF")  # from the paused tab: its roll still reaches every live one
    for tab in tabs:
        tab.locator('#rolls .roll[data-seq="1"]').wait_for()
        expect(tab.locator("#live")).to_have_text("live")
