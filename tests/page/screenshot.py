"""The README's pictures of the page, taken from the current code:
``make screenshot`` (``python -m tests.page.screenshot docs``).

A real server on a free port of 127.0.0.1 and a throwaway SQLite file; a GM
and two players set the scene through the API, then Chromium shows the GM's
page on a laptop and a player's on a phone.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import ViewportSize, sync_playwright

from tests.server.conftest import Server, Table

from .conftest import CHROMIUM

SCENE = (
    ("Ann", "4dF+1 #sneak past the guard", "public"),
    ("Bob", "Good opp Fair #arm wrestling", "public"),
    ("GM", "Superb vs Legendary #the dragon wakes?", "secret"),
    ("Ann", "4dF@4d6", "public"),
    ("Bob", "Great #perception", "gm"),
    ("GM", "Fair+1 vs Good #the guard notices", "public"),
)


def take(folder: Path) -> list[Path]:
    with tempfile.TemporaryDirectory(prefix="fudgedice-screenshot-") as scratch:
        server = Server(str(Path(scratch) / "table.sqlite3")).start()
        try:
            return _scene(server, folder)
        finally:
            server.stop()


def _scene(server: Server, folder: Path) -> list[Path]:
    api = Table(server.url)
    created = api.room("Friday game", gm_name="Gemma")
    room = created["room"]
    tokens = {"GM": created["gm_token"]}
    for name in ("Ann", "Bob"):
        tokens[name] = api.join(room, name)["token"]
    for who, text, visibility in SCENE:
        answer = api.roll(room, tokens[who], text, visibility=visibility)
        assert answer.status_code == 201, answer.text
    api.client.close()
    laptop, phone = folder / "table.png", folder / "table-phone.png"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            views: tuple[tuple[Path, str, ViewportSize], ...] = (
                (laptop, "GM", {"width": 1200, "height": 980}),
                (phone, "Ann", {"width": 375, "height": 812}),
            )
            for path, who, viewport in views:
                context = browser.new_context(viewport=viewport, device_scale_factor=1)
                page = context.new_page()
                page.goto(f"{server.url}/r/{room}#token={tokens[who]}")
                page.locator(f'#rolls .roll[data-seq="{len(SCENE)}"]').wait_for()
                page.fill("#roll-text", "Good")
                page.fill("#roll-difficulty", "Great")
                page.locator("#success").wait_for()
                page.screenshot(path=path)
                context.close()
        finally:
            browser.close()
    return [laptop, phone]


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path("docs")
    for path in take(folder):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
