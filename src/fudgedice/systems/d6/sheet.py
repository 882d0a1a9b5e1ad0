"""The D6 System's character sheets: die codes (a skill its attribute and
the dice it adds), one wound level, Character and Fate Points."""

from __future__ import annotations

from types import MappingProxyType

from ..sheet_levels import SheetLevels


def code_text(pips: int) -> str:
    """A die code of ``pips`` as a sheet writes it: 13 pips is ``4D+1``."""
    dice, rest = divmod(pips, 3)
    return f"{dice}D" + (f"+{rest}" if rest else "")


D6_TEMPLATE = """\
character_points = 5
fate_points = 1
# wound: none, stunned, wounded, severely wounded, incapacitated, mortally wounded, dead
wound = "none"

[attributes]         # die codes
Agility = "3D"
Mechanical = "3D"
Strength = "3D"
Knowledge = "3D"
Perception = "3D"
Technical = "3D"

[skills]             # a skill adds dice to its attribute
Dodge = "Agility+1D"
Search = "Perception+1D"
"""
"""A new sheet's keys after its system, name and player."""

D6_SHEET = SheetLevels(
    said=code_text,
    named=code_text,
    written=code_text,
    codes=True,
    typical=" vs Moderate",
    levels_help='die codes ("3D+1"), a skill its attribute and the dice it adds',
    keys=("character_points", "fate_points", "wound"),
    spendable=MappingProxyType(
        {
            "cp": "character_points",
            "character": "character_points",
            "fp": "fate_points",
            "fate": "fate_points",
        }
    ),
    state="wound level",
    template=D6_TEMPLATE,
)
