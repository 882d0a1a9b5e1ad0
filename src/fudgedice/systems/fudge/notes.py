"""What a check's text notes of its difficulty: that every result succeeds,
that none can, or (taking zero) how rolling would have done.

The first two need only the least and the greatest result a side can come
to. :func:`side_bounds` reads them from the side's pools and numbers, as
intervals, without measuring odds, so a roll notes them without computing a
distribution; a side it can't read so (a technique's table, a pool with a
modifier, a product) and taking zero, whose note is a chance, are measured,
once per program (``FudgeProgram._difficulty_notes``).
"""

from __future__ import annotations

from collections.abc import Callable

from ...dice.arithmetic import WordValue
from ...dice.pools import plan
from ...exact.dist import Dist
from ...language.tree import BinOp, Group, Neg, Node, Number, Pool, Word
from ...render.numbers import chance_note
from .checking import PLAIN, SidePlan

Bounds = tuple[int | None, int | None]
"""The least and the greatest value possible (None: no bound that way)."""


def side_bounds(side: SidePlan, word_value: WordValue) -> Bounds | None:
    """The least and the greatest result of ``side``, read from its tree
    (None: a part this does not read; measure it instead)."""
    if side.options.take_zero:
        return None
    return _bounds(side.expr, side, word_value)


def _bounds(node: Node, side: SidePlan, word_value: WordValue) -> Bounds | None:
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Word):
        value = word_value(node)
        return value, value
    if isinstance(node, Group):
        return _bounds(node.inner, side, word_value)
    if isinstance(node, Neg):
        inner = _bounds(node.operand, side, word_value)
        if inner is None:
            return None
        low, high = inner
        return (None if high is None else -high), (None if low is None else -low)
    if isinstance(node, Pool):
        return _pool_bounds(node, side)
    if isinstance(node, BinOp) and node.op in "+-":
        left = _bounds(node.left, side, word_value)
        right = _bounds(node.right, side, word_value)
        if left is None or right is None:
            return None
        if node.op == "-":
            right = (
                (None if right[1] is None else -right[1]),
                (None if right[0] is None else -right[0]),
            )
        return _add(left[0], right[0]), _add(left[1], right[1])
    return None


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _pool_bounds(pool: Pool, side: SidePlan) -> Bounds | None:
    """A pool with no modifier and no technique: each die from its lowest
    face to its highest; advantage ignores up to its level of ``-`` dice,
    disadvantage of ``+`` dice (Power Fudge, seed 000)."""
    if pool.technique is not None or not plan(pool).plain:
        return None
    count = pool.count
    lowest, highest = count * min(pool.die.tossed), count * max(pool.die.tossed)
    level = side.options_for(pool).advantage
    if level > 0:
        lowest += min(level, count)  # a - ignored counts as nothing
    elif level < 0:
        highest -= min(-level, count)  # a + ignored counts as nothing
    return lowest, highest


def reach_notes(bounds: Bounds, difficulty: int, below_terrible: bool) -> list[str]:
    """Whether every result makes ``difficulty``, or none can."""
    lowest, highest = bounds
    if lowest is not None and lowest >= difficulty and not below_terrible:
        return ["no roll needed: every result succeeds"]
    if highest is not None and highest < difficulty:
        return ["no roll can reach this difficulty: it simply can't be done"]
    return []


def measured_notes(
    side: SidePlan, side_dist: Callable[[SidePlan], Dist], difficulty: int, below_terrible: bool
) -> list[str]:
    """What the odds say of the difficulty: certain, impossible, or how
    rolling would have done beside taking zero."""
    from ...exact.odds import Odds  # here: a roll measures no odds

    degrees = side_dist(side)
    if side.options.take_zero:
        # Taking zero is a choice, never an impossibility: set it beside
        # what rolling would have done.
        rolled = side_dist(side._replace(options=PLAIN))
        chance = Odds("", "", rolled).chance_between(difficulty, None).p
        outcome = "succeeds" if degrees.lo >= difficulty else "fails"
        return [
            f"taking zero {outcome} for certain; rolling would succeed with chance "
            + chance_note(chance)
        ]
    # a tail of exploding dice may reach further than the outcomes listed
    return reach_notes(degrees.extent(), difficulty, below_terrible)
