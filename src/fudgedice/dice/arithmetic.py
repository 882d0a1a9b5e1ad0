"""Dice-free arithmetic: the one evaluator of numbers, words and operators.

A rolled expression combines its parts with :func:`operate`; a difficulty, a
skill or a trait level (arithmetic with no dice in it) is worked out by
:func:`evaluate`, each system saying what its words are worth and what a die
written there means.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from ..errors import DiceError, DiceValueError
from ..language.tree import BinOp, Group, Neg, Node, Number, Pool, Word

WordValue = Callable[[Word], int]
"""What a word is worth in a system (``Good`` is +1 in Fudge, 6 in 3d6 Fudge)."""


def operate(op: str, x: int, y: int, *, what: str = "the divisor came up 0") -> int:
    """One arithmetic step (``what`` says where a zero divisor was); ``/`` rounds down."""
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    if y == 0:
        raise DiceValueError(f"division by zero: {what}")
    return x // y


def evaluate(
    node: Node,
    word_value: WordValue,
    no_dice: Callable[[Pool], NoReturn],
    *,
    what: str = "the divisor is 0",
) -> int:
    """The value of arithmetic with no dice in it; ``no_dice`` raises the
    system's own error for a pool written where no roll belongs."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Word):
        return word_value(node)
    if isinstance(node, Group):
        return evaluate(node.inner, word_value, no_dice, what=what)
    if isinstance(node, Neg):
        return -evaluate(node.operand, word_value, no_dice, what=what)
    if isinstance(node, Pool):
        no_dice(node)
    assert isinstance(node, BinOp)
    left = evaluate(node.left, word_value, no_dice, what=what)
    right = evaluate(node.right, word_value, no_dice, what=what)
    return operate(node.op, left, right, what=what)


def fixed(node: Node, word_value: WordValue) -> int | None:
    """The value ``node`` has whatever the dice show (None: it depends on
    them): numbers and words, pools of no dice, and what arithmetic makes of
    them (0 times anything is 0)."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Word):
        try:
            return word_value(node)
        except DiceError:  # a word this system reads otherwise (a difficulty)
            return None
    if isinstance(node, Pool):
        return 0 if node.count == 0 else None  # no dice: no sum, no success, no reading
    if isinstance(node, Group):
        return fixed(node.inner, word_value)
    if isinstance(node, Neg):
        value = fixed(node.operand, word_value)
        return None if value is None else -value
    assert isinstance(node, BinOp)
    left, right = fixed(node.left, word_value), fixed(node.right, word_value)
    if node.op == "*" and 0 in (left, right):
        return 0
    if left is None or right is None or (node.op == "/" and right == 0):
        return None
    return operate(node.op, left, right)
