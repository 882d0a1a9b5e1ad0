"""3d6 Fudge's character sheets (seed 004): level words or numbers from
Abysmal 1, the Fudge wound track, Fudge Points."""

from __future__ import annotations

from types import MappingProxyType

from ..sheet_levels import FUDGE_KEYS, SheetLevels, fudge_family_template
from .rules import LEVELS, WORDS

FUDGE3D6_SHEET = SheetLevels(
    said=str,
    named=lambda level: f"{level} {WORDS[level]}" if level in WORDS else str(level),
    written=lambda level: WORDS.get(level, str(level)),
    words=MappingProxyType(dict(LEVELS)),
    absent="a skill not on the sheet is usually Poor: add it to [skills]",
    penalised="the skill level",
    levels_help="levels 1 Abysmal .. 9 Legendary, or a number",
    keys=FUDGE_KEYS,
    spendable=MappingProxyType({"fudge": "fudge_points"}),
    state="wound track",
    template=fudge_family_template("levels 1 Abysmal .. 9 Legendary, or a number"),
)
