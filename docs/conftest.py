"""The pages' doctests: docs/table.md speaks to a real table, started here
for that page alone (its own SQLite file, 127.0.0.1 on a port the system
gives, stopped when the page's examples are done). Its address is ``TABLE``."""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from fudgedice.server.app import create_app
from fudgedice.server.db import connect

PAGES_WITH_A_TABLE = {"table.md"}
START_WITHIN = 30.0


@pytest.fixture(autouse=True)
def _a_table(
    request: pytest.FixtureRequest, doctest_namespace: dict[str, object]
) -> Iterator[None]:
    if Path(str(request.node.path)).name not in PAGES_WITH_A_TABLE:
        yield
        return
    with tempfile.TemporaryDirectory() as folder:
        db = connect(f"sqlite:///{folder}/table.db")
        app = create_app(db)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + START_WITHIN
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the table did not start"
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        doctest_namespace["TABLE"] = f"http://127.0.0.1:{port}"
        try:
            yield
        finally:
            server.should_exit = True
            thread.join(START_WITHIN)
            db.dispose()
