"""The words every roll may use, whatever its system.

Systems bring their own words (ladder levels, options); the composition root
(:mod:`fudgedice.api`) joins them to these into one vocabulary and hands it
to the parser, so a misspelling gets the same did-you-mean whatever was
rolled before it.
"""

from __future__ import annotations

KEYWORDS: frozenset[str] = frozenset({"vs", "opp", "dmg", "kh", "kl", "dh", "dl"})

Vocabulary = frozenset[str]
"""Every word of the language in lower case: keywords, system names and
each system's words. Hashable, so parses stay cached by text and vocabulary."""
