"""Fate (``fate:``, Fate Core), Fate Condensed (``fatecondensed:``) and Fate
Accelerated (``fae:``, Fate Core's dice and ladder for sheets of six
approaches), declared: what the registry lists before :mod:`.system` is loaded."""

from __future__ import annotations

from ..declaration import Declaration

CORE_WORDS = "terrible poor mediocre average fair good great superb fantastic epic legendary"
OPTION_WORDS = "reroll reroll2"
FORMS = (
    ("Good, +3, Good+2", "a skill rolls 4dF"),
    ("... vs Great, vs 4", "passive opposition: the outcome and shifts"),
    ("... opp Fair", "active opposition: both sides roll"),
)
DIFFICULTIES = ("Fair", "Great", "2")
EXAMPLES = ("Good", "Good+2 vs Great", "Good opp Fair", "+3 vs 4")

FATE = Declaration(
    name="fate",
    title="Fate Core",
    description="Fate Core: 4dF on the Fate ladder, the four outcomes, invokes",
    system="fudgedice.systems.fate.system:FATE_SYSTEM",
    words=frozenset(f"{CORE_WORDS} {OPTION_WORDS}".split()),
    examples=EXAMPLES,
    forms=FORMS,
    faces="+ 0 - +",
    difficulties=DIFFICULTIES,
    sheet=True,
)

FATE_CONDENSED = Declaration(
    name="fatecondensed",
    title="Fate Condensed",
    description="Fate Condensed: Fate Core's dice on a ladder down to Horrifying -4",
    system="fudgedice.systems.fate.system:FATE_CONDENSED_SYSTEM",
    words=frozenset(f"{CORE_WORDS} {OPTION_WORDS} horrifying catastrophic".split()),
    examples=EXAMPLES,
    forms=FORMS,
    faces="+ 0 - +",
    difficulties=DIFFICULTIES,
    sheet=True,
)

FAE = Declaration(
    name="fae",
    title="Fate Accelerated",
    description="Fate Accelerated: Fate Core's dice and ladder, sheets of six approaches",
    system="fudgedice.systems.fate.system:FAE_SYSTEM",
    words=FATE.words,
    examples=EXAMPLES,
    forms=FORMS,
    faces="+ 0 - +",
    difficulties=DIFFICULTIES,
    sheet=True,
)
