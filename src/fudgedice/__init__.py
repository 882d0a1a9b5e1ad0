"""fudgedice: roll, explain and measure the dice of Fudge, Power Fudge,
3d6 Fudge and the D6 System.

>>> import fudgedice
>>> fudgedice.odds("4dF").at_least(1)
Fraction(31, 81)
"""

from .api import clear_caches as clear_caches
from .api import odds as odds
from .api import read as read
from .api import roll as roll
from .api import sample as sample
from .api import table as table
from .errors import DiceError as DiceError
from .errors import DiceSyntaxError as DiceSyntaxError
from .errors import DiceValueError as DiceValueError
from .errors import LimitError as LimitError
from .errors import TooManyDice as TooManyDice
from .odds import Odds as Odds
from .odds import Outcome as Outcome
from .parser import parse as parse
from .results import DieRoll as DieRoll
from .rolls import Roll as Roll
from .tables import Table as Table

__version__ = "0.1.0"

__all__ = [
    "DiceError",
    "DiceSyntaxError",
    "DiceValueError",
    "DieRoll",
    "LimitError",
    "Odds",
    "Outcome",
    "Roll",
    "Table",
    "TooManyDice",
    "clear_caches",
    "odds",
    "parse",
    "read",
    "roll",
    "sample",
    "table",
]
