"""From a whole parsed roll (system, options, check) to a Roll, Odds or samples.

The expression interpreters (:mod:`roller`, :mod:`measure`, :mod:`sampling`)
know only dice and arithmetic; a :class:`Program` knows what a system adds
around them. It is built once per text (and cached), so everything that can
be checked without rolling is checked once.

Each system (:mod:`fudgedice.systems`) registers a factory that turns a
parsed :class:`~fudgedice.tree.Expression` into its own :class:`Program`;
:class:`Program` itself is the generic dice language that systems build on.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .dist import Dist
from .errors import DiceError, DiceValueError, LimitError
from .hand import HandRoller
from .measure import WordValue, exploding_dice, measure
from .odds import Odds
from .parser import modifier_typo, parse, suggest_word
from .pools import plan
from .roller import Roller, roll_node
from .rolls import Roll
from .sampling import sample_dist, sample_node
from .tree import Expression, Pool, Word, walk

_TABLE_TOTAL = 1 << 62
"""Largest total whose exact distribution can be sampled with int64 draws."""


def no_words(expression: Expression) -> WordValue:
    def word_value(word: Word) -> int:
        raise DiceValueError(
            f"unknown word '{word.text}'",
            text=expression.text,
            position=word.position,
            hint=suggest_word(word.text),
        )

    return word_value


class Program:
    """A checked roll, ready to be rolled, measured or sampled."""

    def __init__(self, expression: Expression) -> None:
        self.expression = expression
        self.word_value = no_words(expression)
        self._check()

    def _check(self) -> None:
        """Refuse what the generic dice language does not define."""
        expression = self.expression
        for option in expression.side.options:
            typo = modifier_typo(expression, option)
            if typo is not None:
                raise typo
            hint = suggest_word(option.name)
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
        if expression.check is not None:
            raise DiceValueError(f"the {expression.system} system has no 'vs' or 'opp'")
        for node in walk(expression.side.expr):
            if isinstance(node, Pool):
                plan(node)  # modifier rules: refused here, before any die is tossed
                if node.die_code and "d" in node.source:
                    raise DiceValueError(
                        f"'{node.source}' needs the kind of die after the d",
                        text=expression.text,
                        position=node.position,
                        hint=f"such as '{node.source}6' or '{node.source}F'; D6 System "
                        "die codes are written with the d6: prefix, as in 'd6: 4D+2'",
                    )
                if node.die_code:
                    raise DiceValueError(
                        "die codes like 3D belong to the D6 System",
                        text=expression.text,
                        position=node.position,
                        hint=f"write it with the d6: prefix, as in 'd6: {expression.text}'",
                    )
                if node.technique:
                    raise DiceValueError(
                        "dice techniques (@) read Fudge dice: use them on dF, as in '4dF@3d6'",
                        text=expression.text,
                        position=node.position,
                    )
            elif isinstance(node, Word):
                self.word_value(node)

    def roll(self, rng: random.Random, seed: int | str | None) -> Roll:
        return self.roll_with(Roller(rng), seed)

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        """Roll with any source of faces: random (:meth:`roll`) or by hand (:meth:`read`).

        Systems override this one method, so rolling and reading never differ."""
        expression = self.expression
        part = roll_node(expression.side.expr, roller, self.word_value)
        return Roll(
            expression.text, expression.system, part.total, part, seed=seed, label=expression.label
        )

    def read(self, faces: Sequence[str]) -> Roll:
        """Interpret dice rolled by hand: ``faces`` as written, in the order rolled."""
        roller = HandRoller(faces)
        result = self.roll_with(roller, None)
        roller.finish()
        return result

    def dist(self) -> Dist:
        node = self.expression.side.expr
        return measure(node, self.word_value, exploding_dice(node))

    def odds(self) -> Odds:
        return Odds(self.expression.text, self.expression.system, self.dist())

    def sample(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        node = self.expression.side.expr
        if exploding_dice(node) == 0:
            # One integer draw per roll from the exact distribution, when it is
            # small enough: as exact as tossing each die, and far faster.
            try:
                exact = self.dist()
            except LimitError:
                exact = None
            if exact is not None and exact.total <= _TABLE_TOTAL:
                return sample_dist(exact, n, rng)
        return sample_node(node, rng, n, self.word_value)


ProgramFactory = Callable[[Expression], Program]

_SYSTEMS: dict[str, ProgramFactory] = {}


def register_system(name: str, factory: ProgramFactory) -> None:
    """Make ``name:`` rolls compile with ``factory``."""
    _SYSTEMS[name] = factory


def program_for(expression: Expression) -> Program:
    from . import systems

    systems.load()
    factory = _SYSTEMS.get(expression.system)
    if factory is None:
        raise DiceValueError(f"the {expression.system} system is not available yet")
    return factory(expression)


@lru_cache(maxsize=4096)
def compile_roll(text: str) -> Program:
    """The checked program for ``text`` (cached by text)."""
    expression = parse(text)
    try:
        return program_for(expression)
    except DiceError as error:
        # Pool rules (pools.plan) are cached per pool and know no text: quote
        # the roll here so that the position they give gets its ^.
        if error.text is None and error.position is not None:
            error.text = text
        raise
