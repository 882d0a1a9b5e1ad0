"""``fudgedice serve``: the table (``fudgedice help table``), built when named: its
options are parsed only by a command line that runs it, and the server's
modules load only when it starts."""

from __future__ import annotations

from typing import Any

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--db", "database", metavar="URL", help="postgresql://... or an SQLite file.")
@click.option("--rate", default=5.0, show_default=True, type=click.FloatRange(min=0.01),
              help="Rolls a second each member may make, after a first --burst.")  # fmt: skip
@click.option("--burst", default=20, show_default=True, type=click.IntRange(1))
@click.option("--address-rate", default=20.0, show_default=True, type=click.FloatRange(min=0.01),
              help="Rooms, joins, rolls, odds (each apart) a second from one address.")  # fmt: skip
@click.option("--address-burst", default=200, show_default=True, type=click.IntRange(1))
@click.option("--metrics-token", envvar="FUDGEDICE_METRICS_TOKEN", metavar="TOKEN",
              help="Serve /metrics to 'Authorization: Bearer TOKEN' only. "
              "[default: to this machine's own clients]")  # fmt: skip
@click.option("--access-log", is_flag=True,
              help="A JSON line a request on stdout (never a token).")  # fmt: skip
@click.option("--memory", "memory_mb", type=click.IntRange(32), metavar="MB", help="Memory to stay"
              " under; caches hold a quarter. [default: $FUDGEDICE_MEMORY_MB or 512]")  # fmt: skip
@click.option("--header-timeout", default=10.0, show_default=True, type=click.FloatRange(min=0.01),
              help="Seconds a request's line and headers may take to arrive.")  # fmt: skip
@click.option("--body-timeout", default=30.0, show_default=True, type=click.FloatRange(min=0.01),
              help="Seconds a request's body may take to arrive after its headers.")  # fmt: skip
@click.option("--per-address", default=256, show_default=True, type=click.IntRange(1),
              help="Connections one address may hold at once.")  # fmt: skip
@click.option("--connections", type=click.IntRange(1), help="Connections held at once. "
              "[default: 4096, or the open-file limit less 128]")  # fmt: skip
@click.option("--discord-public-key", metavar="HEX", envvar="FUDGEDICE_DISCORD_PUBLIC_KEY",
              callback=lambda _c, _p, value: _public_key(value),
              help="A Discord application's public key: serve its slash commands at "
              "/discord/interactions. [env: FUDGEDICE_DISCORD_PUBLIC_KEY]")  # fmt: skip
@click.option("--discord-application-id", metavar="ID", help="The Discord application's ID.")
@click.option("--discord-gm-role", "discord_gm_roles", metavar="ID", multiple=True,
              help="A Discord role whose holders act as a channel's GM (repeatable).")  # fmt: skip
@click.option("--public-url", metavar="URL", callback=lambda _c, _p, value: _url(value),
              help="The table's address as players reach it (in Discord's messages).")  # fmt: skip
@click.option("--discord-api", metavar="URL", callback=lambda _c, _p, value: _url(value),
              help="Discord's HTTP API. [default: https://discord.com/api/v10]")  # fmt: skip
@click.option("--keep-days", type=click.IntRange(1), metavar="N", help="Delete the rooms with no"
              " new entry for N days (at start, then hourly). [default: keep them]")  # fmt: skip
@click.option("--allow-local-webhooks", is_flag=True, help="Let rooms post their rolls to "
              "webhooks of this machine or network, over http too (tests).")  # fmt: skip
@click.option("--forwarded-allow-ips", metavar="IPS", help="Trusted proxies (addresses or "
              "networks, comma-separated): a request from one counts as the client its "
              "X-Forwarded-For names, for the per-address limits and /metrics. "
              "[default: none]")  # fmt: skip
@click.option("--pool-size", default=10, show_default=True, type=click.IntRange(1),
              help="PostgreSQL: connections each of the two pools keeps open.")  # fmt: skip
@click.option("--pool-overflow", default=20, show_default=True, type=click.IntRange(0),
              help="PostgreSQL: connections each pool may add when busy. A process holds at most "
              "2 x (size + overflow) + 1.")  # fmt: skip
def serve(host: str, port: int, database: str | None, **limits: Any) -> None:
    """Run the table: the web page at / and the HTTP API under /api, where a group rolls
    together, live (fudgedice help table). With no --db, rolls are kept in your data folder.

    \b
    Examples:
      fudgedice serve
      fudgedice serve --port 8080 --db postgresql://user:pass@localhost/fudgedice
      fudgedice serve --discord-public-key HEX --public-url https://dice.example.org

    A Discord bot's token, if any, is read from FUDGEDICE_DISCORD_TOKEN alone.
    """
    from ..server import serve as run  # here: FastAPI and uvicorn load slower than others run

    run(host, port, database, echo=click.echo, **limits)


def _public_key(value: str | None) -> bytes | None:
    """A public key as Discord shows it: 64 hexadecimal digits."""
    if value is None or not value.strip():
        return None
    try:
        key = bytes.fromhex(value.strip())
    except ValueError:
        key = b""
    if len(key) != 32:
        raise click.BadParameter("a public key is 64 hexadecimal digits, as Discord shows it")
    return key


def _url(value: str | None) -> str | None:
    if value is not None and not value.startswith(("https://", "http://")):
        raise click.BadParameter("an address starting with https:// (or http://)")
    return value.rstrip("/") if value else None
