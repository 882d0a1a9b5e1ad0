"""The answer to ``GET .../live``: a member's live feed as Server-Sent Events.

It first replays from the database what the reader missed, then sends each
roll of the room as the reader may see it (hidden rolls as placeholders),
each reveal, and a keep-alive line now and then. Everything that arrived while
the previous chunk was being written goes out as one chunk: with many
watchers, the cost of the feed is the number of writes, not of rolls.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from . import store
from .db import Database
from .live import Hub, Watcher
from .records import Member, RollRecord, json_bytes

PAGE = 500
"""Rolls read from the database at once when catching up."""
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


class EventStream(Response):
    """A ``text/event-stream`` answer that ends when its reader goes away."""

    media_type = "text/event-stream"

    def __init__(self, hub: Hub, watcher: Watcher, chunks: AsyncIterator[bytes]) -> None:
        self.status_code = 200
        self.background = None
        self.init_headers(HEADERS)  # no body yet, so no Content-Length: the answer is chunked
        self.hub, self.watcher, self.chunks = hub, watcher, chunks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        gone = asyncio.create_task(self._until_gone(receive))
        try:
            async for chunk in self.chunks:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await gone
            await self.chunks.aclose()  # type: ignore[attr-defined]
            self.hub.leave(self.watcher)

    async def _until_gone(self, receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        self.watcher.close()


def live_feed(db: Database, hub: Hub, room: str, me: Member, after: int) -> EventStream:
    """The feed of ``room`` for ``me``, from the roll after ``after`` on."""
    watcher = hub.watch(room)  # before catching up, so that nothing falls between
    return EventStream(hub, watcher, _chunks(db, watcher, me, after))


async def _pages(
    db: Database, room: str, last: int, before: int | None = None
) -> AsyncIterator[list[RollRecord]]:
    """The rolls after ``last`` (and before ``before``) from the database, a page at a time."""
    while True:
        page = await run_in_threadpool(
            functools.partial(store.list_rolls, db, room, after=last, limit=PAGE)
        )
        kept = [record for record in page if before is None or record.seq < before]
        if kept:
            yield kept
            last = kept[-1].seq
        if len(page) < PAGE or len(kept) < len(page):
            return


def _event(kind: str, data: Any) -> bytes:
    return b"event: %b\ndata: %b\n\n" % (kind.encode(), json_bytes(data))


async def _chunks(db: Database, watcher: Watcher, me: Member, last: int) -> AsyncIterator[bytes]:
    async for page in _pages(db, watcher.room, last):
        last = page[-1].seq
        yield b"".join(record.frame_for(me) for record in page)
    yield _event("ready", {"last_seq": last})
    while not watcher.closed:
        parts: list[bytes] = []
        for event in await watcher.next():
            if event.kind == "keep-alive":
                parts.append(b": keep-alive\n\n")
            elif event.kind in ("reveal", "member"):
                parts.append(_event(event.kind, event.data))
            if event.kind == "resync":  # missed (a full backlog, a lost listener)
                async for page in _pages(db, watcher.room, last):
                    last = page[-1].seq
                    parts.extend(record.frame_for(me) for record in page)
            if event.next_after(last):  # as its other readers alike see it: made once for all
                parts.append(event.shown.frames_for(me))
                last = event.rolls[-1].seq
                continue
            for record in event.in_order:
                if record.seq > last + 1:  # one missed (committed on another thread, or
                    # by another process, and told later): the database has it
                    async for page in _pages(db, watcher.room, last, record.seq):
                        last = page[-1].seq
                        parts.extend(record.frame_for(me) for record in page)
                if record.seq > last:
                    parts.append(record.frame_for(me))
                    last = record.seq
        if parts:
            yield b"".join(parts)
