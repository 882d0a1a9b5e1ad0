"""What a game system is: a name, its words, its tables, and how it compiles
a parsed roll into a :class:`~fudgedice.dice.program.Program`.

A system is plain data. Nothing registers itself by being imported: the
registry in :mod:`fudgedice.systems` lists every system by name, and the API
joins their words into one vocabulary and their tables into one index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..dice.program import Program
from ..language.tree import Expression
from ..language.words import Vocabulary
from ..results.table_spec import TableSpec

if TYPE_CHECKING:  # imported by the systems that have sheets, when loaded
    from .sheet_levels import SheetLevels

Compiler = Callable[[Expression, Vocabulary], Program]
"""A parsed roll (and the whole language's vocabulary, for did-you-mean
hints) to the checked program that rolls and measures it."""


@dataclass(frozen=True, slots=True)
class System:
    """A game system: the ``name:`` prefix that selects it and how it compiles a roll."""

    name: str
    """The prefix that selects it: ``d6`` in ``d6: 4D+2``."""
    description: str
    compile: Compiler
    words: frozenset[str] = frozenset()
    """The system's own words (ladder levels, options), for did-you-mean hints."""
    tables: Mapping[str, TableSpec] = field(default_factory=lambda: MappingProxyType({}))
    """The tables ``fudgedice table NAME`` prints for it."""
    ladder: str | None = None
    """The table ``fudgedice ladder NAME`` prints: the name of one of ``tables``."""
    damage: bool = False
    """It reads ``dmg`` (damage rolled against resistance); the others refuse it."""
    sheet: SheetLevels | None = None
    """Its character sheets (:mod:`fudgedice.sheets`); None: it has none."""


def words_of(*groups: str | Iterable[str]) -> frozenset[str]:
    """Lower-case words from strings and collections of strings; phrases
    (``very easy``) give each of their words."""
    words: set[str] = set()
    for group in groups:
        for item in [group] if isinstance(group, str) else group:
            words.update(item.lower().split())
    return frozenset(words)
