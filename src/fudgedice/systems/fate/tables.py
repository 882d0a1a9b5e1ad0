"""Fate's tables: its two ladders, and the chance of each outcome for every
skill level against every opposition."""

from __future__ import annotations

from fractions import Fraction

from ...render.ladder import Ladder
from ...render.numbers import percent
from ...results.table import Table, TableMaker, TableOptions
from .checking import FATE_DICE, NO_REROLL, FateSide
from .ladders import FATE_CONDENSED, FATE_CORE, LADDER_TITLES, OUTCOMES
from .measure import outcome_counts, side_dist


def _levels(ladder: Ladder) -> list[int]:
    """The ladder's levels, top first."""
    return [value for value, _ in reversed(ladder.bands)]


def ladder_table(ladder: Ladder) -> TableMaker:
    def make(options: TableOptions) -> Table:
        title = LADDER_TITLES[ladder.system]
        bottom = ladder.bands[0][1]
        return Table(
            f"The {title} ladder",
            ("level", "name"),
            tuple((f"{value:+d}", ladder.name(value)) for value in _levels(ladder)),
            notes=(
                f"Results beyond it count on: Legendary+1 above, {bottom}-1 below.",
                "The words of Fudge's ladder at other numbers: Good is +3 in fate:, +1 in fudge:.",
            ),
        )

    return make


def outcome_table(ladder: Ladder) -> TableMaker:
    def make(options: TableOptions) -> Table:
        title = LADDER_TITLES[ladder.system]
        rows = []
        for skill in _levels(ladder):
            # measured as `odds "fate: <skill> vs <opposition>"` measures it
            results = side_dist(FateSide(FATE_DICE, FATE_DICE, skill, NO_REROLL), None)
            for opposition in _levels(ladder):
                ways = outcome_counts(results, opposition)
                cells = [Fraction(ways[name], results.total) for name in OUTCOMES]
                rows.append(
                    (
                        ladder.describe(skill),
                        ladder.describe(opposition),
                        *(str(cell) if options.exact else percent(cell) for cell in cells),
                    )
                )
        return Table(
            f"{title}: the chance of each outcome, skill against passive opposition (exact)",
            ("skill", "opposition", *OUTCOMES),
            tuple(rows),
            notes=(
                "Shifts = result - opposition: below 0 fail, 0 tie, 1-2 succeed, 3+ succeed "
                "with style.",
                "Active opposition (both roll) and reroll invokes: fudgedice odds "
                "'fate: Good opp Fair', 'fate: Good reroll vs Great'.",
            ),
        )

    return make


fate_ladder_table = ladder_table(FATE_CORE)
condensed_ladder_table = ladder_table(FATE_CONDENSED)
fate_outcome_table = outcome_table(FATE_CORE)
condensed_outcome_table = outcome_table(FATE_CONDENSED)
