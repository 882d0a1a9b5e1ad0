"""The pictures of docs/discord.md: the messages the table sends to Discord,
drawn in a page styled like a Discord channel (``discord_look``) and
screenshotted by Chromium into ``test-artifacts/page/discord-*.png``; ``make
screenshot`` copies them into ``docs/``. Discord itself is never reached.

What a player may not see is checked on the pictures' own pages: a hidden
roll's placeholder in the channel holds nothing of the roll, and only an
answer flagged ephemeral says "Only you can see this"."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

import fudgedice
from fudgedice.render.plot import plot_odds

from .discord_look import EPHEMERAL, Post, channel

ROOM = "https://table.example.org/r/Qm9vdHN0cmFw"
NO_MENTIONS: dict[str, list[str]] = {"parse": []}
GOOD, BAD, EVEN, HIDDEN = 0x2E8B57, 0xC0392B, 0x3B6EA5, 0x555555


def _message(*embeds: dict[str, Any], flags: int = 0) -> dict[str, Any]:
    made: dict[str, Any] = {"embeds": list(embeds), "allowed_mentions": NO_MENTIONS}
    return {**made, "flags": flags} if flags else made


def messages() -> dict[str, dict[str, Any]]:
    """SAMPLES: the messages of the pictures, written by hand in the shape
    ``fudgedice.chat.discord`` makes them, the dice taken from real seeded
    rolls (``fudgedice roll "4dF+1 #sneak past the guard" --seed 11``, ...).

    Once the chat formatting is in the package, each entry is built by its
    function instead: ``roll_message(shown, system="fudge", link=ROOM)``,
    ``placeholder_message(shown, link=ROOM)``, ``odds_message(...)``,
    ``read_message(...)``, ``room_message(...)``, ``reveal_message(...)``, the
    ephemeral ones with ``flags=EPHEMERAL`` as the endpoint sends them."""
    sneak = {
        "title": "Ann: sneak past the guard", "url": ROOM, "color": EVEN,
        "description": "`4dF+1`\n`[ ]` `[-]` `[+]` `[+]`\n**2** \u00b7 +2 Great",
        "footer": {"text": "#1 \u00b7 hash 5f0c9e21a4b7d803 \u00b7 fudge"},
        "timestamp": "2026-11-27T20:14:03+00:00",
    }  # fmt: skip
    wrestle = {
        "title": "Bob: arm wrestling", "url": ROOM, "color": GOOD,
        "description": "`Good vs Great`\n`[+]` `[+]` `[+]` `[+]`\n"
                       "**5** \u00b7 \u2705 success, margin +3 \u00b7 +5 Superb+2 vs +2 Great",
        "footer": {"text": "#2 \u00b7 hash 0b3e77c4d15a9f62 \u00b7 fudge"},
        "timestamp": "2026-11-27T20:14:31+00:00",
    }  # fmt: skip
    lock = {
        "title": "Ann: pick the lock", "url": ROOM, "color": EVEN,
        "description": "`4dF+1`\n\U0001f512 only its roller and the GM see it\n"
                       "`[-]` `[ ]` `[-]` `[-]`\n**-2** \u00b7 -2 Poor",
        "footer": {"text": "#3 \u00b7 hash c41d08e9b2f6a375 \u00b7 fudge"},
        "timestamp": "2026-11-27T20:15:12+00:00",
    }  # fmt: skip
    placeholder = {
        "title": "\U0001f512 Ann made a roll for the GM's eyes (#3)", "url": ROOM,
        "color": HIDDEN, "footer": {"text": "#3 \u00b7 hash c41d08e9b2f6a375"},
        "timestamp": "2026-11-27T20:15:12+00:00",
    }  # fmt: skip
    seat = {
        "title": "Friday game", "url": ROOM, "color": EVEN,
        "description": "This channel's room, **fudge**: every roll here is kept in its log.\n"
                       f"[Open the room]({ROOM}) \u00b7 [your seat]({ROOM}#token=\u2026) "
                       "(yours alone: it rolls as you)",
        "fields": [
            {"name": "commitment (epoch 1)", "value": "`9e0f4c2ab81d77e3\u2026`", "inline": True},
            {"name": "rolls", "value": "3", "inline": True},
        ],
        "footer": {"text": "/reveal (the GM) shows the seed: every roll can then be checked"},
    }  # fmt: skip
    revealed = {
        "title": "Seed revealed (epoch 1)", "url": ROOM, "color": GOOD,
        "description": "Seed `3b1f0d9a5c6e24b8\u2026` matches its commitment: rolls #1 to #3 "
                       "can be checked (`fudgedice verify`).\nNew commitment (epoch 2): "
                       "`71c2e95d0a4b3f86\u2026`",
    }  # fmt: skip
    odds = {
        "title": "Odds of 4dF+1", "color": EVEN,
        "description": "```\nrolled degree    chance  exact  at least\n"
        "  -3 Terrible     1.23%   1/81   100.00%\n      -2 Poor     4.94%   4/81    98.77%\n"
        "  -1 Mediocre    12.35%  10/81    93.83%\n      +0 Fair    19.75%  16/81    81.48%\n"
        "      +1 Good    23.46%  19/81    61.73%\n     +2 Great    19.75%  16/81    38.27%\n"
        "    +3 Superb    12.35%  10/81    18.52%\n  +4 Superb+1     4.94%   4/81     6.17%\n"
        "  +5 Superb+2     1.23%   1/81     1.23%\n```\nmean 1, stdev 1.633",
        "footer": {"text": "exact: counted over all 81 ways the dice can fall"},
        "image": {"url": "attachment://odds.png"},
    }  # fmt: skip
    read = {
        "title": "Read by hand: pick the lock", "color": EVEN,
        "description": "`4dF+2`\n`[+]` `[+]` `[ ]` `[-]`\n**3** \u00b7 +3 Superb",
        "footer": {"text": "the faces as given: nobody can check how they fell"},
    }  # fmt: skip
    return {
        "sneak": _message(sneak), "wrestle": _message(wrestle),
        "lock": _message(lock, flags=EPHEMERAL), "placeholder": _message(placeholder),
        "seat": _message(seat, flags=EPHEMERAL), "reveal": _message(revealed),
        "odds": _message(odds), "read": _message(read),
    }  # fmt: skip


def chart() -> bytes:
    """The chart /odds attaches with ``chart: True`` (``chart_png`` once it is
    in the package): the command line's own chart of the odds."""
    with tempfile.TemporaryDirectory() as folder:
        return plot_odds(fudgedice.odds("4dF+1"), Path(folder) / "odds.png").read_bytes()


def scenes(
    sent: Mapping[str, dict[str, Any]], drawn: bytes = b""
) -> dict[str, tuple[str, list[Post]]]:
    """Each picture: whose view it is and what that person's channel shows."""
    return {
        "discord-channel.png": ("Bob", [
            Post(sent["sneak"], "Ann", "/roll", at="20:14"),
            Post(sent["wrestle"], "Bob", "/roll", at="20:14"),
            Post(sent["placeholder"], "Ann", "/roll", at="20:15"),
            Post(sent["reveal"], "Gemma", "/reveal", at="20:41"),
        ]),
        "discord-hidden.png": ("Ann", [
            Post(sent["wrestle"], "Bob", "/roll", at="20:14"),
            Post(sent["lock"], "Ann", "/roll", at="20:15"),
            Post(sent["placeholder"], "Ann", "/roll", at="20:15"),
            Post(sent["seat"], "Ann", "/table", at="20:16"),
        ]),
        "discord-odds.png": ("Gemma, the GM", [
            Post(sent["odds"], "Gemma", "/odds", at="19:52", files={"odds.png": drawn}),
            Post(sent["read"], "Ann", "/read", at="19:58"),
        ]),
    }  # fmt: skip


def test_the_discord_pictures(browser: Browser, artifacts: Path) -> None:
    sent = messages()
    context = browser.new_context(viewport={"width": 760, "height": 400}, device_scale_factor=1)
    try:
        page = context.new_page()
        for picture, (viewer, posts) in scenes(sent, chart()).items():
            page.set_content(
                channel("friday-game", "Friday game \u00b7 Fudge", posts, viewer=viewer)
            )
            page.evaluate("document.fonts.ready")
            private = page.locator(".post.private")
            flagged = [each for each in posts if int(each.message.get("flags") or 0) & EPHEMERAL]
            assert private.count() == len(flagged)
            assert page.locator(".ephemeral").all_inner_texts() == [
                "\U0001f441 Only you can see this \u2022 Dismiss message"
            ] * len(flagged)
            attached = sum(len(each.files) for each in posts)
            drawn = page.locator("img.image")
            assert drawn.count() == attached
            assert all(width > 0 for width in drawn.evaluate_all("a => a.map(i => i.naturalWidth)"))
            page.screenshot(path=artifacts / picture, full_page=True)
            assert (artifacts / picture).read_bytes().startswith(b"\x89PNG")
    finally:
        context.close()


def test_the_placeholder_holds_nothing_of_the_roll(browser: Browser) -> None:
    """Bob's channel shows that Ann rolled for the GM, never what she rolled."""
    sent = messages()
    viewer, posts = scenes(sent)["discord-channel.png"]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(channel("friday-game", "", posts, viewer=viewer))
        shown = page.locator("main").inner_text()
        assert "Ann made a roll for the GM's eyes (#3)" in shown
        for secret in ("pick the lock", "Poor", "-2"):
            assert secret not in shown
        assert page.locator(".ephemeral").count() == 0
    finally:
        context.close()
