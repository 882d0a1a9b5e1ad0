"""Float odds of Fudge and Power Fudge rolls that are sums of dice: a
degree, one against a difficulty, or two sides opposed (the left side's
relative degree). Advantage, take zero, a technique and the even/odd coin
read the dice themselves, and are refused."""

from __future__ import annotations

from ...dice.arithmetic import WordValue
from ...dice.floats import NOT_A_SUM, float_odds, is_sum, negated, sum_parts
from ...dice.spectral import Term
from ...errors import DiceValueError
from ...language.tree import Pool
from ...language.tree import walk as walk_tree
from ...results.float_odds import FloatOdds
from .checking import PLAIN, CheckedRoll
from .ladders import FUDGE, Ladder


def fudge_float_ready(plan: CheckedRoll) -> bool:
    """Whether every side is a plain sum of dice."""
    sides = [plan.left] if plan.right is None else [plan.left, plan.right]
    return all(
        not side.coin
        and side.options == PLAIN
        and not any(isinstance(pool, Pool) and side.special(pool) for pool in walk_tree(side.expr))
        and is_sum(side.expr)
        for side in sides
    )


def fudge_float_odds(
    notation: str, system: str, plan: CheckedRoll, ladder: Ladder, word_value: WordValue
) -> FloatOdds:
    """Float odds of a checked Fudge roll (``odds(text, exact=False)``)."""
    sides = [plan.left] if plan.right is None else [plan.left, plan.right]
    for side in sides:
        special = any(
            isinstance(pool, Pool) and side.special(pool) for pool in walk_tree(side.expr)
        )
        if side.coin or side.options != PLAIN or special:
            raise DiceValueError(
                f"{NOT_A_SUM}; advantage, take zero, a technique and the even/odd coin "
                "read the dice themselves"
            )
    parts, constant = sum_parts(plan.left.expr, word_value)
    title = "rolled degree" if ladder is FUDGE else "result"
    naming = ladder.name
    if plan.right is not None:
        right, minus = sum_parts(plan.right.expr, word_value)
        parts += [negated(part) for part in right]
        constant -= minus
        title, naming = "relative degree", _relative_name
    result = float_odds(
        notation, system, [Term(tuple(parts), constant)], value_title=title, value_name=naming
    )
    if plan.right is not None:
        result.events = {
            "success": result.chance_between(1, None),
            "tie": result.chance_between(0, 0),
            "failure": result.chance_between(None, -1),
        }
    elif plan.difficulty is not None:
        result.events = {
            "success": result.chance_between(plan.difficulty, None),
            "failure": result.chance_between(None, plan.difficulty - 1),
        }
    return result


def _relative_name(value: int) -> str:
    return "left wins" if value > 0 else "right wins" if value < 0 else "tie"
