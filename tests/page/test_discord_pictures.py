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
import functools
import html
import json
import re
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from pathlib import Path
from typing import Any

import httpx
from nacl.signing import SigningKey
from playwright.sync_api import Browser
from starlette.testclient import TestClient

from fudgedice.server.app import create_app
from fudgedice.server.db import connect
from fudgedice.server.discord.settings import DiscordSettings
from fudgedice.server.outbox import Outbox

EPHEMERAL = 64
"""Discord's flag of a message only its asker sees."""
SITE = "https://table.example.org"


class _Discord:
    """Discord's side of one in-process table: slash commands signed with a
    key made here and posted to the table's endpoint; what the table sends
    Discord's API later (follow-ups, a deferred answer's edit with its chart)
    kept by a stand-in transport of its outbox."""

    def __init__(self, folder: Path) -> None:
        self.key = SigningKey.generate()
        self.later: list[tuple[str, dict[str, Any], dict[str, bytes]]] = []
        self.asked = 0
        settings = DiscordSettings(
            self.key.verify_key.encode(), application_id="42", public_url=SITE,
            api="https://discord.invalid/api",
        )  # fmt: skip
        outbox = Outbox(transport=httpx.MockTransport(self._kept))
        app = create_app(connect(str(folder / "table.sqlite3")), discord=settings, outbox=outbox)
        self.client = TestClient(app)

    def _kept(self, request: httpx.Request) -> httpx.Response:
        body, files = _parsed(request.read(), request.headers.get("content-type", ""))
        self.later.append((f"{request.method} {request.url.path}", body, files))
        return httpx.Response(200, json={})

    def command(self, name: str, user: str, **options: Any) -> dict[str, Any]:
        """The table's answer to ``user``'s command in the channel (a deferred
        answer's edit once it is sent)."""
        self.asked += 1
        token = f"token{self.asked}"
        body = {
            "id": str(7 * 10**17 + self.asked), "type": 2, "application_id": "42",
            "token": token, "version": 1,
            "channel_id": "1001", "guild_id": "3001",
            "channel": {"id": "1001", "name": "friday-game", "type": 0},
            "member": {"user": {"id": str(2000 + sum(map(ord, user))), "username": user.lower(),
                                "global_name": user}, "roles": []},
            "data": {"name": name, "type": 1, "options": [
                {"name": key, "type": 5 if isinstance(value, bool) else 3, "value": value}
                for key, value in options.items()
            ]},
        }  # fmt: skip
        raw = json.dumps(body).encode()
        stamp = str(int(time.time()))
        signed = self.key.sign(stamp.encode() + raw).signature.hex()
        answer = self.client.post("/discord/interactions", content=raw, headers={
            "X-Signature-Ed25519": signed, "X-Signature-Timestamp": stamp,
            "content-type": "application/json",
        })  # fmt: skip
        assert answer.status_code == 200, answer.text
        replied: dict[str, Any] = answer.json()
        if replied["type"] == 4:
            data: dict[str, Any] = replied["data"]
            return data
        return self.sent(f"PATCH /api/webhooks/42/{token}/messages/@original")[0]

    def sent(self, what: str) -> tuple[dict[str, Any], dict[str, bytes]]:
        """What the table sent Discord's API as ``what`` (METHOD PATH), waited for."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for done, body, files in self.later:
                if done == what:
                    return body, files
            time.sleep(0.05)
        raise AssertionError(f"the table sent no {what}: {[each[0] for each in self.later]}")


def _parsed(raw: bytes, kind: str) -> tuple[dict[str, Any], dict[str, bytes]]:
    """A request's JSON, or a multipart request's payload_json and files."""
    if not kind.startswith("multipart/"):
        return json.loads(raw or b"{}"), {}
    message = BytesParser(policy=HTTP).parsebytes(
        b"content-type: " + kind.encode() + b"\r\n\r\n" + raw
    )
    body: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    for part in message.iter_parts():
        content = part.get_payload(decode=True)
        assert isinstance(content, bytes)
        if part.get_param("name", header="content-disposition") == "payload_json":
            body = json.loads(content)
        else:
            files[str(part.get_filename())] = content
    return body, files


@functools.cache
def messages() -> tuple[dict[str, dict[str, Any]], bytes]:
    """The messages of the pictures, as the table sends them: Gemma binds the
    channel (its GM), Ann and Bob roll, Ann rolls for the GM's eyes, asks for
    her seat and reads dice by hand, Gemma reveals and asks for odds with a
    chart; and the chart attached."""
    with tempfile.TemporaryDirectory() as folder:
        discord = _Discord(Path(folder))
        with discord.client:
            run = discord.command
            run("table", "Gemma")
            sent = {
                "sneak": run("roll", "Ann", text="4dF+1", label="sneak past the guard"),
                "wrestle": run("roll", "Bob", text="Good vs Great", label="arm wrestling"),
                "lock": run("roll", "Ann", text="4dF+2", label="pick the lock", visibility="gm"),
            }
            lock = next(done for done, *_ in discord.later if done.startswith("POST"))
            sent["placeholder"] = discord.sent(lock)[0]
            sent["seat"] = run("table", "Ann")
            sent["read"] = run("read", "Ann", form="4dF+2", faces="+ + 0 -")
            sent["reveal"] = run("reveal", "Gemma")
            charts: list[bytes] = []
            while not charts:  # asked again while the measuring process starts (busy)
                sent["odds"] = run("odds", "Gemma", text="4dF+1", chart=True)
                charts = [png for *_, files in discord.later for png in files.values()]
                time.sleep(0.2)
            (drawn,) = charts
    return sent, drawn


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
    sent, chart = messages()
    context = browser.new_context(viewport={"width": 760, "height": 400}, device_scale_factor=1)
    try:
        page = context.new_page()
        for picture, (viewer, posts) in scenes(sent, chart).items():
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
    sent, _ = messages()
    viewer, posts = scenes(sent)["discord-channel.png"]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(channel("friday-game", "", posts, viewer=viewer))
        shown = page.locator("main").inner_text()
        assert "Ann made a roll for the GM's eyes (#3)" in shown
        lock = sent["lock"]["embeds"][0]["description"]
        for secret in ("pick the lock", "4dF+2", lock.split("\n")[-1]):
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
_BARE = re.compile(r"<(https?://[^\s>]+)>")
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
        elif char == "<" and (found := _BARE.match(text, index)):  # a link, its preview off
            out.append(f'<a href="{html.escape(found[1])}">{html.escape(found[1])}</a>')
            index = found.end()
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
.embed { overflow-wrap: anywhere; max-width: 520px; background: #2b2d31;
  border-left: 4px solid; border-radius: 4px; padding: 8px 16px 16px 12px; margin-top: 4px;
  font-size: 14px; }
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
