"""The registry of game systems: every ``name:`` prefix the language knows.

Built once, at import, from each system's own package, with no side effects:
importing a system module registers nothing, and the registry never changes.

* :mod:`.fudge`: ``fudge:`` (the default) and ``power:``;
* :mod:`.fudge3d6`: ``3d6fudge:``;
* :mod:`.d6`: ``d6:``, the D6 System;
* :mod:`.fate`: ``fate:`` (Fate Core) and ``fatecondensed:``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .base import System
from .d6 import D6_SYSTEM
from .fate import FATE_CONDENSED_SYSTEM, FATE_SYSTEM
from .fudge import FUDGE_SYSTEM, POWER_SYSTEM
from .fudge3d6 import FUDGE3D6_SYSTEM


def registry(*systems: System) -> Mapping[str, System]:
    """A read-only index of ``systems`` by name; two of one name is a mistake."""
    index: dict[str, System] = {}
    for system in systems:
        if system.name in index:
            raise ValueError(f"two systems are named {system.name!r}")
        index[system.name] = system
    return MappingProxyType(index)


SYSTEMS: Mapping[str, System] = registry(
    FUDGE_SYSTEM, POWER_SYSTEM, FUDGE3D6_SYSTEM, D6_SYSTEM, FATE_SYSTEM, FATE_CONDENSED_SYSTEM
)
"""Every system, in the order ``fudgedice --help`` lists them; ``fudge`` is the default."""

DEFAULT_SYSTEM = "fudge"

__all__ = ["DEFAULT_SYSTEM", "SYSTEMS", "System", "registry"]
