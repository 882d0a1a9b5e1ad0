"""Checking a Fudge or Power Fudge roll once, before any die is tossed.

Each side of the parsed roll becomes a :class:`SidePlan`: its expression with
the default dice added where a trait rolls none, its Power Fudge options and
the one pool of Fudge dice they act on. A ``vs`` target is read as a level.
Every mistake the text can hold is refused here, so rolling, reading by hand
and measuring (:mod:`.rolling`, :mod:`.measure`) only carry out the plan.
"""

from __future__ import annotations

import re
from typing import NamedTuple, NoReturn

from ...dice.arithmetic import WordValue, evaluate
from ...dice.checks import refuse_die_code
from ...dice.measure import exploding_dice
from ...dice.pools import plan
from ...errors import DiceValueError
from ...language.tree import (
    FUDGE_DIE,
    BinOp,
    Expression,
    Node,
    Opposed,
    Pool,
    Side,
    Versus,
    Word,
)
from ...language.tree import walk as walk_tree
from . import power
from .ladders import POWER, Ladder
from .techniques import technique_name

COIN = "coin"
"""The even/odd option: a 4dF roll used as a coin (seed 003)."""

DEFAULT_DICE = Pool(4, FUDGE_DIE, "4dF")
"""What a trait with no dice rolls in both systems."""

PLAIN = power.PowerOptions()
"""No option asked: how every pool but a side's advantage pool is rolled."""


class SidePlan(NamedTuple):
    """One side of a roll, checked: its expression (default dice added), its
    Power Fudge options and the one pool of Fudge dice they act on."""

    expr: Node
    options: power.PowerOptions
    coin: bool
    fudge_pool: Pool | None
    """The pool advantage or take zero acts on (None when neither is asked)."""
    exploding: int

    def special(self, pool: Pool) -> bool:
        """The pool is read by a technique or an option, not as plain dice."""
        return pool.technique is not None or pool is self.fudge_pool

    def reads_own_way(self) -> bool:
        """Some pool of the side is :meth:`special`; else the side rolls as
        the generic dice language does."""
        return any(isinstance(node, Pool) and self.special(node) for node in walk_tree(self.expr))

    def options_for(self, pool: Pool) -> power.PowerOptions:
        """The options that act on ``pool``: the side's own on its Fudge pool."""
        return self.options if pool is self.fudge_pool else PLAIN


class CheckedRoll(NamedTuple):
    """A whole roll, checked: the left side, and the right side of an opposed
    action or the difficulty of an unopposed one (at most one of the two)."""

    left: SidePlan
    right: SidePlan | None
    difficulty: int | None


def check_roll(expression: Expression, ladder: Ladder, word_value: WordValue) -> CheckedRoll:
    """Check ``expression`` on ``ladder``; the first mistake found is raised."""
    return _Checker(expression, ladder, word_value).check()


class _Checker:
    """The checks of one roll, which share its text (for the error messages),
    its ladder and its word rule."""

    def __init__(self, expression: Expression, ladder: Ladder, word_value: WordValue) -> None:
        self.expression = expression
        self.ladder = ladder
        self.word_value = word_value

    def _fail(self, message: str, position: int | None = None, hint: str | None = None) -> None:
        raise DiceValueError(message, text=self.expression.text, position=position, hint=hint)

    def check(self) -> CheckedRoll:
        expression = self.expression
        check = expression.check
        left = self._side(expression.side, isinstance(check, Opposed))
        right: SidePlan | None = None
        difficulty: int | None = None
        if isinstance(check, Opposed):
            right = self._side(check.other, True)
        elif isinstance(check, Versus):
            difficulty = self._target(check.target)
        if right is not None and right.coin:
            self._fail(
                "the even/odd coin is a roll of its own, not a side of an opposed action",
                coin_position(check.other) if isinstance(check, Opposed) else None,
            )
        if left.coin and check is not None:
            self._fail(
                "the even/odd coin is a roll of its own: it takes no 'vs' or 'opp'",
                coin_position(expression.side),
            )
        return CheckedRoll(left, right, difficulty)

    def _side(self, side: Side, opposed: bool) -> SidePlan:
        expr = side.expr
        nodes = walk_tree(expr)
        pools = [node for node in nodes if isinstance(node, Pool)]
        words = [node for node in nodes if isinstance(node, Word)]
        for pool in pools:
            self._check_pool(pool)
        for word in words:
            self.word_value(word)
        coin = False
        asked = []
        for option in side.options:
            if option.value is None and option.name == COIN:
                coin = True
            elif option.value is None and option.name in power.OPTIONS:
                if self.ladder is not POWER:
                    self._fail(
                        f"'{option.name}' is a Power Fudge option",
                        option.position,
                        "write the roll with the power: prefix, such as 'power: 4dF+2 adv'",
                    )
                asked.append(option)
            else:
                known = ", ".join((COIN, *power.OPTIONS) if self.ladder is POWER else (COIN,))
                written = option.name + (f"={option.value}" if option.value is not None else "")
                self._fail(
                    f"unknown option '{written}' for a {self.ladder.system} roll",
                    option.position,
                    f"{self.ladder.system} options: {known}",
                )
        options = power.power_options(asked, self.expression)
        if not side.written:
            # "vs Good": a situational roll, the default dice alone
            expr = DEFAULT_DICE
            pools = [DEFAULT_DICE]
        elif not pools and (words or opposed or self.ladder is POWER or coin):
            # A trait (or a bare modifier, in Power Fudge) rolls the default dice.
            expr = BinOp("+", expr, DEFAULT_DICE)
            pools = [DEFAULT_DICE]
        fudge_pool = None
        if options.asked or options.take_zero:
            fudge = [pool for pool in pools if pool.die.fudge]
            where = asked[0].position if asked else None
            if len(fudge) != 1:
                self._fail("advantage and take zero act on one pool of Fudge dice", where)
            fudge_pool = fudge[0]
            if fudge_pool.technique not in (None, "d6"):
                self._fail(
                    f"@{fudge_pool.technique} gives a result, not dice to ignore: "
                    "advantage and take zero need Fudge dice (or @d6)",
                    where,
                )
            if not plan(fudge_pool).plain:
                self._fail("advantage and take zero need Fudge dice without modifiers", where)
        if coin and not any(pool.die.fudge for pool in pools):
            self._fail(
                "the even/odd coin reads Fudge dice, such as '4dF coin'", coin_position(side)
            )
        return SidePlan(expr, options, coin, fudge_pool, exploding_dice(expr))

    def _check_pool(self, pool: Pool) -> None:
        plan(pool)  # the generic modifier rules first
        refuse_die_code(self.expression, pool)
        if pool.technique is None:
            return
        name = technique_name(pool.technique)
        if name is None:
            self._fail(
                f"unknown dice technique '@{pool.technique}'",
                pool.position,
                "techniques: @d6, @3d6, @d%, @4d6",
            )
        if pool.die != FUDGE_DIE:
            self._fail(
                "a technique reads ordinary dice as Fudge dice: write it after dF, such as 4dF@3d6",
                pool.position,
            )
        if not plan(pool).plain:
            self._fail("a pool read by a technique takes no modifiers", pool.position)
        if name != "d6" and pool.count != 4:
            self._fail(
                f"@{name} stands for exactly four Fudge dice: write 4dF@{name}",
                pool.position,
                "@d6 reads any number of Fudge dice from d6",
            )

    def _target(self, node: Node) -> int:
        for sub in walk_tree(node):
            if isinstance(sub, Pool):
                self._not_a_level(sub)
        return evaluate(node, self.word_value, self._not_a_level)

    def _not_a_level(self, pool: Pool) -> NoReturn:
        raise DiceValueError(
            "a difficulty is a level, not a roll",
            text=self.expression.text,
            position=pool.position,
            hint="use 'opp' for a side that rolls, such as 'Good opp Fair'",
        )


def coin_position(side: Side) -> int | None:
    return next((option.position for option in side.options if option.name == COIN), None)


def side_texts(expression: Expression) -> tuple[str, str]:
    """The two sides of an opposed roll as they were written."""
    body = expression.text.split("#", 1)[0]
    # patterns compiled on first use (re's cache): only an opposed roll's message reads them
    prefix = re.match(r"\s*[a-z0-9]+\s*:", body, re.IGNORECASE)
    if prefix:
        body = body[prefix.end() :]
    parts = re.split(r"\bopp\b", body, maxsplit=1, flags=re.IGNORECASE)
    if len(parts) != 2:
        return "the left side", "the right side"
    left, right = (part.strip() for part in parts)
    if left == right:
        # "4dF opp 4dF wins by 1" would not say which
        return f"the left side ({left})", f"the right side ({right})"
    return left or "the left side", right or "the right side"


def is_generic(expression: Expression) -> bool:
    """Nothing of Fudge in it: the generic dice language decides everything."""
    if expression.check is not None:
        return False
    # an option this system knows makes it a Fudge roll; any other is left to
    # the generic language, which says what is wrong with it
    ours = {COIN, *power.OPTIONS}
    if any(option.name in ours for option in expression.side.options):
        return False
    for node in walk_tree(expression.side.expr):
        if isinstance(node, Word):
            return False
        # a count of successes is a number of dice, not a degree on the ladder
        if isinstance(node, Pool) and (
            (node.die.fudge and node.counting is None) or node.technique
        ):
            return False
    return True
