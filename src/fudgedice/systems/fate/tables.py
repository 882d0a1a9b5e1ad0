"""Fate's tables: its two ladders, the chance of each outcome for every
skill level against every opposition, and Fate Core's and Fate Condensed's
stress tracks."""

from __future__ import annotations

from fractions import Fraction

from ...render.ladder import Ladder
from ...render.numbers import percent
from ...results.table import Table, TableMaker, TableOptions
from .checking import FATE_DICE, NO_REROLL, FateSide
from .ladders import FATE_CONDENSED, FATE_CORE, LADDER_TITLES, OUTCOMES
from .measure import outcome_counts, side_dist
from .stress import SUPERB, BoxKind, condensed_boxes, consequences, largest_hit, stress_boxes

SUPERB_AND_UP = SUPERB
"""The stress table's top row stands for Superb and every level above it."""


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


def _stress_rows(kind: BoxKind) -> tuple[tuple[str, ...], ...]:
    boxes_of = stress_boxes if kind == "valued" else condensed_boxes
    rows = []
    for level in range(SUPERB_AND_UP, FATE_CORE.bands[0][0] - 1, -1):
        named = FATE_CORE.describe(level) + (" or more" if level == SUPERB_AND_UP else "")
        boxes = " ".join(str(box) for box in boxes_of(level))
        taken = ", ".join(f"{name} {value}" for name, value in consequences(level).items())
        rows.append((named, boxes, taken, str(largest_hit(level, kind))))
    return tuple(rows)


_STRESS_COLUMNS = (
    "skill",
    "stress boxes",
    "consequences (shifts absorbed)",
    "largest hit survived",
)


def stress_table(options: TableOptions) -> Table:
    return Table(
        "Fate Core: stress boxes and consequences by Physique (physical) or Will (mental)",
        _STRESS_COLUMNS,
        _stress_rows("valued"),
        notes=(
            "A hit of N shifts checks one box worth N or more, and consequences take their "
            "share first;",
            "what is left takes the character out. Fate Condensed: boxes absorb 1 each, in "
            "any number.",
        ),
    )


def condensed_stress_table(options: TableOptions) -> Table:
    return Table(
        "Fate Condensed: stress boxes (1 shift each) and consequences by Physique or Will",
        _STRESS_COLUMNS,
        _stress_rows("points"),
        notes=(
            "A hit checks as many boxes as it needs (each absorbs 1 shift), and consequences "
            "take their share first;",
            "what is left takes the character out. The extra mild consequence is for the "
            "skill's own track.",
        ),
    )
