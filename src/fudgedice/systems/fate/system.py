"""Fate (``fate:``, Fate Core), Fate Condensed (``fatecondensed:``) and Fate
Accelerated (``fae:``): 4dF on Fate's ladder, passive and active opposition,
the four outcomes and aspect invokes (docs/contracts/rules.md section 5)."""

from __future__ import annotations

from types import MappingProxyType

from ...results.table_spec import TableSpec
from ..base import System, words_of
from . import FAE as FAE_DECLARED
from . import FATE as FATE_DECLARED
from . import FATE_CONDENSED as FATE_CONDENSED_DECLARED
from .checking import OPTIONS
from .ladders import FATE_CONDENSED, FATE_CORE
from .program import fate_condensed_program, fate_program
from .sheet import CONDENSED_SHEET, FAE_SHEET, FATE_SHEET
from .tables import (
    condensed_ladder_table,
    condensed_outcome_table,
    condensed_stress_table,
    fate_ladder_table,
    fate_outcome_table,
    stress_table,
)

FATE_SYSTEM = System(
    name=FATE_DECLARED.name,
    description=FATE_DECLARED.description,
    compile=fate_program,
    words=words_of((option.split("=")[0] for option in OPTIONS), (w for w, _ in FATE_CORE.words)),
    tables=MappingProxyType(
        {
            "fate": TableSpec(
                "Fate Core: each outcome's chance, every skill against every opposition",
                fate_outcome_table,
            ),
            "fate-ladder": TableSpec(
                "the Fate Core ladder, Terrible -2 .. Legendary +8", fate_ladder_table
            ),
            "fate-stress": TableSpec(
                "Fate Core: stress boxes and consequences by Physique or Will", stress_table
            ),
        }
    ),
    ladder="fate-ladder",
    sheet=FATE_SHEET,
)

FATE_CONDENSED_SYSTEM = System(
    name=FATE_CONDENSED_DECLARED.name,
    description=FATE_CONDENSED_DECLARED.description,
    compile=fate_condensed_program,
    words=words_of(
        (option.split("=")[0] for option in OPTIONS), (w for w, _ in FATE_CONDENSED.words)
    ),
    tables=MappingProxyType(
        {
            "fatecondensed": TableSpec(
                "Fate Condensed: each outcome's chance, every skill against every opposition",
                condensed_outcome_table,
            ),
            "fatecondensed-ladder": TableSpec(
                "the Fate Condensed ladder, Horrifying -4 .. Legendary +8",
                condensed_ladder_table,
            ),
            "fatecondensed-stress": TableSpec(
                "Fate Condensed: 1-point stress boxes and consequences by Physique or Will",
                condensed_stress_table,
            ),
        }
    ),
    ladder="fatecondensed-ladder",
    sheet=CONDENSED_SHEET,
)

FAE_SYSTEM = System(
    name=FAE_DECLARED.name,
    description=FAE_DECLARED.description,
    compile=fate_program,  # Fate Core's rolls, read on its ladder
    words=FATE_SYSTEM.words,
    tables=MappingProxyType(
        {
            "fae-ladder": TableSpec(
                "the Fate Core ladder, which Fate Accelerated uses: Terrible -2 .. Legendary +8",
                fate_ladder_table,
            ),
        }
    ),
    ladder="fae-ladder",
    sheet=FAE_SHEET,
)

__all__ = ["FAE_SYSTEM", "FATE_CONDENSED_SYSTEM", "FATE_SYSTEM"]
