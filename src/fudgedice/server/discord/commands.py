"""The slash commands (``fudgedice.chat.commands``): each reads its options,
acts through the table's own paths (a roll through :class:`..making.Rolls`,
odds through the odds gate, a reveal through :func:`..store.reveal`) and
answers a :class:`.replies.Reply` made by :mod:`fudgedice.chat.discord`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from ...chat import discord as chat
from ...chat.commands import NAMES
from .. import rolling, store
from ..bodies import NewRoll, malformed
from ..drawing import FailedRoll
from ..kept import RollRecord
from ..live import Event
from ..making import Rolls
from ..problems import Problem, unprocessable
from ..routers.shared import announce
from . import channels, work
from .replies import Call, Reply

Command = Callable[[Call], Awaitable[Reply]]


def given(call: Call, name: str) -> str:
    """A required text option."""
    value = call.interaction.text(name)
    if value is None:
        raise unprocessable(f"/{call.interaction.command} needs its option '{name}'")
    return value


async def seat(call: Call, system: str | None = None) -> channels.Seat:
    """The caller's seat in the channel's room (made and bound on first use)."""
    who, channel = call.interaction.who, call.interaction.where
    if who is None or channel is None:
        raise unprocessable("the table answers commands in a channel, from a user")
    room_name = call.interaction.channel.name if call.interaction.channel else None
    addresses = call.state.addresses

    def charge(what: str) -> None:  # a guild's rooms and members, as an address's
        addresses.take(f"{what} {call.allowance}")

    found = await run_in_threadpool(
        channels.seat, call.state.db, channel, call.interaction.guild_id, who.id, who.shown,
        room_name=room_name, system=system, charge=charge,
    )  # fmt: skip
    if found.joined:
        event = Event("member", data={"member": found.member.id})
        announce(call.state.db, call.state.hub, found.room.id, event)
    return found


async def system_of(call: Call) -> str:
    """The channel's room's system, or the default one if it has no room yet."""
    channel, db = call.interaction.where, call.state.db
    bound = None if channel is None else await run_in_threadpool(channels.bound, db, channel)
    if bound is None:
        return rolling.system_name(None)
    return (await run_in_threadpool(store.room, db, bound[0])).system


async def roll(call: Call) -> Reply:
    asked = {
        "text": given(call, "text"),
        "visibility": call.interaction.text("visibility") or "public",
        "label": call.interaction.text("label"),
        # Discord's id of the interaction: chosen by Discord, not by the table's
        # host, and unknown to it when its seed was committed (docs/discord.md)
        "client_seed": f"discord-{call.interaction.id}" if call.interaction.id else None,
    }
    try:  # checked as the API's body is
        body = NewRoll.model_validate(asked)
    except ValidationError as invalid:
        raise malformed(invalid.errors()) from None
    where = await seat(call)
    rolls: Rolls = call.state.rolls
    failure: str | None = None
    try:
        # a signed request replayed (within the signature's five minutes) has
        # the same id: answered with the roll it made, never rolled twice
        record = await rolls.make_as(
            where.member, where.room.system, body, call.allowance, "discord",
            idempotency=asked["client_seed"],
        )  # fmt: skip
    except FailedRoll as failed:  # kept, and shown with its error
        record, failure = failed.record, failed.error
    return rolled(call, record, where, failure)


def rolled(call: Call, record: RollRecord, where: channels.Seat, error: str | None) -> Reply:
    """A roll's answer: to the channel if public, else to its roller alone
    (as the table shows it to them) with its placeholder to the channel."""
    link, me = call.link(where.room.id), where.member
    if record.visible_to(me):
        shown = {**record.for_viewer(me), **({"error": error} if error else {})}
        mine = chat.roll_message(shown, system=where.room.system, link=link)
    else:  # a blind roll: its roller sees what the table shows them
        mine = chat.placeholder_message(record.placeholder(), link=link)
    if not record.hidden:
        return Reply(mine)
    placeholder = chat.placeholder_message(record.placeholder(), link=link)
    return Reply(mine, ephemeral=True, channel=(placeholder,))


async def odds(call: Call) -> Reply:
    text = given(call, "text")
    chart = call.interaction.option("chart") is True
    system = await system_of(call)
    message, png = await call.state.gate.call(call.allowance, work.odds, text, system, chart)
    files = ((work.CHART, png, "image/png"),) if png is not None else ()
    return Reply(message, files=files)


async def read(call: Call) -> Reply:
    form, faces = given(call, "form"), given(call, "faces")
    system = await system_of(call)
    return Reply(await call.state.gate.call(call.allowance, work.read, form, faces, system))


async def compare(call: Call) -> Reply:
    first, second = given(call, "a"), given(call, "b")
    system = await system_of(call)
    gate = call.state.gate
    return Reply(await gate.call(call.allowance, work.compared, first, second, system))


async def ladder(call: Call) -> Reply:
    system = call.interaction.text("system") or await system_of(call)
    return Reply(chat.ladder_message(system))


async def table(call: Call) -> Reply:
    """The room, and the caller's own seat at its page: a fresh token (the
    old one no longer works), shown to them alone."""
    where = await seat(call, call.interaction.text("system"))
    token, old = await run_in_threadpool(store.new_token, call.state.db, where.member.id)
    call.state.rolls.members.forget(old)
    link, room = call.link(where.room.id), where.room
    message = chat.room_message(
        name=room.name, system=room.system, link=link, commitment=room.commitment,
        epoch=room.epoch, seat_link=f"{link}#token={token}",
    )  # fmt: skip
    return Reply(message, ephemeral=True)


async def reveal(call: Call) -> Reply:
    where = await seat(call)
    gm_roles = call.settings.gm_roles
    if not channels.is_gm(where, call.user, call.interaction.roles, gm_roles):
        raise Problem(
            403,
            "only the channel's GM reveals the seed",
            hint="the GM is whoever first used the table here, or holds a GM role",
        )
    db, room = call.state.db, where.room.id
    revealed: dict[str, Any] = await run_in_threadpool(store.reveal, db, room)
    seeds = await run_in_threadpool(store.seed_list, db, room)
    announce(db, call.state.hub, room, Event("reveal", data={"seeds": seeds}))
    return Reply(chat.reveal_message(revealed, link=call.link(room)))


COMMANDS: dict[str, Command] = {
    "roll": roll, "odds": odds, "read": read, "compare": compare, "ladder": ladder,
    "table": table, "reveal": reveal,
}  # fmt: skip
assert set(COMMANDS) == NAMES, "every registered command is answered"


def command(call: Call) -> Command:
    name = call.interaction.command
    found = COMMANDS.get(name)
    if found is None:
        known = ", ".join("/" + each for each in sorted(NAMES))
        raise unprocessable(f"the table has no command '/{name}'", hint=f"its commands: {known}")
    return found


def hidden_ahead(call: Call) -> bool:
    """Whether the answer is the caller's alone, known before it is made:
    a deferred answer is made ephemeral or not when it is deferred."""
    name = call.interaction.command
    if name == "roll":
        return (call.interaction.text("visibility") or "public") != "public"
    return name == "table"
