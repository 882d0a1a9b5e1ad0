"""Roll texts read in a room's system, and the checks on what a request asks
for that the roll language itself does not make."""

from __future__ import annotations

from ..api import DICE, SYSTEMS
from ..dice.program import Program
from ..errors import DiceError, TooManyDice
from ..limits import DEFAULT_LIMITS
from ..names import refusal
from .problems import Problem, unprocessable

MAX_TEXT = DEFAULT_LIMITS.max_text
"""Characters in a roll text: longer is 413, before the language reads it."""
MAX_NAME = 60
MAX_LABEL = 200
MAX_CLIENT_SEED = 64
MAX_FACES = 1000
MAX_ROLL_DICE = 500
"""Dice one roll at the table may toss: every die's story is stored with the
roll and sent to every member (one of ``10000d10000`` took a megabyte), while
a table's rolls need a few dozen."""


def system_name(given: str | None) -> str:
    name = (given or SYSTEMS.default).strip().lower()
    if name not in SYSTEMS:
        raise unprocessable(f"unknown system '{given}'", hint=f"systems: {', '.join(SYSTEMS)}")
    return name


def program(text: str, system: str) -> Program:
    """The checked roll. A text that names no system is read in the room's,
    its errors pointing at the columns of the text as typed."""
    if len(text) > MAX_TEXT:
        raise Problem(413, f"a roll text is at most {MAX_TEXT} characters, not {len(text)}")
    _plain(text, "a roll text")
    try:
        expression = DICE.parse(text)
        if expression.system_position is not None or system == SYSTEMS.default:
            return DICE.compile(text)
        prefix = f"{system}: "
        try:
            return DICE.compile(prefix + text)
        except DiceError as error:
            if error.text == prefix + text:
                error.text = text
                if error.position is not None:
                    error.position = max(0, error.position - len(prefix))
            raise
    except DiceError as error:
        raise Problem.from_dice(error) from None


def log_text(text: str, system: str) -> str:
    """The text as the log records it: what the project reads on its own, so
    that ``fudgedice verify`` re-rolls it in the room's system. Called once
    :func:`program` has accepted the text."""
    if system == SYSTEMS.default or DICE.parse(text).system_position is not None:
        return text
    return f"{system}: {text}"


def as_typed(error: DiceError, text: str, system: str) -> DiceError:
    """An error of the text the log records, pointing into the text as typed."""
    written = log_text(text, system)
    if written != text and error.text == written:
        error.text = text
        if error.position is not None:
            error.position = max(0, error.position - (len(written) - len(text)))
    return error


def name(given: str, what: str = "a name", limit: int = MAX_NAME) -> str:
    """A name or label as typed (shown as text, never markup), trimmed; no
    control or format characters (:mod:`fudgedice.names`), so that a log or
    CSV line stays one line and no name reads as another."""
    cleaned = given.strip()
    if not cleaned:
        raise unprocessable(f"{what} must not be empty")
    if len(cleaned) > limit:
        raise Problem(413, f"{what} is at most {limit} characters, not {len(cleaned)}")
    _plain(cleaned, what)
    return cleaned


def _plain(given: str, what: str) -> None:
    """Refuse (422) what no name, label or roll text may hold (:mod:`..names`)."""
    refused = refusal(given, what)
    if refused is not None:
        raise unprocessable(refused)


def roll_size(program: Program) -> Program:
    """Refuse (413) a roll text that may toss more than :data:`MAX_ROLL_DICE`
    dice: the language's own rule of the dice a roll tosses, told from the
    text alone (``fudgedice.dice.tosses``), at the table's bound."""
    try:
        program.check_dice(MAX_ROLL_DICE)
    except TooManyDice as error:
        raise Problem(
            413,
            f"at the table, {error.message}",
            hint="fudgedice roll on your own machine rolls more",
        ) from None
    return program


def client_seed(given: str | None) -> str:
    if given is None:
        return ""
    if len(given) > MAX_CLIENT_SEED:
        raise Problem(413, f"a client seed is at most {MAX_CLIENT_SEED} characters")
    _plain(given, "a client seed")
    return given


def faces(given: list[str] | None) -> list[str] | None:
    if given is not None and len(given) > MAX_FACES:
        raise Problem(413, f"at most {MAX_FACES} faces read by hand")
    return given
