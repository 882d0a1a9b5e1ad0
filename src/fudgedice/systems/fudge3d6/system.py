"""3d6 Fudge (``3d6fudge:``, seed 004): roll 3d6 under the skill, triples first."""

from __future__ import annotations

from types import MappingProxyType

from ...results.table_spec import TableSpec
from ..base import System, words_of
from . import FUDGE3D6 as FUDGE3D6_DECLARED
from .program import fudge3d6_program
from .rules import LEVELS, SYSTEM
from .sheet import FUDGE3D6_SHEET
from .tables import chances_table, ladder_table

FUDGE3D6_SYSTEM = System(
    name=FUDGE3D6_DECLARED.name,
    description=FUDGE3D6_DECLARED.description,
    compile=fudge3d6_program,
    words=words_of(LEVELS),
    tables=MappingProxyType(
        {
            SYSTEM: TableSpec(
                "3d6 Fudge chances of success by modified skill (seed 004)", chances_table
            ),
            f"{SYSTEM}-ladder": TableSpec(
                "3d6 Fudge levels, chances of success and EP costs", ladder_table
            ),
        }
    ),
    ladder=f"{SYSTEM}-ladder",
    sheet=FUDGE3D6_SHEET,
)

__all__ = ["FUDGE3D6_SYSTEM"]
