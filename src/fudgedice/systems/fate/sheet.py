"""Fate Core's character sheets: skills on the ladder around Mediocre,
aspects, stunts, stress, consequences and the skill pyramid, Fate Points."""

from __future__ import annotations

from types import MappingProxyType

from ..sheet_levels import SheetLevels
from .ladders import FATE_CORE

FATE_SHEET = SheetLevels(
    said=str,
    named=FATE_CORE.describe,
    written=FATE_CORE.name,
    words=MappingProxyType(dict(FATE_CORE.words)),
    signed=True,
    typical=" vs Fair",
    absent="a skill not on the sheet is Mediocre (+0): add it to [skills]",
    levels_help="ladder words (Terrible .. Legendary) or numbers (Mediocre = 0)",
    keys=(
        "high_concept",
        "trouble",
        "aspects",
        "stunts",
        "refresh",
        "fate_points",
        "stress",
        "consequences",
        "pyramid",
    ),
    spendable=MappingProxyType({"fate": "fate_points", "fp": "fate_points"}),
    state="fate",
)
