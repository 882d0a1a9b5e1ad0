"""Printed tables (a seed's success rates, the D6 reduction chart, a ladder)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class TableOptions:
    """How a printed table is asked for (``fudgedice table NAME --exact --to N``)."""

    exact: bool = False
    """Exact fractions instead of percentages."""
    to: int | None = None
    """How far a table that goes on forever is printed (``--to``)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A printed table: a title, the column heads, the rows, and notes under it."""

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
