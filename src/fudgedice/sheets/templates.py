"""New sheets (``fudgedice sheet new SYSTEM NAME FILE``): each system's keys
with its defaults, commented so that a player can fill them in by hand."""

from __future__ import annotations

import tomlkit

from .. import api
from .document import SheetError, parse
from .levels import rules_of
from .model import SYSTEMS, load


def _fudge_family(system: str, name: str) -> str:
    title = api.SYSTEMS.declarations[system].title
    levels = rules_of(system).levels_help
    return f"""\
# A {title} character sheet: edit it by hand; fudgedice keeps your comments.
system = "{system}"
name = {tomlkit.string(name).as_string()}
player = ""
ep = 0               # unspent Experience Points
fudge_points = 3
gifts = []           # such as ["Night vision"]
faults = []          # such as ["Curious"]

[attributes]         # {levels}; attributes default to Fair
Strength = "Fair"
Agility = "Fair"
Health = "Fair"
Reasoning = "Fair"
Perception = "Fair"
Will = "Fair"

[skills]             # most skills default to Poor; some don't exist untrained
Melee = "Poor"
Climbing = "Poor"
Stealth = "Poor"

# The wound track: 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Incapacitated, 9+ Near Death.
# Hurt is -1 to every roll, Very Hurt -2; Incapacitated and Near Death roll nothing.
[wounds]             # boxes checked
Scratch = 0          # of 3 boxes
Hurt = 0
"Very Hurt" = 0
Incapacitated = 0
"Near Death" = 0

# EP to raise a trait to a level: Superb 8, Great 4, Good 2, Fair/Mediocre/Poor/Terrible 1.
# Set your game's own with a table such as:
# [ep_costs]
# Legendary = 16
"""


def _d6(name: str) -> str:
    return f"""\
# A D6 System character sheet: edit it by hand; fudgedice keeps your comments.
system = "d6"
name = {tomlkit.string(name).as_string()}
player = ""
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


def _fate(name: str) -> str:
    return f"""\
# A Fate Core character sheet: edit it by hand; fudgedice keeps your comments.
system = "fate"
name = {tomlkit.string(name).as_string()}
player = ""
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


def _plugged(system: str, name: str) -> str:
    rules, title = rules_of(system), api.SYSTEMS.declarations[system].title
    return f"""\
# A {title} character sheet: edit it by hand; fudgedice keeps your comments.
system = "{system}"
name = {tomlkit.string(name).as_string()}
player = ""

[traits]             # name = level, {rules.levels_help}: a trait of 3 rolls {rules.said(3)}
"""


def new_sheet(system: str, name: str) -> str:
    """The text of a new sheet of ``system`` for the character ``name``."""
    key = system.strip().lower()
    if key not in SYSTEMS:
        raise SheetError(f"unknown system '{system}'", hint=f"systems: {', '.join(SYSTEMS)}")
    if not name.strip() or "\n" in name:
        raise SheetError("a character's name is one line of text")
    state = rules_of(key).state
    if state == "d6":
        text = _d6(name.strip())
    elif state == "fate":
        text = _fate(name.strip())
    elif state == "wounds":
        text = _fudge_family(key, name.strip())
    else:
        text = _plugged(key, name.strip())
    load(parse(text))  # a template is a sheet like any other
    return text
