"""Character sheets: TOML files people edit by hand, one character each,
rolled by trait name through the one roll language (docs/sheets.md).

Every function takes and gives a sheet's text, never a file, so a server can
store a sheet as it is, roll a trait by name and log each change; the command
line reads and writes files (atomically) around them.

>>> from fudgedice import sheets
>>> ashley = sheets.load_text('''
... system = "3d6fudge"
... name = "Ashley the Alert"
... [traits]
... Melee = "Good"
... ''')
>>> sheets.resolve("Melee-1", [ashley]).text
'3d6fudge: Good-1 # Ashley the Alert, Melee-1'
"""

from __future__ import annotations

from .document import MAX_SHEET_BYTES as MAX_SHEET_BYTES
from .document import Document as Document
from .document import SheetError as SheetError
from .document import parse as parse
from .document import read_file as read_file
from .document import write_atomically as write_atomically
from .editing import SPENDABLE as SPENDABLE
from .editing import Edit as Edit
from .editing import heal as heal
from .editing import hit as hit
from .editing import name_consequence as name_consequence
from .editing import raise_trait as raise_trait
from .editing import set_points as set_points
from .editing import settle as settle
from .editing import spend as spend
from .editing import without_balance as without_balance
from .model import SYSTEMS as SYSTEMS
from .model import Sheet as Sheet
from .model import Trait as Trait
from .model import load as load
from .page import show as show
from .rolling import Plan as Plan
from .rolling import resolve as resolve
from .templates import new_sheet as new_sheet


def load_text(text: str, source: str = "sheet") -> Sheet:
    """A sheet from its TOML text (``source`` names it in messages)."""
    return load(parse(text, source))


def load_file(path: str) -> Sheet:
    """A sheet from a file, read within :data:`MAX_SHEET_BYTES`."""
    return load(read_file(path))


__all__ = [
    "MAX_SHEET_BYTES",
    "SYSTEMS",
    "Document",
    "Edit",
    "Plan",
    "Sheet",
    "SheetError",
    "Trait",
    "heal",
    "hit",
    "load",
    "load_file",
    "load_text",
    "name_consequence",
    "new_sheet",
    "parse",
    "raise_trait",
    "read_file",
    "resolve",
    "set_points",
    "settle",
    "show",
    "spend",
    "write_atomically",
]
