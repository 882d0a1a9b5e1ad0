"""The table's app served by uvicorn on a thread of the test's own process,
on a free port of 127.0.0.1: for a test that sets the app's bounds, or reads
what it keeps (``app.state``), which a ``fudgedice serve`` child would hide."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn

from fudgedice.server.app import TableApp, create_app
from fudgedice.server.db import Database

from .conftest import Table, free_port

WAIT = 30.0
"""Seconds a test waits for the server to start, stop or notice something."""


@contextlib.contextmanager
def served_here(db: Database, **settings: Any) -> Iterator[Here]:
    """A client of the app on ``db`` (``settings`` to :func:`create_app`, the
    rate limits out of reach unless given); its app is ``table.app``."""
    limits = {"rolls_per_second": 1000, "burst": 1000, "address_burst": 1000}
    app = create_app(db, **{**limits, **settings})
    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    table = Here(f"http://127.0.0.1:{config.port}", app)
    try:
        yield table
    finally:
        table.client.close()
        server.should_exit = True
        thread.join(WAIT)


class Here(Table):
    """A client that also holds the app it speaks to."""

    def __init__(self, url: str, app: TableApp) -> None:
        super().__init__(url)
        self.app = app
