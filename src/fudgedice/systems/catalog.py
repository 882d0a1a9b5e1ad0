"""What the language knows of each system before the system is loaded: its
name, the package that defines it, and its words (for did-you-mean hints).

A roll imports only the system its prefix names (``fudge`` by default): a
command that starts should not pay for every system. The words here are a
copy of each system's own; ``tests/systems/test_catalog.py`` holds them equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

HOMES: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "fudge": (".fudge", "FUDGE_SYSTEM"),
        "power": (".fudge", "POWER_SYSTEM"),
        "3d6fudge": (".fudge3d6", "FUDGE3D6_SYSTEM"),
        "d6": (".d6", "D6_SYSTEM"),
        "fate": (".fate", "FATE_SYSTEM"),
        "fatecondensed": (".fate", "FATE_CONDENSED_SYSTEM"),
    }
)
"""Each system's name, in the order ``fudgedice --help`` lists them, and the
package (relative to :mod:`fudgedice.systems`) and name it is defined under."""

_LADDER = "terrible poor mediocre fair good great superb legendary"

WORDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "fudge": frozenset(f"{_LADDER} coin d6 3d6 d% 4d6".split()),
        "power": frozenset(
            f"{_LADDER} subhuman incredible superhuman unearthly cosmic"
            " adv adv2 dis dis2 take0".split()
        ),
        "3d6fudge": frozenset(f"{_LADDER} abysmal".split()),
        "d6": frozenset(
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
                "severely",
                "stunned",
                "ties",
                "unlimited",
                "very",
                "wildonly",
                "wound",
                "wounded",
            ]
        ),
        "fate": frozenset(f"{_LADDER} average fantastic epic reroll reroll2".split()),
        "fatecondensed": frozenset(
            f"{_LADDER} average fantastic epic reroll reroll2 horrifying catastrophic".split()
        ),
    }
)
"""Each system's own words, lower case: its ``System.words``."""
