"""The page when the table's database is out of reach, in a real browser:
a line under the room's name says so (or that the table itself can't be
reached), the page asks ``/api/ready`` again after each Retry-After, and the
line goes once the table answers. The outage's answers are made by the
browser's own routing, in front of a real server, so that each is certain to
come (tests/server/test_outage.py makes them with PostgreSQL stopped)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Route, expect

WAIT_MS = 20_000
"""Milliseconds the page has to ask again and be answered."""

UNREACHABLE = {"error": "the table's database is unreachable: try again in a moment"}
ROLLS = re.compile(r".*/api/rooms/[A-Za-z0-9_-]+/rolls$")
READY = re.compile(r".*/api/ready$")


def _down(route: Route) -> None:
    route.fulfill(status=503, headers={"Retry-After": "1"}, json=UNREACHABLE)


def test_the_page_says_the_database_is_out_of_reach_until_it_is_back(
    server: Any, seats: Callable[..., Any], artifacts: Path
) -> None:
    ann = seats("Ann", width=1280)
    ann.create_room(server.url, "Outage", "fudge")
    line = ann.page.locator("#outage")
    expect(line).to_be_empty()
    asked: list[str] = []

    def ready(route: Route) -> None:
        asked.append(route.request.url)
        _down(route)

    ann.page.route(ROLLS, _down)
    ann.page.route(READY, ready)
    ann.roll("4dF")
    expect(line).to_have_text("The table's database is unreachable: trying again…")
    expect(ann.page.locator("#roller .error")).to_contain_text("database is unreachable")
    with ann.page.expect_request(READY, timeout=WAIT_MS):
        pass  # the page asks again, by itself
    ann.shoot(artifacts, "unreachable")
    assert asked and all(url.endswith("/api/ready") for url in asked)
    ann.page.unroute(READY)
    expect(line).to_be_empty(timeout=WAIT_MS)  # the table answered /api/ready
    ann.page.unroute(ROLLS)
    ann.roll("4dF")
    ann.wait_for_roll(1)
    expect(line).to_be_empty()


def test_the_page_says_the_table_cannot_be_reached_when_nothing_answers(
    server: Any, seats: Callable[..., Any]
) -> None:
    ann = seats("Ann", width=375, height=800)
    ann.create_room(server.url, "Offline", "fudge")
    line = ann.page.locator("#outage")
    ann.page.route(ROLLS, lambda route: route.abort("internetdisconnected"))
    ann.roll("4dF")
    expect(line).to_contain_text("The table can't be reached")
    expect(line).to_be_visible()  # in the room's header, which stays on a phone's screen
    ann.page.unroute(ROLLS)
    ann.roll("4dF")
    ann.wait_for_roll(1)
    expect(line).to_be_empty()  # the roll's answer was the table's: it is back


def test_a_room_opened_during_an_outage_is_drawn_once_the_table_is_back(
    server: Any, seats: Callable[..., Any]
) -> None:
    ann = seats("Ann", width=1280)
    link = ann.create_room(server.url, "Later", "fudge")
    room = re.compile(r".*/api/rooms/[A-Za-z0-9_-]+$")
    ann.page.route(room, _down)
    ann.page.route(READY, _down)
    ann.page.goto(link)
    expect(ann.page.locator("#main .error")).to_contain_text("database is unreachable")
    ann.page.unroute(room)
    ann.page.unroute(READY)
    ann.wait_until_live()  # asked again by itself: no reload
    expect(ann.page.locator("#outage")).to_be_empty()
