"""Printed tables (a seed's success rates, the D6 reduction chart, a ladder):
each system registers the tables it can compute; the CLI and API list them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import DiceValueError


@dataclass(frozen=True, slots=True)
class TableOptions:
    exact: bool = False
    """Exact fractions instead of percentages."""
    to: int | None = None
    """How far a table that goes on forever is printed (``--to``)."""


@dataclass(frozen=True, slots=True)
class Table:
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "header": list(self.header),
            "rows": [list(row) for row in self.rows],
            "notes": list(self.notes),
        }


TableMaker = Callable[[TableOptions], Table]

_TABLES: dict[str, tuple[str, TableMaker]] = {}


def register_table(name: str, description: str) -> Callable[[TableMaker], TableMaker]:
    """Decorator: make a table available as ``fudgedice table NAME``."""

    def register(maker: TableMaker) -> TableMaker:
        _TABLES[name] = (description, maker)
        return maker

    return register


def table_names() -> dict[str, str]:
    """Every table's name and what it shows."""
    from . import systems

    systems.load()
    return {name: description for name, (description, _) in sorted(_TABLES.items())}


def make_table(name: str, options: TableOptions | None = None) -> Table:
    names = table_names()
    key = name.strip().lower()
    if key not in _TABLES:
        from .parser import _suggest

        raise DiceValueError(
            f"unknown table '{name}'",
            hint=_suggest(key, list(names)) or f"tables: {', '.join(names)}",
        )
    return _TABLES[key][1](options or TableOptions())
