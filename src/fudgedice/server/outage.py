"""The database out of reach: told apart from every other error of the
database, answered as one refusal (503, ``Retry-After``), and said in the
server's log in one line at a time, never a traceback a request.

A database is out of reach when it cannot be talked to at all: PostgreSQL
stopped, restarting or refusing connections, its address unreachable, a
connection broken in the middle of a request; an SQLite file that cannot be
opened or read, or whose lock is held past the busy timeout. Anything else the
database refuses (a statement it cannot run, a constraint) is the server's
own fault, and stays a 500 with its traceback.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from typing import Final

import psycopg
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from .problems import Problem

UNREACHABLE: Final = "the table's database is unreachable: try again in a moment"
"""The refusal's words, which the page recognizes (docs/contracts/table.md)."""

SAY_EVERY = 10.0
"""Seconds between two lines of the log about one outage."""

_SQLITE_OUT_OF_REACH = frozenset(
    {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR}
)
"""SQLite's primary result codes for a file locked past the busy timeout, one
that cannot be opened, or a read or write the disk failed."""

_POSTGRES_OUT_OF_REACH = frozenset({"57P01", "57P02", "57P03", "53300"})
"""PostgreSQL shutting down (admin, crash), starting up, or refusing a
connection past ``max_connections``; with every state of class 08 (a
connection failed or broken)."""

log = logging.getLogger("fudgedice.server")


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` says that the database cannot be reached (not that a
    statement was wrong)."""
    if isinstance(error, PoolTimeout):  # no connection came free, or none could be made
        return True
    if isinstance(error, DBAPIError):
        if error.connection_invalidated:  # SQLAlchemy's dialect read it as a disconnect
            return True
        return error.orig is not None and unreachable(error.orig)
    if isinstance(error, psycopg.OperationalError):
        state = error.sqlstate
        # no state at all: the client's own (refused, timed out, closed, lost)
        return state is None or state.startswith("08") or state in _POSTGRES_OUT_OF_REACH
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        return code is not None and code & 0xFF in _SQLITE_OUT_OF_REACH
    return False


def refusal() -> Problem:
    """What a request that needed the database is answered (503, Retry-After)."""
    return Problem(503, UNREACHABLE)


class _Teller:
    """One line of the log about an outage, then at most one every
    :data:`SAY_EVERY` seconds with the count of requests refused since."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._said = -SAY_EVERY
        self._since = 0

    def tell(self, error: BaseException) -> None:
        with self._lock:
            now = time.monotonic()
            self._since += 1
            if now - self._said < SAY_EVERY:
                return
            count, self._since, self._said = self._since, 0, now
        why = str(getattr(error, "orig", None) or error).strip().splitlines()
        log.warning(
            "the database is unreachable (%d refused since the last line): %s",
            count,
            why[0] if why else type(error).__name__,
        )


told = _Teller().tell
"""Say in the log that ``error`` kept a request from the database (throttled)."""


class OutOfReach(logging.Filter):
    """A traceback the ASGI server would log for an error of an unreachable
    database (an export or a feed cut off once its answer began: nothing is
    left to answer) becomes :func:`told`'s one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        for _ in range(3):  # Starlette re-raises one whose answer began as its cause
            if error is None:
                return True
            if unreachable(error):
                told(error)
                return False
            error = error.__cause__
        return True


logging.getLogger("uvicorn.error").addFilter(OutOfReach())
