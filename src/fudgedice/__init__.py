"""fudgedice: roll, explain and measure the dice of Fudge, Power Fudge,
3d6 Fudge and the D6 System.

>>> import fudgedice
>>> fudgedice.odds("4dF").at_least(1)
Fraction(31, 81)

The public names are imported when first used (PEP 562): ``import
fudgedice.cli`` for one roll then loads only what that roll needs, not the
session log, every result type and every system. ``from fudgedice import
roll`` and ``fudgedice.roll`` work as ever; type checkers read the imports
below.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False
"""``typing.TYPE_CHECKING`` without importing :mod:`typing` (type checkers read
the name as theirs): the console script pauses the collector before its
modules load, and typing is the first and largest of them."""
if TYPE_CHECKING:
    from typing import Any

    from .api import SYSTEMS as SYSTEMS
    from .api import Dice as Dice
    from .api import System as System
    from .api import clear_caches as clear_caches
    from .api import ladder as ladder
    from .api import odds as odds
    from .api import parse as parse
    from .api import read as read
    from .api import registry as registry
    from .api import roll as roll
    from .api import table as table
    from .comparisons import compare as compare
    from .dice.program import Program as Program
    from .errors import DiceError as DiceError
    from .errors import DiceSyntaxError as DiceSyntaxError
    from .errors import DiceTypeError as DiceTypeError
    from .errors import DiceValueError as DiceValueError
    from .errors import LimitError as LimitError
    from .errors import OverBudget as OverBudget
    from .errors import TooManyDice as TooManyDice
    from .exact.odds import Chance as Chance
    from .exact.odds import Odds as Odds
    from .exact.odds import OddsRow as OddsRow
    from .exact.odds import Tail as Tail
    from .log import Failure as Failure
    from .log import Report as Report
    from .log import Reveal as Reveal
    from .log import Session as Session
    from .log import verify as verify
    from .results.comparison import Comparison as Comparison
    from .results.dice import DieRoll as DieRoll
    from .results.dice import Mark as Mark
    from .results.float_odds import FloatOdds as FloatOdds
    from .results.roll import Roll as Roll
    from .results.table import Table as Table
    from .sampling import Sampled as Sampled
    from .sampling import sample as sample
    from .stream import Stream as Stream

__version__ = "0.1.0"

_PUBLIC: dict[str, tuple[str, ...]] = {
    ".api": (
        "SYSTEMS",
        "Dice",
        "System",
        "clear_caches",
        "ladder",
        "odds",
        "parse",
        "read",
        "registry",
        "roll",
        "table",
    ),
    ".comparisons": ("compare",),
    ".dice.program": ("Program",),
    ".errors": (
        "DiceError",
        "DiceSyntaxError",
        "DiceTypeError",
        "DiceValueError",
        "LimitError",
        "OverBudget",
        "TooManyDice",
    ),
    ".exact.odds": ("Chance", "Odds", "OddsRow", "Tail"),
    ".log": ("Failure", "Report", "Reveal", "Session", "verify"),
    ".results.comparison": ("Comparison",),
    ".results.dice": ("DieRoll", "Mark"),
    ".results.float_odds": ("FloatOdds",),
    ".results.roll": ("Roll",),
    ".results.table": ("Table",),
    ".sampling": ("Sampled", "sample"),
    ".stream": ("Stream",),
}
"""The one list of the package's public names, by the module each lives in: it
drives ``__all__``, ``dir(fudgedice)`` and the imports on first use, and a test
holds the type checkers' imports above to it."""

_HOMES: dict[str, str] = {name: home for home, names in _PUBLIC.items() for name in names}
"""Each public name and its module."""

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """A public name, imported on first use and kept as this module's own."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
