"""The GM's control of the room's webhook on the page: set, shown by its
kind and host alone (the URL is emptied and never shown again), a refusal
said, cleared; a player has no such control. A roll made at the page then
reaches the test's receiver (``fudgedice serve --allow-local-webhooks``, a
receiver on 127.0.0.1). On a phone the control fits the screen."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

WAIT = 30.0


@pytest.fixture
def posts() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A receiver on 127.0.0.1: its address and the bodies posted to it."""
    got: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            got.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook/secret-part", got
    finally:
        server.shutdown()
        server.server_close()
        thread.join(WAIT)


def test_the_gm_sets_and_clears_the_webhook_and_a_page_roll_is_posted(
    servers: Callable[..., Any],
    seats: Callable[..., Any],
    posts: tuple[str, list[dict[str, Any]]],
    artifacts: Path,
) -> None:
    url, got = posts
    served = servers(0, "--allow-local-webhooks")
    gm, ann = seats("Gemma"), seats("Ann", width=375, height=800)
    link = gm.create_room(served.url, "Posted")
    ann.join(link)
    expect(ann.page.locator("#gm-webhook")).to_have_count(0)  # the GM's alone
    page = gm.page
    page.click("#gm-webhook summary")
    expect(page.locator("#webhook-state")).to_have_text("Public rolls are posted to no channel.")
    page.fill("#webhook-url", "ftp://127.0.0.1/x")
    page.select_option("#webhook-kind", "discord")
    page.click("#webhook-save")
    expect(page.locator("#webhook-status .error")).to_contain_text("https://")
    page.fill("#webhook-url", url)
    page.click("#webhook-save")
    expect(page.locator("#webhook-state")).to_have_text(
        "Public rolls are posted to a Discord webhook at 127.0.0.1."
    )
    expect(page.locator("#webhook-url")).to_have_value("")  # the secret is not left shown
    assert "secret-part" not in page.locator("#main").inner_text()
    expect(page.locator("#webhook-status")).to_be_empty()
    ann.roll("4dF+100000")
    total = ann.wait_for_roll(1).locator(".total").inner_text()
    deadline = time.monotonic() + WAIT
    while not got:
        assert time.monotonic() < deadline, "the roll was not posted"
        time.sleep(0.02)
    assert total.lstrip("+").replace("\u2212", "-") in json.dumps(got[0])
    gm.shoot(artifacts, "webhook")  # at 1200 px and 375 px: fits, and axe finds nothing
    page.click("#webhook-clear")
    expect(page.locator("#webhook-state")).to_have_text("Public rolls are posted to no channel.")
    expect(page.locator("#webhook-clear")).to_be_hidden()
