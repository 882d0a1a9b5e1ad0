"""The database: SQLite (the default, one file) or PostgreSQL (``--db
postgresql://...``, shared by several processes), migrated at start.

Writes that advance a room's ``seq`` are serialized per room: on PostgreSQL by
a row lock (``SELECT ... FOR UPDATE``) in the writing transaction, on SQLite
by ``BEGIN IMMEDIATE`` (the database's one write lock, taken before the first
read, so two processes never read the same ``last_seq``), and inside one
process by a lock that spares SQLite's busy-waiting. SQLite runs in WAL mode:
readers never wait for the writer, and a committed transaction is in the WAL
file before the commit returns, so it survives the process being killed.
Copying the WAL back into the database (a checkpoint, which waits for the disk)
is left to a thread of its own, so that no commit waits for it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from pathlib import Path
from select import POLLIN, poll
from typing import Any

import psycopg
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, func, make_url, select
from sqlalchemy.engine import URL

MIGRATIONS = Path(__file__).parent / "migrations"

_MIGRATION_LOCK = 0x66_75_64_67
"""PostgreSQL advisory lock id held while migrating: two processes started at
once migrate one after the other."""

NOTIFY_CHANNEL = "fudgedice_table"
"""PostgreSQL's channel for the live feed: each committed roll or reveal."""

CONNECT_TIMEOUT = 5
"""Seconds a new PostgreSQL connection may take (unless the URL sets
``connect_timeout``): an address that does not answer fails a request with
the 503 of an unreachable database, not after the system's minutes."""

READY_WITHIN = 2.0
"""Seconds :meth:`Database.ping` lets PostgreSQL take over its statement."""
POOL_SIZE = 10
"""PostgreSQL connections each of a process's two pools (reads, writes) keeps open."""
POOL_OVERFLOW = 20
"""Connections each pool may open past :data:`POOL_SIZE` when busy, closed once
returned. A process holds at most ``2 * (size + overflow) + 1`` connections
(the two pools and the live feed's listener): with the defaults 61, so that
PostgreSQL's default ``max_connections`` of 100 (less its 3 reserved for
superusers) admits one process; several processes share it by smaller pools
(docs/table.md)."""

CHECKPOINT_EVERY = 1.0
"""Seconds between two checkpoints of an SQLite database's WAL."""

log = logging.getLogger("fudgedice.server")


def database_url(given: str) -> URL:
    """``postgresql://`` means psycopg 3; a bare path means an SQLite file."""
    if "://" not in given:
        return URL.create("sqlite", database=str(Path(given).expanduser()))
    url = make_url(given)
    if url.drivername in {"postgresql", "postgres"}:
        url = url.set(drivername="postgresql+psycopg")
    return url


@dataclass
class Database:
    """Engines for reading and for writing, and the lock that orders writes."""

    url: URL
    reader: Engine
    writer: Engine
    _local: threading.Lock | None = field(default_factory=threading.Lock)
    _closing: threading.Event = field(default_factory=threading.Event)
    _batching: threading.Lock = field(default_factory=threading.Lock)
    """Held by a batch (:meth:`batch`) on PostgreSQL, whose other writes need no lock."""
    _kept: Connection | None = None
    """The connection :meth:`batch` writes through."""

    @property
    def postgres(self) -> bool:
        return self.url.get_backend_name() == "postgresql"

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A transaction that may advance a room: committed on leaving, rolled
        back on an error. On SQLite it holds the write lock from its start."""
        with self._local or nullcontext(), self.writer.begin() as connection:
            yield connection

    @contextmanager
    def batch(self, wait: bool = True) -> Iterator[Connection | None]:
        """Like :meth:`write`, for the writer's batches, one at a time,
        through a connection kept for them: a pool's checkout and reset of
        one (and on PostgreSQL its ping, a round trip) cost more CPU time than
        a batch's statements, and a busy table commits a batch every few
        milliseconds in each process. On SQLite, with ``wait`` false, ``None``
        at once if another thread of this process is writing, never a wait.
        On PostgreSQL the kept connection is let go when its server closed it
        while it was idle (a restart): seen without a round trip
        (:func:`_closed_by_server`); one broken otherwise fails its batch,
        whose rolls are refused, and the next batch connects anew."""
        lock = self._local or self._batching
        if not lock.acquire(blocking=wait):
            yield None
            return
        try:
            if self._kept is not None and self.postgres and _closed_by_server(self._kept):
                self._let_go()
            if self._kept is None:
                self._kept = self.writer.connect()
            try:
                with self._kept.begin():
                    yield self._kept
            except BaseException:  # rolled back; a connection left in doubt is dropped
                self._let_go()
                raise
        finally:
            lock.release()

    def _let_go(self) -> None:
        if self._kept is not None:
            with suppress(Exception):  # broken already: closing it is all that is left
                self._kept.close()
            self._kept = None

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.reader.connect() as connection:
            yield connection

    def ping(self) -> None:
        """Ask the database one question that reads it (readiness): raises
        what the driver raises if it cannot be reached. On PostgreSQL a
        ``SELECT 1`` bounded by a statement timeout of its own; on SQLite a
        read of the file's schema (``SELECT 1`` alone would not open it)."""
        with self.reader.connect() as connection:
            if self.postgres:  # SET LOCAL: for this transaction only, never the pooled session
                timeout = round(READY_WITHIN * 1000)
                connection.exec_driver_sql(f"SET LOCAL statement_timeout = {timeout}")
                connection.exec_driver_sql("SELECT 1")
            else:
                connection.exec_driver_sql("SELECT count(*) FROM sqlite_master")

    def dispose(self) -> None:
        self._closing.set()
        if self._kept is not None:
            self._kept.close()
        self.reader.dispose()
        self.writer.dispose()

    def checkpoints(self) -> None:
        """Copy SQLite's WAL into the database every CHECKPOINT_EVERY seconds,
        apart from the writes: a PASSIVE checkpoint never blocks a writer, and
        its wait for the disk (at times hundreds of milliseconds on a busy
        machine) is no longer inside some roll's commit, as SQLite's automatic
        checkpoint would put it."""

        def run() -> None:
            while not self._closing.wait(CHECKPOINT_EVERY):
                try:
                    with self.reader.connect() as connection:
                        connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
                except Exception as error:  # a busy or vanished file: try again later
                    log.warning("SQLite checkpoint failed: %s", error)

        threading.Thread(target=run, name="fudgedice-checkpoint", daemon=True).start()


def _closed_by_server(connection: Connection) -> bool:
    """Whether PostgreSQL closed this idle connection (a restart, an idle
    timeout): its socket then reads as ready, the end of the stream, though
    no answer is awaited. A message the server sends unasked (a notice)
    reads so too, and costs a new connection, no more."""
    driver = connection.connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    try:
        ready = poll()  # not select(): a busy server's descriptors pass 1024
        ready.register(driver.fileno(), POLLIN)
        return bool(ready.poll(0))
    except (OSError, psycopg.Error):  # closed already
        return True


def connect(
    given: str, *, pool_size: int = POOL_SIZE, pool_overflow: int = POOL_OVERFLOW
) -> Database:
    """Open (creating an SQLite file's folder) and migrate the database;
    ``pool_size`` and ``pool_overflow`` size each of PostgreSQL's two pools."""
    url = database_url(given)
    if url.get_backend_name() == "sqlite":
        database = url.database or ""
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        db = Database(
            url, _sqlite_engine(url, immediate=False), _sqlite_engine(url, immediate=True)
        )
        db.checkpoints()
    elif url.get_backend_name() == "postgresql":
        timeout = {} if "connect_timeout" in url.query else {"connect_timeout": CONNECT_TIMEOUT}
        # pre-ping: a connection the server dropped (a restart) is replaced at
        # its checkout, so the table recovers with no step of an operator's
        sizes = {"pool_size": pool_size, "max_overflow": pool_overflow, "pool_pre_ping": True}
        reader = create_engine(url, connect_args=timeout, **sizes)
        writer = create_engine(url, connect_args=timeout, **sizes)
        # rooms are locked one at a time by PostgreSQL: no process-wide lock
        db = Database(url, reader, writer, None)
    else:
        raise ValueError(f"the table keeps its data in SQLite or PostgreSQL, not {url.drivername}")
    migrate(db)
    return db


def _sqlite_engine(url: URL, *, immediate: bool) -> Engine:
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _set_up(dbapi_connection: Any, _record: Any) -> None:
        # Python's sqlite3 would open its own deferred transactions: turn that
        # off, so the "begin" hook below decides how each one starts.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        if immediate:  # commits never checkpoint: Database.checkpoints does
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        # straight to the driver: a statement through SQLAlchemy's execution
        # costs several times SQLite's own BEGIN
        driver = connection.connection.driver_connection
        assert driver is not None
        driver.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def migrate(db: Database) -> None:
    """Bring the schema to the newest migration (Alembic), one process at a time."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with db.write() as connection:
        if db.postgres:
            connection.execute(select(func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
