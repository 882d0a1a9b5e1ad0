"""Fudge's and Power Fudge's character sheets: ladder words or numbers
around Fair, the Fudge wound track, Fudge Points."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from ..sheet_levels import FUDGE_KEYS, SheetLevels, fudge_family_template
from .ladders import FUDGE, POWER, Ladder

SPENDABLE = MappingProxyType({"fudge": "fudge_points"})
ON_THE_LADDER = "ladder words (Terrible .. Superb) or numbers (Fair = 0)"


def ladder_sheet(ladder: Ladder, said: Callable[[int], str]) -> SheetLevels:
    """A sheet of traits on ``ladder``, rolled as ``said`` writes a level."""
    return SheetLevels(
        said=said,
        named=ladder.describe,
        written=ladder.name,
        words=MappingProxyType(dict(ladder.words)),
        signed=True,
        typical=" vs Fair",
        levels_help=ON_THE_LADDER,
        keys=FUDGE_KEYS,
        spendable=SPENDABLE,
        state="wound track",
        template=fudge_family_template(ON_THE_LADDER),
    )


FUDGE_SHEET = ladder_sheet(FUDGE, FUDGE.name)
POWER_SHEET = ladder_sheet(POWER, lambda level: f"4dF{level:+d}" if level else "4dF")
