"""A D6 System die code, ``ND+P``, and how one is read from the parse tree:
die codes and pips added and subtracted (``4D+2 +1D``), never multiplied."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import DiceValueError
from ...language.tree import Expression, Group, Neg, Node, Number, Pool, Word


@dataclass(frozen=True, slots=True)
class Code:
    """A die code ``ND+P`` with 0 <= P < 3: three pips make a die."""

    dice: int
    pips: int

    @staticmethod
    def of(dice: int, pips: int) -> Code:
        # Pips below zero borrow a die, as on a character sheet: 4D-1 is 3D+2.
        whole, rest = divmod(3 * dice + pips, 3)
        return Code(whole, rest)

    def __str__(self) -> str:
        return f"{self.dice}D" + (f"+{self.pips}" if self.pips else "")


NO_CODE = Code(0, 0)
"""No dice and no pips: what a side without a weapon's or armor's code adds."""


def _fail(
    expression: Expression, message: str, position: int | None, hint: str | None = None
) -> DiceValueError:
    return DiceValueError(message, text=expression.text, position=position, hint=hint)


def code_parts(expression: Expression, node: Node) -> tuple[int, int]:
    """(dice, pips) of an expression of die codes and pips: ``4D+2 +1D``."""
    if isinstance(node, Number):
        return 0, node.value
    if isinstance(node, Pool):
        if not node.die_code:
            raise _fail(
                expression,
                f"the D6 System rolls die codes, not {node.source}",
                node.position,
                f"write {node.count}D for {node.count} six-sided dice",
            )
        if node.reroll or node.explode or node.keep or node.counting or node.technique:
            raise _fail(
                expression,
                f"{node.source}: a die code takes no dice modifiers; the Wild Die, "
                "Character Points and Fate Points are options (nowild, cp2, fp)",
                node.position,
            )
        return node.count, 0
    if isinstance(node, Group):
        return code_parts(expression, node.inner)
    if isinstance(node, Neg):
        dice, pips = code_parts(expression, node.operand)
        return -dice, -pips
    if isinstance(node, Word):
        hint = "difficulty words go after 'vs': d6: 4D+2 vs Moderate"
        raise _fail(expression, f"'{node.text}' is not part of a die code", node.position, hint)
    if node.op in "+-":
        left = code_parts(expression, node.left)
        right = code_parts(expression, node.right)
        sign = 1 if node.op == "+" else -1
        return left[0] + sign * right[0], left[1] + sign * right[1]
    raise DiceValueError(
        f"die codes are added and subtracted, not {'multiplied' if node.op == '*' else 'divided'}",
        text=expression.text,
        hint="a Fate Point doubles a code: d6: 4D+2 fp",
    )
