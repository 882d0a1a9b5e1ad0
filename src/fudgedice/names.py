"""What a name typed by a person may hold, and when two names are the same
name to a reader: one rule for the table's rooms, members and labels and for
a character sheet's names (its character, traits and aspects).

A name holds no control or format character and no line or paragraph
separator (:data:`REFUSED_CATEGORIES`): a right-to-left override, a zero-width
space or a newline would make it look like another name, or break a line of
a log or CSV. Two names are the same name when they look alike
(:func:`same_name`): equal after Unicode compatibility folding and case
folding (NFKC, casefold: a fullwidth ``GM`` is ``gm``), or with the same
confusable skeleton of UTS #39 (a Cyrillic capital EM reads as ``M``). The
skeletons are ICU's (``SpoofChecker.getSkeleton``), whose tables are UTS #39's
own ``confusables.txt`` for the Unicode version ICU carries.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any, Final

REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Control characters (NUL, a newline, DEL, C1), format characters (a
right-to-left override, zero-width spaces and joiners, a byte-order mark),
lone surrogates, and the line and paragraph separators U+2028 and U+2029."""


def refused_character(text: str) -> str | None:
    """The first character of ``text`` that no name may hold, or None."""
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            return char
    return None


def refusal(text: str, what: str) -> str | None:
    """Why ``text`` is no name (``what``, as "a member's name"), or None."""
    char = refused_character(text)
    if char is None:
        return None
    return f"{what} must not contain control or format characters (U+{ord(char):04X})"


def same_name(one: str, other: str) -> bool:
    """Whether a reader could take ``one`` for ``other``: see the module."""
    return not name_keys(one).isdisjoint(name_keys(other))


@functools.lru_cache(maxsize=4096)
def name_keys(name: str) -> frozenset[str]:
    """The forms two alike names share one of: the compatibility- and
    case-folded name, and the confusable skeletons of the name with its case
    kept (``I`` looks like ``l``) and with its case folded (``gm`` is ``GM``)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    kept = unicodedata.normalize("NFKC", name)
    return frozenset({folded, _skeleton(kept), _skeleton(folded)})


def _skeleton(text: str) -> str:
    return str(_checker().getSkeleton(0, text))


@functools.cache
def _checker() -> Any:
    # ICU is imported when names are first compared (a member joining a
    # room): a sheet read or a roll on the command line never loads it
    import icu

    return icu.SpoofChecker()
