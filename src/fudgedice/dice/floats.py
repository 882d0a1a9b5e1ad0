"""Float odds of a roll that is a sum of pools: the parse tree read as dice
alike and constants (:class:`~.spectral.Part`), then measured in float64 by
:mod:`.spectral`.

Each die's own distribution is exact (the measurer's, explosion chains cut
where the exact odds cut them); only the sum of many dice is in floats. A
pool that keeps or drops dice, a technique, a product or a quotient is no
sum of alike dice, and is refused with a message saying so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from ..errors import DiceValueError
from ..exact import dist
from ..exact.dist import Dist
from ..language.tree import BinOp, Group, Neg, Node, Number, Pool, Word, walk
from ..results.float_odds import FloatOdds
from .arithmetic import WordValue
from .measure import pool_dist
from .pools import chain_depth, plan
from .spectral import FloatSum, Part, Term, float_sum

NOT_A_SUM = (
    "float odds are for sums and differences of dice and numbers "
    "(such as 100000dF, 1000000d6+3, 500d6!-200d4)"
)


def is_sum(node: Node) -> bool:
    """Whether :func:`sum_parts` reads ``node``: numbers, words and pools that
    neither keep nor read a technique, added and subtracted."""
    return all(
        isinstance(sub, (Number, Word, Group, Neg))
        or (isinstance(sub, BinOp) and sub.op in ("+", "-"))
        or (isinstance(sub, Pool) and sub.keep is None and not sub.technique)
        for sub in walk(node)
    )


def part_of(die: Dist, count: int, sign: int = 1) -> Part:
    """``count`` dice of the exact distribution ``die`` (negated when ``sign``
    is -1), with no zero count at either end."""
    if sign < 0:
        die = dist.negate(die)
    counts = list(die.counts)
    lo = die.lo
    while len(counts) > 1 and counts[0] == 0:
        counts.pop(0)
        lo += 1
    while len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    return Part(lo, tuple(counts), die.total, count)


def sum_parts(node: Node, word_value: WordValue) -> tuple[list[Part], int]:
    """The pools of a sum as parts, and the constant added to them."""
    exploding = sum(sub.count for sub in walk(node) if isinstance(sub, Pool) and sub.explode)
    parts: list[Part] = []
    constant = 0
    stack: list[tuple[Node, int]] = [(node, 1)]
    while stack:
        current, sign = stack.pop()
        if isinstance(current, Number):
            constant += sign * current.value
        elif isinstance(current, Word):
            constant += sign * word_value(current)
        elif isinstance(current, Group):
            stack.append((current.inner, sign))
        elif isinstance(current, Neg):
            stack.append((current.operand, -sign))
        elif isinstance(current, BinOp) and current.op in ("+", "-"):
            stack.append((current.left, sign))
            stack.append((current.right, sign if current.op == "+" else -sign))
        elif isinstance(current, Pool) and current.keep is None and not current.technique:
            if current.count:
                depth = chain_depth(plan(current).explode_chance, exploding)
                one = replace(current, count=1, source=f"1{current.source.lstrip('0123456789')}")
                parts.append(part_of(pool_dist(one, depth), current.count, sign))
        else:
            what = (
                f"'{current.source}' keeps or drops dice"
                if isinstance(current, Pool) and current.keep is not None
                else f"'{current.source}' reads a technique"
                if isinstance(current, Pool)
                else f"'{current.op}' multiplies or divides"
                if isinstance(current, BinOp)
                else "this roll is not a sum"
            )
            raise DiceValueError(f"{NOT_A_SUM}; {what}")
    return merged(parts), constant


def negated(part: Part) -> Part:
    """The same dice subtracted."""
    return Part(-part.hi, part.counts[::-1], part.total, part.count)


def merged(parts: list[Part]) -> list[Part]:
    """Parts of one die as one: ``3d6+2d6`` is one power of one spectrum."""
    counts: dict[tuple[int, tuple[int, ...], int], int] = {}
    for part in parts:
        key = (part.lo, part.counts, part.total)
        counts[key] = counts.get(key, 0) + part.count
    return [Part(lo, ways, total, count) for (lo, ways, total), count in counts.items()]


def float_odds(
    notation: str,
    system: str,
    terms: Sequence[Term],
    *,
    value_title: str = "value",
    value_name: Callable[[int], str] | None = None,
) -> FloatOdds:
    """The float odds of a mixture of sums (one term: a plain sum)."""
    measured = float_sum(terms, notation)
    return odds_of(measured, notation, system, value_title, value_name)


def odds_of(
    measured: FloatSum,
    notation: str,
    system: str,
    value_title: str = "value",
    value_name: Callable[[int], str] | None = None,
) -> FloatOdds:
    chances = measured.chances
    values = np.arange(len(chances), dtype=np.float64)
    mass = float(chances.sum()) or 1.0
    # about the lowest value, so that 1000000d6's mean keeps its digits
    mean = float((values * chances).sum()) / mass
    spread = float(((values - mean) ** 2 * chances).sum()) / mass
    return FloatOdds(
        notation,
        system,
        measured.lo,
        chances,
        measured.error,
        measured.truncated,
        measured.lo + mean,
        spread**0.5,
        value_title=value_title,
        value_name=value_name,
    )


def sum_odds(
    notation: str,
    system: str,
    node: Node,
    word_value: WordValue,
    value_title: str = "value",
    value_name: Callable[[int], str] | None = None,
) -> FloatOdds:
    """The float odds of one side's sum of pools."""
    parts, constant = sum_parts(node, word_value)
    terms = [Term(tuple(parts), constant)]
    return float_odds(notation, system, terms, value_title=value_title, value_name=value_name)
