"""The tables of Fudge and Power Fudge: the two ladders and seed 001's
success rates of the dice techniques side by side."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ...language.parser import parse
from ...render.numbers import percent
from .ladders import FUDGE, POWER
from .program import fudge_program

if TYPE_CHECKING:
    from ...results.table import Table, TableOptions


def fudge_ladder_table(options: TableOptions) -> Table:
    from ...results.table import Table  # here: a roll prints no table

    ladder = FUDGE
    rows = [(f"{value:+d}", ladder.name(value)) for value in range(7, -8, -1)]
    return Table(
        "The Fudge ladder (levels and rolled degrees; Fair = 0)",
        ("level", "name"),
        tuple(rows),
        notes=(
            "Legendary is Superb+1. Traits stop at Superb (Legendary with the GM's leave);",
            "rolled degrees go on: Superb+N above, Terrible-N below.",
        ),
    )


def power_ladder_table(options: TableOptions) -> Table:
    from ...results.table import Table  # here: a roll prints no table

    ladder = POWER
    rows = [
        (ladder.range_text(index), name, f"{lowest:+d}")
        for index, (lowest, name) in reversed(list(enumerate(ladder.bands)))
    ]
    return Table(
        "The Power Fudge ladder (seed 000)",
        ("total", "name", "as a target"),
        tuple(rows),
        notes=("A word used as a target means the lowest total with that name.",),
    )


_COLUMNS = (("4dF", "4dF"), ("d%", "4dF@d%"), ("3d6", "4dF@3d6"), ("4d6", "4dF@4d6"))


def techniques_table(options: TableOptions) -> Table:
    from ...results.table import Table  # here: a roll prints no table

    # the exact odds of each technique, measured as `odds` measures them
    columns = [fudge_program(parse(form), frozenset()).odds() for _, form in _COLUMNS]
    rows = []
    for level in range(5, -6, -1):
        cells = []
        for odds in columns:
            chance: Fraction = odds.at_least(level)
            if options.exact:
                cells.append(str(chance))  # 0, 1 or n/d
            else:
                cells.append(percent(chance))
        rows.append((f"{level:+d} or better" if level else "0 or better", *cells))
    return Table(
        "Chance of achieving X or better (seed 001, exact)",
        ("X", *(name for name, _ in _COLUMNS)),
        tuple(rows),
        notes=("Computed from the exact distributions: fudgedice odds 4dF@3d6, and so on.",),
    )
