"""The registry of game systems: every ``name:`` prefix the language knows.

Every system is a plugin, declared in the entry-point group
``fudgedice.systems`` (:mod:`.declaration`): the project's own in its
pyproject.toml, another package's in its own. Each entry names a
:class:`~.declaration.Declaration`; the :class:`~.base.System` it points at is
imported the first time a roll names it, so that ``fudgedice roll 4dF`` loads
Fudge alone.

Reading a group's entry points means importing :mod:`importlib.metadata` and
reading every installed package's metadata, which costs a cold command more
than all the rest of its start. So the project's own systems are read from the
package itself (each folder's ``__init__.py`` declares its systems, the same
declarations its entry points name), and the group is read the first time a
name is not one of them or the whole list is wanted (a listing, a hint, the
table's page). The entries of the installed ``fudgedice`` distribution are the
project's own: read from the code that runs, never from that metadata, which
describes whatever tree was installed (an editable install of another
checkout, or an older version).

* :mod:`.fudge`: ``fudge:`` (the default) and ``power:``;
* :mod:`.fudge3d6`: ``3d6fudge:``;
* :mod:`.d6`: ``d6:``, the D6 System;
* :mod:`.fate`: ``fate:`` (Fate Core), ``fatecondensed:`` and ``fae:`` (Fate Accelerated).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from importlib import import_module
from types import MappingProxyType

from .base import System
from .declaration import GROUP, Declaration

DEFAULT_SYSTEM = "fudge"

NAME = r"[a-z][a-z0-9]*|[0-9]+[a-z][a-z0-9]*"
"""A system's name as the roll language reads a prefix (grammar.lark's SYSTEM),
lower case (a pattern compiled when a plugin is read: a roll that starts compiles none)."""

PROJECT = "fudgedice"
"""The distribution whose entry points are this package's own systems."""


def registry(*systems: System) -> Mapping[str, System]:
    """A read-only index of ``systems`` by name; two of one name is a mistake."""
    index: dict[str, System] = {}
    for system in systems:
        if system.name in index:
            raise ValueError(f"two systems are named {system.name!r}")
        index[system.name] = system
    return MappingProxyType(index)


def own_declarations() -> list[Declaration]:
    """The project's own systems, each declared in its folder's ``__init__.py``
    (folders in name order, the default system's first)."""
    here = os.path.dirname(__file__)  # os.path: pathlib costs a cold command milliseconds
    folders = sorted(
        name
        for name in os.listdir(here)
        if name.isidentifier() and os.path.isfile(os.path.join(here, name, "__init__.py"))
    )
    groups = [
        [each for each in vars(import_module(f"{__name__}.{folder}")).values()
         if isinstance(each, Declaration)]
        for folder in folders
    ]  # fmt: skip
    # the default system's folder first; the rest keep their order
    groups.sort(key=lambda group: all(each.name != DEFAULT_SYSTEM for each in group))
    return [each for group in groups for each in group]


def installed_declarations() -> list[Declaration]:
    """The systems other installed packages declare in the entry-point group."""
    from importlib.metadata import entry_points  # here: costly, and only a plugin needs it

    found: list[Declaration] = []
    for entry in entry_points(group=GROUP):
        if entry.dist is not None and entry.dist.name == PROJECT:
            continue  # the project's own: read from the code that runs
        try:
            declared = entry.load()
        except Exception as error:  # a plugin's own mistake: say which one
            raise ImportError(
                f"the system {entry.name} = {entry.value} does not load: {error}"
            ) from error
        if not isinstance(declared, Declaration) or declared.name != entry.name:
            raise TypeError(
                f"the entry point {entry.name} = {entry.value} of {GROUP} names no "
                f"fudgedice.systems.declaration.Declaration called {entry.name!r}"
            )
        if not re.fullmatch(NAME, declared.name):
            raise ValueError(
                f"{declared.name!r} is no name a roll can give a system ({entry.value})"
            )
        found.append(declared)
    return found


class Registry(Mapping[str, System]):
    """The read-only index of every system, each imported when first looked
    up. ``declarations`` and ``words`` list them without importing any."""

    default = DEFAULT_SYSTEM
    """The system of a roll that names none."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._own: dict[str, Declaration] | None = None
        self._all: Mapping[str, Declaration] | None = None
        self._loaded: dict[str, System] = {}

    def _owned(self) -> dict[str, Declaration]:
        """The project's own declarations by name, read once."""
        if self._own is None:
            with self._lock:
                if self._own is None:
                    self._own = {each.name: each for each in own_declarations()}
        return self._own

    def _declared(self, name: str) -> Declaration | None:
        found = self._owned().get(name)
        return found if found is not None else self.declarations.get(name)

    @property
    def declarations(self) -> Mapping[str, Declaration]:
        """Every system's declaration by name: the project's own first."""
        if self._all is None:
            own = self._owned().values()  # before the lock: _owned takes it too
            with self._lock:
                if self._all is None:
                    self._all = _joined(own, installed_declarations())
        return self._all

    @property
    def words(self) -> Mapping[str, frozenset[str]]:
        """Each system's own words, as declared."""
        return {name: each.words for name, each in self.declarations.items()}

    def __getitem__(self, name: str) -> System:
        system = self._loaded.get(name)
        if system is None:
            declared = self._declared(name)
            if declared is None:
                raise KeyError(name)
            system = load(declared)
            self._loaded[name] = system
        return system

    def __iter__(self) -> Iterator[str]:
        return iter(self.declarations)

    def __len__(self) -> int:
        return len(self.declarations)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._declared(name) is not None


def load(declared: Declaration) -> System:
    """The system a declaration points at (its module imported now: the import
    lock makes this safe from any thread; a second load finds the same)."""
    module, _, attribute = declared.system.partition(":")
    system = getattr(import_module(module), attribute)
    if not isinstance(system, System) or system.name != declared.name:
        raise TypeError(f"{declared.system} is no System called {declared.name!r}")
    if declared.sheet != (system.sheet is not None):
        raise TypeError(f"{declared.name}: its declaration's sheet and its System's disagree")
    return system


def _joined(*groups: Iterable[Declaration]) -> Mapping[str, Declaration]:
    joined: dict[str, Declaration] = {}
    for group in groups:
        for each in group:
            if each.name in joined:
                raise ValueError(f"two systems are named {each.name!r}")
            joined[each.name] = each
    return MappingProxyType(joined)


SYSTEMS: Registry = Registry()
"""Every system, in the order ``fudgedice help`` lists them; ``fudge`` is the default."""

__all__ = ["DEFAULT_SYSTEM", "SYSTEMS", "Declaration", "Registry", "System", "registry"]
