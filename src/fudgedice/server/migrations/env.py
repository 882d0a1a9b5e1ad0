"""Alembic's environment: run with the connection :func:`fudgedice.server.db.migrate`
passes in (``config.attributes["connection"]``), never from an ini file."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

connection: Connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
