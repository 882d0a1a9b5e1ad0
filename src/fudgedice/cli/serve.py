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
    """
    from ..server import serve as run  # here: FastAPI and uvicorn load slower than others run

    run(host, port, database, echo=click.echo, **limits)
