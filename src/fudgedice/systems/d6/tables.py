"""The D6 System's tables: the seed's dice-reduction chart, and the OpenD6
difficulty words, result points and wounds."""

from __future__ import annotations

from ...results.table import Table, TableOptions
from .outcomes import DEGREES, NO_WOUND, WOUNDS, ranges, span
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


def result_points_table(options: TableOptions) -> Table:
    rows = tuple((span(lowest, highest), tier.name) for tier, lowest, highest in ranges(DEGREES))
    return Table(
        "D6 System result points (OpenD6): how well a success succeeded",
        ("Result points", "Degree"),
        rows,
        (
            "Result points = total - difficulty, for a success (total >= difficulty).",
            "The rules' bands overlap at 16 (13-16, 16+): 16 is Spectacular here.",
            "Each degree is an event of odds: fudgedice odds 'd6: 4D+2 vs Moderate'.",
        ),
    )


def wounds_table(options: TableOptions) -> Table:
    rows = [(f"{WOUNDS[0].lowest - 1} or less", NO_WOUND.name, NO_WOUND.effect)]
    rows.extend(
        (span(lowest, highest), tier.name, tier.effect) for tier, lowest, highest in ranges(WOUNDS)
    )
    return Table(
        "D6 System wounds (OpenD6): damage total - resistance total",
        ("Damage - resistance", "Wound", "Effect"),
        tuple(rows),
        (
            "A wound's penalty on later rolls: wound=stunned, wound=wounded (-1D), "
            "wound=severely (-2D).",
            "Multiple actions never reduce damage or resistance rolls.",
            "The odds of each wound: fudgedice odds 'd6: 5D+1 dmg 3D+2'.",
        ),
    )
