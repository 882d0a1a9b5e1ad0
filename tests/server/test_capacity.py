"""Processes that share one PostgreSQL: the pools' sizes, and a live feed
that reads the database only for rooms a process has watchers of, only when
a roll did not travel in its notification, and in batches."""

from __future__ import annotations

import secrets
from typing import Any

from fudgedice.server import connect


def test_the_pools_are_sized_as_asked(postgres: Any) -> None:
    db = connect(
        postgres.create_database(f"pools_{secrets.token_hex(6)}"), pool_size=2, pool_overflow=1
    )
    try:
        for engine in (db.reader, db.writer):
            assert engine.pool.size() == 2  # type: ignore[attr-defined]
            assert engine.pool._max_overflow == 1  # type: ignore[attr-defined]
    finally:
        db.dispose()
