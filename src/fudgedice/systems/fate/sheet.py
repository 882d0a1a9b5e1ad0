"""Fate Core's character sheets: skills on the ladder around Mediocre,
aspects, stunts, stress, consequences and the skill pyramid, Fate Points."""

from __future__ import annotations

from types import MappingProxyType

from ..sheet_levels import SheetLevels
from .ladders import FATE_CORE

FATE_TEMPLATE = """\
high_concept = ""
trouble = ""
aspects = []         # three more aspects
stunts = []          # three free stunts
refresh = 3
fate_points = 3

[skills]             # the pyramid: 1 Great, 2 Good, 3 Fair, 4 Average; others are Mediocre
Fight = "Great"
Athletics = "Good"
Physique = "Good"    # sizes the physical stress track
Will = "Fair"        # sizes the mental stress track
Notice = "Fair"
Stealth = "Fair"
Rapport = "Average"
Lore = "Average"
Empathy = "Average"
Provoke = "Average"

[stress]             # the boxes checked
physical = []
mental = []

[consequences]       # an aspect's text when taken: mild 2, moderate 4, severe 6
mild = ""
moderate = ""
severe = ""
"""
"""A new sheet's keys after its system, name and player."""

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
    state="stress",
    template=FATE_TEMPLATE,
)
