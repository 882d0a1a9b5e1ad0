"""A copy of the table's database taken while it serves (``fudgedice
backup``), and a copy put back (``fudgedice restore``); docs/table.md,
"Backing up".

SQLite: the standard library's online backup (``sqlite3.Connection.backup``)
in one step, which copies one snapshot of the database (a single read
transaction: in WAL mode the server's writes go on meanwhile, and none is
waited for), so the copy holds every transaction committed before it began,
and none in part. The copy is written beside its target, checked (``PRAGMA
integrity_check``) and only then renamed over it: a target is never left half
written. PostgreSQL: ``pg_dump`` and ``pg_restore``, which the commands name
rather than run (:func:`postgres_command`).
"""

from __future__ import annotations

import os
import secrets
import shlex
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL

NEEDED = frozenset({"rooms", "rolls", "alembic_version"})
"""Tables an SQLite file must hold to be a table's database."""


class BackupError(Exception):
    """Why a backup or a restore was refused, as a message for the operator."""


@dataclass(frozen=True)
class Copied:
    """What a copy holds."""

    path: Path
    rooms: int
    entries: int

    def __str__(self) -> str:
        return f"{self.path}: {self.rooms} rooms, {self.entries} entries (integrity checked)"


def sqlite_path(url: URL) -> Path:
    """The file of an SQLite URL; a :class:`BackupError` for a database of another kind."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        raise BackupError(f"not an SQLite file: {url.render_as_string(hide_password=True)}")
    return Path(url.database)


def backup(source: Path, target: Path, *, force: bool = False) -> Copied:
    """Copy the table's database ``source`` (it may be serving) to ``target``."""
    return _copy(source, target, force, "the database", read_only=False)


def restore(source: Path, target: Path, *, force: bool = False) -> Copied:
    """Put the backup ``source`` in place as the database ``target`` (no
    server may be using ``target``: :func:`_free` refuses one that looks used)."""
    return _copy(source, target, force, "the backup", read_only=True)


def _copy(source: Path, target: Path, force: bool, what: str, *, read_only: bool) -> Copied:
    if source.resolve() == target.resolve():
        raise BackupError(f"{source} is both the copy's source and its target")
    _free(target, force)
    origin = _open_table(source, what, read_only)
    part = target.with_name(f".{target.name}.{secrets.token_hex(4)}.part")
    try:
        copied = _write(origin, part, target)
        os.replace(part, target)
    finally:
        origin.close()
        part.unlink(missing_ok=True)
    return copied


def _write(origin: sqlite3.Connection, part: Path, target: Path) -> Copied:
    """The copy written to ``part`` (to become ``target``), whole and checked."""
    copy = sqlite3.connect(part)
    try:
        origin.backup(copy)  # every page in one step: one snapshot, never restarted
        copy.execute("PRAGMA journal_mode=DELETE")  # one file: no -wal to carry beside it
        checked = copy.execute("PRAGMA integrity_check").fetchall()
        if checked != [("ok",)]:
            raise BackupError(f"the copy failed its integrity check: {checked[:3]}")
        rooms = copy.execute("SELECT count(*) FROM rooms").fetchone()[0]
        entries = copy.execute("SELECT count(*) FROM rolls").fetchone()[0]
    finally:
        copy.close()
    with part.open("rb") as written:  # on the disk before it takes the target's name
        os.fsync(written.fileno())
    return Copied(target, rooms, entries)


def _free(target: Path, force: bool) -> None:
    """Refuse a target that is a folder, in no folder, or there already
    (unless ``force``), or that a server may be using: an SQLite database's
    ``-wal`` file beside it would be read into the file put in its place."""
    if target.is_dir():
        raise BackupError(f"{target} is a folder: give the file to write")
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent} is no folder: make it first")
    if target.exists() and not force:
        raise BackupError(f"{target} exists: give --force to replace it")
    wal = target.with_name(target.name + "-wal")
    if wal.exists():
        raise BackupError(
            f"{wal} exists: a server is using {target.name}, or one stopped without closing"
            " it; stop it (a server that stops closes it), then try again"
        )


def _open_table(path: Path, what: str, read_only: bool) -> sqlite3.Connection:
    """A connection to ``path``, which must be an SQLite file holding a
    table's database; never creates it."""
    if not path.exists():
        raise BackupError(f"{what} {path} does not exist")
    if not path.is_file():
        raise BackupError(f"{what} {path} is not a file")
    mode = "ro" if read_only else "rw"
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, timeout=30)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open {what} {path}: {error}") from None
    try:
        tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        names = {name for (name,) in tables}
    except sqlite3.Error as error:
        connection.close()
        raise BackupError(f"{what} {path} is not an SQLite database ({error})") from None
    if not names >= NEEDED:
        connection.close()
        raise BackupError(f"{what} {path} is an SQLite database, but not a fudgedice table's")
    return connection


def postgres_command(url: URL, file: str, *, restore: bool = False) -> str:
    """The ``pg_dump`` (or ``pg_restore``) command that backs up (or puts
    back) the table's PostgreSQL database, its password left out (give it by
    ``PGPASSWORD`` or ``~/.pgpass``, never on a command line others can read).

    Named, not run: ``pg_dump`` must be of the server's major version or
    newer, and how it reaches and authenticates to the server, how its dump is
    compressed and where it is kept are the operator's to choose; a command
    that ran whichever ``pg_dump`` it found would decide all that silently."""
    plain = URL.create(
        "postgresql", url.username, None, url.host, url.port, url.database, url.query
    ).render_as_string(hide_password=False)
    if restore:
        return shlex.join([
            "pg_restore", "--clean", "--if-exists", "--no-owner", f"--dbname={plain}", file
        ])  # fmt: skip
    return shlex.join(["pg_dump", "--format=custom", f"--file={file}", plain])
