"""Statements compiled once: built from the tables of :mod:`.schema` with
SQLAlchemy Core, compiled for each database's dialect at their first use, and
run on the driver's cursor of a SQLAlchemy connection, in its transaction.

The writer's batches run a handful of statements each, many times a second.
Through ``Connection.execute`` (SQLAlchemy 2.1: its compiled cache's lookup,
each row's parameters made into the dialect's form, the result's setup) a
statement cost 70 to 130 µs of CPU time where SQLite's driver took 6 to 9 µs,
and an ``INSERT`` of 5 rows 260 µs against 110: a batch of 5 rolls spent
about as long in SQLAlchemy as on its draws. A :class:`Prepared` statement
keeps its compiled text and hands the rows to the driver as they are: both
engines take parameters by name (:func:`.db.connect` makes SQLite's
``named``; psycopg's is ``pyformat``), and no column the writer binds needs
SQLAlchemy to convert its value (checked when the statement is compiled), so
the driver receives what ``Connection.execute`` would have given it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import BindParameter, ClauseElement, Connection, Dialect
from sqlalchemy.sql.compiler import SQLCompiler

Row = Mapping[str, Any]


class Prepared:
    """A Core statement and its compiled text for each dialect it ran on."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._texts: dict[tuple[str, str], str] = {}

    def text(self, dialect: Dialect) -> str:
        """The statement as ``dialect`` writes it, compiled at its first use."""
        key = (dialect.name, dialect.paramstyle)
        text = self._texts.get(key)
        if text is None:
            compiled = self.statement.compile(dialect=dialect)
            assert isinstance(compiled, SQLCompiler)
            if compiled.positional:
                raise ValueError(f"{dialect.name}: a prepared statement's parameters go by name")
            for bind in compiled.binds.values():
                _plain(bind, dialect)
            text = self._texts[key] = compiled.string
        return text

    def run(self, connection: Connection, rows: Sequence[Row]) -> None:
        """Run the statement once a row (the driver's ``executemany``)."""
        cursor = connection.connection.cursor()
        try:
            cursor.executemany(self.text(connection.dialect), rows)
        finally:
            cursor.close()

    def read(self, connection: Connection, parameters: Row) -> list[tuple[Any, ...]]:
        """The rows the statement reads, as the driver gives them."""
        cursor = connection.connection.cursor()
        try:
            cursor.execute(self.text(connection.dialect), parameters)
            return list(cursor.fetchall())
        finally:
            cursor.close()


def _plain(bind: BindParameter[Any], dialect: Dialect) -> None:
    """Refuse a parameter whose value SQLAlchemy would convert for this
    dialect (a Boolean on SQLite, a JSON column): the driver would not."""
    if bind.type.dialect_impl(dialect).bind_processor(dialect) is not None:
        raise TypeError(
            f"{dialect.name}: parameter '{bind.key}' ({bind.type}) needs converting: "
            "run its statement through Connection.execute"
        )
