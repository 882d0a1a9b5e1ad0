"""A small HTTP/1.1 client for the table's load test: one keep-alive
connection per member or watcher, raw asyncio streams, nothing else.

The load generator shares the machine's two cores with the server it
measures, so it must cost little per request: a full client (httpx) spent
more CPU per roll than the server did. This speaks only what the table
answers: a body with Content-Length, or a chunked event stream.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any


class Closed(Exception):
    """The server closed the connection (or was killed) mid-exchange."""


class Connection:
    """One keep-alive connection to ``host:port``."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(
            self.host, self.port, limit=1 << 20
        )

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    def _send(
        self, method: str, path: str, body: bytes, token: str | None, key: str | None = None
    ) -> None:
        assert self.writer is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if key is not None:
            head += f"Idempotency-Key: {key}\r\n"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write((head + "\r\n").encode() + body)

    async def _head(self) -> tuple[int, dict[str, str]]:
        assert self.reader is not None
        try:
            raw = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            raise Closed(str(error)) from None
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        return status, headers

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        key: str | None = None,
    ) -> tuple[int, bytes]:
        """Send one request and read its whole answer (Content-Length bodies);
        ``key`` its Idempotency-Key."""
        if self.writer is None:
            await self.open()
        payload = b"" if body is None else json.dumps(body).encode()
        try:
            self._send(method, path, payload, token, key)
            status, headers = await self._head()
            assert self.reader is not None
            data = await self.reader.readexactly(int(headers.get("content-length", "0")))
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            self.close()
            raise Closed(str(error)) from None
        except Closed:
            self.close()
            raise
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, data

    async def feed(self, path: str, token: str) -> AsyncIterator[str]:
        """A Server-Sent Events stream as it comes: whole events only, as many
        to a string as arrived together (the reader picks out what it needs)."""
        if self.writer is None:
            await self.open()
        try:
            self._send("GET", path, b"", token)
            status, headers = await self._head()
            if status != 200 or headers.get("transfer-encoding") != "chunked":
                raise Closed(f"the live feed answered {status}")
            pending = ""
            async for chunk in self._chunks():
                pending += chunk
                end = pending.rfind("\n\n") + 2
                if end > 1:
                    yield pending[:end]
                    pending = pending[end:]
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            raise Closed(str(error)) from None
        finally:
            self.close()

    async def _chunks(self) -> AsyncIterator[str]:
        assert self.reader is not None
        while True:
            size = int((await self.reader.readuntil(b"\r\n"))[:-2].split(b";")[0], 16)
            if size == 0:
                return
            data = await self.reader.readexactly(size + 2)
            yield data[:-2].decode()
