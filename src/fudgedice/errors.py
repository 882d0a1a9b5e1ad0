"""One error family for everything the roll language can refuse.

Every surface maps these once: the CLI prints the message and exits with
``exit_code``; nothing below ever shows a traceback for bad input.
"""

from __future__ import annotations


class DiceError(Exception):
    """Base of every error fudgedice raises on purpose."""

    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        text: str | None = None,
        position: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.position = position
        self.hint = hint

    def __str__(self) -> str:
        lines = [self.message]
        if self.text is not None and self.position is not None:
            # Point at the column so that a long expression needs no counting.
            lines.append(f"  {self.text}")
            lines.append("  " + " " * self.position + "^")
        if self.hint:
            lines.append(self.hint)
        return "\n".join(lines)


class DiceSyntaxError(DiceError):
    """The text is not a sentence of the roll language."""


class DiceValueError(DiceError):
    """The text parses but asks for something meaningless (``d0``, ``3d6kh4``)."""


class ChangedRule(DiceValueError):
    """A text the language now refuses that it once rolled, under a rule since
    corrected. ``formerly`` is the text that rolls as this one then rolled,
    dice for dice, so that a log kept before the change still verifies: a
    verifier rolls it in the refused text's place (docs/fairness.md)."""

    def __init__(
        self,
        message: str,
        *,
        formerly: str,
        text: str | None = None,
        position: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message, text=text, position=position, hint=hint)
        self.formerly = formerly


class DiceTypeError(DiceValueError, TypeError):
    """A value of the wrong kind was passed to the API (a number where a roll's
    text belongs): the project's own error, and a TypeError to Python."""


class LimitError(DiceError):
    """The request is well formed but would take too long or too much memory."""


class TooManyDice(LimitError):
    """A single roll needed more dice than the limit allows."""


class OverBudget(LimitError):
    """The request's work, all its steps together, would pass its budget
    (:mod:`fudgedice.budget`): never a verdict on the input itself."""
