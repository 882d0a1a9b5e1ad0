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
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from . import store
from .db import Database
from .kept import Member, RollRecord, json_bytes
from .live import Hub, Watcher
from .outage import UNREACHABLE, told, unreachable

PAGE = 500
"""Rolls read from the database at once when catching up: a chunk of the feed
holds at most a page of them, or the rolls of a watcher's backlog."""
MAX_CHUNK = 256 * 1024
"""Bytes of rolls read from the database held before they are written out."""
DROP_GRACE = 5.0
"""Seconds a feed the hub ended has to write its last words; a reader who
takes longer is cut off."""
ENDED = {
    "behind": "this feed fell too far behind: reconnect with ?after= the last roll you have",
    "replaced": "this member opened another live feed: a member holds only a few at once",
    "database": UNREACHABLE,
    "deleted": "this room was deleted: its log, sheets and members are gone",
}
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


class ReaderDropped(Exception):
    """Raised out of a feed whose reader stopped reading while the server was
    writing to it: the ASGI server then closes the connection, the one way to
    free what it holds for the reader."""


def _not_dropped(record: logging.LogRecord) -> bool:
    """The server logs an application's exception as an error: a reader dropped
    is the feed working as it should."""
    return not (record.exc_info and isinstance(record.exc_info[1], ReaderDropped))


logging.getLogger("uvicorn.error").addFilter(_not_dropped)


class EventStream(Response):
    """A ``text/event-stream`` answer that ends when its reader goes away, or
    when the hub ends its watcher (the reader fell behind, or the member
    opened one feed too many)."""

    media_type = "text/event-stream"

    def __init__(self, hub: Hub, watcher: Watcher, chunks: AsyncIterator[bytes]) -> None:
        self.status_code = 200
        self.background = None
        self.init_headers(HEADERS)  # no body yet, so no Content-Length: the answer is chunked
        self.hub, self.watcher, self.chunks = hub, watcher, chunks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        gone = asyncio.create_task(self._until_gone(receive))
        writing = asyncio.create_task(self._write(send))
        cut: list[bool] = []

        def cut_off() -> None:  # the reader took too long over the feed's last words
            if not writing.done():
                cut.append(True)
                writing.cancel()

        self.watcher.on_end = lambda: asyncio.get_running_loop().call_later(DROP_GRACE, cut_off)
        try:
            await writing
        except asyncio.CancelledError:
            if not cut:
                raise
            raise ReaderDropped(self.watcher.ended) from None
        finally:
            self.watcher.on_end = None
            gone.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await gone
            await self.chunks.aclose()  # type: ignore[attr-defined]
            self.hub.leave(self.watcher)

    async def _write(self, send: Send) -> None:
        async for chunk in self.chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _until_gone(self, receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        self.watcher.close()


def live_feed(db: Database, hub: Hub, room: str, me: Member, after: int) -> EventStream:
    """The feed of ``room`` for ``me``, from the roll after ``after`` on."""
    watcher = hub.watch(room, me.id)  # before catching up, so that nothing falls between
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


async def _missed(
    db: Database, room: str, me: Member, last: int, before: int | None = None
) -> AsyncIterator[tuple[bytes, int]]:
    """The frames of the rolls after ``last`` (before ``before``) from the
    database, a page to a chunk, each with the last ``seq`` it holds."""
    async for page in _pages(db, room, last, before):
        yield b"".join(record.frame_for(me) for record in page), page[-1].seq


async def _chunks(db: Database, watcher: Watcher, me: Member, last: int) -> AsyncIterator[bytes]:
    """The feed's chunks; if the database is out of reach when the feed must
    read it, a ``closed`` event says so and the feed ends (its reader comes
    back with ``?after=``)."""
    try:
        async with contextlib.aclosing(_followed(db, watcher, me, last)) as chunks:
            async for chunk in chunks:
                yield chunk
    except Exception as error:
        if not unreachable(error):
            raise
        told(error)
        yield _event("closed", {"reason": "database", "error": ENDED["database"]})
        return
    if watcher.ended == "deleted":  # an event of its own: the reader stops following
        yield _event("deleted", {"room": watcher.room, "error": ENDED["deleted"]})
    elif watcher.ended is not None:
        yield _event("closed", {"reason": watcher.ended, "error": ENDED[watcher.ended]})


async def _followed(db: Database, watcher: Watcher, me: Member, last: int) -> AsyncGenerator[bytes]:
    async for chunk, seen in _missed(db, watcher.room, me, last):
        last = seen
        yield chunk
        if watcher.closed:
            break
    else:
        yield _event("ready", {"last_seq": last})
    while not watcher.closed:
        parts: list[bytes] = []
        for event in await watcher.next():
            if event.kind == "keep-alive":
                parts.append(b": keep-alive\n\n")
            elif event.kind in ("reveal", "member"):
                parts.append(_event(event.kind, event.data))
            if event.kind == "resync" or (event.rolls and not event.next_after(last)):
                # missed (a lost listener; rolls committed on another thread, or
                # by another process, told late): the database has them
                before = None if event.kind == "resync" else event.in_order[-1].seq
                if event.rolls and before is not None and before <= last:
                    continue  # every one of them sent already
                async for chunk, seen in _missed(db, watcher.room, me, last, before):
                    parts.append(chunk)
                    last = seen
                    if sum(map(len, parts)) >= MAX_CHUNK:  # a long catch-up: a page at a time
                        yield b"".join(parts)
                        parts = []
            if event.rolls and event.next_after(last):  # as its other readers alike
                parts.append(event.shown.frames_for(me))  # see it: made once for all
                last = event.rolls[-1].seq
            elif event.rolls and event.in_order[-1].seq > last:
                record = event.in_order[-1]  # the one the database was read up to
                parts.append(record.frame_for(me))
                last = record.seq
        if parts:
            yield b"".join(parts)
