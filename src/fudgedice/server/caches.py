"""What a process keeps in memory so that a roll asks the database nothing
before its commit: who a token belongs to, and which roll texts it checked
(and whether each is heavy: tosses many dice).
Both are facts that never change (a member's room and name are fixed at
joining; a room's system at its making; a token is replaced only through
:meth:`Members.forget`), so nothing goes stale, but for a room deleted: its
members are forgotten then (:meth:`Members.forget_room`). Both are
charged by their bytes to the process's one memory ledger
(:mod:`fudgedice.memory`): a cache dropped costs a database read, never a
wrong answer.
"""

from __future__ import annotations

from ..errors import TooManyDice
from ..memory import SizedCache, estimate
from . import rolling
from .kept import Member

MAX_MEMBERS = 100_000
"""Tokens kept at most; past that the one used least recently is dropped,
which costs one database read when it comes again, never a wrong answer."""
MAX_TEXTS = 4096
"""Roll texts remembered at most."""
LIGHT_DICE = 40
"""Dice a roll may toss (told from its text: ``Program.check_dice``) and be
light: committed with up to :data:`.writer.MAX_BATCH` others. A heavier one is
committed alone (:class:`.writer.Writer`), so that no batch draws for
long: 64 rolls of 40 dice took about 20 ms, one of 500 up to 6 ms, where 64 of
500 would have held the event loop for 0.4 s."""


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

    def forget(self, token_hash: str) -> None:
        """A token replaced by a new one (a Discord user's seat): no longer good."""
        self._known.discard(token_hash)

    def forget_room(self, room: str) -> int:
        """The room was deleted: its members' tokens are no longer known here
        (a token seen again is read from the database, which refuses it)."""
        return self._known.drop_where(lambda _, known: known[0].room == room)


class Texts:
    """Roll texts already checked in a system, and whether each is heavy: a
    table rolls the same few texts over and over, and reading one is the
    costliest step before a draw (the program itself stays in the language's
    own cache)."""

    def __init__(self, limit: int = MAX_TEXTS) -> None:
        self.limit = limit
        self._known: SizedCache[tuple[str, str], bool] = SizedCache("checked roll texts", limit)

    def heavy(self, text: str, system: str) -> bool | None:
        """Whether the text is heavy; None if it is not known yet."""
        return self._known.get((text, system))

    def check(self, text: str, system: str) -> bool:
        """Read and check the text (a :class:`Problem` if it is refused), and
        remember it: whether it is heavy, by the dice it tosses."""
        program = rolling.roll_size(rolling.program(text, system))
        try:
            program.check_dice(LIGHT_DICE)
            heavy = False
        except TooManyDice:
            heavy = True
        # a bool is shared: what the entry holds is its key, the text
        self._known.put((text, system), heavy, 300 + len(text) + len(system))
        return heavy
