"""Dice rolled by hand: faces read from the table instead of tossed.

A :class:`HandRoller` stands in for the random source, so every system reads
physical dice with the very code that rolls virtual ones: ``read 4dF + + - 0``
walks the same tree as ``roll 4dF``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import DiceValueError
from ..language.tree import Die
from ..stream import Stream
from .roller import Roller

_PLUS = {"+", "+1", "p", "plus"}
_MINUS = {"-", "-1", "m", "n", "minus"}
_BLANK = {"0", "o", "_", "blank", " ", ""}
_FACE_DIGITS = 6
"""Digits a numbered face may have: the largest die has 10,000 sides, and
longer digit strings are no face (and never reach ``int``)."""


def written(token: str, limit: int = 16) -> str:
    """A face as the player wrote it, quoted, and cut short when it runs on."""
    return repr(token if len(token) <= limit else token[:limit] + "...")


def fudge_face(token: str) -> int | None:
    """``+``, ``-`` or a blank (``0``, ``o``, ``_``) as -1, 0 or +1; ``+1`` and
    ``-1`` as seed 001 writes them."""
    word = token.strip().lower()
    if word in _PLUS:
        return 1
    if word in _MINUS:
        return -1
    if word in _BLANK:
        return 0
    return None


def numbered_face(token: str, sides: int) -> int | None:
    """A numbered face; ``0`` on a d10 is 10 and ``00`` on a d100 is 100."""
    word = token.strip()
    # ASCII only: str.isdigit accepts look-alikes such as an Arabic-Indic six
    if not (word.isascii() and word.isdigit()) or len(word) > _FACE_DIGITS:
        return None
    if sides == 100 and word == "00":
        return 100
    value = int(word)
    if sides == 10 and word == "0":
        return 10
    return value


class HandRoller(Roller):
    """Hands out the faces a player read from real dice, in order."""

    __slots__ = ("face_sets", "faces", "used")

    by_hand = True

    def __init__(self, faces: Sequence[str]) -> None:
        super().__init__(_NoStream())
        self.faces = list(faces)
        self.used = 0
        self.face_sets: dict[int, frozenset[int]] = {}

    def next_face(self, what: str) -> str:
        """The next face as written, or an error that says what was missing."""
        if self.used >= len(self.faces):
            raise DiceValueError(
                f"not enough dice: {self.used} given, and the roll needs another ({what})"
            )
        token = self.faces[self.used]
        if _is_separator(token):
            raise DiceValueError(
                f"not enough dice before 'opp': the left side needs another ({what})"
            )
        self.used += 1
        return token

    def take_rest(self) -> list[str]:
        """Every face not used yet, as written: for systems whose dice are
        marked (the D6 System's Wild Die ``w6``) and sorted before use."""
        rest = self.faces[self.used :]
        self.used = len(self.faces)
        self.tossed += len(rest)
        return rest

    def toss(self, die: Die) -> int:
        self.tossed += 1
        token = self.next_face(die.name)
        value = fudge_face(token) if die.fudge else numbered_face(token, len(die.faces))
        if value is None or value not in self._faces(die):
            shown = "+, - or 0" if die.fudge else f"{die.lowest}..{die.highest}"
            raise DiceValueError(
                f"die {self.used}: {written(token)} is not a face of {die.name} (faces: {shown})"
            )
        return value

    def _faces(self, die: Die) -> frozenset[int]:
        """A die's faces, to look one up at once (10000d10000 read by hand
        searched ten thousand faces for each of ten thousand dice); kept by
        the die's identity, for a die's hash walks all its faces too."""
        faces = self.face_sets.get(id(die))
        if faces is None:
            faces = self.face_sets[id(die)] = frozenset(die.faces)
        return faces

    def below(self, n: int) -> int:
        raise DiceValueError("this roll draws a number no die shows, so it can't be read by hand")

    def between_sides(self) -> None:
        """The left side of an opposed roll is read: the word ``opp`` may stand
        here to separate the two sides' dice, and nowhere else."""
        rest = self.faces[self.used :]
        if rest and _is_separator(rest[0]):
            self.used += 1
        elif any(_is_separator(token) for token in rest):
            extra = " ".join(rest[: [_is_separator(t) for t in rest].index(True)])
            raise DiceValueError(
                f"too many dice before 'opp' for the left side (left over: {extra})"
            )

    def finish(self) -> None:
        """Every face given must have been used."""
        rest = self.faces[self.used :]
        if any(_is_separator(token) for token in rest):
            raise DiceValueError("'opp' separates the two sides of an opposed roll only")
        if self.used < len(self.faces):
            extra = " ".join(self.faces[self.used :])
            raise DiceValueError(
                f"too many dice: the roll used {self.used} of the {len(self.faces)} given "
                f"(left over: {extra})"
            )


def _is_separator(token: str) -> bool:
    return token.strip().lower() == "opp"


class _NoStream(Stream):
    """Stands where the dice stream would be: reading dice never draws."""

    def __init__(self) -> None:
        super().__init__(b"")

    def below(self, n: int) -> int:
        raise DiceValueError("dice read by hand can't draw random numbers")
