"""The word rule of a roll read on a ladder: a word such as ``Great`` is the
level it names on the system's ladder, and any other word is a mistake that
points at the word and suggests the nearest one.

Shared by Fudge, Power Fudge and Fate, whose ladders differ (``Good`` is +1
on Fudge's, +3 on Fate's) but whose rule for words is the same.
"""

from __future__ import annotations

from ..errors import DiceValueError
from ..language.tree import Expression, Word
from ..render.ladder import Ladder


class LadderWords:
    """A :data:`~fudgedice.dice.arithmetic.WordValue`: a word is a level on
    ``ladder``; ``title`` names the ladder in a refusal (its system by default)."""

    def __init__(self, ladder: Ladder, expression: Expression, title: str | None = None) -> None:
        self.ladder = ladder
        self.expression = expression
        self.title = ladder.system if title is None else title
        self._known: dict[str, int] = {}
        """Each word's level, once read (a roll reads its words on every roll)."""

    def __call__(self, word: Word) -> int:
        known = self._known.get(word.text)
        if known is not None:
            return known
        value = self.ladder.value_of(word.text)
        if value is not None and len(self._known) < 64:
            self._known[word.text] = value
        if value is None:
            raise DiceValueError(
                f"'{word.text}' is not a word of the {self.title} ladder",
                text=self.expression.text,
                position=word.position,
                hint=self.ladder.suggest(word.text),
            )
        return value
