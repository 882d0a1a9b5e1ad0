"""What a sheet's state means for the dice, as pure functions: the Fudge
wound track, the D6 System's wound levels, and the cost of raising a trait
(Fate's stress, consequences and spread are its system's ``SheetLevels.stress``).

Sources: docs/contracts/rules.md section 3 and seed 004 (3d6 Fudge's track, EP costs and
defaults), section 4 and 6 (D6 wounds), section 5 (Fate); the Fudge rules
for the track's boxes and its penalties (Hurt -1, Very Hurt -2,
Incapacitated and Near Death make no roll).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .. import api

# ------------------------------------------------------------ the Fudge family

WOUND_LEVELS = ("Scratch", "Hurt", "Very Hurt", "Incapacitated", "Near Death")
WOUND_FROM = (1, 3, 5, 7, 9)
"""Seed 004's wound track: 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8
Incapacitated, 9+ Near Death (the Fudge rules' track too)."""
WOUND_BOXES = {"Scratch": 3, "Hurt": 1, "Very Hurt": 1, "Incapacitated": 1, "Near Death": 1}
"""Boxes of each level on a Fudge sheet; a sheet may set its own."""
WOUND_PENALTY = {"Scratch": 0, "Hurt": -1, "Very Hurt": -2}
"""What a wound takes from every trait (in 3d6 Fudge, from the skill level)."""
OUT_OF_ACTION = ("Incapacitated", "Near Death")

EP_COSTS = {"Superb": 8, "Great": 4, "Good": 2, "Fair": 1, "Mediocre": 1, "Poor": 1, "Terrible": 1}
"""Seed 004's sheet: Experience Points to raise a trait to each level."""


def wound_of(damage: int) -> str | None:
    """The level of the track a hit of ``damage`` lands on (None: no wound)."""
    if damage < WOUND_FROM[0]:
        return None
    level = WOUND_LEVELS[0]
    for lowest, name in zip(WOUND_FROM, WOUND_LEVELS, strict=True):
        if damage >= lowest:
            level = name
    return level


@dataclass(frozen=True)
class Marked:
    level: str | None
    """The level a box was checked on (None: no box was free: dead)."""
    landed: str
    """The level the hit landed on, before moving up past full levels."""


def mark_wound(checked: Mapping[str, int], boxes: Mapping[str, int], damage: int) -> Marked | None:
    """Where a hit goes: its level, or the next level up with a free box when
    that level's boxes are all checked. None for no wound."""
    landed = wound_of(damage)
    if landed is None:
        return None
    for level in WOUND_LEVELS[WOUND_LEVELS.index(landed) :]:
        if checked.get(level, 0) < boxes.get(level, 0):
            return Marked(level, landed)
    return Marked(None, landed)


def worst_wound(checked: Mapping[str, int]) -> str | None:
    """The worst level with a box checked: the one whose penalty counts."""
    worst = None
    for level in WOUND_LEVELS:
        if checked.get(level, 0) > 0:
            worst = level
    return worst


# --------------------------------------------------------------------- the D6 System

D6_LEVELS = (
    "none",
    "stunned",
    "wounded",
    "severely wounded",
    "incapacitated",
    "mortally wounded",
    "dead",
)
"""A D6 character's wound, least first."""
D6_OPTION = {
    "stunned": "stunned",
    "wounded": "wounded",
    "severely wounded": "severely",
    "incapacitated": "incapacitated",
    "mortally wounded": "mortally",
    "dead": "dead",
}
"""Each wound as the roll language's ``wound=`` option writes it: the engine
takes the dice away (and refuses a roll of a character out of the action)."""


def d6_hit(current: str, margin: int) -> str:
    """The wound after a hit whose damage beat the resistance by ``margin``:
    the worse of the two, and a second Wounded makes Severely Wounded (a
    Wounded on a Severely Wounded character, Incapacitated)."""
    dealt = "none"
    for lowest, name in api.D6_WOUNDS:
        if margin >= lowest:
            dealt = name.lower()
    if dealt == "wounded" and current == "wounded":
        return "severely wounded"
    if dealt == "wounded" and current == "severely wounded":
        return "incapacitated"
    return max(current, dealt, key=D6_LEVELS.index)


def d6_raise_cost(pips: int) -> int:
    """OpenD6: a skill rises one pip for as many Character Points as the
    number before the D of its whole code."""
    return pips // 3


# ------------------------------------------------------------------------------ Fate

FATE_CONSEQUENCES = ("mild", "moderate", "severe", "extra mild", "extra mild mental")
"""Every consequence a Fate sheet may name; its system's stress rules say
which it has (``SheetLevels.stress``), ``Stress.slots`` how each is named."""
FATE_DEFAULT = 0
"""A skill not on a Fate sheet is Mediocre (+0)."""
