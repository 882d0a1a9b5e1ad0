"""The checks of a roll's text that more than one system makes, each written
once: a system's ``Program._check`` calls those it needs, and the generic
dice language (:class:`.program.Program`) calls them all."""

from __future__ import annotations

import re
from typing import NoReturn

from ..errors import DiceValueError
from ..language.diagnostics import modifier_typo, suggest
from ..language.tree import Damage, Expression, Opposed, Option, Pool, Word, walk
from ..language.words import Vocabulary
from .arithmetic import WordValue
from .pools import plan


def refuse_option(expression: Expression, option: Option, vocabulary: Vocabulary) -> NoReturn:
    """Refuse an option the roll's system does not know, with the nearest
    fix: a modifier written apart from its pool, a die split from its count,
    a word of the vocabulary."""
    typo = modifier_typo(expression, option)
    if typo is not None:
        raise typo
    hint = suggest(option.name, vocabulary)
    # the patterns are compiled on a refusal only: a roll that starts compiles none
    if re.fullmatch(r"d(?:[0-9]+|%|f(?:\.[12])?)", option.name):
        # "3 d6": the count and the die were split by a space
        before = expression.text[: option.position].rstrip()
        count = re.search(r"(?<![a-z0-9%.])[0-9]+$", before, re.IGNORECASE)
        written = f"{count.group(0) if count else ''}{option.name}"
        hint = f"write the number of dice against the die, as in '{written}'"
    raise DiceValueError(
        f"unknown option '{option.name}'",
        text=expression.text,
        position=option.position,
        hint=hint,
    )


def refuse_check(expression: Expression) -> None:
    """Refuse a ``vs``, ``opp`` or ``dmg`` in a system that reads none."""
    if expression.check is not None:
        raise DiceValueError(f"the {expression.system} system has no 'vs' or 'opp'")


_PART_DICE = {
    "weapon": "a weapon's dice to a D6 System damage roll",
    "armor": "armor's dice to a D6 System resistance roll",
}


def refuse_damage(expression: Expression) -> None:
    """Refuse the D6 System's damage roll (``dmg``) and the parts of a side
    that are not the character's own (``weapon 2D``, ``armor 1D``) in a
    system that reads neither: no other system may take them for anything."""
    text = expression.text
    if isinstance(expression.check, Damage):
        written = re.search(r"\bdmg\b", text, re.IGNORECASE)
        raise DiceValueError(
            "'dmg' rolls damage against resistance, a D6 System roll",
            text=text,
            position=written.start() if written else None,
            hint="write it with the d6: prefix, such as 'd6: 5D+1 dmg 3D+2'",
        )
    other = expression.check.other if isinstance(expression.check, Opposed) else None
    for side in (expression.side, other):
        for part in side.parts if side is not None else ():
            raise DiceValueError(
                f"'{part.name}' adds {_PART_DICE[part.name]}",
                text=text,
                position=part.position,
                hint="write it with the d6: prefix, such as 'd6: 3D+1 weapon 2D dmg 3D+2 armor 1D'",
            )


def refuse_die_code(expression: Expression, pool: Pool) -> None:
    """Refuse a D6 System die code (``3D``) outside the D6 System; ``3d``
    alone lacks the kind of die."""
    if not pool.die_code:
        return
    if "d" in pool.source:
        raise DiceValueError(
            f"'{pool.source}' needs the kind of die after the d",
            text=expression.text,
            position=pool.position,
            hint=f"such as '{pool.source}6' or '{pool.source}F'; D6 System "
            "die codes are written with the d6: prefix, as in 'd6: 4D+2'",
        )
    body = expression.text
    prefix = re.match(r"\s*[a-z0-9]+\s*:", body, re.IGNORECASE)
    if prefix:
        body = body[prefix.end() :].strip()
    raise DiceValueError(
        "die codes like 3D belong to the D6 System",
        text=expression.text,
        position=pool.position,
        hint=f"write it with the d6: prefix, as in 'd6: {body}'",
    )


def refuse_technique(expression: Expression, pool: Pool) -> None:
    """Refuse a dice technique (``@``) in a system that reads none."""
    if pool.technique:
        raise DiceValueError(
            "dice techniques (@) read Fudge dice: use them on dF, as in '4dF@3d6'",
            text=expression.text,
            position=pool.position,
        )


def check_generic(expression: Expression, vocabulary: Vocabulary, word_value: WordValue) -> None:
    """Refuse what the generic dice language does not define: every option,
    a check, a pool's modifier rules (before any die is tossed), die codes,
    techniques, and words ``word_value`` does not read."""
    for option in expression.side.options:
        refuse_option(expression, option, vocabulary)
    refuse_check(expression)
    for node in walk(expression.side.expr):
        if isinstance(node, Pool):
            plan(node)
            refuse_die_code(expression, node)
            refuse_technique(expression, node)
        elif isinstance(node, Word):
            word_value(node)
