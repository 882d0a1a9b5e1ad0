"""A room's webhook (docs/table.md, "A room's webhook"): the incoming webhook
of a Discord or Slack channel that the room's public rolls are posted to
(:mod:`.mirror`), set and cleared by the GM.

Its URL is a secret (whoever holds it posts to the channel): it is kept as
given, since it is used, and never shown back whole. It is checked before it
is kept: https, no credentials in it, bounded, and a host that is a name of
the public Internet. An IP address, or a name that resolves to a loopback,
private, link-local, multicast or reserved address, is refused: the table
must not be made to post into its own network. ``fudgedice serve
--allow-local-webhooks`` lifts that rule and allows http (a receiver on the
same machine, as the tests start).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal
from urllib.parse import SplitResult, urlsplit

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .db import Database
from .problems import Problem, unprocessable
from .schema import webhooks
from .store import now

Kind = Literal["discord", "slack"]
MAX_URL: Final = 2000
"""Characters a webhook's URL may hold: Discord's and Slack's are under 200."""
DISCORD_HOSTS: Final = frozenset(
    {"discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"}
)
SLACK_HOSTS: Final = frozenset({"hooks.slack.com"})

Resolver = Callable[..., list[tuple[Any, ...]]]
"""``socket.getaddrinfo``'s shape: a test gives its own answers."""


@dataclass(frozen=True)
class Webhook:
    url: str
    kind: Kind

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or ""

    def shown(self) -> dict[str, Any]:
        """What the GM is shown of it: never the URL, whose path is its secret."""
        return {"set": True, "kind": self.kind, "host": self.host}


NONE_SET: Final = {"set": False, "kind": None, "host": None}
"""What the GM is shown of a room without a webhook."""


def checked(
    url: str,
    kind: Kind | None,
    *,
    allow_local: bool = False,
    resolve: Resolver = socket.getaddrinfo,
) -> Webhook:
    """The webhook to keep, or the refusal that says what is wrong with it:
    413 too long, 422 anything else."""
    if len(url) > MAX_URL:
        raise Problem(413, f"a webhook's URL is at most {MAX_URL} characters")
    parts = _parts(url.strip(), allow_local)
    host = parts.hostname or ""
    if not allow_local:
        _public_host(host, parts.port or 443, resolve)
    return Webhook(parts.geturl(), kind or _guessed(parts))


def _parts(url: str, allow_local: bool) -> SplitResult:
    """The URL's parts, if it is an absolute https URL (http too, with
    ``allow_local``) with a host and no credentials."""
    schemes = ("https", "http") if allow_local else ("https",)
    hint = "the channel's incoming webhook, as Discord or Slack gives it: https://..."
    if any(character.isspace() for character in url):
        raise unprocessable("a webhook's URL holds no spaces", hint=hint)
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - read to refuse a port that is no number
    except ValueError:
        raise unprocessable("the webhook's URL cannot be read", hint=hint) from None
    if parts.scheme.lower() not in schemes:
        raise unprocessable("a webhook's URL must start with https://", hint=hint)
    if parts.username is not None or parts.password is not None:
        raise unprocessable("a webhook's URL carries no user name or password", hint=hint)
    if not parts.hostname:
        raise unprocessable("the webhook's URL names no host", hint=hint)
    return parts


def _public_host(host: str, port: int, resolve: Resolver) -> None:
    """Refuses an IP address, and a name any of whose addresses is not a
    public one: what the table posts to must lie outside its own network."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise unprocessable(
            "a webhook's host is a name, not an IP address", hint="give the service's name"
        )
    try:
        found = resolve(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise unprocessable(f"the webhook's host {host!r} cannot be found") from None
    addresses = {str(each[4][0]).partition("%")[0] for each in found}
    if not addresses or not all(public(address) for address in addresses):
        raise unprocessable(
            f"the webhook's host {host!r} is in a private network: the table posts only"
            " to the public Internet",
            hint="'fudgedice serve --allow-local-webhooks' allows a receiver of your own network",
        )


def public(address: str) -> bool:
    """Whether ``address`` is one of the public Internet: not loopback,
    private, link-local, multicast, reserved or unspecified (an IPv4 address
    written as IPv6 judged as itself)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (
        ip.is_multicast or ip.is_reserved or ip.is_loopback or ip.is_link_local or ip.is_private
    )


def _guessed(parts: SplitResult) -> Kind:
    """The kind of a URL of Discord's or Slack's own; a 422 for any other."""
    host = (parts.hostname or "").rstrip(".")
    if host in DISCORD_HOSTS and parts.path.startswith("/api/webhooks/"):
        return "discord"
    if host in SLACK_HOSTS:
        return "slack"
    raise unprocessable(
        "say which kind of webhook this is", hint='"kind": "discord" or "slack" (the body it takes)'
    )


def read(db: Database, room_id: str) -> Webhook | None:
    with db.read() as connection:
        row = connection.execute(
            select(webhooks.c.url, webhooks.c.kind).where(webhooks.c.room_id == room_id)
        ).first()
    return None if row is None else Webhook(row.url, row.kind)


def store(db: Database, room_id: str, hook: Webhook) -> None:
    """The room's webhook set to ``hook`` (the last one set wins)."""
    values = {"room_id": room_id, "url": hook.url, "kind": hook.kind, "updated_at": now()}
    insert = postgres_insert if db.postgres else sqlite_insert
    statement = insert(webhooks).values(**values)
    with db.write() as connection:
        connection.execute(
            statement.on_conflict_do_update(
                index_elements=[webhooks.c.room_id],
                set_={key: statement.excluded[key] for key in ("url", "kind", "updated_at")},
            )
        )


def clear(db: Database, room_id: str) -> None:
    with db.write() as connection:
        connection.execute(delete(webhooks).where(webhooks.c.room_id == room_id))
