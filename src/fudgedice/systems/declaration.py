"""What the registry knows of a system before the system is loaded.

Every system, the project's own and any installed package's, is found
through the entry-point group ``fudgedice.systems``: each entry names a
:class:`Declaration`, a few lines of plain data in the system's own package
(its ``__init__.py``), which say what a listing or a hint needs (its name,
words, a line of description, examples) and where the
:class:`~fudgedice.systems.base.System` itself lives. That module is
imported the first time a roll names the system, so that
``fudgedice roll 4dF`` loads Fudge alone.

This module imports nothing: a system's package imports it to declare itself.
"""

from __future__ import annotations

GROUP = "fudgedice.systems"
"""The entry-point group every system is declared in (pyproject.toml's
``[project.entry-points."fudgedice.systems"]``)."""


class Declaration:
    """A system as listed before it is loaded.

    A plain class, not a dataclass: every command that starts declares the
    project's systems, and building a dataclass costs it milliseconds."""

    __slots__ = (
        "description",
        "difficulties",
        "examples",
        "faces",
        "forms",
        "name",
        "sheet",
        "system",
        "title",
        "words",
    )

    name: str
    """The prefix that selects it (``d6`` in ``d6: 4D+2``): lower-case letters
    and digits, starting with a letter or digits then a letter."""
    title: str
    """How a page names it: ``D6 System``."""
    description: str
    """One line: what the system rolls."""
    system: str
    """Where its :class:`~fudgedice.systems.base.System` is, as an entry point
    writes it: ``package.module:NAME``."""
    words: frozenset[str]
    """The system's own words, lower case (its ``System.words``): the
    did-you-mean hints of every roll know them before it is loaded."""
    examples: tuple[str, ...]
    """Roll texts to try, without the prefix (``4D+2 vs Moderate``)."""
    forms: tuple[tuple[str, str], ...]
    """The page's short reference: each form of the system's own, and what it
    does (the forms every system shares are the page's own)."""
    faces: str
    """Faces read by hand for its first example, as ``fudgedice read`` takes them."""
    difficulties: tuple[str, ...]
    """Difficulties to suggest (``vs`` what), the likeliest first: ``Moderate``, ``15``."""
    sheet: bool
    """It has character sheets (its ``System.sheet``): the list of systems a
    sheet may name is known without loading every system."""

    def __init__(
        self,
        name: str,
        title: str,
        description: str,
        system: str,
        *,
        words: frozenset[str] = frozenset(),
        examples: tuple[str, ...] = (),
        forms: tuple[tuple[str, str], ...] = (),
        faces: str = "",
        difficulties: tuple[str, ...] = (),
        sheet: bool = False,
    ) -> None:
        self.name, self.title, self.description, self.system = name, title, description, system
        self.words, self.examples, self.forms = words, examples, forms
        self.faces, self.difficulties, self.sheet = faces, difficulties, sheet

    def __repr__(self) -> str:
        return f"Declaration({self.name!r}, system={self.system!r})"
