"""``fudgedice backup`` and ``fudgedice restore``: the table's database copied
while it serves, and put back (``fudgedice help table``, "Backing up"); built
when named, the server's modules loaded when one runs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

_db = click.option(
    "--db", "database", metavar="URL", help="postgresql://... or an SQLite file. [default: serve's]"
)
_force = click.option("--force", is_flag=True, help="Replace the target if it exists.")


@click.command()
@click.argument("target")
@_db
@_force
def backup(target: str, database: str | None, force: bool) -> None:
    """Copy the table's database to TARGET, consistent even while it serves:
    every roll committed before the copy began is in it. The copy is checked
    (PRAGMA integrity_check) and written whole or not at all.

    For PostgreSQL, prints the pg_dump command that backs it up.

    \b
    Examples:
      fudgedice backup table-2026-11-27.sqlite3
      fudgedice backup --db /srv/table.sqlite3 /backups/table.sqlite3 --force
      fudgedice backup --db postgresql://table@localhost/table table.dump
    """
    _run(target, database, force, restore=False)


@click.command()
@click.argument("source")
@_db
@_force
def restore(source: str, database: str | None, force: bool) -> None:
    """Put the backup SOURCE in place as the table's database (--db, or serve's
    own file). Stop the server first; a database there already is replaced
    only with --force. Start `fudgedice serve` on it after.

    For PostgreSQL, prints the pg_restore command that puts a pg_dump back.

    \b
    Examples:
      fudgedice restore table-2026-11-27.sqlite3 --db /srv/table.sqlite3
      fudgedice restore table.dump --db postgresql://table@localhost/table
    """
    _run(source, database, force, restore=True)


def _run(file: str, database: str | None, force: bool, *, restore: bool) -> None:
    """The copy, or the PostgreSQL command to run; a message (exit code 2)
    for any refusal, never a traceback."""
    from ..server import backup as copies  # here: the server's modules load when one runs
    from ..server.db import database_url
    from ..server.run import default_database

    try:
        url = database_url(database or str(default_database()))
        if url.get_backend_name() == "postgresql":
            command = copies.postgres_command(url, file, restore=restore)
            click.echo("fudgedice does not run PostgreSQL's tools itself: run", err=True)
            click.echo(f"  {command}", err=True)
            sys.exit(2)  # nothing was copied: a script must not go on as if it had been
        db_file = copies.sqlite_path(url)
        if restore:
            copied = copies.restore(Path(file).expanduser(), db_file, force=force)
        else:
            copied = copies.backup(db_file, Path(file).expanduser(), force=force)
    except (copies.BackupError, ValueError, OSError) as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    click.echo(f"{'restored' if restore else 'backed up'} {copied}")
