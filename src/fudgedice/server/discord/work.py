"""The slash commands' work that may take long: module functions, picklable,
that the odds gate runs in its measuring process (:meth:`..odds.OddsGate.call`),
never on the event loop. Each answers the message itself (formatting a long
answer is work too, and a message is smaller to hand back than the answer)
and refuses with a :class:`..problems.Problem`, as ``GET /api/odds`` does."""

from __future__ import annotations

import json
from typing import Any

from ...budget import within_budget
from ...chat import discord as chat
from ...comparisons import compare
from ...errors import DiceError, LimitError
from .. import rolling
from ..odds import MAX_ANSWER, measured
from ..problems import Problem

MAX_FACES = rolling.MAX_FACES
CHART = "odds.png"
"""The name of the chart /odds attaches, which its embed shows as its image."""


def odds(text: str, system: str, chart: bool) -> tuple[dict[str, Any], bytes | None]:
    """The message of the table's odds of ``text`` (``GET /api/odds``'s) and,
    if asked, their chart as a PNG."""
    answer = json.loads(measured(text, system))
    message = chat.fit(chat.odds_message(answer, text=text, chart=CHART if chart else None))
    return message, (chat.chart_png(text, system) if chart else None)


def read(form: str, faces: str, system: str) -> dict[str, Any]:
    """The message of dice rolled by hand, read as ``form`` (the CLI's ``read``)."""
    given = faces.split()
    if not given or len(given) > MAX_FACES:
        raise Problem(422, f"give between 1 and {MAX_FACES} faces, separated by spaces")
    program = rolling.program(form, system)
    try:
        roll = _refused_past(within_budget(program.read)(given).to_dict())
    except DiceError as error:
        raise _problem(error) from None
    return chat.fit(chat.read_message(roll))


def compared(first: str, second: str, system: str) -> dict[str, Any]:
    """The message of two rolls' odds side by side (the CLI's ``compare
    --json``), each read in ``system`` unless it names its own."""
    for text in (first, second):
        rolling.program(text, system)  # refused as the table refuses a text
    forms = [rolling.log_text(text, system) for text in (first, second)]
    try:
        comparison = _refused_past(within_budget(compare)(*forms).to_dict())
    except DiceError as error:
        raise _problem(error) from None
    return chat.fit(chat.compare_message(comparison))


def _problem(error: DiceError) -> Problem:
    if isinstance(error, LimitError):
        return Problem(413, error.message, position=error.position, hint=error.hint)
    return Problem.from_dice(error)


def _refused_past(answer: dict[str, Any]) -> dict[str, Any]:
    """``answer``, if its JSON is within what the table answers."""
    size = len(json.dumps(answer))
    if size > MAX_ANSWER:
        raise Problem(413, f"the answer would take {size:,} bytes; the table gives {MAX_ANSWER:,}")
    return answer
