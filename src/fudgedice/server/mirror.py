"""A room's public rolls, posted where its group reads them: the room's
webhook (:mod:`.webhooks`), and, when the table has a Discord bot's token,
the Discord channel the room is bound to (rolls made at the page: one made
by a slash command is in the channel already, as its answer).

The writer hands :meth:`Mirror.committed` the rolls of each commit, on the
event loop of the process that wrote them (a roll's ``via`` is known there
alone). Nothing here waits: a post is handed to the :class:`.outbox.Outbox`,
which sends it later and tries again; what a room posts to is kept in memory
for :data:`TTL` seconds (a room's webhook set or cleared in this process is
followed at once, in another process within that time), and read from the
database on a worker thread, once a room, while its rolls wait in memory, in
order. A hidden roll is never posted, in any form: not even its placeholder.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import select

from ..chat.discord import fit, roll_message, webhook_body
from ..log.canonical import DRAWLESS
from .db import Database
from .discord.settings import DiscordSettings
from .kept import RollRecord
from .outbox import Delivery, Outbox
from .schema import discord_channels, rooms, webhooks
from .webhooks import Webhook

log = logging.getLogger("fudgedice.server")

TTL: Final = 5.0
"""Seconds what a room posts to is kept before it is read again: how long a
webhook set or cleared by another process may take to be followed here."""
MOST_ROOMS: Final = 10_000
"""Rooms whose targets are kept at most; past that the stale ones are dropped."""
MOST_WAITING: Final = 200
"""Rolls of one room waiting for its targets to be read, at most; more are dropped."""


@dataclass(frozen=True)
class Targets:
    """Where a room's public rolls go, and what a message of them needs."""

    system: str
    hook: Webhook | None
    channel: str | None
    """The Discord channel the room is bound to, if any."""

    @property
    def posts(self) -> bool:
        """Whether the room's rolls go anywhere (most rooms': nowhere)."""
        return self.hook is not None or self.channel is not None


class Mirror:
    """The rolls of one process, posted. ``settings`` gives the table's
    Discord settings (None without them), read when a roll is posted."""

    def __init__(
        self,
        db: Database,
        outbox: Outbox,
        settings: Callable[[], DiscordSettings | None] = lambda: None,
        ttl: float = TTL,
        *,
        public_only: bool = True,
    ) -> None:
        self.db, self.outbox, self.settings, self.ttl = db, outbox, settings, ttl
        self.public_only = public_only
        """Webhooks posted to only while their hosts resolve to public
        addresses (False with ``serve --allow-local-webhooks``)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.dropped = 0
        self._known: dict[str, tuple[Targets, float]] = {}
        self._waiting: dict[str, list[RollRecord]] = {}
        self._changes: dict[str, int] = {}
        self._reading: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()

    async def stop(self) -> None:
        for task in list(self._reading):
            task.cancel()
        await asyncio.gather(*self._reading, return_exceptions=True)

    def changed(self, room: str, before: Targets | None, after: Targets | None) -> None:
        """The room's targets set or cleared by this process (from any thread):
        ``before`` what they were, ``after`` what they are now."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._changed, room, before, after)

    def committed(self, records: Sequence[RollRecord]) -> None:
        """On the event loop: the public rolls of a commit, to their rooms' targets."""
        now = None
        for record in records:
            if record.visibility != "public" or record.result.get("kind") in DRAWLESS:
                continue
            waiting = self._waiting.get(record.room)
            if waiting is not None:  # its room's targets are being read: after them
                if len(waiting) < MOST_WAITING:
                    waiting.append(record)
                else:
                    self.dropped += 1
                continue
            known = self._known.get(record.room)
            if known is not None:
                now = self._now() if now is None else now
                if known[1] > now:
                    if known[0].posts:
                        self._post(known[0], record)
                    continue
            self._waiting[record.room] = [record]
            self._read_later(record.room)

    def _now(self) -> float:
        return (self.loop or asyncio.get_running_loop()).time()

    def _changed(self, room: str, before: Targets | None, after: Targets | None) -> None:
        """On the loop: the rolls waiting for the room's targets were made
        before the change, and go where it found them; the rolls after it go
        where it leaves them. A read under way is no longer wanted."""
        self._changes[room] = self._changes.get(room, 0) + 1
        for record in self._waiting.pop(room, []):
            if before is not None:
                self._post(before, record)
        if after is None:
            self._known.pop(room, None)
        else:
            self._keep(room, after)

    def _read_later(self, room: str) -> None:
        task = asyncio.get_running_loop().create_task(self._read(room))
        self._reading.add(task)
        task.add_done_callback(self._reading.discard)

    async def _read(self, room: str) -> None:
        """The room's targets read on a worker thread; then its waiting rolls posted."""
        change = self._changes.get(room, 0)
        try:
            targets = await asyncio.to_thread(read_targets, self.db, room)
        except Exception:
            log.exception("the targets of room %s could not be read", room)
            targets = None
        if self._changes.get(room, 0) != change:  # set or cleared meanwhile: told by then
            return
        waiting = self._waiting.pop(room, [])
        if targets is None:
            self.dropped += len(waiting)
            return
        self._keep(room, targets)
        for record in waiting:
            self._post(targets, record)

    def _keep(self, room: str, targets: Targets) -> None:
        now = self._now()
        if len(self._known) >= MOST_ROOMS:
            self._known = {key: kept for key, kept in self._known.items() if kept[1] > now}
            if len(self._known) >= MOST_ROOMS:
                self._known.clear()
        self._known[room] = (targets, now + self.ttl)

    def _post(self, targets: Targets, record: RollRecord) -> None:
        """The roll handed to the outbox for each of the room's targets."""
        settings = self.settings()
        token = settings.bot_token if settings is not None else None
        to_channel = targets.channel is not None and token and record.via != "discord"
        if targets.hook is None and not to_channel:
            return
        try:
            link = _link(settings, record)
            message = roll_message(record.full(), system=targets.system, link=link)
            if targets.hook is not None:
                body = webhook_body(message, targets.hook.kind)
                what = f"room {record.room}'s webhook, roll {record.seq}"
                hook = Delivery(
                    targets.hook.url, body, what, mirrored=True, public_only=self.public_only
                )
                self.outbox.send(hook)
            if to_channel and settings is not None:
                url = f"{settings.api}/channels/{targets.channel}/messages"
                what = f"room {record.room}'s Discord channel, roll {record.seq}"
                headers = {"Authorization": f"Bot {token}"}
                self.outbox.send(Delivery(url, fit(message), what, headers=headers, mirrored=True))
        except Exception:  # a roll is kept and answered whatever becomes of its post
            log.exception("roll %d of room %s could not be posted", record.seq, record.room)


def _link(settings: DiscordSettings | None, record: RollRecord) -> str | None:
    """The room's page, when the table knows its public address."""
    if settings is None or not settings.public_url:
        return None
    return f"{settings.public_url.rstrip('/')}/r/{record.room}"


def read_targets(db: Database, room: str) -> Targets | None:
    """Where ``room``'s rolls go (None for no such room): one read."""
    query = (
        select(rooms.c.system, webhooks.c.url, webhooks.c.kind, discord_channels.c.channel_id)
        .select_from(
            rooms.outerjoin(webhooks, webhooks.c.room_id == rooms.c.id).outerjoin(
                discord_channels, discord_channels.c.room_id == rooms.c.id
            )
        )
        .where(rooms.c.id == room)
    )
    with db.read() as connection:
        row: Any = connection.execute(query).first()
    if row is None:
        return None
    hook = None if row.url is None else Webhook(row.url, row.kind)
    return Targets(row.system, hook, row.channel_id)
