"""The odds of a roll text, measured through the table's gate (``server.odds``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...api import SYSTEMS
from .. import rolling
from ..problems import BUSY, REFUSED
from .shared import Gate, address

router = APIRouter(responses=REFUSED)


@router.get("/api/odds", responses=BUSY)
async def odds(request: Request, gate: Gate, text: str, system: str = SYSTEMS.default) -> Response:
    body = await gate.answer(text, rolling.system_name(system), address(request))
    return Response(body, media_type="application/json")
