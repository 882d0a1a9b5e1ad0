"""The table: rooms where a group rolls together over HTTP, live, with every
roll drawn from the room's committed seed and kept (``fudgedice serve``).

FastAPI on uvicorn; SQLAlchemy with Alembic migrations, SQLite by default or
PostgreSQL for several processes. ``docs/table.md`` documents the API.
"""

from .app import create_app as create_app
from .db import connect as connect
from .run import default_database as default_database
from .run import serve as serve

__all__ = ["connect", "create_app", "default_database", "serve"]
