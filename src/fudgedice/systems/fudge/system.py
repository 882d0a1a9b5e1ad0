"""Fudge (``fudge:``, the default system) and Power Fudge (``power:``)."""

from __future__ import annotations

from types import MappingProxyType

from ...results.table_spec import TableSpec
from ..base import System, words_of
from . import FUDGE as FUDGE_DECLARED
from . import POWER as POWER_DECLARED
from . import power
from .checking import COIN
from .ladders import FUDGE, POWER
from .program import fudge_program, power_program
from .sheet import FUDGE_SHEET, POWER_SHEET
from .tables import fudge_ladder_table, power_ladder_table, techniques_table

FUDGE_SYSTEM = System(
    name=FUDGE_DECLARED.name,
    description=FUDGE_DECLARED.description,
    compile=fudge_program,
    words=words_of(COIN, ("d6", "3d6", "d%", "4d6"), (word for word, _ in FUDGE.words)),
    tables=MappingProxyType(
        {
            "fudge-ladder": TableSpec(
                "the Fudge trait ladder, Terrible-4 .. Superb+4", fudge_ladder_table
            ),
            "techniques": TableSpec(
                "seed 001's success rates: 4dF, d%, 3d6 and 4d6 side by side", techniques_table
            ),
        }
    ),
    ladder="fudge-ladder",
    sheet=FUDGE_SHEET,
)

POWER_SYSTEM = System(
    name=POWER_DECLARED.name,
    description=POWER_DECLARED.description,
    compile=power_program,
    words=words_of(power.OPTIONS, (word for word, _ in POWER.words)),
    tables=MappingProxyType(
        {
            "power-ladder": TableSpec(
                "the Power Fudge result ladder, Subhuman .. Cosmic", power_ladder_table
            ),
        }
    ),
    ladder="power-ladder",
    sheet=POWER_SHEET,
)

__all__ = ["FUDGE_SYSTEM", "POWER_SYSTEM"]
