"""The words of the language, gathered in one place so that a misspelling
anywhere can be answered with the nearest real word."""

from __future__ import annotations

SYSTEMS: tuple[str, ...] = ("fudge", "power", "3d6fudge", "d6")

KEYWORDS: tuple[str, ...] = ("vs", "opp", "kh", "kl", "dh", "dl")

_EXTRA_WORDS: set[str] = set()


def register_words(*words: str) -> None:
    """Systems add their ladder words and options here as they are loaded."""
    _EXTRA_WORDS.update(word.lower() for word in words)


def known_words() -> list[str]:
    return sorted(set(SYSTEMS) | set(KEYWORDS) | _EXTRA_WORDS)
