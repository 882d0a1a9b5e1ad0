"""fudgedice: roll, explain and measure the dice of Fudge, Power Fudge,
3d6 Fudge and the D6 System.

>>> import fudgedice
>>> fudgedice.odds("4dF").at_least(1)
Fraction(31, 81)
"""

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
from .api import sample as sample
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
from .exact.odds import Outcome as Outcome
from .exact.odds import Tail as Tail
from .log import Failure as Failure
from .log import Report as Report
from .log import Reveal as Reveal
from .log import Session as Session
from .log import verify as verify
from .results.comparison import Comparison as Comparison
from .results.dice import DieRoll as DieRoll
from .results.dice import Mark as Mark
from .results.roll import Roll as Roll
from .results.table import Table as Table
from .stream import Stream as Stream

__version__ = "0.1.0"

__all__ = [
    "SYSTEMS",
    "Chance",
    "Comparison",
    "Dice",
    "DiceError",
    "DiceSyntaxError",
    "DiceTypeError",
    "DiceValueError",
    "DieRoll",
    "Failure",
    "LimitError",
    "Mark",
    "Odds",
    "Outcome",
    "OverBudget",
    "Program",
    "Report",
    "Reveal",
    "Roll",
    "Session",
    "Stream",
    "System",
    "Table",
    "Tail",
    "TooManyDice",
    "clear_caches",
    "compare",
    "ladder",
    "odds",
    "parse",
    "read",
    "registry",
    "roll",
    "sample",
    "table",
    "verify",
]
