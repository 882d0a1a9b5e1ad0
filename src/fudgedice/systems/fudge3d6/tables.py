"""The tables of 3d6 Fudge: chances of success by modified skill, and the
levels with their chances and EP costs (seed 004)."""

from __future__ import annotations

from fractions import Fraction

from ...results.table import Table, TableOptions
from .counts import success_chance
from .rules import EP_COST, WORDS


def _chance_text(chance: Fraction, options: TableOptions) -> str:
    if options.exact:
        # Over 216, as the seed's rules digest writes them (not in lowest terms).
        return f"{chance * 216}/216"
    return f"{float(chance) * 100:.1f}%"


def chances_table(options: TableOptions) -> Table:
    needed = list(range(1, 12))
    labels = [str(skill) for skill in needed[:-1]] + ["11+"]
    chances = [_chance_text(success_chance(skill), options) for skill in needed]
    return Table(
        "3d6 Fudge: chances of success",
        ("Roll needed", *labels),
        (("Success", *chances),),
        ("Exact over all 216 rolls of 3d6; 11 and up are the same: only 5-5-5 and 6-6-6 fail.",),
    )


def ladder_table(options: TableOptions) -> Table:
    rows = []
    for skill in range(9, 0, -1):
        cost = EP_COST.get(skill)
        rows.append(
            (
                str(skill),
                WORDS[skill],
                _chance_text(success_chance(skill), options),
                "-" if cost is None else str(cost),
            )
        )
    return Table(
        "3d6 Fudge levels",
        ("level", "word", "success", "EP"),
        tuple(rows),
        (
            "Modifiers move the skill, never below 1 (Abysmal); above 9 the number alone.",
            "EP: Experience Points to raise a skill to that level (the seed's sheet).",
        ),
    )
