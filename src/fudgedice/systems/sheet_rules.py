"""The rules a character sheet reads (:mod:`fudgedice.sheets`), from every
system: plain data and pure functions, which :mod:`fudgedice.api` re-exports
when a sheet first asks for one (a roll of 4dF loads no D6 wounds)."""

from __future__ import annotations

from types import MappingProxyType

from .d6.options import WOUND_PENALTIES as D6_WOUND_PENALTIES
from .d6.outcomes import WOUNDS as D6_WOUND_BANDS
from .fate import stress as fate_stress
from .fate.ladders import FATE_CORE
from .fudge.ladders import FUDGE, POWER
from .fudge3d6.rules import EP_COST
from .sheet_levels import SheetLevels as SheetLevels  # for the sheets' annotations
from .sheet_levels import Stress as Stress

LADDERS = MappingProxyType({"fudge": FUDGE, "power": POWER, "fate": FATE_CORE})
"""The ladder each ladder system's levels are named on."""
THREE_D6_EP_COST = MappingProxyType(dict(EP_COST))
"""Seed 004's Experience Points to raise a skill to each level."""
D6_WOUNDS = tuple((band.lowest, band.name) for band in D6_WOUND_BANDS)
"""The D6 System's wound levels: (lowest damage over resistance, name)."""
D6_WOUND_DICE = MappingProxyType(dict(D6_WOUND_PENALTIES))
"""The dice a D6 wound takes from later rolls, by its ``wound=`` option."""
FATE_ABSORB = fate_stress.absorb
"""How a hit is absorbed, for every Fate sheet: by its boxes' kind (``Stress.kind``)."""

NAMES = (
    "LADDERS",
    "THREE_D6_EP_COST",
    "D6_WOUNDS",
    "D6_WOUND_DICE",
    "FATE_ABSORB",
)
"""What :mod:`fudgedice.api` re-exports from here."""
