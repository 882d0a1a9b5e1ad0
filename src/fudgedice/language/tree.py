"""The immutable parse tree of the roll language.

Every interpreter (rolling, measuring, sampling, rendering) walks these nodes;
none of them changes one. Nodes are frozen and hashable so that identical
sub-expressions share memoised distributions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..limits import DEFAULT_LIMITS

CompareOp = Literal[">=", "<=", ">", "<", "="]


@dataclass(frozen=True, slots=True)
class Compare:
    """A compare point such as ``>=5``: which faces trigger a modifier."""

    op: CompareOp
    value: int

    def matches(self, number: int) -> bool:
        if self.op == ">=":
            return number >= self.value
        if self.op == "<=":
            return number <= self.value
        if self.op == ">":
            return number > self.value
        if self.op == "<":
            return number < self.value
        return number == self.value

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


@dataclass(frozen=True, slots=True)
class Die:
    """One kind of die: its name and its equally likely face values."""

    name: str
    faces: tuple[int, ...]
    fudge: bool = False
    tossed: tuple[int, ...] = field(default=(), repr=False, compare=False)
    """The faces the dice stream picks from, in its order (docs/fairness.md):
    ``dF`` has six, two of each value. Left empty, the faces themselves."""
    low: int = field(init=False, repr=False, compare=False)
    counts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """How many faces show each value from the lowest up: the die's own
    distribution, worked out once with the parse tree (``dF.1`` is 1, 4, 1)."""

    def __post_init__(self) -> None:
        low = min(self.faces)
        counts = [0] * (max(self.faces) - low + 1)
        for face in self.faces:
            counts[face - low] += 1
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "counts", tuple(counts))
        if not self.tossed:
            object.__setattr__(self, "tossed", self.faces)

    @property
    def lowest(self) -> int:
        return min(self.faces)

    @property
    def highest(self) -> int:
        return max(self.faces)

    def face_label(self, value: int) -> str:
        """How a face looks on the table: ``+``/`` ``/``-`` for Fudge dice."""
        if self.fudge:
            return "+" if value > 0 else "-" if value < 0 else " "
        return str(value)


def numbered_die(sides: int) -> Die:
    """A die numbered 1..``sides``: ``d6``, ``d20``, ``d100``."""
    if sides == 6:
        return D6
    return Die(f"d{sides}", tuple(range(1, sides + 1)))


D6 = Die("d6", (1, 2, 3, 4, 5, 6))
"""The six-sided die: ``d6``, the D6 System's die codes, the seeds' techniques."""
D100 = Die("d%", tuple(range(1, 101)))
"""``d%``: read as 1..100 (``00`` is 100)."""
FUDGE_DIE = Die("dF", (-1, 0, 1), fudge=True, tossed=(-1, -1, 0, 0, 1, 1))
"""``dF`` (and ``dF.2``): two each of -, blank and +, as three equally likely
values; the dice stream tosses its six faces."""
FUDGE_DIE_1 = Die("dF.1", (-1, 0, 0, 0, 0, 1), fudge=True)
"""``dF.1``: one +, one -, four blanks."""


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep or drop the highest or lowest ``n`` dice of a pool."""

    mode: Literal["kh", "kl", "dh", "dl"]
    n: int

    def kept(self, pool_size: int) -> tuple[bool, int]:
        """(keep the highest?, how many are kept) for a pool of that size."""
        if self.mode == "kh":
            return True, self.n
        if self.mode == "kl":
            return False, self.n
        if self.mode == "dh":
            return False, pool_size - self.n
        return True, pool_size - self.n


@dataclass(frozen=True, slots=True)
class Explode:
    """``!`` explode, ``!!`` compound, ``!p`` penetrate, on faces matching ``on``."""

    mode: Literal["!", "!!", "!p"]
    on: Compare


@dataclass(frozen=True, slots=True)
class Reroll:
    """``r`` rerolls while the face matches; ``ro`` rerolls once."""

    once: bool
    on: Compare


@dataclass(frozen=True, slots=True)
class Count:
    """Count successes (and subtract failures) instead of summing faces."""

    success: Compare
    failure: Compare | None = None

    def score(self, value: int) -> int:
        hit = 1 if self.success.matches(value) else 0
        miss = 1 if self.failure is not None and self.failure.matches(value) else 0
        return hit - miss


@dataclass(frozen=True, slots=True)
class Pool:
    """``NdX`` with its modifiers; ``source`` is the text it was written as."""

    count: int
    die: Die
    source: str
    reroll: Reroll | None = None
    explode: Explode | None = None
    keep: Keep | None = None
    counting: Count | None = None
    technique: str | None = None
    die_code: bool = False
    """Written as a bare D6 System die code such as ``3D``."""
    position: int = field(default=0, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Pools key the memoised distributions and plans: hash the fields once
        # rather than on every lookup.
        key = (self.count, self.die, self.source, self.reroll, self.explode, self.keep)
        object.__setattr__(self, "_hash", hash((*key, self.counting, self.technique)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, slots=True)
class Number:
    """A whole number written in the roll: ``2`` in ``4dF+2``."""

    value: int


@dataclass(frozen=True, slots=True)
class BinOp:
    """Two terms joined by ``+``, ``-``, ``*`` or ``/`` (``/`` rounds down)."""

    op: Literal["+", "-", "*", "/"]
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Neg:
    """A term with a minus sign before it: ``-1`` in ``-1+4dF``."""

    operand: Node


@dataclass(frozen=True, slots=True)
class Group:
    """Parentheses, kept so that the explanation can show them."""

    inner: Node


@dataclass(frozen=True, slots=True)
class Word:
    """A word in an expression (a ladder level such as ``Good``); its meaning
    depends on the system."""

    text: str
    position: int = field(default=0, compare=False)


Node = Number | Pool | BinOp | Neg | Group | Word


@dataclass(frozen=True, slots=True)
class Option:
    """A word after an expression (``adv``, ``nowild``, ``crit=cancel``)."""

    name: str
    value: str | None = None
    position: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Part:
    """``weapon 2D``, ``armor 1D``: dice of a side that are not the character's
    own (a D6 System side's; other systems refuse them)."""

    name: str
    expr: Node
    position: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a roll: an expression and the options that change how it rolls."""

    expr: Node
    options: tuple[Option, ...] = ()
    written: bool = True
    """False for the side "vs Good" leaves unwritten (its expression is 0):
    a system may roll its default dice there, or refuse it."""
    parts: tuple[Part, ...] = ()
    """What the side adds that is not the character's own (``weapon 2D``)."""


@dataclass(frozen=True, slots=True)
class Versus:
    """``vs target``: an unopposed check against a difficulty."""

    target: Node


@dataclass(frozen=True, slots=True)
class Opposed:
    """``opp side``: an opposed action, both sides roll."""

    other: Side


@dataclass(frozen=True, slots=True)
class Damage:
    """``dmg side``: damage (the left side) rolled against resistance (this
    side), a D6 System roll; other systems refuse it."""

    other: Side


Against = Versus | Opposed | Damage
"""What a roll is measured against: a target, another side, or resistance."""


@dataclass(frozen=True, slots=True)
class Expression:
    """A whole roll: ``[system:] side [vs target | opp side | dmg side] [# label]``."""

    system: str
    side: Side
    check: Against | None = None
    label: str | None = None
    text: str = field(default="", compare=False)
    system_position: int | None = field(default=None, compare=False)
    """Where ``system:`` was written (None when the default system applies)."""
    max_dice: int = DEFAULT_LIMITS.max_dice
    """The most dice one pool was allowed when this was parsed: the limit of
    dice rolled (``Limits.max_dice``), or the far larger one of float odds."""


def walk(node: Node) -> list[Node]:
    """Every node of an expression tree, parents first."""
    out: list[Node] = []
    stack: list[Node] = [node]
    while stack:
        current = stack.pop()
        out.append(current)
        if isinstance(current, BinOp):
            stack.extend((current.right, current.left))
        elif isinstance(current, Neg):
            stack.append(current.operand)
        elif isinstance(current, Group):
            stack.append(current.inner)
    return out
