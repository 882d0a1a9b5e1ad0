"""``POST /discord/interactions``: Discord's slash commands, each a signed
request (:mod:`.signature`), answered within Discord's 3 seconds
(:mod:`.deferral`). Served only when the app has :class:`.DiscordSettings`
(``fudgedice serve --discord-public-key``); a 404 otherwise."""

from __future__ import annotations

import functools

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from nacl.signing import VerifyKey
from starlette.background import BackgroundTask

from ..problems import REFUSED, Problem, not_found
from . import commands, deferral, signature
from .interaction import COMMAND, PING, PONG, read
from .replies import Call, Reply
from .settings import DiscordSettings

router = APIRouter(responses=REFUSED)


@functools.lru_cache(maxsize=4)
def verify_key(public_key: bytes) -> VerifyKey:
    return VerifyKey(public_key)


@router.post("/discord/interactions", include_in_schema=False)
async def interactions(request: Request) -> JSONResponse:
    settings: DiscordSettings | None = getattr(request.app.state, "discord", None)
    if settings is None:
        raise not_found()
    body = await request.body()
    headers = request.headers
    signature.check(
        verify_key(settings.public_key),
        headers.get("x-signature-ed25519"),
        headers.get("x-signature-timestamp"),
        body,
    )
    interaction = read(body)
    if interaction.type == PING:
        return JSONResponse({"type": PONG})
    if interaction.type != COMMAND or interaction.data is None or interaction.token is None:
        raise Problem(400, f"the table answers slash commands, not interactions of type "
                      f"{interaction.type}")  # fmt: skip
    base = (settings.public_url or str(request.base_url)).rstrip("/")
    call = Call(interaction, settings, request.app.state, base)
    answer, then = await deferral.respond(call, _run(call), commands.hidden_ahead(call))
    # the rest once the answer is sent: Discord takes no follow-up before it
    sent = BackgroundTask(deferral.send, request.app.state.outbox, then)
    return JSONResponse(answer, background=sent)


async def _run(call: Call) -> Reply:
    return await commands.command(call)(call)
