"""What a process keeps in memory so that a roll asks the database nothing
before its commit: who a token belongs to, and the checked program of a roll
text. Both are facts that never change (a member's token, room and name are
fixed at joining; a room's system at its making), so nothing goes stale.
"""

from __future__ import annotations

from ..dice.program import Program
from . import rolling
from .records import Member

MAX_MEMBERS = 100_000
"""Tokens kept at most; past that the cache starts again empty, which costs
one database read each, never a wrong answer."""
MAX_PROGRAMS = 4096
"""Roll texts kept at most (a program holds its parse tree and pool plans)."""


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


class Programs:
    """Checked programs by (roll text, system): a table rolls the same few
    texts over and over, and reading one is the costliest step before a draw."""

    def __init__(self, limit: int = MAX_PROGRAMS) -> None:
        self.limit = limit
        self._known: dict[tuple[str, str], Program] = {}

    def get(self, text: str, system: str) -> Program | None:
        return self._known.get((text, system))

    def load(self, text: str, system: str) -> Program:
        """Read and check the text (a :class:`Problem` if it is refused), and keep it."""
        program = rolling.program(text, system)
        if len(self._known) >= self.limit:
            self._known.clear()
        self._known[text, system] = program
        return program
