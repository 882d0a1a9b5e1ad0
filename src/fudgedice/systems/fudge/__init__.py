"""Fudge (``fudge:``, the default system) and Power Fudge (``power:``),
declared: what the registry lists before :mod:`.system` is loaded."""

from __future__ import annotations

from ..declaration import Declaration

LADDER_WORDS = "terrible poor mediocre fair good great superb legendary"

TRAIT_FORMS = (
    ("4dF+1, Good, Superb+2", "a trait rolls 4dF"),
    ("Good vs Great", "against a difficulty"),
    ("Good opp Fair", "opposed: the relative degree"),
    ("4dF@d6, 4dF@3d6, 4dF@4d6", "Fudge dice read from ordinary dice"),
)
"""Fudge's forms, which Power Fudge reads too."""

FUDGE = Declaration(
    name="fudge",
    title="Fudge",
    description="Fudge (seeds 001, 003): 4dF, the trait ladder, vs and opp, dice techniques",
    system="fudgedice.systems.fudge.system:FUDGE_SYSTEM",
    words=frozenset(f"{LADDER_WORDS} coin d6 3d6 d% 4d6".split()),
    examples=("Good", "4dF+1", "Good vs Great", "Good opp Fair"),
    forms=TRAIT_FORMS,
    faces="+ 0 - +",
    difficulties=("Fair", "Great", "2"),
    sheet=True,
)

POWER = Declaration(
    name="power",
    title="Power Fudge",
    description="Power Fudge (seed 000): target numbers, advantage, take zero",
    system="fudgedice.systems.fudge.system:POWER_SYSTEM",
    words=frozenset(
        f"{LADDER_WORDS} subhuman incredible superhuman unearthly cosmic"
        " adv adv2 dis dis2 take0".split()
    ),
    examples=("4dF+2 adv", "Good vs Superb", "4dF dis2", "Good take0"),
    forms=(
        *TRAIT_FORMS,
        ("... adv, adv2, dis, dis2", "advantage / disadvantage"),
        ("... take0", "take zero"),
    ),
    faces="+ 0 - +",
    difficulties=("Fair", "Superhuman", "2"),
    sheet=True,
)
