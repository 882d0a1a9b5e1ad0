"""The D6 System (``d6:``), declared: what the registry lists before
:mod:`.system` is loaded."""

from __future__ import annotations

from ..declaration import Declaration

D6 = Declaration(
    name="d6",
    title="D6 System",
    description="the D6 System (seed 002): die codes, the Wild Die, Character and Fate Points",
    system="fudgedice.systems.d6.system:D6_SYSTEM",
    words=frozenset(
        [
            "actions",
            "allow",
            "cancel",
            "complication",
            "cp",
            "cpcap",
            "cpfp",
            "crit",
            "difficult",
            "easy",
            "fast",
            "faster",
            "fp",
            "heroic",
            "ignore",
            "initiator",
            "legendary",
            "meet",
            "moderate",
            "none",
            "nowild",
            "rp",
            "rpb",
            "severely",
            "stunned",
            "ties",
            "unarmed",
            "unlimited",
            "very",
            "wildonly",
            "wound",
            "wounded",
        ]
    ),
    examples=("4D+2", "4D+2 vs Moderate", "3D opp 4D+1", "30D fast"),
    forms=(
        ("4D+2", "a die code: one die is the Wild Die"),
        ("... vs 15, vs Moderate", "against a difficulty"),
        ("... opp 3D+1", "opposed; ties go to the left"),
        ("... nowild, cp2, fp", "no Wild Die; Character Points; a Fate Point"),
        ("... crit=cancel", "the Wild Die's 1: cancel, complication, ignore"),
        ("... fast, wildonly", "dice reduction"),
        ("... dmg 3D+2", "damage against resistance: the wound it deals"),
        ("... weapon 2D, ... armor 1D", "a weapon's, armor's dice: a Fate Point leaves them"),
        ("... rpb vs 15, ... rp=7", "the result point bonus: shown, or added to damage"),
    ),
    faces="4 2 3 w5",
    difficulties=("Moderate", "15"),
    sheet=True,
)
