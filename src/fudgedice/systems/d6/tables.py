"""The D6 System's tables: the seed's dice-reduction chart and the OpenD6
difficulty words."""

from __future__ import annotations

from ...results.table import Table, TableOptions
from .rules import DIFFICULTIES, REDUCTION_CHART_ROWS, bonus_5d, bonus_wild


def reduction_table(options: TableOptions) -> Table:
    last = options.to or REDUCTION_CHART_ROWS
    rows = tuple((f"{n}D", str(bonus_5d(n)), str(bonus_wild(n))) for n in range(1, last + 1))
    return Table(
        "D6 System dice reduction (seed 002)",
        ("Die Code", "5D", "Wild Die"),
        rows,
        (
            "5D: roll five dice (the Wild Die among them), add the pips and this bonus "
            "(d6: 30D fast).",
            "Wild Die: roll the Wild Die alone, add the pips and this bonus (d6: 10D wildonly).",
            "Beyond the chart: 5D = ceil((N - 5) x 3.5), Wild Die = ceil((N - 1) x 3.5).",
        ),
    )


def difficulty_table(options: TableOptions) -> Table:
    bottom = 1
    rows = []
    for phrase, top in DIFFICULTIES.items():
        span = f"{bottom}+" if phrase == "legendary" else f"{bottom}-{top}"
        rows.append((phrase.title(), span, str(top)))
        bottom = top + 1
    return Table(
        "D6 System difficulties (OpenD6)",
        ("Difficulty", "Range", "As a target"),
        tuple(rows),
        ("A word means the top of its range: d6: 4D+2 vs Moderate is vs 15.",),
    )
