"""A room's webhook: read, set and cleared by its GM (:mod:`..webhooks`);
the room's public rolls are posted to it (:mod:`..mirror`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

from .. import making, webhooks
from ..bodies import Body
from ..db import Database
from ..mirror import Mirror, read_targets
from ..problems import REFUSED, Problem
from .shared import Auth, Db

router = APIRouter(responses=REFUSED)


class NewWebhook(Body):
    url: str
    kind: webhooks.Kind | None = None
    """Said when the URL is not Discord's or Slack's own."""


def _gm(db: Database, room: str, authorization: str | None) -> None:
    _, me = making.member_of(db, room, authorization)
    if not me.gm:
        raise Problem(403, "only the GM sees or sets where the room's rolls are posted")


def _changing(request: Request, db: Database, room: str, change: Callable[[], None]) -> None:
    """``change`` made, and this process's mirror told what it changed: the
    rolls made before it go where they went, the next ones where it says."""
    before = read_targets(db, room)
    change()
    mirror: Mirror | None = getattr(request.app.state, "mirror", None)
    if mirror is not None:
        mirror.changed(room, before, read_targets(db, room))


@router.get("/api/rooms/{room}/webhook")
def get_webhook(room: str, db: Db, authorization: Auth = None) -> dict[str, Any]:
    """Whether the room has a webhook, its kind and host: never its URL."""
    _gm(db, room, authorization)
    hook = webhooks.read(db, room)
    return dict(webhooks.NONE_SET) if hook is None else hook.shown()


@router.put("/api/rooms/{room}/webhook")
def put_webhook(
    room: str, body: NewWebhook, request: Request, db: Db, authorization: Auth = None
) -> dict[str, Any]:
    """The room's public rolls posted to ``url`` from now on (checked first)."""
    _gm(db, room, authorization)
    allow_local = bool(getattr(request.app.state, "allow_local_webhooks", False))
    hook = webhooks.checked(body.url, body.kind, allow_local=allow_local)
    _changing(request, db, room, lambda: webhooks.store(db, room, hook))
    return hook.shown()


@router.delete("/api/rooms/{room}/webhook")
def delete_webhook(
    room: str, request: Request, db: Db, authorization: Auth = None
) -> dict[str, Any]:
    """No more posts to the room's webhook."""
    _gm(db, room, authorization)
    _changing(request, db, room, lambda: webhooks.clear(db, room))
    return dict(webhooks.NONE_SET)
