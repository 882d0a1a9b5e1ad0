"""New sheets (``fudgedice sheet new SYSTEM NAME FILE``): each system's keys
with its defaults (its ``SheetLevels.template``), commented so that a player
can fill them in by hand."""

from __future__ import annotations

import tomlkit

from .. import api
from .document import SheetError, parse
from .levels import rules_of
from .model import SYSTEMS, load


def new_sheet(system: str, name: str) -> str:
    """The text of a new sheet of ``system`` for the character ``name``."""
    key = system.strip().lower()
    if key not in SYSTEMS:
        raise SheetError(f"unknown system '{system}'", hint=f"systems: {', '.join(SYSTEMS)}")
    if not name.strip() or "\n" in name:
        raise SheetError("a character's name is one line of text")
    rules, title = rules_of(key), api.SYSTEMS.declarations[key].title
    text = f"""\
# A {title} character sheet: edit it by hand; fudgedice keeps your comments.
system = "{key}"
name = {tomlkit.string(name.strip()).as_string()}
player = ""
""" + (
        rules.template
        or f"""
[traits]             # name = level, {rules.levels_help}: a trait of 3 rolls {rules.said(3)}
"""
    )
    load(parse(text))  # a template is a sheet like any other
    return text
