"""The registry of game systems: every ``name:`` prefix the language knows.

Listed by name in :mod:`.catalog`, each system's package imported the first
time a roll (or a table) names it, so that ``fudgedice roll 4dF`` loads Fudge
alone. Importing a system module registers nothing, and the registry never
changes: what it holds is fixed by the catalog, only when each is loaded is not.

* :mod:`.fudge`: ``fudge:`` (the default) and ``power:``;
* :mod:`.fudge3d6`: ``3d6fudge:``;
* :mod:`.d6`: ``d6:``, the D6 System;
* :mod:`.fate`: ``fate:`` (Fate Core) and ``fatecondensed:``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from types import MappingProxyType

from .base import System
from .catalog import HOMES, WORDS


def registry(*systems: System) -> Mapping[str, System]:
    """A read-only index of ``systems`` by name; two of one name is a mistake."""
    index: dict[str, System] = {}
    for system in systems:
        if system.name in index:
            raise ValueError(f"two systems are named {system.name!r}")
        index[system.name] = system
    return MappingProxyType(index)


class Catalogued(Mapping[str, System]):
    """The read-only index of the project's systems, each imported when first
    looked up. ``words`` gives every system's words without importing any."""

    words: Mapping[str, frozenset[str]] = WORDS

    def __init__(self) -> None:
        self._loaded: dict[str, System] = {}

    def __getitem__(self, name: str) -> System:
        system = self._loaded.get(name)
        if system is None:
            package, attribute = HOMES[name]  # KeyError: no such system
            # imported here: a roll loads only the system it names (the import
            # lock makes this safe from any thread; a second load finds the same)
            system = getattr(import_module(package, __name__), attribute)
            self._loaded[name] = system
        return system

    def __iter__(self) -> Iterator[str]:
        return iter(HOMES)

    def __len__(self) -> int:
        return len(HOMES)

    def __contains__(self, name: object) -> bool:
        return name in HOMES


SYSTEMS: Mapping[str, System] = Catalogued()
"""Every system, in the order ``fudgedice --help`` lists them; ``fudge`` is the default."""

DEFAULT_SYSTEM = "fudge"

__all__ = ["DEFAULT_SYSTEM", "SYSTEMS", "Catalogued", "System", "registry"]
