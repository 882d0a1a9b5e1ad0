"""What the Discord endpoint's tests share: a local stand-in of Discord's API
that records what the table sends it, and interactions signed as Discord
signs them, with a key each test run generates."""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
from nacl.signing import SigningKey

APPLICATION = "555000111"
"""The application's ID in the tests' interactions and follow-ups."""
RECEIVED_WITHIN = 30.0
"""Seconds a test waits for a follow-up to arrive before it fails."""
SEAT = re.compile(r"/r/([A-Za-z0-9_-]+)#token=([A-Za-z0-9_-]+)")
"""A seat's link in a message: the room and the member's token."""


@dataclass
class Sent:
    """One request the table sent to Discord's API."""

    method: str
    path: str
    body: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return json.dumps(self.body, ensure_ascii=False)


class Receiver:
    """Discord's API on 127.0.0.1: every request recorded, each answered 200."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def _record(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                kind = self.headers.get("content-type", "")
                body, files = _parsed(raw, kind)
                with receiver.lock:
                    receiver.sent.append(Sent(self.command, self.path, body, files))
                answer = b'{"id": "1"}'
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_POST = do_PATCH = _record

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def to(self, token: str) -> list[Sent]:
        """What was sent for the interaction of ``token``."""
        with self.lock:
            return [each for each in self.sent if f"/{token}" in each.path]

    def wait(self, token: str, check: Callable[[Sent], bool]) -> Sent:
        deadline = time.monotonic() + RECEIVED_WITHIN
        while time.monotonic() < deadline:
            for each in self.to(token):
                if check(each):
                    return each
            time.sleep(0.05)
        raise AssertionError(f"nothing for the interaction within {RECEIVED_WITHIN} s")

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _parsed(raw: bytes, kind: str) -> tuple[dict[str, Any], dict[str, bytes]]:
    if not kind.startswith("multipart/"):
        return json.loads(raw or b"{}"), {}
    message = BytesParser(policy=HTTP).parsebytes(
        b"content-type: " + kind.encode() + b"\r\n\r\n" + raw
    )
    body: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        content = part.get_payload(decode=True)
        assert isinstance(content, bytes)
        if name == "payload_json":
            body = json.loads(content)
        else:
            files[str(name)] = content
    return body, files


def receiving() -> Iterator[Receiver]:
    receiver = Receiver()
    try:
        yield receiver
    finally:
        receiver.stop()


def interaction(
    name: str,
    *,
    channel: str = "1001",
    user: str = "2001",
    username: str = "ann",
    guild: str | None = "3001",
    roles: tuple[str, ...] = (),
    kind: int = 2,
    **options: Any,
) -> dict[str, Any]:
    """A slash command as Discord sends it (the fields the table reads and a few more)."""
    who = {"id": user, "username": username, "global_name": username.title()}
    body: dict[str, Any] = {
        "id": str(secrets.randbelow(10**18)), "type": kind, "application_id": APPLICATION,
        "token": "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(24), "version": 1,
        "channel_id": channel, "channel": {"id": channel, "name": "fate-night", "type": 0},
        "data": {"id": "9", "name": name, "type": 1, "options": [
            {"name": key, "type": 5 if isinstance(value, bool) else 3, "value": value}
            for key, value in options.items()
        ]},
    }  # fmt: skip
    if guild is None:
        body["user"] = who
    else:
        body.update(guild_id=guild, member={"user": who, "roles": list(roles), "nick": None})
    return body


@dataclass
class Discord:
    """Signs interactions with ``key`` and posts them to one table."""

    url: str
    key: SigningKey
    receiver: Receiver
    client: httpx.Client = field(init=False)

    def __post_init__(self) -> None:
        self.client = httpx.Client(base_url=self.url, timeout=30)

    def post(
        self,
        body: dict[str, Any] | bytes,
        *,
        key: SigningKey | None = None,
        at: float | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        stamp = str(int(time.time() if at is None else at))
        signature = (key or self.key).sign(stamp.encode() + raw).signature.hex()
        sent = {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": stamp,
                "content-type": "application/json"}  # fmt: skip
        return self.client.post("/discord/interactions", content=raw, headers=headers or sent)

    def command(self, name: str, **given: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The interaction sent and its answer (200), the deferred one's edit
        waited for: (interaction, {"type", "data", "edit"?})."""
        body = interaction(name, **given)
        answer = self.post(body)
        assert answer.status_code == 200, answer.text
        replied: dict[str, Any] = answer.json()
        assert replied["type"] in (4, 5), replied
        if replied["type"] == 5:
            edit = self.receiver.wait(body["token"], lambda sent: sent.method == "PATCH")
            assert edit.path == f"/webhooks/{APPLICATION}/{body['token']}/messages/@original"
            replied["edit"] = edit
        return body, replied

    def close(self) -> None:
        self.client.close()


def message_text(replied: dict[str, Any]) -> str:
    """An answer's message (or its deferred edit's) as text, to look into."""
    if "edit" in replied:
        sent: Sent = replied["edit"]
        return sent.text
    return json.dumps(replied["data"], ensure_ascii=False)


def ephemeral(replied: dict[str, Any]) -> bool:
    return bool(replied["data"].get("flags", 0) & 64)
