"""Statements compiled once: built from the tables of :mod:`.schema` with
SQLAlchemy Core, compiled for each database's dialect at their first use, and
run on the driver's cursor of a SQLAlchemy connection, in its transaction.

The writer's batches run a handful of statements each, many times a second.
Through ``Connection.execute`` (SQLAlchemy 2.1: its compiled cache's lookup,
each row's parameters made into the dialect's form, the result's setup) a
statement cost 70 to 130 µs of CPU time where SQLite's driver took 6 to 9 µs,
and an ``INSERT`` of 5 rows 260 µs against 110: a batch of 5 rolls spent
about as long in SQLAlchemy as on its draws. A :class:`Prepared` statement
keeps its compiled text and hands the rows to the driver as the dialect
takes them (by place or by name), and no column the writer binds needs
SQLAlchemy to convert its value (checked when the statement is compiled), so
the driver receives what ``Connection.execute`` would have given it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import psycopg
from sqlalchemy import BindParameter, ClauseElement, Connection, Dialect
from sqlalchemy.sql.compiler import SQLCompiler

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Compiled:
    """A statement as one dialect writes it, and how a row of parameters
    goes to its driver: by place (SQLite's ``?``), as a tuple in the
    compiled order, or by name (psycopg's ``%(name)s``), as it is."""

    text: str
    given: Callable[[Row], Any]


class Prepared:
    """A Core statement, compiled once for each dialect it runs on."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, str], Compiled] = {}

    def compiled(self, dialect: Dialect) -> Compiled:
        """The statement as ``dialect`` writes it, compiled at its first use."""
        key = (dialect.name, dialect.paramstyle)
        known = self._compiled.get(key)
        if known is None:
            compiled = self.statement.compile(dialect=dialect)
            assert isinstance(compiled, SQLCompiler)
            for bind in compiled.binds.values():
                _plain(bind, dialect)
            known = self._compiled[key] = Compiled(compiled.string, _given(compiled))
        return known

    def run(self, connection: Connection, rows: Sequence[Row]) -> None:
        """Run the statement once a row (the driver's ``executemany``)."""
        compiled = self.compiled(connection.dialect)
        cursor = connection.connection.cursor()
        try:
            cursor.executemany(compiled.text, list(map(compiled.given, rows)))
        finally:
            cursor.close()

    def read(self, connection: Connection, parameters: Row) -> list[tuple[Any, ...]]:
        """The rows the statement reads, as the driver gives them."""
        compiled = self.compiled(connection.dialect)
        cursor = connection.connection.cursor()
        try:
            cursor.execute(compiled.text, compiled.given(parameters))
            return list(cursor.fetchall())
        finally:
            cursor.close()


def _given(compiled: SQLCompiler) -> Callable[[Row], Any]:
    """How a row of parameters goes to the driver of ``compiled``'s dialect.
    By place, a row's values are taken in C (``itemgetter``): SQLite binding
    by name looked each one up by its name and took twice as long."""
    if not compiled.positional:
        return lambda row: row
    names = tuple(compiled.positiontup or ())
    if len(names) == 1:
        return lambda row: (row[names[0]],)
    return itemgetter(*names)


def _plain(bind: BindParameter[Any], dialect: Dialect) -> None:
    """Refuse a parameter whose value SQLAlchemy would convert for this
    dialect (a Boolean on SQLite, a JSON column): the driver would not."""
    if bind.type.dialect_impl(dialect).bind_processor(dialect) is not None:
        raise TypeError(
            f"{dialect.name}: parameter '{bind.key}' ({bind.type}) needs converting: "
            "run its statement through Connection.execute"
        )


def read_together(
    connection: Connection, statements: Sequence[tuple[Prepared, Row]]
) -> list[list[tuple[Any, ...]]]:
    """The rows each statement reads, run in order. On PostgreSQL they are
    sent together (psycopg's pipeline mode), one round trip for all, and each
    sees what the ones before it did in the transaction (a lock taken); on
    SQLite, a local file, one after the other."""
    if connection.dialect.name != "postgresql":
        return [prepared.read(connection, parameters) for prepared, parameters in statements]
    driver = connection.connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    cursors = []
    try:
        with driver.pipeline():
            for prepared, parameters in statements:
                compiled = prepared.compiled(connection.dialect)
                cursor = connection.connection.cursor()
                cursors.append(cursor)
                cursor.execute(compiled.text, compiled.given(parameters))
            return [list(cursor.fetchall()) for cursor in cursors]
    finally:
        for cursor in cursors:
            cursor.close()
