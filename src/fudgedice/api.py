"""The public Python API: roll, odds, sample, read, table, parse, clear_caches.

This is the composition root: the one module that imports the systems. A
:class:`Dice` joins their words into the vocabulary the parser's hints draw
on, their tables into one index, and compiles each roll text with the system
its prefix names. ``DICE`` is built when this module is imported, so the
first call from any thread finds it complete.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, overload

from . import arguments
from .budget import current as current_budget
from .budget import within_budget
from .dice import measure, pools
from .dice.checks import refuse_damage
from .dice.program import Program
from .errors import DiceError, DiceSyntaxError, DiceTypeError, DiceValueError, LimitError
from .language import parser
from .language.diagnostics import another_systems_word, suggest, system_without_colon
from .language.tree import Expression
from .language.words import KEYWORDS, LateWords, Vocabulary
from .limits import DEFAULT_LIMITS
from .memory import USED, VALUE, SizedCache, memoize
from .render.views import ODDS_RENDERERS
from .stream import Stream, fresh, seeded
from .systems import SYSTEMS as SYSTEMS
from .systems import Registry
from .systems import registry as registry
from .systems.base import System as System
from .systems.fudge.program import use_d100_table
from .systems.fudge.techniques import D100Table as D100Table

if TYPE_CHECKING:
    from pathlib import Path

    from .dice.quick import QuickRolls
    from .exact.odds import Odds
    from .results.float_odds import FloatOdds
    from .results.roll import Roll
    from .results.table import Table
    from .results.table_spec import TableSpec


def program_size(program: Program) -> int:
    """The bytes a checked program holds, about: its tree grows with its text
    (some hundreds of bytes for every few characters), its notes are small; the
    outcomes it keeps are bounded apart (:data:`fudgedice.dice.quick.MOST_KEPT`)."""
    return 4096 + 200 * len(program.expression.text)


class Dice:
    """The language with a given set of systems: compiles roll texts (cached)
    and looks up tables. ``DICE`` has every system of :data:`SYSTEMS`; a game
    of one's own builds another from :func:`fudgedice.systems.registry`."""

    def __init__(self, systems: Mapping[str, System]) -> None:
        self.systems = systems
        self.vocabulary: Vocabulary = LateWords(
            lambda: KEYWORDS | set(systems) | {w for words in self.words.values() for w in words}
        )
        """Every word of the language, whichever system it belongs to, read when a
        hint first needs it: a misspelling gets the same hint on every roll."""
        self._tables: Mapping[str, TableSpec] | None = None
        self.compile = memoize("roll programs", 4096, program_size)(self._compile)
        """The checked program for a roll text (cached by text)."""
        self.compile_float = memoize("roll programs (float odds)", 256, program_size)(
            self._compile_float
        )
        """The same, for float odds only: pools may be far larger."""

    @property
    def words(self) -> Mapping[str, frozenset[str]]:
        """Each system's own words: a registry's as declared, without loading a system."""
        if isinstance(self.systems, Registry):
            return self.systems.words
        return {name: system.words for name, system in self.systems.items()}

    @property
    def tables(self) -> Mapping[str, TableSpec]:
        """Every system's tables by name: built when first asked for, since it
        loads every system (a roll needs only its own)."""
        if self._tables is None:
            self._tables = MappingProxyType(
                {
                    name: spec
                    for system in self.systems.values()
                    for name, spec in system.tables.items()
                }
            )
        return self._tables

    def parse(self, text: str, max_dice: int = DEFAULT_LIMITS.max_dice) -> Expression:
        """The parse tree of a roll (cached), or the project's own error."""
        return parser.parse(arguments.text(text), self.vocabulary, max_dice)

    def _compile_float(self, text: str) -> Program:
        return self._compile(text, DEFAULT_LIMITS.max_float_dice)

    def _compile(self, text: str, max_dice: int = DEFAULT_LIMITS.max_dice) -> Program:
        try:
            expression = self.parse(text, max_dice)
        except DiceSyntaxError:
            prefix = system_without_colon(text, self.systems)
            if prefix is None:
                raise
            # the expected-token list would only distract from the real slip
            raise DiceSyntaxError(prefix[0], text=text, position=0, hint=prefix[1]) from None
        system = self.systems.get(expression.system)
        if system is None:
            raise DiceValueError(
                f"unknown system '{expression.system}'",
                text=text,
                position=expression.system_position,
                hint=suggest(expression.system, list(self.systems))
                or f"systems: {', '.join(self.systems)}",
            )
        if not system.damage:
            refuse_damage(expression)
        try:
            program = system.compile(expression, self.vocabulary)
        except DiceError as error:
            # Pool rules (pools.plan) are cached per pool and know no text: quote
            # the roll here so that the position they give gets its ^.
            if error.text is None and error.position is not None:
                error.text = text
            error.hint = another_systems_word(expression, error, self.words)
            raise
        # what no system may leave to the dice: checked once for every use of
        # the text; a program compiled for float odds alone is never rolled
        program.check_divisors()
        if max_dice == DEFAULT_LIMITS.max_dice:
            program.check_dice()
        return program

    def program(self, text: object) -> Program:
        """The checked program of a roll's text (cached), the text checked first."""
        return self.compile(arguments.text(text))

    @within_budget
    def roll(
        self, text: str, seed: int | str | None = None, *, stream: Stream | None = None
    ) -> Roll:
        """Roll ``text`` once; the same ``seed`` gives the same roll everywhere."""
        return _rolled(self.program(text), seed, stream)

    @within_budget
    def odds(self, text: str, *, exact: bool = True) -> Odds | FloatOdds:
        """The exact distribution of ``text``; with ``exact=False``, float odds."""
        if not arguments.flag(exact, "exact"):
            return self.compile_float(arguments.text(text)).float_odds()
        return shown(self.program(text).odds())

    @within_budget
    def read(self, text: str, dice: Sequence[str | int] | str) -> Roll:
        """Interpret dice rolled by hand: the faces as written, in the order rolled."""
        return self.program(text).read(arguments.faces(dice))

    @within_budget
    def table(self, name: str, *, exact: bool = False, to: int | None = None) -> Table:
        """One of the printed tables of these systems."""
        key = arguments.text(name, "a table's name", "techniques").strip().lower()
        exact = arguments.flag(exact, "exact")
        if to is not None:
            to = arguments.count(to, "to")
            if not 1 <= to <= MAX_TABLE_ROWS:
                raise LimitError(f"to is a whole number from 1 to {MAX_TABLE_ROWS}, not {to}")
        spec = self.tables.get(key)
        if spec is None:
            raise DiceValueError(
                f"unknown table '{name}'",
                hint=suggest(key, list(self.tables)) or f"tables: {', '.join(sorted(self.tables))}",
            )
        if to is not None and not spec.endless:
            endless = sorted(name for name, each in self.tables.items() if each.endless)
            raise DiceValueError(
                f"the table '{key}' has a fixed length, so --to has nothing to set",
                hint=f"--to is for tables that go on: {', '.join(endless)}",
            )
        return spec.printed(exact=exact, to=to)

    @within_budget
    def ladder(self, system: str) -> Table:
        """The ladder of ``system``: the words its levels are called."""
        key = arguments.text(system, "a system's name", "power").strip().lower()
        chosen = self.systems.get(key)
        with_ladders = [name for name, each in self.systems.items() if each.ladder is not None]
        if chosen is None or chosen.ladder is None:
            why = "has no ladder" if chosen is not None else "is not a system"
            # "3d6" is the start of "3d6fudge": a prefix is the likeliest meaning
            started = [name for name in with_ladders if name.startswith(key)] if key else []
            hint = (
                f"did you mean '{started[0]}'?" if len(started) == 1 else suggest(key, with_ladders)
            )
            raise DiceValueError(
                f"'{system}' {why}", hint=hint or f"ladders: {', '.join(with_ladders)}"
            )
        return self.table(chosen.ladder)


MAX_TABLE_ROWS = 10_000
"""Rows of a table that goes on (``--to``)."""

DICE = Dice(SYSTEMS)
"""The language with every system: what the functions below and the CLI use."""


def float_ready(text: str) -> bool:
    """Whether ``odds(text, exact=False)`` reads this roll (without measuring it):
    what the command line checks before it suggests ``--float``."""
    try:
        return DICE.compile_float(arguments.text(text)).float_ready()
    except DiceError:
        return False


def parse(text: str) -> Expression:
    """The parse tree of a roll (cached), or the project's own error."""
    return DICE.parse(text)


def compile_roll(text: str) -> Program:
    """The checked program for ``text`` (cached by text)."""
    return DICE.compile(text)


def program_with_table(text: str, d100_table: str | Path | D100Table | None) -> Program:
    """The compiled roll; with ``d100_table``, reading ``@d%`` with that table
    (inline ``"1=-4, 2-6=-3, ..., 00=+4"``, a file path, or a ``D100Table``)."""
    program = DICE.program(text)
    if d100_table is None:
        return program
    return use_d100_table(program, d100_table)


def roll(
    text: str,
    seed: int | str | None = None,
    *,
    d100_table: str | Path | D100Table | None = None,
    stream: Stream | None = None,
) -> Roll:
    """Roll ``text`` once, every die drawn from the dice stream of
    docs/fairness.md: the same ``seed`` gives the same roll everywhere; no seed
    draws from 32 fresh bytes of the operating system; ``stream`` rolls from a
    stream made ready (a table's ``fudgedice.stream.room_stream``).

    >>> 5 <= roll("4d6kh3+2", seed=7).total <= 20
    True
    """
    if seed is None and stream is None and d100_table is None and type(text) is str:
        kept = _FIND_QUICK(text)
        if kept is not None and current_budget() is None:
            kept[USED] = True
            quick: QuickRolls = kept[VALUE]
            # A text rolled before whose outcomes are kept (dice.quick): its one
            # charge is checked against the whole budget, as the first charge
            # of a request of its own would be, and an outcome it has not kept
            # is rolled as a request of its own.
            return quick.roll_fresh()
    return _roll(text, seed, d100_table, stream)


@within_budget
def _roll(text: str, seed: object, d100_table: object, stream: object) -> Roll:
    program = program_with_table(text, d100_table)  # type: ignore[arg-type]
    if d100_table is None and program.quick is not None and _QUICK.get(text) is None:
        _QUICK.put(text, program.quick)
    return _rolled(program, seed, stream)


_QUICK: SizedCache[str, QuickRolls] = SizedCache(
    "kept outcomes by text", 4096, lambda quick: program_size(quick.program)
)
"""The kept outcomes of texts rolled before (a few thousand texts at most)."""
_FIND_QUICK = _QUICK.find


def _rolled(program: Program, seed: object, stream: object = None) -> Roll:
    checked = arguments.seed(seed)
    if stream is not None:
        if not isinstance(stream, Stream):
            raise DiceTypeError(f"stream is a fudgedice.stream.Stream, not {type(stream).__name__}")
        if checked is not None:
            raise DiceValueError("a roll draws from a seed or from a stream, not both")
        return program.roll(stream, None)
    return program.roll(fresh() if checked is None else seeded(checked), checked)


@overload
def odds(
    text: str, *, d100_table: str | Path | D100Table | None = None, exact: Literal[True] = True
) -> Odds: ...
@overload
def odds(
    text: str, *, d100_table: str | Path | D100Table | None = None, exact: Literal[False]
) -> FloatOdds: ...
@overload
def odds(
    text: str, *, d100_table: str | Path | D100Table | None = None, exact: bool
) -> Odds | FloatOdds: ...
@within_budget
def odds(
    text: str, *, d100_table: str | Path | D100Table | None = None, exact: bool = True
) -> Odds | FloatOdds:
    """The exact distribution of ``text``; with ``exact=False``, float64
    chances by FFT for sums of pools too large to count exactly, each within
    the bound the result states (:class:`~fudgedice.results.float_odds.FloatOdds`).

    >>> odds("4dF").probability(0)
    Fraction(19, 81)
    >>> round(odds("100000dF", exact=False).probability(0), 6)
    0.001545
    """
    if not arguments.flag(exact, "exact"):
        if d100_table is not None:
            raise DiceValueError("a custom d% table reads a technique, which float odds do not")
        return DICE.compile_float(arguments.text(text)).float_odds()
    return shown(program_with_table(text, d100_table).odds())


def shown(measured: Odds) -> Odds:
    """The odds, ready to show themselves (``text``, ``plot``, ...) by the project's renderers."""
    measured.views = ODDS_RENDERERS
    return measured


@within_budget
def read(
    text: str,
    dice: Sequence[str | int] | str,
    *,
    d100_table: str | Path | D100Table | None = None,
) -> Roll:
    """Interpret dice rolled by hand: the faces as written, in the order rolled.

    >>> read("4dF", ["+", "+", "-", "0"]).total
    1
    """
    return program_with_table(text, d100_table).read(arguments.faces(dice))


def table_names() -> dict[str, str]:
    """Every table's name and what it shows."""
    return {name: spec.description for name, spec in sorted(DICE.tables.items())}


@within_budget
def table(name: str, *, exact: bool = False, to: int | None = None) -> Table:
    """One of the printed tables (``fudgedice table`` lists them)."""
    return DICE.table(name, exact=exact, to=to)


@within_budget
def ladder(system: str) -> Table:
    """The ladder of ``system``: the words its levels are called."""
    return DICE.ladder(system)


def clear_caches() -> None:
    """Forget every memoised distribution (parse trees stay cached)."""
    measure.clear_caches()
    pools.plan.cache_clear()
    _QUICK.clear()


# The rules a sheet reads, re-exported (only this module imports systems), lazily (PEP 562)
if TYPE_CHECKING:
    from .systems.sheet_rules import D6_WOUNDS as D6_WOUNDS
    from .systems.sheet_rules import FATE_ABSORB as FATE_ABSORB
    from .systems.sheet_rules import LADDERS as LADDERS
    from .systems.sheet_rules import THREE_D6_EP_COST as THREE_D6_EP_COST
    from .systems.sheet_rules import SheetLevels as SheetLevels
    from .systems.sheet_rules import Stress as Stress


def __getattr__(name: str) -> Any:
    """One of the rules a character sheet reads, loaded on first use and kept."""
    if not name.isupper():  # a probe (doctest's, pickle's): no need to load anything
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # imported here: it loads every system, which a plain roll never needs
    from .systems import sheet_rules

    if name not in sheet_rules.NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(sheet_rules, name)
    globals()[name] = value
    return value
