"""The page when the table is busy measuring odds, in a real browser: the
odds panel asks again after each 503's Retry-After before it shows an error,
and the sheet panel shows a sheet answered without its page (its chances
still being measured) and reads it again until its page comes. The busy
answers are made by the browser's own routing, in front of a real server,
so that each is certain to come."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Route, expect

BUSY = {"error": "the table is busy measuring odds: try again in a moment"}


def _busy(route: Route) -> None:
    route.fulfill(status=503, headers={"Retry-After": "1"}, json=BUSY)


def test_the_odds_panel_asks_again_after_a_busy_answer(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    ann = seats("Ann", width=1280)
    ann.create_room(server.url, "Busy odds", "fudge")
    asked: list[str] = []

    def odds(route: Route) -> None:
        asked.append(route.request.url)
        if len(asked) <= 2:  # busy twice, then measured
            _busy(route)
        else:
            route.continue_()

    ann.page.route(re.compile(r".*/api/odds\?.*"), odds)
    ann.page.fill("#roll-text", "3dF+1")
    expect(ann.page.locator("#odds-chart")).to_be_visible()
    expect(ann.page.locator("#odds .error")).to_have_count(0)
    assert len(asked) == 3 and all("3dF%2B1" in url for url in asked)
    # busy every time: after a few tries, the error is shown
    asked.clear()
    ann.page.unroute(re.compile(r".*/api/odds\?.*"))

    def always(route: Route) -> None:
        asked.append(route.request.url)
        _busy(route)

    ann.page.route(re.compile(r".*/api/odds\?.*"), always)
    ann.page.fill("#roll-text", "2dF")
    expect(ann.page.locator("#odds .error")).to_contain_text("busy measuring odds")
    assert len(asked) == 4
    ann.shoot(artifacts, "busy-odds")


def test_a_sheet_is_shown_while_its_chances_are_measured(
    server: Any, seats: Callable[..., Any], artifacts: Path, fate_sheet: str
) -> None:
    gm = seats("Gemma", width=1280)
    link = gm.create_room(server.url, "Busy sheet", "fate")
    bo = seats("Bo", width=1280)
    bo.join(link)
    bo.attach(fate_sheet, "Bob (fate)")
    reads: list[str] = []

    def sheet(route: Route) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        reads.append(route.request.url)
        if len(reads) == 1:  # the table busy, then the sheet without its page, then whole
            _busy(route)
        elif len(reads) == 2:
            answer = route.fetch()
            body = answer.json()
            body["sheet"] = {**body["sheet"], "page": None, "page_error": BUSY["error"]}
            route.fulfill(response=answer, json=body)
        else:
            route.continue_()

    bo.page.route(re.compile(r".*/members/[^/]+/sheet$"), sheet)
    bo.page.reload()
    bo.wait_until_live()
    measuring = bo.page.locator("#sheet-measuring")
    expect(bo.page.locator("#sheet-title")).to_have_text("Bob (fate)")
    expect(bo.page.locator("#sheet-status .error")).to_have_count(0)
    expect(bo.page.locator('#sheet-traits button[data-trait="Fight"]')).to_be_visible()
    expect(measuring).to_be_visible()  # the second answer: the sheet, its chances not yet
    expect(measuring).to_contain_text("still being measured")
    bo.shoot(artifacts, "busy-sheet")
    expect(measuring).to_be_hidden()  # read again: its page came
    expect(bo.page.locator("#sheet-page")).to_contain_text("Fight")
    assert len(reads) == 3
    expect(bo.page.locator("#sheet-status .error")).to_have_count(0)
