"""Rolling a Fate side, and reading one rolled by hand: the generic walk rolls
the skill and its 4dF; a reroll invoke then rolls all four dice again while
the side's policy asks for it, and the dice it replaced stay in the story."""

from __future__ import annotations

from ...dice.arithmetic import WordValue, operate
from ...dice.hand import HandRoller
from ...dice.roller import Roller, roll_node, roll_pool
from ...errors import DiceValueError
from ...results.dice import GroupRoll, Mark, NegRoll, OpRoll, Part, PoolRoll, pools_of
from .checking import FateSide
from .ladders import outcome, shifts_text

REROLL_REASON = "reroll invoke"


def roll_side(side: FateSide, roller: Roller, words: WordValue) -> Part:
    """The side's skill, modifiers and 4dF, rolled once."""
    return roll_node(side.expr, roller, words)


def reroll_side(
    part: Part, side: FateSide, opposition: int, roller: Roller, steps: list[str]
) -> Part:
    """Spend the side's reroll invokes as its policy says, against
    ``opposition``; each reroll is told in ``steps``."""
    policy = side.policy
    for spent in range(policy.times):
        shifts = part.total - opposition
        if shifts >= policy.below:
            break
        if isinstance(roller, HandRoller) and len(roller.faces) - roller.used < side.pool.count:
            raise DiceValueError(
                f"not enough dice: the roll comes to {shifts_text(shifts)} ({outcome(shifts)}), "
                "so the reroll invoke rerolls all four dice: add their four new faces",
                hint=f"the policy: {policy.describe()}",
            )
        (old,) = pools_of(part)
        for die in old.dice:
            if die.kept:
                die.set_aside(Mark.REROLLED, REROLL_REASON)
        new = roll_pool(side.pool, roller)
        ordinal = "" if policy.times == 1 else f" {spent + 1} of {policy.times}"
        steps.append(
            f"reroll invoke{ordinal}: {shifts_text(shifts)} ({outcome(shifts)}), "
            f"all four dice rerolled"
        )
        part = _with_pool(part, PoolRoll(side.pool, old.dice + new.dice, new.total))
    return part


def _with_pool(part: Part, pool: PoolRoll) -> Part:
    """``part`` with its one pool replaced, every total above it worked out again."""
    if isinstance(part, PoolRoll):
        return pool
    if isinstance(part, OpRoll):
        left, right = _with_pool(part.left, pool), _with_pool(part.right, pool)
        return OpRoll(part.node, left, right, operate(part.node.op, left.total, right.total))
    if isinstance(part, NegRoll):
        operand = _with_pool(part.operand, pool)
        return NegRoll(operand, -operand.total)
    if isinstance(part, GroupRoll):
        inner = _with_pool(part.inner, pool)
        return GroupRoll(inner, inner.total)
    return part
