"""The D6 System (``d6:``): die codes, the Wild Die, Character and Fate
Points, dice reduction, difficulties and opposed rolls (docs/contracts/rules.md section 4,
seed 002); multiple actions, result points, damage against resistance and
its wounds (section 6, OpenD6)."""

from __future__ import annotations

from types import MappingProxyType

from ...results.table_spec import TableSpec
from ..base import System, words_of
from . import D6 as D6_DECLARED
from .options import ALLOW_BOTH, CRIT_RULES, OPTIONS, TIES, UNCAPPED, WOUND_PENALTIES
from .program import d6_program
from .rules import DIFFICULTIES
from .sheet import D6_SHEET
from .tables import difficulty_table, reduction_table, result_points_table, wounds_table

D6_SYSTEM = System(
    name=D6_DECLARED.name,
    description=D6_DECLARED.description,
    compile=d6_program,
    words=words_of(
        OPTIONS,
        CRIT_RULES,
        ALLOW_BOTH,
        "faster",
        DIFFICULTIES,
        TIES,
        UNCAPPED,
        WOUND_PENALTIES,
    ),
    damage=True,
    sheet=D6_SHEET,
    tables=MappingProxyType(
        {
            "d6-reduction": TableSpec(
                "D6 System dice reduction: the 5D and Wild Die bonuses",
                reduction_table,
                endless=True,
            ),
            "d6-difficulties": TableSpec(
                "D6 System difficulty words and the number each stands for", difficulty_table
            ),
            "d6-result-points": TableSpec(
                "D6 System result points: the degree of a success, Minimal .. Incredible",
                result_points_table,
            ),
            "d6-wounds": TableSpec(
                "D6 System wounds: damage over resistance, Stunned .. Dead", wounds_table
            ),
        }
    ),
)

__all__ = ["D6_SYSTEM"]
