"""The D6 System's rules (RULES.md section 4, seed 002), checked once per
roll into one :class:`SideRules` per side.

The roller (which also reads dice rolled by hand), the exact measurer
(:mod:`.measure`) and the NumPy sampler (:mod:`.sample`) all start from those
rules and from :meth:`SideRules.shape`, so they can't disagree about how many
dice are rolled, which one is wild, what a Fate Point doubles or what a
critical failure does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, NoReturn

from ...dice.arithmetic import evaluate
from ...errors import DiceValueError, LimitError
from ...language.diagnostics import suggest
from ...language.tree import Expression, Group, Neg, Node, Number, Option, Pool, Side, Word
from ...limits import DEFAULT_LIMITS
from .measure import CritRule, SideShape

Reduction = Literal["fast", "wildonly"]

CRIT_RULES: tuple[CritRule, ...] = ("complication", "cancel", "ignore")

DIFFICULTIES: dict[str, int] = {
    "very easy": 5,
    "easy": 10,
    "moderate": 15,
    "difficult": 20,
    "very difficult": 25,
    "heroic": 30,
    "legendary": 31,
}
"""OpenD6 difficulty words; a word means the top of its range (Legendary is 31+)."""

OPTIONS = ("nowild", "crit", "cp", "fp", "fast", "wildonly", "allow")
ALLOW_BOTH = "cpfp"
"""``allow=cpfp``: the GM lets Character Points and a Fate Point share a roll."""

REDUCTION_CHART_ROWS = 50
"""The seed's chart stops at 50D; its formula goes on."""


def _ceil_half(sevenths: int) -> int:
    """ceil(3.5 * n) in integers: the chart's "multiply by 3.5, round up"."""
    return -(-7 * sevenths // 2)


def bonus_5d(dice: int) -> int:
    """The chart's "5D" column: the bonus for rolling five dice of ``dice``D."""
    return max(0, _ceil_half(dice - 5))


def bonus_wild(dice: int) -> int:
    """The chart's "Wild Die" column: the bonus for rolling the Wild Die alone."""
    return max(0, _ceil_half(dice - 1))


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


@dataclass(frozen=True, slots=True)
class SideRules:
    """One side of a D6 System roll, checked: everything the interpreters need."""

    written: Code
    """The die code as written, normalised."""
    raw: tuple[int, int]
    """Dice and pips as written, before normalising (to explain ``2D+3``)."""
    wild: bool
    crit: CritRule
    character_points: int
    fate_point: bool
    reduction: Reduction | None

    @property
    def code(self) -> Code:
        """The code rolled: doubled, pips included, by a Fate Point."""
        if self.fate_point:
            return Code.of(2 * self.written.dice, 2 * self.written.pips)
        return self.written

    @property
    def rolled(self) -> int:
        """Dice rolled for the code (the Wild Die included, CP dice not)."""
        dice = self.code.dice
        if self.reduction == "fast":
            return min(dice, 5)
        if self.reduction == "wildonly":
            return 1
        return dice

    @property
    def bonus(self) -> int:
        if self.reduction == "fast":
            return bonus_5d(self.code.dice)
        if self.reduction == "wildonly":
            return bonus_wild(self.code.dice)
        return 0

    @property
    def effective_crit(self) -> CritRule:
        # Seed 002: with only the Wild Die, a critical failure "only indicates
        # a complication ... it does not affect the total rolled".
        if self.reduction == "wildonly" and self.crit != "ignore":
            return "complication"
        return self.crit

    def shape(self) -> SideShape:
        return SideShape(
            plain=self.rolled - int(self.wild),
            wild=self.wild,
            character_points=self.character_points,
            modifier=self.code.pips + self.bonus,
            crit=self.effective_crit,
        )


def _fail(
    expression: Expression, message: str, position: int | None, hint: str | None = None
) -> DiceValueError:
    return DiceValueError(message, text=expression.text, position=position, hint=hint)


def _code_parts(expression: Expression, node: Node) -> tuple[int, int]:
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
        return _code_parts(expression, node.inner)
    if isinstance(node, Neg):
        dice, pips = _code_parts(expression, node.operand)
        return -dice, -pips
    if isinstance(node, Word):
        hint = "difficulty words go after 'vs': d6: 4D+2 vs Moderate"
        raise _fail(expression, f"'{node.text}' is not part of a die code", node.position, hint)
    if node.op in "+-":
        left = _code_parts(expression, node.left)
        right = _code_parts(expression, node.right)
        sign = 1 if node.op == "+" else -1
        return left[0] + sign * right[0], left[1] + sign * right[1]
    raise DiceValueError(
        f"die codes are added and subtracted, not {'multiplied' if node.op == '*' else 'divided'}",
        text=expression.text,
        hint="a Fate Point doubles a code: d6: 4D+2 fp",
    )


_CP = re.compile(r"cp([0-9]*)")


def _side_rules(expression: Expression, side: Side, inherited_crit: CritRule | None) -> SideRules:
    if not side.written:
        raise _fail(
            expression,
            "a D6 System roll names its die code before 'vs'",
            None,
            f"such as 'd6: 4D+2 {expression.text.split(':', 1)[-1].strip()}'",
        )
    dice, pips = _code_parts(expression, side.expr)
    written = Code.of(dice, pips)
    if written.dice < 1:
        raise _fail(
            expression,
            f"a die code needs at least 1D ({dice}D{pips:+d} is {written})",
            None,
        )
    seen: dict[str, Option] = {}
    wild = True
    crit: CritRule | None = None
    character_points = 0
    fate_point = False
    reduction: Reduction | None = None
    allowed = False
    for option in side.options:
        name, value = option.name, option.value
        cp = _CP.fullmatch(name)
        key = "cp" if cp else "reduction" if name in ("fast", "wildonly", "faster") else name
        if key in seen:
            earlier = seen[key].name
            if key == "reduction" and earlier != name:
                raise _fail(
                    expression,
                    f"'{earlier}' and '{name}' are two dice reductions: a roll takes one",
                    option.position,
                    "fast rolls five dice, wildonly the Wild Die alone",
                )
            raise _fail(
                expression,
                f"'{option.name}' repeats an option already given on this side",
                option.position,
            )
        seen[key] = option
        if cp:
            count_text = cp.group(1) if value is None else value
            if (value is not None and cp.group(1)) or not (count_text or "1").isdigit():
                raise _fail(expression, "write Character Points as cp2 or cp=2", option.position)
            if len(count_text) > 6:
                raise LimitError(
                    "write Character Points as a small number, such as cp2",
                    text=expression.text,
                    position=option.position,
                )
            character_points = int(count_text or "1")
            limit = DEFAULT_LIMITS.max_character_points
            if character_points > limit:
                raise LimitError(
                    f"{character_points} Character Points on one roll is more than the "
                    f"limit of {limit}",
                    text=expression.text,
                    position=option.position,
                    hint=f"each is an exploding die of its own; cp{limit} is the most one roll "
                    "may spend",
                )
        elif name == "crit":
            if value not in CRIT_RULES:
                raise _fail(
                    expression,
                    f"crit takes one of {', '.join(CRIT_RULES)}",
                    option.position,
                    suggest(value or "", CRIT_RULES),
                )
            crit = value
        elif name == "allow":
            if value != ALLOW_BOTH:
                raise _fail(
                    expression,
                    f"allow={ALLOW_BOTH} is the only permission a roll can carry "
                    "(Character Points with a Fate Point)",
                    option.position,
                )
            allowed = True
        elif value is not None:
            raise _fail(expression, f"'{name}' takes no value", option.position)
        elif name == "nowild":
            wild = False
        elif name == "fp":
            fate_point = True
        elif name in ("fast", "wildonly", "faster"):
            reduction = "fast" if name == "fast" else "wildonly"
        else:
            raise _fail(
                expression,
                f"unknown D6 System option '{name}'",
                option.position,
                suggest(name, [*OPTIONS, "cp2", "crit=cancel"])
                or f"options: nowild, crit=..., cpN, fp, fast, wildonly, allow={ALLOW_BOTH}",
            )
    if fate_point and character_points and not allowed:
        raise _fail(
            expression,
            "Character Points and a Fate Point on the same roll need the GM's permission",
            seen["fp"].position,
            f"if your GM allows it, add 'allow={ALLOW_BOTH}'",
        )
    if crit is not None and not wild:
        raise _fail(
            expression,
            "crit sets what a Wild Die 1 does, and this roll has no Wild Die (nowild)",
            seen["crit"].position,
            "drop crit=..., or drop nowild to roll the Wild Die",
        )
    if reduction == "wildonly" and not wild:
        raise _fail(
            expression,
            "wildonly rolls the Wild Die alone, so it can't go with nowild",
            seen["reduction"].position,
        )
    rules = SideRules(
        written,
        (dice, pips),
        wild,
        crit or inherited_crit or "complication",
        character_points,
        fate_point,
        reduction,
    )
    if rules.code.dice > DEFAULT_LIMITS.max_dice:
        raise LimitError(
            f"{rules.code} is more than the limit of {DEFAULT_LIMITS.max_dice} dice",
            text=expression.text,
        )
    return rules


def _difficulty_key(text: str) -> str:
    return "".join(char for char in text.lower() if char.isalpha())


_DIFFICULTY_KEYS = {_difficulty_key(phrase): value for phrase, value in DIFFICULTIES.items()}


def difficulty_of(expression: Expression, node: Node) -> int:
    """A difficulty: a number, a word (the top of its range) or arithmetic of them."""

    def word_value(word: Word) -> int:
        value = _DIFFICULTY_KEYS.get(_difficulty_key(word.text))
        if value is None:
            names = [phrase.title() for phrase in DIFFICULTIES]
            raise _fail(
                expression,
                f"unknown difficulty '{word.text}'",
                word.position,
                suggest(word.text, names) or f"difficulties: {', '.join(names)}",
            )
        return value

    def no_dice(pool: Pool) -> NoReturn:
        raise _fail(
            expression,
            "a difficulty is a number or a word; to roll against another code use 'opp'",
            pool.position,
            "d6: 4D+2 opp 3D+1",
        )

    return evaluate(node, word_value, no_dice, what="the difficulty divides by 0")
