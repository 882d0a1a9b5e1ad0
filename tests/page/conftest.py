"""The table's page in a real browser: Playwright driving Debian's Chromium
(``make chromium`` installs it; Playwright's own browser download is never
used) against a real ``fudgedice serve`` on a free port of 127.0.0.1.

Each test's screenshots are kept under ``test-artifacts/page/`` (git-ignored).
Waits are Playwright's, bounded by ``WAIT_MS``: a page that never shows what
is awaited fails the test; no test asserts how long anything took. The tests
reach all of this through fixtures (tests never import each other).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Dialog,
    Error,
    Locator,
    Page,
    expect,
    sync_playwright,
)

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "page"
WAIT_MS = 20_000
"""Milliseconds a test waits for the page to show something before it fails."""
# the same patience for every expect() as for every action: a machine that runs other
# work beside the tests delivers a live entry later than Playwright's own 5 s allow
expect.set_options(timeout=WAIT_MS)
START_WITHIN = 60.0
"""Seconds the server may take to start before the tests fail."""
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, npm's accessibility checker, at the version package-lock.json pins
(``make axe`` installs it; ``make test`` does first)."""
REFUSED_IMPACTS = ("serious", "critical")
"""What axe may find on no state of the page."""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """What axe-core finds on the page as it is now: each rule broken, with the
    elements that break it. Loaded through the browser's debugger, not a script
    tag, so that no policy of the page's could keep it out."""
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: 'make axe' installs npm's axe-core")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text("utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations.map(
            (rule) => ({
                id: rule.id, impact: rule.impact, help: rule.help,
                targets: rule.nodes.map((node) => node.target.join(" ")),
            }))"""
    )
    return found


def assert_accessible(page: Page, where: str, impacts: tuple[str, ...] = REFUSED_IMPACTS) -> None:
    """No violation of axe's rules of these ``impacts`` (serious or critical unless
    told) on the page as it is now; each one found is named with the elements that
    break it."""
    refused = [rule for rule in axe_violations(page) if rule["impact"] in impacts]
    lines = [
        f"  {rule['id']} ({rule['impact']}): {rule['help']}\n"
        + "".join(f"    {target}\n" for target in rule["targets"][:5])
        + (f"    ... and {len(rule['targets']) - 5} more\n" if len(rule["targets"]) > 5 else "")
        for rule in refused
    ]
    if refused:
        raise AssertionError(f"axe finds on {where}:\n" + "".join(lines))


@dataclass
class Served:
    """One ``fudgedice serve`` process on SQLite, and a client of its API to
    set a scene faster than clicking."""

    url: str
    port: int
    process: subprocess.Popen[bytes]
    client: httpx.Client

    def room(self, name: str, **extra: Any) -> dict[str, Any]:
        return self._created("/api/rooms", {"name": name, **extra})

    def join(self, room: str, name: str) -> dict[str, Any]:
        return self._created(f"/api/rooms/{room}/members", {"name": name})

    def roll(self, room: str, token: str, text: str, **extra: Any) -> dict[str, Any]:
        return self._created(f"/api/rooms/{room}/rolls", {"text": text, **extra}, token)

    def revealed_log(self, room: str, token: str) -> dict[str, Any]:
        """The room's log once its GM (``token``) has revealed the seeds."""
        headers = {"Authorization": f"Bearer {token}"}
        revealed = self.client.post(f"/api/rooms/{room}/reveal", headers=headers)
        assert revealed.status_code == 200, revealed.text
        log: dict[str, Any] = self.client.get(f"/api/rooms/{room}/log", headers=headers).json()
        return log

    def _created(self, path: str, body: dict[str, Any], token: str = "") -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = self.client.post(path, json=body, headers=headers)
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        return created


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(db: Path, log: Path, port: int = 0, *extra: str) -> Served:
    """``fudgedice serve`` in a child process (on ``port``, or a free one), once
    it answers; ``extra``: more of serve's options."""
    port = port or _free_port()
    path = os.environ.get("PYTHONPATH")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), *([path] if path else [])]),
    }
    command = [
        sys.executable, "-c", "from fudgedice.cli import main; main()", "serve",
        "--port", str(port), "--db", str(db), "--rate", "1000", "--burst", "1000",
        "--address-rate", "1000", "--address-burst", "1000", *extra,
    ]  # fmt: skip
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_WITHIN
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server stopped at start:\n{log.read_text('utf-8')}")
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                return Served(url, port, process, httpx.Client(base_url=url, timeout=30))
        except httpx.HTTPError:
            time.sleep(0.05)
    stop_server(process)
    raise AssertionError(f"the server did not answer within {START_WITHIN} s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for a module's tests (each test makes its own room)."""
    folder = tmp_path_factory.mktemp("page")
    served = start_server(folder / "table.sqlite3", folder / "serve.log")
    try:
        yield served
    finally:
        served.client.close()
        stop_server(served.process)


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """Servers of a test's own, all on one database (to kill one and start
    another in its place); every one is stopped after the test."""
    started: list[Served] = []

    def start(port: int = 0, *extra: str) -> Served:
        log = tmp_path / "serve.log"
        started.append(start_server(tmp_path / "table.sqlite3", log, port, *extra))
        return started[-1]

    yield start
    for served in started:
        served.client.close()
        stop_server(served.process)


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    # package, not session: Playwright's sync API keeps an event loop running in
    # the main thread while it is open, and tests after the page's that run
    # their own (asyncio.run) must find none
    if not CHROMIUM.exists():
        raise AssertionError(f"{CHROMIUM} is missing: 'make chromium' installs Debian's chromium")
    with sync_playwright() as playwright:
        # --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Seat:
    """One person at the table: a browser context of their own and its page."""

    name: str
    context: BrowserContext
    page: Page
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def create_room(self, url: str, name: str, system: str = "fudge") -> str:
        """As the GM, create a room on the landing page; returns its share link."""
        page = self.page
        page.goto(url)
        page.fill("#room-name", name)
        page.select_option("#room-system", system)
        page.fill("#gm-name", self.name)
        page.click("#create-room button[type=submit]")
        self.wait_until_live()
        link = page.input_value("#share-link")
        assert re.fullmatch(re.escape(url) + r"/r/[A-Za-z0-9_-]+", link), link
        return link

    def join(self, link: str) -> None:
        """As a player, open the share link and join under this seat's name."""
        self.page.goto(link)
        self.page.fill("#join-name", self.name)
        self.page.click("#join button[type=submit]")
        self.wait_until_live()

    def wait_until_live(self) -> None:
        """The room is shown and its feed subscribed: rolls made from now on reach it."""
        self.page.locator("#roll-text").wait_for()
        self.page.locator("#live:not(.off)", has_text="live").wait_for()

    def card(self, seq: int) -> Locator:
        return self.page.locator(f'#rolls .roll[data-seq="{seq}"]')

    def wait_for_roll(self, seq: int) -> Locator:
        card = self.card(seq)
        card.wait_for(timeout=WAIT_MS)
        return card

    def roll(self, text: str, **options: str) -> None:
        page = self.page
        page.fill("#roll-text", text)
        label = page.locator("#roll-label")
        if options.get("label") and not label.is_visible():
            page.click("#roll-more")  # on a phone, the roll box's options are behind "More"
        if label.is_visible():
            label.fill(options.get("label", ""))
        page.select_option("#roll-visibility", options.get("visibility", "public"))
        page.click("#roll-submit")

    def attach(self, text: str, title: str) -> None:
        """Save ``text`` as this seat's sheet; its panel then shows ``title``."""
        self.page.fill("#sheet-text", text)
        self.page.click("#sheet-save")
        expect(self.page.locator("#sheet-title")).to_have_text(title)

    def shoot(self, folder: Path, name: str) -> None:
        """Screenshots of the page as it is and at the other width (375 px or
        1280 px), as ``{name}-{seat}-{width}.png``: at 375 px nothing may reach
        past the screen's edge, and at each width axe finds nothing serious."""
        size = self.page.viewport_size
        assert size is not None  # every seat opens with a viewport
        width = size["width"]
        for each in (width, 1280 if width == 375 else 375):
            self.page.set_viewport_size({"width": each, "height": 800})
            if each == 375:
                self.assert_fits(375)
            self.page.screenshot(path=folder / f"{name}-{self.name}-{each}.png", full_page=True)
            assert_accessible(self.page, f"{name}, {self.name}'s page at {each} px")
        self.page.set_viewport_size({"width": width, "height": 800})

    def assert_accessible(self, where: str, impacts: tuple[str, ...] = REFUSED_IMPACTS) -> None:
        """What axe finds on this page as it is now: nothing of ``impacts``."""
        assert_accessible(self.page, f"{where}, {self.name}'s page", impacts)

    def assert_fits(self, width: int) -> None:
        """Nothing on the page reaches past the right edge of a screen `width`
        pixels wide (a caret line under a long roll may scroll inside its box)."""
        widths = self.page.evaluate(
            "() => [document.documentElement.scrollWidth, document.body.scrollWidth, innerWidth]"
        )
        assert widths[2] == width
        assert max(widths[:2]) <= width, f"the page is wider than the screen: {widths}"
        wide = self.page.evaluate(
            """() => [...document.querySelectorAll('#main *')]
                .filter(node => node.getBoundingClientRect().right > innerWidth + 0.5)
                .filter(node => !node.closest('pre.caret'))
                // what a closed <details> holds is not drawn; Chromium may give its
                // box as last laid out, at another width (axe reads every box)
                .filter(node => !node.closest('details:not([open]) > :not(summary)'))
                .map(node => node.tagName + '.' + node.className)"""
        )
        assert wide == [], f"elements past the right edge: {wide}"

    def stored(self) -> dict[str, Any]:
        """What the page keeps in localStorage: each room's token and who this is."""
        kept: dict[str, Any] = self.page.evaluate(
            "() => JSON.parse(localStorage.getItem('fudgedice:rooms') || '{}')"
        )
        return kept

    def read(self, download: Any) -> str:
        """The text of a file the page downloaded."""
        return Path(download.path()).read_text("utf-8")


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
    unreadable: list[str] = []
    for seat in opened:
        person = re.sub(r"[^A-Za-z0-9_-]+", "-", seat.name).strip("-") or "seat"
        try:
            seat.page.screenshot(path=ARTIFACTS / f"{test}-{person}.png", full_page=True)
            # the state each test ends on, as the screenshot above shows it
            assert_accessible(seat.page, f"{seat.name}'s page at the end")
        except (AssertionError, Error) as found:
            unreadable.append(str(found))
        finally:
            seat.context.close()
    for seat in opened:
        assert not seat.errors, f"{seat.name}'s page raised: {seat.errors}"
    assert not unreadable, "\n".join(unreadable)


@pytest.fixture
def gm_and_phone(
    server: Served, seats: Callable[..., Seat]
) -> Callable[..., tuple[Seat, Seat, str]]:
    """Seats a GM (Gemma, on a 1280 px laptop) at a new room of ``system``
    and a player on a 375 px phone who attaches ``sheet``, its panel then
    titled ``title``; returns both seats and the room's id."""

    def sit(
        room_name: str, system: str, player: str, sheet: str, title: str
    ) -> tuple[Seat, Seat, str]:
        gm = seats("Gemma", width=1280)
        phone = seats(player, width=375, height=800)
        link = gm.create_room(server.url, room_name, system)
        phone.join(link)
        phone.attach(sheet, title)
        return gm, phone, link.rsplit("/", 1)[1]

    return sit


@pytest.fixture
def fate_sheet() -> str:
    """A Fate sheet (Bob: Fight Good, Physique Mediocre, so two physical
    stress boxes), its ``[skills]`` last so that a test may add to them."""
    return """\
system = "fate"
name = "Bob"
fate_points = 3
refresh = 3
high_concept = "Sword for hire"
trouble = "Hot-headed"
pyramid = false
[skills]
Fight = "Good"
Physique = "Mediocre"
"""


@pytest.fixture
def artifacts() -> Path:
    """Where a test keeps what it made for people to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
