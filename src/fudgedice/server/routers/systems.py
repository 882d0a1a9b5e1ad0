"""GET /api/systems: the systems a room may play, as the page lists them.

Read from the registry (every installed system, a plugin's included): the page
builds its list of systems, its examples and its short reference from this,
so that a system installed later shows without a change to the page. A
system's new character sheet is the one ``fudgedice sheet new`` writes."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Query

from ... import sheets
from ...api import SYSTEMS
from ...errors import DiceError
from .. import rolling
from ..problems import REFUSED, not_found, unprocessable

router = APIRouter(responses=REFUSED)


@cache  # the installed systems do not change while the server runs
def systems_listing() -> dict[str, Any]:
    """Each system's name, title, description, examples, forms and faces."""
    return {
        "default": SYSTEMS.default,
        "systems": [
            {
                "name": each.name,
                "title": each.title,
                "description": each.description,
                "examples": list(each.examples),
                "forms": [list(form) for form in each.forms],
                "faces": each.faces,
                "difficulties": list(each.difficulties),
                "sheet": each.sheet,
            }
            for each in SYSTEMS.declarations.values()
        ],
    }


@router.get("/api/systems")
def systems() -> dict[str, Any]:
    return systems_listing()


@router.get("/api/systems/{system}/sheet-template")
def sheet_template(system: str, name: Annotated[str, Query()] = "New character") -> dict[str, Any]:
    """A new character sheet of ``system`` for ``name``: its TOML text, with
    the system's defaults and comments, as ``fudgedice sheet new`` writes it."""
    key = system.strip().lower()
    declared = SYSTEMS.declarations.get(key)
    if declared is None or not declared.sheet:
        raise not_found(f"the system '{system}' has no character sheets")
    named = rolling.name(name, "a character's name")
    try:
        text = sheets.new_sheet(key, named)
    except DiceError as error:  # a name no sheet holds
        raise unprocessable(error.message, hint=error.hint) from None
    return {"system": key, "name": named, "text": text}
