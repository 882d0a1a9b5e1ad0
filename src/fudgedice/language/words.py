"""The words every roll may use, whatever its system.

Systems bring their own words (ladder levels, options); the composition root
(:mod:`fudgedice.api`) joins them to these into one vocabulary and hands it
to the parser, so a misspelling gets the same hint whatever was rolled before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Set
from typing import Any

KEYWORDS: frozenset[str] = frozenset(
    {"vs", "opp", "dmg", "weapon", "armor", "kh", "kl", "dh", "dl"}
)

Vocabulary = Set[str]
"""Every word of the language in lower case: keywords, system names and
each system's words. Hashable, so parses stay cached by text and vocabulary."""


class LateWords(Set[str]):
    """A vocabulary read the first time a hint looks into it: a roll that
    reads needs none, and finding every installed system's words costs a
    command's start-up more than the rest of it (:mod:`fudgedice.systems`).
    Equal only to itself, so that a cache keyed by it never reads it."""

    __slots__ = ("_read", "_words")

    def __init__(self, read: Callable[[], Iterable[str]]) -> None:
        self._read: Callable[[], Iterable[str]] | None = read
        self._words: frozenset[str] = frozenset()

    def _all(self) -> frozenset[str]:
        read = self._read
        if read is not None:  # twice from two threads at once reads the same words
            self._words = frozenset(read())
            self._read = None
        return self._words

    def __contains__(self, word: object) -> bool:
        return word in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __eq__(self, other: Any) -> bool:
        return other is self

    def __hash__(self) -> int:
        return id(self)
