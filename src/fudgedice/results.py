"""What a roll produced: every die's story and the value of every part of
the expression. Plain data; :mod:`fudgedice.render` turns it into text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .tree import BinOp, Die, Pool, Word


@dataclass(slots=True)
class DieRoll:
    """One toss of one die and what happened to it."""

    die: Die
    value: int
    """What the toss adds (its face, or the face less one for ``!p``)."""
    face: str
    """How it looks on the table (``6``, ``+``, ``6+6+2`` for a compound die)."""
    kept: bool = True
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        sides: int | str = self.die.name[1:] if self.die.fudge else len(self.die.faces)
        return {
            "sides": sides,
            "value": self.value,
            "face": self.face,
            "kept": self.kept,
            "notes": list(self.notes),
        }


@dataclass(slots=True)
class PoolRoll:
    pool: Pool
    dice: list[DieRoll]
    total: int


@dataclass(slots=True)
class NumberRoll:
    total: int


@dataclass(slots=True)
class WordRoll:
    word: Word
    total: int


@dataclass(slots=True)
class OpRoll:
    node: BinOp
    left: Part
    right: Part
    total: int


@dataclass(slots=True)
class NegRoll:
    operand: Part
    total: int


@dataclass(slots=True)
class GroupRoll:
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
