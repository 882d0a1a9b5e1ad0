"""Checking a Fate roll once, before any die is tossed.

A Fate side is a skill (a ladder word or a number) with its modifiers, ``+2``
for each aspect invoked, and one set of 4dF: written (``4dF+3``) or implied
(``Good+2``). Its result is always the dice plus a fixed number, the
*modifier*, which is what lets the reroll invoke's policy be measured exactly
(:mod:`.measure`). Every mistake the text can hold is refused here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NoReturn

from ...dice.arithmetic import evaluate, operate
from ...dice.checks import refuse_die_code
from ...dice.pools import plan
from ...dice.words import LadderWords
from ...errors import DiceValueError, LimitError
from ...language.tree import (
    FUDGE_DIE,
    BinOp,
    Expression,
    Group,
    Neg,
    Node,
    Number,
    Opposed,
    Option,
    Pool,
    Side,
    Versus,
    Word,
)
from ...language.tree import walk as walk_tree
from ...render.ladder import Ladder
from .ladders import LADDER_TITLES, STYLE

FATE_DICE = Pool(4, FUDGE_DIE, "4dF")
"""What every Fate roll rolls: four Fudge dice."""
DICE_RANGE = range(-4, 5)

REROLL = "reroll"
POLICIES: dict[str, int] = {"fail": 0, "tie": 1, "style": STYLE}
"""A reroll policy's name and the shifts it rerolls below: ``fail`` rerolls a
roll that fails, ``tie`` one that fails or ties, ``style`` one that falls
short of succeeding with style."""
MAX_REROLLS = 10
"""Reroll invokes one roll may spend: more than a table has fate points for."""
OPTIONS = (REROLL, "reroll=fail", "reroll=tie", "reroll=style", "reroll2")

_REROLL = re.compile(r"reroll([0-9]*)")


@dataclass(frozen=True, slots=True)
class RerollPolicy:
    """When the reroll invoke is spent: up to ``times`` rerolls of all four
    dice, each while the shifts are below ``below``; the new roll stands."""

    times: int = 0
    name: str = "fail"
    """``fail``, ``tie`` or ``style``: the outcomes worth a reroll."""

    @property
    def below(self) -> int:
        return POLICIES[self.name]

    def short(self) -> str:
        """The policy in a few words, for the odds' heading: ``reroll once on a fail``."""
        when = {"fail": "a fail", "tie": "a fail or tie", "style": "anything short of style"}
        times = "once" if self.times == 1 else f"up to {self.times} times"
        return f"reroll {times} on {when[self.name]}"

    def describe(self) -> str:
        when = {
            "fail": "when the roll fails",
            "tie": "when the roll fails or ties",
            "style": "when the roll falls short of succeeding with style",
        }[self.name]
        times = "once" if self.times == 1 else f"up to {self.times} times, each"
        return f"reroll invoke: all four dice are rerolled {times} {when}; the new roll stands"


NO_REROLL = RerollPolicy()


@dataclass(frozen=True, slots=True)
class FateSide:
    """One side, checked: its expression (4dF added where none is written),
    that pool, the fixed part of its result and its reroll policy."""

    expr: Node
    pool: Pool
    modifier: int
    """The result is the dice (-4..+4) plus this."""
    policy: RerollPolicy


@dataclass(frozen=True, slots=True)
class FatePlan:
    """A whole roll: the left side, and the opposition's level (``vs``) or
    the other side (``opp``, active opposition: both roll)."""

    left: FateSide
    right: FateSide | None
    opposition: int | None


def check_fate(expression: Expression, ladder: Ladder) -> FatePlan:
    """Check ``expression`` on ``ladder``; the first mistake found is raised."""
    words = LadderWords(ladder, expression, LADDER_TITLES[ladder.system])
    check = expression.check
    left = _side(expression, expression.side, words)
    right = _side(expression, check.other, words) if isinstance(check, Opposed) else None
    opposition = _opposition(expression, check.target, words) if isinstance(check, Versus) else None
    if left.policy.times and check is None:
        raise _error(
            expression,
            "a reroll invoke needs something to beat",
            _reroll_position(expression.side),
            "add the opposition: 'fate: Good reroll vs Great', or 'opp' and the other side",
        )
    if right is not None and right.policy.times:
        assert isinstance(check, Opposed)
        raise _error(
            expression,
            "the reroll invoke is the left side's: the side written first acts, the other opposes",
            _reroll_position(check.other),
            "write the side that invokes first; its opposition's invokes are written as +2",
        )
    return FatePlan(left, right, opposition)


def _error(
    expression: Expression, message: str, position: int | None, hint: str | None = None
) -> DiceValueError:
    return DiceValueError(message, text=expression.text, position=position, hint=hint)


def _reroll_position(side: Side) -> int | None:
    return next((o.position for o in side.options if _REROLL.fullmatch(o.name)), None)


def _side(expression: Expression, side: Side, words: LadderWords) -> FateSide:
    pools = [node for node in walk_tree(side.expr) if isinstance(node, Pool)]
    for word in walk_tree(side.expr):
        if isinstance(word, Word):
            words(word)
    if len(pools) > 1:
        raise _error(expression, "a Fate roll rolls one set of 4dF", pools[1].position)
    if pools:
        pool = pools[0]
        _check_dice(expression, pool)
        expr = side.expr
    else:
        # "Good" and "+3" roll the dice; "vs Good" alone is 4dF from Mediocre
        pool = FATE_DICE
        expr = BinOp("+", side.expr, pool) if side.written else pool
    modifier = _modifier(expression, expr, pool, words)
    return FateSide(expr, pool, modifier, _policy(expression, side.options))


def _check_dice(expression: Expression, pool: Pool) -> None:
    plan(pool)  # the generic modifier rules first
    refuse_die_code(expression, pool)
    if pool.die != FUDGE_DIE or pool.count != 4 or pool.technique or not plan(pool).plain:
        raise _error(
            expression,
            f"a Fate roll rolls 4dF, not {pool.source}",
            pool.position,
            "write the skill and its modifiers, such as 'fate: Good+2' or 'fate: 4dF+3'",
        )


def _modifier(expression: Expression, expr: Node, pool: Pool, words: LadderWords) -> int:
    """The fixed part of the result, refusing any expression whose result is
    not the dice plus it (``-4dF``, ``4dF*2``): invokes and outcomes count
    on the dice being added."""
    values = {dice: _value_at(expr, pool, dice, words) for dice in DICE_RANGE}
    modifiers = {value - dice for dice, value in values.items()}
    if len(modifiers) != 1:
        raise _error(
            expression,
            "a Fate roll adds 4dF to the skill and its modifiers",
            pool.position,
            "write it as a sum, such as 'fate: Good+2' or 'fate: 4dF+3-1'",
        )
    return modifiers.pop()


def _value_at(node: Node, pool: Pool, dice: int, words: LadderWords) -> int:
    """The side's result when its 4dF show ``dice``."""
    if isinstance(node, Pool):
        return dice
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Word):
        return words(node)
    if isinstance(node, Group):
        return _value_at(node.inner, pool, dice, words)
    if isinstance(node, Neg):
        return -_value_at(node.operand, pool, dice, words)
    left = _value_at(node.left, pool, dice, words)
    right = _value_at(node.right, pool, dice, words)
    if node.op == "/" and right == 0 and any(isinstance(n, Pool) for n in walk_tree(node.right)):
        raise DiceValueError(
            "a Fate roll adds 4dF to the skill and its modifiers, never divides by it",
            text=words.expression.text,
            position=pool.position,
        )
    return operate(node.op, left, right, what="the divisor is 0")


def _policy(expression: Expression, options: tuple[Option, ...]) -> RerollPolicy:
    policy = NO_REROLL
    for option in options:
        found = _REROLL.fullmatch(option.name)
        if found is None:
            _unknown(expression, option)
        if policy.times:
            raise _error(expression, "a side takes one reroll option", option.position)
        count = found.group(1) or "1"
        if len(count) > 3 or not 1 <= int(count) <= MAX_REROLLS:
            raise LimitError(
                f"a roll spends at most {MAX_REROLLS} reroll invokes, not {count}",
                text=expression.text,
                position=option.position,
            )
        name = option.value or "fail"
        if name not in POLICIES:
            raise _error(
                expression,
                f"a reroll policy is one of {', '.join(POLICIES)}, not '{name}'",
                option.position,
                "reroll=fail rerolls a failure, reroll=tie a failure or a tie, "
                "reroll=style anything short of success with style",
            )
        policy = RerollPolicy(int(count), name)
    return policy


def _unknown(expression: Expression, option: Option) -> NoReturn:
    written = option.name + (f"={option.value}" if option.value is not None else "")
    hint = "Fate options: reroll, reroll2 (two invokes), reroll=fail|tie|style"
    if option.name == "condensed":
        hint = "Fate Condensed's ladder is its own prefix: 'fatecondensed: ...'"
    raise _error(expression, f"unknown option '{written}' for a Fate roll", option.position, hint)


def _opposition(expression: Expression, node: Node, words: LadderWords) -> int:
    def not_a_level(pool: Pool) -> NoReturn:
        raise _error(
            expression,
            "the opposition after 'vs' is a level, not a roll",
            pool.position,
            "use 'opp' for active opposition, where both sides roll: 'fate: Good opp Fair'",
        )

    def level(word: Word) -> int:
        *phrase, last = word.text.split()
        if phrase and _REROLL.fullmatch(last.lower()):
            raise _error(
                expression,
                f"'{last}' is an option of the side that rolls, written before 'vs'",
                word.position,
                f"such as 'fate: Good {last} vs {' '.join(phrase)}'",
            )
        return words(word)

    return evaluate(node, level, not_a_level, what="the opposition divides by 0")
