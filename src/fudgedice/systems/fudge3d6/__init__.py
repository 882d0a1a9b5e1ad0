"""3d6 Fudge (``3d6fudge:``, seed 004), declared: what the registry lists
before :mod:`.system` is loaded."""

from __future__ import annotations

from ..declaration import Declaration

FUDGE3D6 = Declaration(
    name="3d6fudge",
    title="3d6 Fudge",
    description="3d6 Fudge (seed 004): 3d6 under the skill, triples first, opposed rounds",
    system="fudgedice.systems.fudge3d6.system:FUDGE3D6_SYSTEM",
    words=frozenset(
        ["abysmal", "terrible", "poor", "mediocre", "fair", "good", "great", "superb", "legendary"]
    ),
    examples=("Good", "Good-2", "Good opp Great", "6 opp 8"),
    forms=(
        ("Good, Good-2, 6", "a skill: 3d6, triples first, drop the highest"),
        ("Good opp Great", "opposed: margins compared"),
    ),
    faces="5 2 1",
    sheet=True,
)
