"""What a process keeps in memory so that a roll asks the database nothing
before its commit: who a token belongs to, and which roll texts it checked.
Both are facts that never change (a member's token, room and name are fixed
at joining; a room's system at its making), so nothing goes stale.
"""

from __future__ import annotations

from . import rolling
from .records import Member

MAX_MEMBERS = 100_000
"""Tokens kept at most; past that the cache starts again empty, which costs
one database read each, never a wrong answer."""
MAX_TEXTS = 4096
"""Roll texts remembered at most."""


class Members:
    """A member and their room's system, by the SHA-256 of their token."""

    def __init__(self, limit: int = MAX_MEMBERS) -> None:
        self.limit = limit
        self._known: dict[str, tuple[Member, str]] = {}

    def get(self, token_hash: str) -> tuple[Member, str] | None:
        return self._known.get(token_hash)

    def put(self, token_hash: str, member: Member, system: str) -> None:
        if len(self._known) >= self.limit:
            self._known.clear()
        self._known[token_hash] = (member, system)


class Texts:
    """Roll texts already checked in a system: a table rolls the same few
    texts over and over, and reading one is the costliest step before a draw
    (the program itself stays in the language's own cache)."""

    def __init__(self, limit: int = MAX_TEXTS) -> None:
        self.limit = limit
        self._known: set[tuple[str, str]] = set()

    def known(self, text: str, system: str) -> bool:
        return (text, system) in self._known

    def check(self, text: str, system: str) -> None:
        """Read and check the text (a :class:`Problem` if it is refused), and remember it."""
        rolling.roll_size(rolling.program(text, system))
        if len(self._known) >= self.limit:
            self._known.clear()
        self._known.add((text, system))
