"""A trait's level as a sheet writes it, and as a roll text says it.

* Fudge, Power Fudge and Fate: a ladder word (``"Good"``, ``"Superb+1"``) or
  a number (Fudge's Fair is 0, Fate's Mediocre is 0);
* 3d6 Fudge: a level word or a number, Abysmal 1 .. Legendary 9 and beyond;
* the D6 System: a die code (``"3D+1"``), or for a skill its attribute and
  the dice it adds (``"Dexterity+1D"``).

The words and numbers come from the systems' own ladders (through
:mod:`fudgedice.api`), so a sheet can never read a word otherwise than a
roll would.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .. import api

MAX_LEVEL = 100
"""Levels a sheet may write, either way from its ladder's zero: far beyond any
game, and small enough that every roll of them stays cheap."""
MAX_CODE_DICE = 1000
"""Dice in one D6 code on a sheet (the engine's own limit is higher)."""


@dataclass(frozen=True)
class Level:
    """A level read from a sheet."""

    value: int
    """The ladder's number; for the D6 System, the code in pips (3 a die)."""
    word: str | None = None
    """The ladder word as written (``Good``), when it was a word."""
    base: str | None = None
    """D6: the attribute a skill's dice are added to."""
    added: int = 0
    """D6: the pips a skill adds to its attribute."""


class LevelError(ValueError):
    """A level that does not read, with a hint (the model adds the place)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


_WORD_AND_SHIFT = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*(?:([+-])\s*(\d{1,3}))?\s*$")
_NUMBER = re.compile(r"^\s*([+-]?\d{1,3})\s*$")
_CODE = re.compile(
    r"^\s*(?:(?P<base>[A-Za-z][\w ]*?)\s*\+\s*)?(?P<dice>\d{1,4})\s*[dD]"
    r"\s*(?:(?P<sign>[+-])\s*(?P<pips>\d{1,3}))?\s*$"
)


def rules_of(system: str) -> api.SheetLevels:
    """What ``system`` tells its sheets (``System.sheet``): the sheet's model
    accepts only a system that has them."""
    rules = api.SYSTEMS[system].sheet
    if rules is None:
        raise LevelError(f"the {system} system has no character sheets")
    return rules


def _bounded(system: str, value: int) -> int:
    low, high = (-MAX_LEVEL, MAX_LEVEL) if rules_of(system).signed else (1, MAX_LEVEL)
    if not low <= value <= high:
        raise LevelError(f"a {system} level is a number from {low} to {high}, not {value}")
    return value


def read_level(system: str, written: object) -> Level:
    """The level ``written`` on a sheet of ``system``, or a :class:`LevelError`."""
    rules = rules_of(system)
    if rules.codes:
        return _read_code(written)
    if isinstance(written, bool) or not isinstance(written, int | str):
        raise LevelError(
            f"a level is a ladder word or a number, not {type(written).__name__}",
            'such as "Good" or 2',
        )
    if isinstance(written, int):
        return Level(_bounded(system, written))
    number = _NUMBER.match(written)
    if number:
        return Level(_bounded(system, int(number.group(1))))
    if not rules.words:
        raise LevelError(f"a {system} level is a whole number, not '{written}'", "such as 3")
    found = _WORD_AND_SHIFT.match(written)
    words = rules.words
    word = found.group(1).strip() if found else written.strip()
    if found is None or word.lower() not in words:
        close = difflib.get_close_matches(word.lower(), list(words), n=1, cutoff=0.5)
        hint = (
            f"did you mean '{close[0].capitalize()}'?"
            if close
            else f"{system} levels: " + ", ".join(w.capitalize() for w in words)
        )
        raise LevelError(f"'{written}' is not a level of {system}", hint)
    shift = int(found.group(3) or 0) * (-1 if found.group(2) == "-" else 1)
    return Level(_bounded(system, words[word.lower()] + shift), word=written.strip())


def _read_code(written: object) -> Level:
    if not isinstance(written, str):
        raise LevelError(
            f"a D6 level is a die code in quotes, not {type(written).__name__}",
            'such as "3D+1", or for a skill "Dexterity+1D"',
        )
    found = _CODE.match(written)
    if found is None:
        raise LevelError(
            f"'{written}' is not a die code", 'write "3D+1", or for a skill "Dexterity+1D"'
        )
    dice = int(found.group("dice"))
    if dice > MAX_CODE_DICE:
        raise LevelError(f"{dice}D is more dice than a sheet may give one trait ({MAX_CODE_DICE})")
    pips = int(found.group("pips") or 0) * (-1 if found.group("sign") == "-" else 1)
    base = found.group("base")
    if base is not None:
        return Level(0, base=base.strip(), added=3 * dice + pips)
    if 3 * dice + pips < 3:
        raise LevelError(f"'{written}' is less than 1D", "a trait rolls at least 1D")
    return Level(3 * dice + pips)


def level_text(system: str, level: Level) -> str:
    """The level as the roll language says it for ``system``: its word when
    the sheet wrote one, else the ladder's name, the number, the die code."""
    rules = rules_of(system)
    return level.word if level.word is not None and not rules.codes else rules.said(level.value)


def level_name(system: str, value: int) -> str:
    """How a page names a level: ``+1 Good``, ``6 Good``, ``4D+1``."""
    return rules_of(system).named(value)


def written_like(system: str, before: object, value: int) -> str | int:
    """A new level written the way the old one was: a word stays a word, a
    number a number."""
    if isinstance(before, int) and not isinstance(before, bool):
        return value
    rules = rules_of(system)
    if isinstance(before, str) and _NUMBER.match(before):
        return f"{value:+d}" if rules.signed else str(value)
    return rules.written(value)
