"""The ladders of the Fudge family, as data: what each level is called.

A ladder turns a number into the word a player says (``+3 Superb``) and a
word back into its number. Fudge names every level beyond its seven words by
counting from the end (``Superb+4``, ``Terrible-2``); Power Fudge has wider
bands instead (``+7..+9 Superhuman``), and a band's word stands for its lowest
total, since "needs a Superhuman result" means +7 or better.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ladder:
    system: str
    bands: tuple[tuple[int, str], ...]
    """(lowest value, name) from the bottom up; the first band has no floor."""
    words: tuple[tuple[str, int], ...]
    """Every word accepted in a roll and the level it stands for."""
    beyond: bool
    """Name values past the top and bottom bands by counting (Fudge), rather
    than letting the end bands run on (Power Fudge)."""

    def name(self, value: int) -> str:
        """The ladder's word for ``value``: ``Great``, ``Superb+1``, ``Cosmic``."""
        bottom, bottom_name = self.bands[0]
        top, top_name = self.bands[-1]
        if self.beyond and value > top:
            return f"{top_name}+{value - top}"
        if self.beyond and value < bottom:
            return f"{bottom_name}-{bottom - value}"
        name = bottom_name
        for lowest, band in self.bands:
            if value >= lowest:
                name = band
        return name

    def describe(self, value: int) -> str:
        """A value as players say it: the number and its word (``+3 Superb``)."""
        return f"{value:+d} {self.name(value)}"

    def value_of(self, word: str) -> int | None:
        """The level a word stands for (any case), or None."""
        key = word.strip().lower()
        for known, value in self.words:
            if known == key:
                return value
        return None

    def suggest(self, word: str) -> str | None:
        """'did you mean ...?' with the nearest word of this ladder."""
        names = [known for known, _ in self.words]
        close = difflib.get_close_matches(word.strip().lower(), names, n=1, cutoff=0.5)
        if close:
            return f"did you mean '{close[0].capitalize()}'?"
        return f"{self.system} ladder words: " + ", ".join(n.capitalize() for n in names)

    def range_text(self, index: int) -> str:
        """The values of band ``index`` (``+7..+9``, ``<= -4``, ``>= +14``)."""
        lowest = self.bands[index][0]
        if index + 1 < len(self.bands):
            highest = self.bands[index + 1][0] - 1
            if index == 0 and not self.beyond:
                return f"<= {highest:+d}"
            return f"{lowest:+d}" if lowest == highest else f"{lowest:+d}..{highest:+d}"
        return f"{lowest:+d}" if self.beyond else f">= {lowest:+d}"


_FUDGE_WORDS = ("Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb")

FUDGE = Ladder(
    "fudge",
    bands=tuple((level - 3, word) for level, word in enumerate(_FUDGE_WORDS)),
    words=(
        *((word.lower(), level - 3) for level, word in enumerate(_FUDGE_WORDS)),
        ("legendary", 4),  # Superb+1 (seed 003): a level some GMs allow a PC
    ),
    beyond=True,
)
"""Fudge (seeds 001 and 003): Terrible -3 .. Superb +3, then ``Superb+N`` and
``Terrible-N``."""

_POWER_BANDS = (
    (-4, "Subhuman"),
    (-3, "Terrible"),
    (-2, "Poor"),
    (-1, "Mediocre"),
    (0, "Fair"),
    (1, "Good"),
    (2, "Great"),
    (3, "Superb"),
    (4, "Incredible"),
    (5, "Legendary"),
    (7, "Superhuman"),
    (10, "Unearthly"),
    (14, "Cosmic"),
)

POWER = Ladder(
    "power",
    bands=_POWER_BANDS,
    # A word stands for the lowest total with that name; Subhuman, which has
    # no lowest, for its highest (-4), the only level it shares with no band.
    words=tuple((word.lower(), value) for value, word in _POWER_BANDS),
    beyond=False,
)
"""Power Fudge (seed 000): its own bands from Subhuman (-4 or less) to Cosmic
(+14 or more)."""

LADDERS = {"fudge": FUDGE, "power": POWER}
