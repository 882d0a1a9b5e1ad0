"""Every interaction answered within Discord's 3 seconds: a command's reply
not made within :data:`DEFER_AFTER` is deferred (type 5) and sent when made,
as an edit of the deferred message (``PATCH .../messages/@original``). What
goes to Discord after the answer (that edit, a hidden roll's placeholder in
the channel) goes through the process's outbox, never waited for."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, Final

from ...chat import discord as chat
from ...errors import DiceError
from ..outbox import Delivery, Outbox
from ..problems import Problem
from .interaction import ANSWER, LATER
from .replies import Call, Reply

log = logging.getLogger("fudgedice.server")

DEFER_AFTER: Final = 2.0
"""Seconds a reply may take before it is deferred (Discord waits 3)."""

_pending: set[asyncio.Task[Reply]] = set()
"""Replies made after their interaction was deferred (kept from the collector)."""


async def settled(work: Awaitable[Reply]) -> Reply:
    """The reply, or the refusal's message to the caller alone: never a 500."""
    try:
        return await work
    except Problem as problem:
        return Reply(chat.error_message(problem.error, problem.hint), ephemeral=True)
    except DiceError as error:
        return Reply(chat.error_message(error.message, error.hint), ephemeral=True)
    except Exception:
        log.exception("a Discord command failed")
        failed = chat.error_message("the table could not answer this", "try again in a moment")
        return Reply(failed, ephemeral=True)


async def respond(
    call: Call, work: Awaitable[Reply], hidden: bool
) -> tuple[dict[str, Any], list[Delivery]]:
    """The interaction's answer and what is sent once it is: the reply, or
    (not made in time, or with attachments, which an answer cannot carry
    as JSON) a deferral, ephemeral if ``hidden``, and the reply later."""
    task = asyncio.ensure_future(settled(work))
    deferred = {"type": LATER, "data": {"flags": chat.EPHEMERAL} if hidden else {}}
    try:
        reply = await asyncio.wait_for(asyncio.shield(task), DEFER_AFTER)
    except TimeoutError:
        _pending.add(task)
        task.add_done_callback(lambda done: _later(call, done))
        return deferred, []
    if reply.files:
        return deferred, deliveries(call, reply, edit=True)
    data = chat.fit(reply.message)
    if reply.ephemeral:
        data = {**data, "flags": chat.EPHEMERAL}
    return {"type": ANSWER, "data": data}, deliveries(call, reply, edit=False)


def _later(call: Call, done: asyncio.Task[Reply]) -> None:
    _pending.discard(done)
    if not done.cancelled():
        send(call.state.outbox, deliveries(call, done.result(), edit=True))


def deliveries(call: Call, reply: Reply, *, edit: bool) -> list[Delivery]:
    """The reply as an edit of the deferred answer (if ``edit``), then the
    messages it gives the channel, each a follow-up of the interaction."""
    url = call.webhook()
    sent = []
    if edit:
        message = {key: value for key, value in chat.fit(reply.message).items() if key != "flags"}
        if reply.files and "attachments" not in message:
            message["attachments"] = [
                {"id": index, "filename": name} for index, (name, _, _) in enumerate(reply.files)
            ]
        sent.append(
            Delivery(f"{url}/messages/@original", message, "a Discord answer", "PATCH",
                     files=reply.files)
        )  # fmt: skip
    for each in reply.channel:
        sent.append(Delivery(url, chat.fit(each), "a Discord follow-up"))
    return sent


def send(outbox: Outbox, sent: list[Delivery]) -> None:
    for delivery in sent:
        outbox.send(delivery)
