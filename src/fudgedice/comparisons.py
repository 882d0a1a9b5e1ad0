"""Rolls measured side by side: ``fudgedice.compare`` and the command
``fudgedice compare``. Each roll may be of any system and is labelled by its
``# label``, or else by its text."""

from __future__ import annotations

from pathlib import Path

from .api import D100Table, program_with_table, shown
from .budget import within_budget
from .errors import DiceError, DiceValueError, LimitError
from .render.views import COMPARISON_RENDERERS
from .results.comparison import Compared, Comparison

MAX_COMPARED = 8
"""Rolls one comparison may set side by side: more columns than a screen holds."""


@within_budget
def compare(*forms: str, d100_table: str | Path | D100Table | None = None) -> Comparison:
    """The exact odds of two rolls or more, side by side: of any systems,
    each labelled by its ``# label`` or else by its text.

    >>> compared = compare("4dF", "4dF@3d6 # three d6")
    >>> compared.labels
    ['4dF', 'three d6']
    >>> compared["three d6"].at_least(1)
    Fraction(3, 8)
    """
    if len(forms) < 2:
        raise DiceValueError(
            f"compare takes two rolls or more, not {len(forms)}",
            hint="such as compare('4dF', '4dF@3d6'); odds() measures one roll",
        )
    if len(forms) > MAX_COMPARED:
        raise LimitError(f"compare takes at most {MAX_COMPARED} rolls, not {len(forms)}")
    compared: list[Compared] = []
    for number, form in enumerate(forms, start=1):
        try:
            program = program_with_table(form, d100_table)
            measured = shown(program.odds())
        except DiceError as error:
            # which of the rolls: the message says, the caret shows where
            raise type(error)(
                f"roll {number} of {len(forms)}: {error.message}",
                text=error.text,
                position=error.position,
                hint=error.hint,
            ) from None
        label = program.expression.label or " ".join(program.expression.text.split())
        if label in [each.label for each in compared]:
            raise DiceValueError(
                f"two rolls are called '{label}'",
                hint="name each roll with a label of its own, such as '4dF # plain'",
            )
        compared.append(Compared(label, measured))
    return Comparison(tuple(compared), COMPARISON_RENDERERS)
