"""The slash commands' work that may take long: module functions, picklable,
that the odds gate runs in its measuring process (:meth:`..odds.OddsGate.call`),
never on the event loop. Each refuses with a :class:`..problems.Problem`, as
``GET /api/odds`` does."""

from __future__ import annotations

import json
from typing import Any

from ...budget import within_budget
from ...chat.discord import chart_png
from ...comparisons import compare
from ...errors import DiceError, LimitError
from .. import rolling
from ..odds import MAX_ANSWER, measured
from ..problems import Problem

MAX_FACES = rolling.MAX_FACES


def odds(text: str, system: str, chart: bool) -> tuple[dict[str, Any], bytes | None]:
    """The table's odds of ``text`` (as ``GET /api/odds`` answers) and, if
    asked, their chart as a PNG."""
    answer = json.loads(measured(text, system))
    return answer, (chart_png(text, system) if chart else None)


def read(form: str, faces: str, system: str) -> dict[str, Any]:
    """Dice rolled by hand, read as ``form`` (the CLI's ``read``): the roll's JSON."""
    given = faces.split()
    if not given or len(given) > MAX_FACES:
        raise Problem(422, f"give between 1 and {MAX_FACES} faces, separated by spaces")
    program = rolling.program(form, system)
    try:
        return _refused_past(within_budget(program.read)(given).to_dict())
    except DiceError as error:
        raise _problem(error) from None


def compared(first: str, second: str, system: str) -> dict[str, Any]:
    """Two rolls' odds side by side (the CLI's ``compare --json``), each read
    in ``system`` unless it names its own."""
    for text in (first, second):
        rolling.program(text, system)  # refused as the table refuses a text
    forms = [rolling.log_text(text, system) for text in (first, second)]
    try:
        return _refused_past(within_budget(compare)(*forms).to_dict())
    except DiceError as error:
        raise _problem(error) from None


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
