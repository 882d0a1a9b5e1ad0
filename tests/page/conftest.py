"""The table's page in a real browser: Playwright driving Debian's Chromium
(``make chromium`` installs it; Playwright's own browser download is never
used) against a real ``fudgedice serve`` on a free port of 127.0.0.1.

Each test's screenshots are kept under ``test-artifacts/page/`` (git-ignored).
Waits are Playwright's, bounded by ``WAIT_MS``: a page that never shows what
is awaited fails the test; no test asserts how long anything took.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Locator, Page, sync_playwright

from tests.server.conftest import ROOT, Server, Table

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "page"
WAIT_MS = 20_000
"""Milliseconds a test waits for the page to show something before it fails."""


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        raise AssertionError(f"{CHROMIUM} is missing: 'make chromium' installs Debian's chromium")
    with sync_playwright() as playwright:
        # --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One SQLite server for a module's tests (each test makes its own room)."""
    db = str(tmp_path_factory.mktemp("page") / "table.sqlite3")
    started = Server(db, ("--rate", "1000", "--burst", "1000")).start()
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def api(server: Server) -> Iterator[Table]:
    """The HTTP API of the same server, to set a scene faster than clicking."""
    table = Table(server.url)
    try:
        yield table
    finally:
        table.client.close()


@dataclass
class Seat:
    """One person at the table: a browser context of their own and its page."""

    name: str
    context: BrowserContext
    page: Page
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def card(self, seq: int) -> Locator:
        return self.page.locator(f'#rolls .roll[data-seq="{seq}"]')

    def wait_for_roll(self, seq: int) -> Locator:
        card = self.card(seq)
        card.wait_for(timeout=WAIT_MS)
        return card

    def roll(self, text: str, **options: str) -> None:
        page = self.page
        page.fill("#roll-text", text)
        page.fill("#roll-label", options.get("label", ""))
        page.select_option("#roll-visibility", options.get("visibility", "public"))
        page.click("#roll-submit")


@pytest.fixture
def seats(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Callable[..., Seat]]:
    """Opens a browser context per person; screenshots of each page are kept
    when the test ends, whether it passed or not."""
    opened: list[Seat] = []

    def open_seat(name: str, width: int = 1200, height: int = 900, **options: Any) -> Seat:
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        seat = Seat(name, context, page)

        def dialog(shown: Dialog) -> None:
            seat.dialogs.append(shown.message)
            shown.dismiss()

        page.on("dialog", dialog)
        page.on("pageerror", lambda error: seat.errors.append(str(error)))
        opened.append(seat)
        return seat

    yield open_seat
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    test = re.sub(r"[^A-Za-z0-9_-]+", "-", request.node.name)
    for seat in opened:
        person = re.sub(r"[^A-Za-z0-9_-]+", "-", seat.name).strip("-") or "seat"
        try:
            seat.page.screenshot(path=ARTIFACTS / f"{test}-{person}.png", full_page=True)
        finally:
            seat.context.close()
    for seat in opened:
        assert not seat.errors, f"{seat.name}'s page raised: {seat.errors}"


def create_room(seat: Seat, url: str, name: str, system: str = "fudge") -> str:
    """The GM creates a room on the landing page; returns its share link."""
    page = seat.page
    page.goto(url)
    page.fill("#room-name", name)
    page.select_option("#room-system", system)
    page.fill("#gm-name", seat.name)
    page.click("#create-room button[type=submit]")
    page.locator("#roll-text").wait_for()
    page.locator("#live:not(.off)", has_text="live").wait_for()
    link = page.input_value("#share-link")
    assert re.fullmatch(re.escape(url) + r"/r/[A-Za-z0-9_-]+", link), link
    return link


def join(seat: Seat, link: str) -> None:
    """A player opens the share link and joins under their name."""
    page = seat.page
    page.goto(link)
    page.fill("#join-name", seat.name)
    page.click("#join button[type=submit]")
    page.locator("#roll-text").wait_for()
    # the feed is subscribed once it says so: rolls made from now on reach this page live
    page.locator("#live:not(.off)", has_text="live").wait_for()


def stored(seat: Seat) -> dict[str, Any]:
    """What the page keeps in localStorage: each room's token and who this is."""
    kept: dict[str, Any] = seat.page.evaluate(
        "() => JSON.parse(localStorage.getItem('fudgedice:rooms') || '{}')"
    )
    return kept
