"""Fudge's and Power Fudge's character sheets: ladder words or numbers
around Fair, the Fudge wound track, Fudge Points."""

from __future__ import annotations

from types import MappingProxyType

from ..sheet_levels import FUDGE_KEYS, SheetLevels, fudge_family_template
from .ladders import FUDGE, POWER

SPENDABLE = MappingProxyType({"fudge": "fudge_points"})
ON_THE_LADDER = "ladder words (Terrible .. Superb) or numbers (Fair = 0)"

FUDGE_SHEET = SheetLevels(
    said=FUDGE.name,
    named=FUDGE.describe,
    written=FUDGE.name,
    words=MappingProxyType(dict(FUDGE.words)),
    signed=True,
    typical=" vs Fair",
    levels_help=ON_THE_LADDER,
    keys=FUDGE_KEYS,
    spendable=SPENDABLE,
    state="wound track",
    template=fudge_family_template(ON_THE_LADDER),
)

POWER_SHEET = SheetLevels(
    said=lambda level: f"4dF{level:+d}" if level else "4dF",
    named=POWER.describe,
    written=POWER.name,
    words=MappingProxyType(dict(POWER.words)),
    signed=True,
    typical=" vs Fair",
    levels_help=ON_THE_LADDER,
    keys=FUDGE_KEYS,
    spendable=SPENDABLE,
    state="wound track",
    template=fudge_family_template(ON_THE_LADDER),
)
