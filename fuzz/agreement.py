"""What ``roll``, ``odds`` and ``sample`` may answer differently for one text
(docs/notation.md, "What roll, odds and sample agree on").

A text is accepted or refused once, when it compiles, with one message for
every request. After that a request may stop only for reasons of its own that
are no verdict on the text: the exact engine's cost (odds), a sample's own
bounds, and a divisor that can come up 0 (odds refuse the text; a roll fails
on the draws where it does). Anything else is a finding.
"""

from __future__ import annotations

from fudgedice import DiceError, DiceTypeError, LimitError, OverBudget
from fudgedice.limits import DEFAULT_LIMITS

CAME_UP_ZERO = "division by zero: the divisor came up 0"
"""A roll whose divisor came up 0 on the dice drawn."""
CAN_COME_UP_ZERO = "division by zero: the divisor can come up 0"
"""Odds whose divisor is 0 on some draws: no total there to count."""


def odds_only(error: DiceError) -> bool:
    """A refusal of exact odds that says nothing of the text: their cost
    (every limit of the exact engine names "exact odds"; the request's work
    budget), or a divisor that is 0 on some draws."""
    return (
        isinstance(error, OverBudget)
        or (isinstance(error, LimitError) and error.message.startswith("exact odds"))
        or error.message == CAN_COME_UP_ZERO
    )


def sample_only(error: DiceError) -> bool:
    """A refusal of a sample that says nothing of the text: its own bounds
    (rolls, tosses, int64 totals, work), or a divisor that came up 0 in one
    of its rolls (or that can, when it samples from the exact odds)."""
    return (
        isinstance(error, OverBudget)
        or (isinstance(error, LimitError) and "sampl" in error.message)
        or error.message in (CAME_UP_ZERO, CAN_COME_UP_ZERO)
    )


def of_the_arguments(error: DiceError) -> bool:
    """A refusal of a call's other arguments (a sample's number of rolls, a
    seed): made before the text is read, or of a text already accepted."""
    message = error.message
    return (
        isinstance(error, DiceTypeError)
        or message.startswith(("the number of rolls", "a seed"))
        or message.endswith(f"rolls is more than the limit of {DEFAULT_LIMITS.max_samples}")
    )


def disagreement(roll: DiceError | None, odds: DiceError | None) -> tuple[str, str] | None:
    """Why a roll's answer and the odds' answer to one text break the rule
    (each None: accepted), as (message, detail); None if they keep it."""
    if roll is not None and odds is not None and str(roll) == str(odds):
        return None  # one refusal, before either drew or measured
    if roll is not None:
        if roll.message == CAME_UP_ZERO and odds is not None and odds_only(odds):
            return None  # the dice's doing: the odds could not count this draw either
        return (
            "a roll is refused while its odds are not refused alike",
            f"roll: {roll}\nodds: {odds if odds is not None else 'measured'}",
        )
    if odds is not None and not odds_only(odds):
        return ("the odds of a text are refused while it rolls", f"odds: {odds}")
    return None
