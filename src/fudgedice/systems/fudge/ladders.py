"""The ladders of the Fudge family, as data: what each level is called.

A ladder turns a number into the word a player says (``+3 Superb``) and a
word back into its number. Fudge names every level beyond its seven words by
counting from the end (``Superb+4``, ``Terrible-2``); Power Fudge has wider
bands instead (``+7..+9 Superhuman``), and a band's word stands for its lowest
total, since "needs a Superhuman result" means +7 or better. The
:class:`~fudgedice.render.ladder.Ladder` type is shared with Fate, whose
ladder has the same words at other numbers.
"""

from __future__ import annotations

from ...render.ladder import Ladder as Ladder  # the shared type, re-exported for this package

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
