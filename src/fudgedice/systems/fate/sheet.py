"""Fate's character sheets: Fate Core's and Fate Condensed's (skills on the
ladder around Mediocre, the skill pyramid) and Fate Accelerated's (six
approaches in a set spread); aspects, stunts, refresh and fate points;
stress and consequences (:mod:`.stress`) by each game's rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from ...render.ladder import Ladder
from ..sheet_levels import SheetLevels, Stress
from .ladders import FATE_CONDENSED, FATE_CORE
from .stress import FAE_BOXES, BoxKind, condensed_boxes, consequences, stress_boxes

ASPECTS = """\
high_concept = ""
trouble = ""
aspects = []         # three more aspects
stunts = []          # three free stunts
refresh = 3
fate_points = 3
"""

SKILLS = """
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
"""

CONSEQUENCES = """
[consequences]       # an aspect's text when taken: mild 2, moderate 4, severe 6
mild = ""
moderate = ""
severe = ""
"""

FATE_TEMPLATE = f"""{ASPECTS}{SKILLS}
[stress]             # the boxes checked
physical = []
mental = []
{CONSEQUENCES}"""
"""A new Fate Core sheet's keys after its system, name and player."""

CONDENSED_TEMPLATE = f"""{ASPECTS}{SKILLS}
# 1-point boxes: 3 a track, 4 with Physique (Will) at Average or Fair, 6 at Good or more
[stress]             # the boxes checked, by number
physical = []
mental = []
{CONSEQUENCES}"""
"""A new Fate Condensed sheet's keys."""

APPROACHES = ("Careful", "Clever", "Flashy", "Forceful", "Quick", "Sneaky")
"""Fate Accelerated's six approaches."""
SPREAD = (3, 2, 2, 1, 1, 0)
"""Their levels, in any order: Good, Fair, Fair, Average, Average, Mediocre."""

FAE_TEMPLATE = f"""{ASPECTS.replace("# three more aspects", "# up to three more aspects")}
[approaches]         # Good, Fair, Fair, Average, Average, Mediocre, in any order
Careful = "Fair"
Clever = "Good"
Flashy = "Mediocre"
Forceful = "Average"
Quick = "Fair"
Sneaky = "Average"

[stress]             # one track: a 1, a 2 and a 3 box; the boxes checked
stress = []
{CONSEQUENCES}"""
"""A new Fate Accelerated sheet's keys."""


def pyramid_fault(levels: Mapping[str, int]) -> str | None:
    """Why Fate skills break the pyramid (each level above Mediocre has no
    more skills than the level below it), or None."""
    counts: dict[int, int] = {}
    for value in levels.values():
        if value > 0:
            counts[value] = counts.get(value, 0) + 1
    for value in sorted(counts):
        if value > 1 and counts[value] > counts.get(value - 1, 0):
            return (
                f"{counts[value]} skill(s) at {FATE_CORE.describe(value)} but "
                f"{counts.get(value - 1, 0)} at {FATE_CORE.describe(value - 1)}"
            )
    return None


def spread_fault(levels: Mapping[str, int]) -> str | None:
    """Why approaches break Fate Accelerated's spread (the six approaches,
    one each of Good, Fair, Fair, Average, Average, Mediocre), or None."""
    known = {name.lower() for name in APPROACHES}
    others = [name for name in levels if name.lower() not in known]
    if others:
        return f"'{others[0]}' is no approach ({', '.join(APPROACHES)})"
    named = {name.lower() for name in levels}
    missing = [name for name in APPROACHES if name.lower() not in named]
    if missing:
        return f"no {', '.join(missing)}: a character has all six approaches"
    found = sorted(levels.values(), reverse=True)
    if found != list(SPREAD):
        return ", ".join(FATE_CORE.name(value) for value in found)
    return None


_KEYS = ("high_concept", "trouble", "aspects", "stunts", "refresh", "fate_points", "stress")
_TRACKS = MappingProxyType({"physical": "Physique", "mental": "Will"})


def _pyramid(boxes: Callable[[int], tuple[int, ...]], kind: BoxKind) -> Stress:
    """Fate Core's and Condensed's stress: a physical and a mental track, and the pyramid."""
    return Stress(
        _TRACKS,
        boxes,
        kind,
        consequences,
        pyramid_fault,
        check="the pyramid",
        check_key="pyramid",
        check_hint="each level above Mediocre needs as many skills at the level below",
    )


_ABSENT = "a skill not on the sheet is Mediocre (+0): add it to [skills]"


def _fate_sheet(
    ladder: Ladder, stress: Stress, template: str, absent: str = _ABSENT
) -> SheetLevels:
    return SheetLevels(
        said=str,
        named=ladder.describe,
        written=ladder.name,
        words=MappingProxyType(dict(ladder.words)),
        signed=True,
        typical=" vs Fair",
        absent=absent,
        levels_help=f"ladder words ({ladder.bands[0][1]} .. Legendary) or numbers (Mediocre = 0)",
        keys=(*_KEYS, "consequences", stress.check_key),
        spendable=MappingProxyType({"fate": "fate_points", "fp": "fate_points"}),
        state="stress",
        stress=stress,
        template=template,
    )


FATE_SHEET = _fate_sheet(FATE_CORE, _pyramid(stress_boxes, "valued"), FATE_TEMPLATE)
CONDENSED_SHEET = _fate_sheet(
    FATE_CONDENSED, _pyramid(condensed_boxes, "points"), CONDENSED_TEMPLATE
)
FAE_SHEET = _fate_sheet(
    FATE_CORE,
    Stress(
        MappingProxyType({"stress": ""}),
        lambda _level: FAE_BOXES,
        "valued",
        lambda _level: consequences(0),
        spread_fault,
        check="the spread",
        check_key="spread",
        check_hint="one approach each at Good, Fair, Fair, Average, Average, Mediocre",
    ),
    FAE_TEMPLATE,
    "an approach not on the sheet is Mediocre (+0): add it to [approaches]",
)
