"""``GET /metrics``: the process's metrics in Prometheus' text format
(:mod:`..metrics`). They tell how busy the table is, never what is played
in it, and are read only from this machine, or with the token the server
was given (``--metrics-token``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ..metrics import Metrics, may_read
from ..problems import Problem
from .shared import address

REFUSALS = {
    401: "the metrics are read with 'Authorization: Bearer TOKEN', the server's metrics token",
    403: "the metrics are read from the server's own machine, or with its metrics token",
}

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    state = request.app.state
    status = may_read(address(request), request.headers.get("authorization"), state.metrics_token)
    if status != 200:
        raise Problem(status, REFUSALS[status])
    watched: Metrics = state.metrics
    return Response(generate_latest(watched.registry), media_type=CONTENT_TYPE_LATEST)
