"""What the table sends out: a room's webhook, Discord's follow-ups to a slash
command, a roll posted to a bound Discord channel. Each is a :class:`Delivery`
handed to the process's :class:`Outbox`, which sends it later, on the event
loop, and tries again with back-off: handing one over never waits, so a slow
or failing receiver never slows a roll.

Deliveries to one address go one at a time, in the order given (a channel
shows its rolls in the order they were made), and addresses apart from each
other (a receiver that hangs holds up only its own). What waits is bounded
(:data:`MOST_WAITING` in all, :data:`MOST_EACH` an address, and rolls
mirrored :data:`MOST_MIRRORED` together, so that Discord's answers always
find room): past that a delivery is dropped and counted, never kept in
memory without end. The outbox keeps nothing across a restart: a delivery
waiting when the process stops is lost (the room's log keeps the roll itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import socket
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from .webhooks import public

log = logging.getLogger("fudgedice.server")


class _Hidden(logging.Filter):
    """httpx's line of each request (INFO) with its URL cut to the host: a
    webhook's path and an interaction's token are secrets, kept out of the
    server's log whatever its level."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) > 1 and isinstance(args[1], httpx.URL):
            record.args = (args[0], f"{args[1].scheme}://{args[1].host}/...", *args[2:])
        return True


logging.getLogger("httpx").addFilter(_Hidden())

MOST_WAITING = 2_000
"""Deliveries waiting in all, at most; more are dropped (and counted)."""
MOST_EACH = 200
"""Deliveries waiting for one address, at most."""
MOST_MIRRORED = MOST_WAITING // 2
"""Mirrored rolls waiting, at most (to rooms' webhooks, receivers that GMs
chose and any of which may hang, and to bound channels, which Discord
rate-limits): they never take the room kept for slash commands' answers."""
TRIES = 6
"""Times a delivery is sent at most (the first time and five more)."""
FIRST_WAIT = 0.5
"""Seconds before the first retry; each next waits twice as long (with jitter)."""
LONGEST_WAIT = 60.0
"""Seconds a retry waits at most, a receiver's Retry-After included."""
TIMEOUT = 10.0
"""Seconds one attempt may take (connecting, sending, the answer)."""


@dataclass(frozen=True)
class Delivery:
    """One request to send: ``method`` to ``url`` with the JSON ``body``, or,
    with ``files`` (name, content, media type), a multipart request whose
    ``payload_json`` part is the body (as Discord takes attachments).
    ``what`` names it in the server's log, never its URL (a webhook's URL is
    its secret)."""

    url: str
    body: Mapping[str, Any]
    what: str
    method: str = "POST"
    headers: Mapping[str, str] = field(default_factory=dict)
    files: tuple[tuple[str, bytes, str], ...] = ()
    mirrored: bool = False
    """A roll mirrored by :mod:`.mirror`: counted apart, within :data:`MOST_MIRRORED`."""
    public_only: bool = False
    """Sent only while its host resolves to public addresses alone: a room's
    webhook, whose name was checked when it was set but may since resolve
    into the table's own network (a name re-pointed, DNS rebinding)."""


Resolve = Callable[[str, int], Awaitable[list[str]]]
"""The addresses a host name resolves to (a test gives its own)."""


async def resolved(host: str, port: int) -> list[str]:
    found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(each[4][0]).partition("%")[0] for each in found]


@dataclass
class Counts:
    """What the outbox has done since it started."""

    sent: int = 0
    retried: int = 0
    failed: int = 0  # given up: refused (4xx) or every try failed
    dropped: int = 0  # never sent: too many waiting


class Outbox:
    """The process's deliveries. :meth:`send` may be called from any thread;
    :meth:`start` and :meth:`stop` run on the event loop (the app's lifespan).
    ``transport`` stands in for the network in tests."""

    def __init__(
        self,
        *,
        tries: int = TRIES,
        first_wait: float = FIRST_WAIT,
        timeout: float = TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        resolve: Resolve = resolved,
    ) -> None:
        self.tries, self.first_wait, self.timeout = tries, first_wait, timeout
        self.transport, self.resolve = transport, resolve
        self.counts = Counts()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._client: httpx.AsyncClient | None = None
        self._waiting: dict[str, deque[Delivery]] = {}
        self._senders: dict[str, asyncio.Task[None]] = {}
        self._total = 0
        self._mirrored = 0

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._client = httpx.AsyncClient(
            timeout=self.timeout, transport=self.transport, follow_redirects=False
        )

    async def stop(self) -> None:
        for task in list(self._senders.values()):
            task.cancel()
        for task in list(self._senders.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._client is not None:
            await self._client.aclose()

    def send(self, delivery: Delivery) -> None:
        """Send ``delivery`` later; never waits, from any thread."""
        loop = self.loop
        if loop is None or loop.is_closed():
            self.counts.dropped += 1
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._queue(delivery)
        else:
            loop.call_soon_threadsafe(self._queue, delivery)

    def waiting(self) -> int:
        """Deliveries not yet sent or given up."""
        return self._total

    def _queue(self, delivery: Delivery) -> None:
        key = _address(delivery.url)
        waiting = self._waiting.setdefault(key, deque())
        crowded = delivery.mirrored and self._mirrored >= MOST_MIRRORED
        if crowded or self._total >= MOST_WAITING or len(waiting) >= MOST_EACH:
            self.counts.dropped += 1
            log.warning("outbox full: %s dropped", delivery.what)
            return
        waiting.append(delivery)
        self._total += 1
        self._mirrored += delivery.mirrored
        if key not in self._senders:
            self._senders[key] = asyncio.get_running_loop().create_task(self._drain(key))

    async def _drain(self, key: str) -> None:
        """Send the deliveries waiting for one address, one at a time."""
        waiting = self._waiting[key]
        try:
            while waiting:
                delivery = waiting[0]
                try:
                    await self._deliver(delivery)
                finally:
                    waiting.popleft()
                    self._total -= 1
                    self._mirrored -= delivery.mirrored
        finally:
            del self._senders[key]
            if not waiting:
                self._waiting.pop(key, None)

    async def _deliver(self, delivery: Delivery) -> None:
        """Tries until the receiver takes it, refuses it, or the tries run out."""
        wait = self.first_wait
        for attempt in range(1, self.tries + 1):
            retry_after = await self._attempt(delivery)
            if retry_after is None:
                return
            if attempt == self.tries:
                break
            self.counts.retried += 1
            # jitter: receivers that failed together are not all tried again at once
            await asyncio.sleep(min(LONGEST_WAIT, max(retry_after, wait * _jitter())))
            wait *= 2
        self.counts.failed += 1
        log.warning("%s: given up after %d tries", delivery.what, self.tries)

    async def _attempt(self, delivery: Delivery) -> float | None:
        """One try: None when done with (sent, or refused for good), else the
        seconds the receiver asked to wait (0 when it did not say)."""
        assert self._client is not None, "the outbox is started with the app"
        if delivery.public_only and not await _public(self.resolve, delivery.url):
            self.counts.failed += 1  # refused for good, as a receiver's 4xx
            log.warning("%s: its host now resolves into a private network", delivery.what)
            return None
        try:
            response = await self._client.request(
                delivery.method, delivery.url, **_content(delivery)
            )
        except httpx.HTTPError as error:
            log.info("%s: %s", delivery.what, type(error).__name__)
            return 0.0
        if response.status_code < 300:
            self.counts.sent += 1
            return None
        if response.status_code == 429 or response.status_code >= 500:
            return _retry_after(response)
        # a 4xx other than 429 will be refused again: a webhook deleted, a token expired
        self.counts.failed += 1
        log.warning("%s: refused (%d)", delivery.what, response.status_code)
        return None


async def _public(resolve: Resolve, url: str) -> bool:
    """Whether every address ``url``'s host resolves to now is public
    (checked again at each try: the name may be re-pointed between)."""
    parts = urlsplit(url)
    try:
        found = await resolve(parts.hostname or "", parts.port or 443)
    except (OSError, UnicodeError, ValueError):
        return False
    return bool(found) and all(public(address) for address in found)


def _content(delivery: Delivery) -> dict[str, Any]:
    headers = dict(delivery.headers)
    if not delivery.files:
        return {"json": dict(delivery.body), "headers": headers}
    files: list[tuple[str, tuple[str | None, bytes, str]]] = [
        ("payload_json", (None, json.dumps(delivery.body).encode(), "application/json"))
    ]
    files += [
        (f"files[{i}]", (name, data, media)) for i, (name, data, media) in enumerate(delivery.files)
    ]
    return {"files": files, "headers": headers}


def _retry_after(response: httpx.Response) -> float:
    """The seconds a 429 or 503 asks to wait: its Retry-After header, or
    Discord's ``retry_after`` in the body; 0 when neither says."""
    given = response.headers.get("retry-after")
    if given is None:
        with contextlib.suppress(ValueError, AttributeError):
            given = response.json().get("retry_after")
    try:
        return max(0.0, float(given)) if given is not None else 0.0
    except (TypeError, ValueError):
        return 0.0


def _address(url: str) -> str:
    """The key deliveries take turns under: a URL without its query (Discord
    orders messages by webhook or channel, which the path names)."""
    return url.partition("?")[0]


def _jitter() -> float:
    """A factor from 0.8 to 1.2, so that receivers that failed together are
    not all tried again at once. From :mod:`secrets`: the project's one
    source of dice is the stream (:mod:`fudgedice.stream`), and ``random`` is
    imported nowhere, so that no roll can come from it by mistake."""
    return 0.8 + secrets.randbelow(401) / 1000
