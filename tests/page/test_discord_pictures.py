"""The pictures of docs/discord.md: the messages the table sends to Discord,
drawn in a page styled like a Discord channel and screenshotted by Chromium
into ``test-artifacts/page/discord-*.png``; ``make screenshot`` copies them
into ``docs/``. Discord itself is never reached: what is drawn is the
messages as sent (``content``, ``embeds`` with their title, description,
fields, footer, colour and image, ``flags``), their markdown included (bold,
italics, struck text, code spans and blocks, masked links, a backslash's
escapes), so that a message's escaped user text shows as text.

What a player may not see is checked on the pictures' own pages: a hidden
roll's placeholder in the channel holds nothing of the roll, and only an
answer flagged ephemeral says "Only you can see this"."""

from __future__ import annotations

import base64
import html
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

import fudgedice
from fudgedice.render.plot import plot_odds

EPHEMERAL = 64
"""Discord's flag of a message only its asker sees."""
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


def test_markdown_is_drawn_as_discord_draws_it() -> None:
    """Escaped user text is drawn as text, never as markup: a name of
    asterisks stays asterisks, and HTML is shown, not run."""
    drawn = markdown(r"\*\*Ann\*\* `[+]` **3** ~~`[-]`~~ *x* <b>[page](https://a.example/r)")
    assert drawn == (
        "**Ann** <code>[+]</code> <strong>3</strong> <s><code>[-]</code></s> <em>x</em> "
        '&lt;b&gt;<a href="https://a.example/r">page</a>'
    )
    assert markdown("```\nrolled  chance\n  +1  23.46%\n```\nmean 1") == (
        "<pre>rolled  chance\n  +1  23.46%</pre>mean 1"
    )


# ------------------------------------------------ a channel drawn as Discord draws it

BOT = "fudgedice"
AVATARS = ("#5865f2", "#3ba55c", "#eb459e", "#faa61a", "#ed4245", "#9b59b6")
"""The colours of the default avatars, one for each name."""
_STYLES = (("**", "strong"), ("__", "u"), ("~~", "s"), ("*", "em"), ("_", "em"))
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^\s)]+)\)")


@dataclass(frozen=True)
class Post:
    """One message in the channel: the bot's answer to ``asker``'s slash
    ``command`` (or a follow-up to it), or, with no asker, a message the bot
    posted of its own (a roll made at the room's page)."""

    message: Mapping[str, Any]
    asker: str | None = None
    command: str = ""
    at: str = "20:14"
    files: Mapping[str, bytes] = field(default_factory=dict)
    """The message's attachments by name (a PNG chart), which an embed's
    image names as ``attachment://NAME``."""


def _closing(text: str, start: int, mark: str) -> int:
    """Where ``mark`` closes a span opened before ``start``, or -1 (escaped marks skipped)."""
    index = start
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text.startswith(mark, index) and index > start:
            doubled = len(mark) == 1 and text.startswith(mark * 2, index)
            if not doubled:
                return index
            index += 2
            continue
        index += 1
    return -1


def markdown(text: str) -> str:
    """Discord's markdown as HTML: what a message's text looks like in a channel."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and not text[index + 1].isalnum():
            out.append(html.escape(text[index + 1]))
            index += 2
        elif text.startswith("```", index) and (end := text.find("```", index + 3)) > 0:
            body = text[index + 3 : end]
            first, _, rest = body.partition("\n")
            shown = rest if rest and re.fullmatch(r"[\w+-]*", first) else body
            out.append(f"<pre>{html.escape(shown.strip(chr(10)))}</pre>")
            index = end + 3 + text.startswith("\n", end + 3)  # the block ends its line
        elif char == "`" and (end := text.find("`", index + 1)) > 0:
            out.append(f"<code>{html.escape(text[index + 1 : end])}</code>")
            index = end + 1
        elif char == "[" and (found := _LINK.match(text, index)):
            out.append(f'<a href="{html.escape(found[2])}">{markdown(found[1])}</a>')
            index = found.end()
        elif char == "\n":
            out.append("<br>")
            index += 1
        else:
            styled = _styled(text, index)
            if styled is None:
                out.append(html.escape(char))
                index += 1
            else:
                out.append(styled[0])
                index = styled[1]
    return "".join(out)


def _styled(text: str, index: int) -> tuple[str, int] | None:
    """A bold, italic, underlined or struck span starting at ``index``: (HTML, where it ends)."""
    for mark, tag in _STYLES:
        if text.startswith(mark, index):
            end = _closing(text, index + len(mark), mark)
            if end > index + len(mark):
                inner = markdown(text[index + len(mark) : end])
                return f"<{tag}>{inner}</{tag}>", end + len(mark)
            return None
    return None


def _colour(value: Any) -> str:
    return f"#{value:06x}" if isinstance(value, int) and 0 <= value <= 0xFFFFFF else "#1e1f22"


def _fields(fields: Sequence[Mapping[str, Any]]) -> str:
    cells = [
        f'<div class="field{" inline" if field.get("inline") else ""}">'
        f'<div class="field-name">{markdown(str(field.get("name", "")))}</div>'
        f'<div class="field-value">{markdown(str(field.get("value", "")))}</div></div>'
        for field in fields
    ]
    return f'<div class="fields">{"".join(cells)}</div>' if cells else ""


def _image(url: Any, files: Mapping[str, bytes]) -> str:
    """An embed's image: an attachment of the message, drawn inline."""
    name = url.removeprefix("attachment://") if isinstance(url, str) else ""
    if name not in files:
        return ""
    data = base64.b64encode(files[name]).decode()
    return f'<img class="image" alt="" src="data:image/png;base64,{data}">'


def embed(shown: Mapping[str, Any], files: Mapping[str, bytes] | None = None) -> str:
    """One embed: its colour's bar, title (a link when it has a url), text, fields, footer."""
    parts: list[str] = []
    if author := shown.get("author"):
        parts.append(f'<div class="author">{html.escape(str(author.get("name", "")))}</div>')
    if title := shown.get("title"):
        tag = "a" if shown.get("url") else "span"
        parts.append(f'<div class="title"><{tag}>{markdown(str(title))}</{tag}></div>')
    if description := shown.get("description"):
        parts.append(f'<div class="description">{markdown(str(description))}</div>')
    parts.append(_fields(shown.get("fields") or []))
    parts.append(_image((shown.get("image") or {}).get("url"), files or {}))
    footer = (shown.get("footer") or {}).get("text", "")
    clock = re.search(r"T(\d\d:\d\d)", str(shown.get("timestamp") or ""))
    when = f" \u2022 Today at {clock[1]}" if clock else ""
    if footer or when:
        parts.append(f'<div class="footer">{html.escape(str(footer))}{when}</div>')
    bar = _colour(shown.get("color"))
    return f'<div class="embed" style="border-left-color:{bar}">{"".join(parts)}</div>'


def _avatar(name: str, size: str = "") -> str:
    colour = "#5865f2" if name == BOT else AVATARS[sum(map(ord, name)) % len(AVATARS)]
    letter = "\U0001f3b2" if name == BOT else html.escape(name[:1].upper())
    return f'<div class="avatar {size}" style="background:{colour}">{letter}</div>'


def post(shown: Post) -> str:
    """A post as Discord draws it: who used which command above, the bot's
    answer under its name, and, for an ephemeral one, "Only you can see this"."""
    message = shown.message
    asked = ""
    if shown.asker:
        asked = (
            f'<div class="asked">{_avatar(shown.asker, "small")}<b>{html.escape(shown.asker)}'
            f'</b> used <span class="command">{html.escape(shown.command)}</span></div>'
        )
    body = [markdown(str(message["content"]))] if message.get("content") else []
    body += [embed(each, shown.files) for each in message.get("embeds") or []]
    ephemeral = ""
    if int(message.get("flags") or 0) & EPHEMERAL:
        ephemeral = (
            '<div class="ephemeral"><span class="eye">\U0001f441</span> Only you can see this '
            "\u2022 <a>Dismiss message</a></div>"
        )
    return (
        f'<article class="post{" private" if ephemeral else ""}">{asked}<div class="row">'
        f'{_avatar(BOT)}<div class="main"><div class="head"><span class="name">{BOT}</span>'
        f'<span class="app">APP</span><span class="time">Today at {html.escape(shown.at)}</span>'
        f'</div><div class="content">{"".join(body)}</div>{ephemeral}</div></div></article>'
    )


CSS = """
* { box-sizing: border-box; }
body { margin: 0; background: #313338; color: #dbdee1; font: 16px/1.375 "Liberation Sans",
  "DejaVu Sans", "Noto Color Emoji", sans-serif; }
header { height: 48px; display: flex; align-items: center; gap: 8px; padding: 0 16px;
  border-bottom: 1px solid #1f2023; box-shadow: 0 1px 2px rgba(0,0,0,.2); }
header .hash { color: #80848e; font-size: 24px; } header h1 { font-size: 16px; margin: 0; }
header .topic { color: #949ba4; font-size: 14px; border-left: 1px solid #3f4147;
  padding-left: 12px; margin-left: 4px; }
main { padding: 8px 0 16px; }
.post { padding: 4px 48px 4px 16px; margin-top: 14px; }
.asked { display: flex; align-items: center; gap: 4px; margin-left: 56px; font-size: 14px;
  color: #949ba4; position: relative; margin-bottom: 2px; }
.asked::before { content: ""; position: absolute; left: -36px; top: 9px; width: 30px;
  height: 10px; border-left: 2px solid #4e5058; border-top: 2px solid #4e5058;
  border-top-left-radius: 6px; }
.asked b { color: #dbdee1; font-weight: 600; } .command { color: #00a8fc; }
.row { display: flex; gap: 16px; }
.avatar { width: 40px; height: 40px; border-radius: 50%; flex: none; display: flex;
  align-items: center; justify-content: center; color: #fff; font-weight: 700; font-size: 18px; }
.avatar.small { width: 16px; height: 16px; font-size: 10px; }
.main { min-width: 0; flex: 1; }
.head { display: flex; align-items: baseline; gap: 6px; }
.name { color: #f2f3f5; font-weight: 600; }
.app { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; padding: 1px 4px;
  border-radius: 3px; position: relative; top: -2px; }
.time { color: #949ba4; font-size: 12px; }
.content { font-size: 16px; }
.embed { max-width: 520px; background: #2b2d31; border-left: 4px solid; border-radius: 4px;
  padding: 8px 16px 16px 12px; margin-top: 4px; font-size: 14px; }
.author { font-size: 14px; font-weight: 600; color: #f2f3f5; margin-top: 8px; }
.title { font-weight: 600; font-size: 16px; color: #f2f3f5; margin-top: 8px; }
.title a { color: #00a8fc; }
.description { margin-top: 8px; white-space: pre-wrap; }
.fields { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-top: 8px; }
.field { grid-column: 1 / -1; } .field.inline { grid-column: auto; }
.field-name { font-weight: 600; color: #f2f3f5; margin-bottom: 2px; }
.footer { margin-top: 8px; font-size: 12px; color: #b5bac1; }
.image { margin-top: 16px; max-width: 100%; border-radius: 4px; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 85%; background: #1e1f22;
  border-radius: 4px; padding: 1px 3px; }
pre { font-family: "DejaVu Sans Mono", monospace; font-size: 12.5px; background: #1e1f22;
  border: 1px solid #1e1f22; border-radius: 4px; padding: 7px; margin: 6px 0 0;
  white-space: pre; overflow: hidden; line-height: 1.25; }
a { color: #00a8fc; text-decoration: none; }
.ephemeral { font-size: 12px; color: #949ba4; margin-top: 4px; }
.ephemeral a { color: #00a8fc; } .eye { font-size: 13px; }
.private { background: rgba(88, 101, 242, .06); }
footer { margin: 0 16px 20px; background: #383a40; border-radius: 8px; padding: 11px 16px;
  color: #6d6f78; }
.note { color: #949ba4; font-size: 12px; text-align: right; margin: 0 16px 8px; }
"""


def channel(name: str, topic: str, posts: Sequence[Post], *, viewer: str) -> str:
    """A whole channel as ``viewer`` sees it: a page to screenshot."""
    shown = "".join(post(each) for each in posts)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>#{html.escape(name)}</title><style>{CSS}</style></head><body>"
        f'<header><span class="hash">#</span><h1>{html.escape(name)}</h1>'
        f'<span class="topic">{html.escape(topic)}</span></header>'
        f"<main>{shown}</main>"
        f'<p class="note">as {html.escape(viewer)} sees it</p>'
        f"<footer>Message #{html.escape(name)}</footer></body></html>"
    )
