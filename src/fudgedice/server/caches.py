"""What a process keeps in memory so that a roll asks the database nothing
before its commit: who a token belongs to, and which roll texts it checked
(and whether each draws long).
Both are facts that never change (a member's token, room and name are fixed
at joining; a room's system at its making), so nothing goes stale. Both are
charged by their bytes to the process's one memory ledger
(:mod:`fudgedice.memory`): a cache dropped costs a database read, never a
wrong answer.
"""

from __future__ import annotations

import contextlib
import secrets
import time

from ..errors import DiceError
from ..memory import SizedCache, estimate
from ..stream import Stream
from . import rolling
from .kept import Member

MAX_MEMBERS = 100_000
"""Tokens kept at most; past that the one used least recently is dropped,
which costs one database read when it comes again, never a wrong answer."""
MAX_TEXTS = 4096
"""Roll texts remembered at most."""
HEAVY = 0.005
"""Seconds of CPU time a trial roll may take and its text still be drawn on
the event loop (a Fudge roll takes about a hundredth of that; rolls of one
text vary, exploding dice most, but by far less than this margin)."""


class Members:
    """A member and their room's system, by the SHA-256 of their token."""

    def __init__(self, limit: int = MAX_MEMBERS) -> None:
        self.limit = limit
        self._known: SizedCache[str, tuple[Member, str]] = SizedCache(
            "members by token", limit, estimate
        )

    def get(self, token_hash: str) -> tuple[Member, str] | None:
        return self._known.get(token_hash)

    def put(self, token_hash: str, member: Member, system: str) -> None:
        self._known.put(token_hash, (member, system), estimate((member, system)) + 120)


class Texts:
    """Roll texts already checked in a system, and whether each draws long: a
    table rolls the same few texts over and over, and reading one is the
    costliest step before a draw (the program itself stays in the language's
    own cache)."""

    def __init__(self, limit: int = MAX_TEXTS) -> None:
        self.limit = limit
        self._known: SizedCache[tuple[str, str], bool] = SizedCache("checked roll texts", limit)

    def heavy(self, text: str, system: str) -> bool | None:
        """Whether the text draws long; None if it is not known yet."""
        return self._known.get((text, system))

    def check(self, text: str, system: str) -> bool:
        """Read and check the text (a :class:`Problem` if it is refused), time
        one trial roll of it, and remember both: whether it draws long."""
        program = rolling.roll_size(rolling.program(text, system))
        started = time.thread_time()
        with contextlib.suppress(DiceError):  # past the engine's budget: heavy indeed
            program.roll(Stream(secrets.token_bytes(32), "trial"), None)
        heavy = time.thread_time() - started > HEAVY
        # a bool is shared: what the entry holds is its key, the text
        self._known.put((text, system), heavy, 300 + len(text) + len(system))
        return heavy
