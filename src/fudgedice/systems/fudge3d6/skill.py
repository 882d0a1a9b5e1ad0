"""A 3d6 Fudge skill as written: levels, numbers and modifiers, no dice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NoReturn

from ...dice.arithmetic import evaluate
from ...errors import DiceValueError
from ...language.diagnostics import suggest
from ...language.tree import Group, Neg, Node, Number, Pool, Side, Word
from .rules import HIGHEST_SKILL, LEVELS, LOWEST_SKILL, WORDS, level_name


def _skill_value(node: Node, text: str) -> int:
    """A skill is arithmetic on levels and numbers: no dice."""

    def level(word: Word) -> int:
        value = LEVELS.get(word.text.lower())
        if value is None:
            raise DiceValueError(
                f"'{word.text}' is not a 3d6 Fudge level",
                text=text,
                position=word.position,
                hint=suggest(word.text, list(LEVELS))
                or "levels: " + ", ".join(WORDS[n] for n in sorted(WORDS)),
            )
        return value

    def no_dice(pool: Pool) -> NoReturn:
        raise DiceValueError(
            f"'{pool.source}': a 3d6 Fudge skill is a level, not dice "
            "(the system rolls 3d6 itself)",
            text=text,
            position=pool.position,
            hint="write the skill and its modifiers, such as '3d6fudge: Good-1'",
        )

    return evaluate(node, level, no_dice, what="the skill divides by 0")


def _skill_text(node: Node) -> str:
    """The skill as written, compactly: ``Good-2``."""
    if isinstance(node, Number):
        return str(node.value)
    if isinstance(node, Word):
        return node.text
    if isinstance(node, Group):
        return f"({_skill_text(node.inner)})"
    if isinstance(node, Neg):
        return f"-{_skill_text(node.operand)}"
    if isinstance(node, Pool):
        return node.source
    return f"{_skill_text(node.left)}{node.op}{_skill_text(node.right)}"


@dataclass(frozen=True, slots=True)
class Skill:
    """One side's modified skill, checked once when the roll is compiled."""

    written: str
    raw: int
    value: int
    steps: list[str] = field(default_factory=list, compare=False)

    @staticmethod
    def of(side: Side, text: str) -> Skill:
        for option in side.options:
            raise DiceValueError(
                f"3d6 Fudge has no option '{option.name}'",
                text=text,
                position=option.position,
                hint="modifiers move the skill: '3d6fudge: Good+1'",
            )
        raw = _skill_value(side.expr, text)
        if raw > HIGHEST_SKILL:
            raise DiceValueError(
                f"a skill of {raw} is more than {HIGHEST_SKILL}; from 11 up every roll "
                "but a critical failure succeeds",
                text=text,
            )
        written = _skill_text(side.expr)
        value = max(raw, LOWEST_SKILL)
        steps = []
        if isinstance(side.expr, Number) and raw == value:
            steps.append(f"skill {level_name(value)}")
        elif isinstance(side.expr, Word):
            steps.append(f"skill {written} = {value}")
        elif raw == value:
            steps.append(f"skill {written} = {level_name(value)}")
        else:
            steps.append(
                f"skill {written} = {raw}, raised to {level_name(value)}: "
                "never modified below Abysmal"
            )
        return Skill(written, raw, value, steps)
