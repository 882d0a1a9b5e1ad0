"""What one connection may hold: time to send its request, and a share of the
process's open files.

uvicorn bounds the time between requests (``timeout_keep_alive``) but not the
time a request takes to arrive: its keep-alive timer is disarmed by the first
byte, so a client that sends a header line every few seconds, or a body a byte
at a time, holds its connection (and one of the process's open files) for as
long as it likes, and 1,800 such connections starved every other client of
file descriptors. Nor does it count connections by address. Neither has a
setting, and no library the project keeps adds one, so :class:`GuardedProtocol`
is uvicorn's own httptools protocol with three checks added at the parser's
callbacks (the approach other servers built on uvicorn take for the same
problem):

* a request's line and headers must arrive within ``header_timeout`` seconds of
  its first byte (or of the connection's opening), its body within
  ``body_timeout`` seconds of its headers; else 408, and the connection closes;
* one address may hold at most ``per_address`` connections at once, and the
  process ``most`` in all (below its open-file limit); a connection past
  either is answered 429 or 503 at once and closed.

A response under way is never timed (a live feed lasts hours).
"""

from __future__ import annotations

import asyncio
import json
import resource
from dataclasses import dataclass
from typing import Any, ClassVar

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

HEADER_TIMEOUT = 10.0
"""Seconds a request's line and headers may take to arrive (a phone on a bad
connection sends them in one packet, well under a second)."""
BODY_TIMEOUT = 30.0
"""Seconds a request's body may take to arrive after its headers (the largest
the table takes, a character sheet, is a few kB)."""
PER_ADDRESS = 256
"""Connections one address may hold at once: a browser opens six, and a
group behind one router (a club, a school) shares an address."""
SPARE_FILES = 128
"""Open files kept apart from connections: the database, its pool, logs."""
MOST_CONNECTIONS = 4096
"""Connections a process holds at most by default, whatever its open-file
limit: each costs some tens of kB (its buffers, parser, a live feed's queue),
and 4,096 of them fit the default memory ceiling with room to spare."""
LINGER = 1.0
"""Seconds a connection refused or timed out stays half-open for its client
to read the answer: closed at once with bytes of a request still unread, it
would be reset, and the client might see the reset rather than the answer."""


@dataclass(frozen=True)
class ConnectionLimits:
    """What ``fudgedice serve`` allows each connection (see the module)."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    per_address: int = PER_ADDRESS
    most: int = MOST_CONNECTIONS


def raise_open_files() -> int:
    """Raise this process's soft limit of open files to its hard limit (the
    soft one is often 1,024, which a few hundred idle clients exhaust), and
    return the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):  # a container may refuse: keep what there is
            pass
    return soft


def most_connections(asked: int | None, open_files: int) -> int:
    """Connections the process may hold: what was asked (else
    :data:`MOST_CONNECTIONS`), never so many that the open files left would
    not serve the database."""
    ceiling = max(open_files - SPARE_FILES, 16)
    return min(MOST_CONNECTIONS if asked is None else asked, ceiling)


def _answer(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n"
        "x-content-type-options: nosniff\r\n\r\n"
    )
    return head.encode() + body


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with read timeouts and connection caps;
    :func:`guarded` makes one with its limits."""

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()
    by_address: ClassVar[dict[str, int]] = {}

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._deadline: asyncio.TimerHandle | None = None
        self._address: str | None = None
        self._refused = False
        self._finished = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        refusal = self._refusal(address)
        if refusal is not None:
            self._refused = True
            self.transport = transport
            self._finish(refusal)
            return
        self._address = address
        self.by_address[address] = self.by_address.get(address, 0) + 1
        super().connection_made(transport)
        self._arm(self.limits.header_timeout, "its headers")

    def _refusal(self, address: str) -> bytes | None:
        limits = self.limits
        if self.by_address.get(address, 0) >= limits.per_address:
            return _answer(
                429,
                "Too Many Requests",
                f"at most {limits.per_address} connections from one address at once",
            )
        if len(self.connections) >= limits.most:
            return _answer(503, "Service Unavailable", "the table holds all the connections it can")
        return None

    def _finish(self, answer: bytes) -> None:
        """Answer, end the connection's sending side, and close it once the
        client closes too (or after :data:`LINGER`); what it sends meanwhile
        is dropped."""
        self._finished = True
        transport = self.transport
        transport.write(answer)
        if transport.can_write_eof():
            transport.write_eof()
        self.loop.call_later(LINGER, transport.close)

    def data_received(self, data: bytes) -> None:
        if not self._finished:
            super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return
        self._disarm()
        address = self._address
        if address is not None:
            self._address = None
            left = self.by_address.get(address, 1) - 1
            if left > 0:
                self.by_address[address] = left
            else:
                self.by_address.pop(address, None)
        super().connection_lost(exc)

    # the parser's callbacks: a request begins, its headers end, its body ends

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:
            self._arm(self.limits.header_timeout, "its headers")

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()
        self._arm(self.limits.body_timeout, "its body")

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def _arm(self, seconds: float, what: str) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow, seconds, what)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self, seconds: float, what: str) -> None:
        """The request did not arrive in time: 408 if nothing was answered yet."""
        self._deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is not None and cycle.response_started:
            self.transport.close()  # an answer is under way: it cannot be another
            return
        message = f"the request took longer than {seconds:g} s to send {what}"
        self._finish(_answer(408, "Request Timeout", message))


def guarded(limits: ConnectionLimits) -> type[GuardedProtocol]:
    """A protocol class with these limits and its own count of addresses
    (uvicorn makes one protocol object a connection, from the class)."""
    return type(
        "GuardedProtocol",
        (GuardedProtocol,),
        {"limits": limits, "by_address": {}, "__module__": __name__},
    )


__all__ = [
    "BODY_TIMEOUT",
    "HEADER_TIMEOUT",
    "MOST_CONNECTIONS",
    "PER_ADDRESS",
    "ConnectionLimits",
    "GuardedProtocol",
    "guarded",
    "most_connections",
    "raise_open_files",
]
