"""What a system declares of a table it can print (:class:`TableSpec`), apart
from the printed :class:`~fudgedice.results.table.Table` itself: every system
declares its tables when it loads, and a roll prints none of them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .table import Table, TableOptions


class TableSpec(NamedTuple):
    """A table a system can print: what it shows and how to compute it (a
    named tuple: a record a system declares, built once, never compared)."""

    description: str
    make: Callable[[TableOptions], Table]
    endless: bool = False
    """The table goes on (a chart beyond the seed's rows): ``--to`` says how far."""

    def printed(self, *, exact: bool = False, to: int | None = None) -> Table:
        """The table as asked for (``fudgedice table NAME --exact --to N``)."""
        from .table import TableOptions  # here: a roll prints no table

        return self.make(TableOptions(exact=exact, to=to))
