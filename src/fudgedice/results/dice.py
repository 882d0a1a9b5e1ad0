"""What a roll produced: every die's story and the value of every part of
the expression. Plain data; :mod:`fudgedice.render` turns it into text."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ..language.tree import BinOp, Die, Pool, Word


class Mark(enum.Flag):
    """What happened to one toss. Tests, the renderer and the JSON read these
    flags; none of them parses words."""

    DROPPED = enum.auto()
    """Left out by keep/drop (``4d6kh3``)."""
    REROLLED = enum.auto()
    """Replaced by the toss after it (``r``, ``ro``)."""
    IGNORED = enum.auto()
    """Ignored by Power Fudge advantage or disadvantage."""
    CANCELLED = enum.auto()
    """Cancelled by a D6 System critical failure (``crit=cancel``)."""
    REMOVED = enum.auto()
    """Above the lowest value in ``4dF@4d6``."""
    EXPLODED = enum.auto()
    """This toss made the die roll again."""
    FROM_EXPLOSION = enum.auto()
    """This toss came from an explosion."""
    PENETRATING = enum.auto()
    """This toss counts one less (``!p`` after the first toss)."""
    COMPOUNDED = enum.auto()
    """One entry for a whole compounded chain (``!!``): its faces are in ``face``,
    joined by ``+``, a toss rerolled inside the chain in brackets where it came
    (``6+(1)+4``: a 6, a 1 rerolled, a 4)."""
    SUCCESS = enum.auto()
    """Counted as a success (``>=5``)."""
    FAILURE = enum.auto()
    """Counted as a failure (``f<=1``)."""
    WILD = enum.auto()
    """A toss of the D6 System's Wild Die."""
    CHARACTER_POINT = enum.auto()
    """A toss of a D6 System Character Point die."""
    POSITIVE = enum.auto()
    """A positive die of ``4dF@4d6``."""
    NEGATIVE = enum.auto()
    """A negative die of ``4dF@4d6``."""


SET_ASIDE = Mark.DROPPED | Mark.REROLLED | Mark.IGNORED | Mark.CANCELLED | Mark.REMOVED
"""The marks that take a toss out of the total."""

_SET_ASIDE_BITS = SET_ASIDE.value
_MARK_NAMES = [(mark.value, (mark.name or "").lower()) for mark in Mark]


@dataclass(slots=True)
class DieRoll:
    """One toss of one die and what happened to it."""

    die: Die
    value: int
    """What the toss adds (its face, or the face less one for ``!p``)."""
    face: str
    """How it looks on the table (``6``, ``+``, ``6+6+2`` for a compound die)."""
    flags: int = 0
    """The :class:`Mark` flags as a plain bit mask: rolling and explaining test
    them for every die, and enum.Flag arithmetic costs a microsecond a step."""
    reason: str | None = None
    """Why it was set aside, in words (``lowest``, ``advantage``, ``<=2``)."""

    @property
    def marks(self) -> Mark:
        """What happened to the toss, as typed flags."""
        return Mark(self.flags)

    @property
    def kept(self) -> bool:
        """Whether the toss counts towards the total."""
        return not self.flags & _SET_ASIDE_BITS

    def mark(self, mark: Mark) -> None:
        self.flags |= mark.value

    def set_aside(self, mark: Mark, reason: str) -> None:
        """Take the toss out of the total, saying why."""
        self.flags |= mark.value
        self.reason = reason

    def mark_names(self) -> list[str]:
        return [name for bit, name in _MARK_NAMES if self.flags & bit]

    def to_dict(self) -> dict[str, Any]:
        sides: int | str = self.die.name[1:] if self.die.fudge else len(self.die.faces)
        return {
            "sides": sides,
            "value": self.value,
            "face": self.face,
            "kept": self.kept,
            "marks": self.mark_names(),
            "reason": self.reason,
        }


@dataclass(slots=True)
class PoolRoll:
    """A rolled pool: its dice, in the order rolled, and the pool's total."""

    pool: Pool
    dice: list[DieRoll]
    total: int


@dataclass(slots=True)
class NumberRoll:
    """A number of the roll, as it counts in the total."""

    total: int


@dataclass(slots=True)
class WordRoll:
    """A word of the roll (a ladder level such as ``Good``), and the number it stands for."""

    word: Word
    total: int


@dataclass(slots=True)
class OpRoll:
    """Two rolled terms joined by an operator, and what they come to."""

    node: BinOp
    left: Part
    right: Part
    total: int


@dataclass(slots=True)
class NegRoll:
    """A rolled term with a minus sign, and what it comes to."""

    operand: Part
    total: int


@dataclass(slots=True)
class GroupRoll:
    """A rolled term in parentheses, kept so the explanation can show them."""

    inner: Part
    total: int


Part = PoolRoll | NumberRoll | WordRoll | OpRoll | NegRoll | GroupRoll


def pools_of(part: Part) -> list[PoolRoll]:
    """The pools of a rolled expression, left to right."""
    if isinstance(part, PoolRoll):
        return [part]
    if isinstance(part, OpRoll):
        return pools_of(part.left) + pools_of(part.right)
    if isinstance(part, NegRoll):
        return pools_of(part.operand)
    if isinstance(part, GroupRoll):
        return pools_of(part.inner)
    return []
