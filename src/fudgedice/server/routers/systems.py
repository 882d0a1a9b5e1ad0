"""GET /api/systems: the systems a room may play, as the page lists them.

Read from the registry (every installed system, a plugin's included): the page
builds its list of systems, its examples and its short reference from this,
so that a system installed later shows without a change to the page."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter

from ...api import SYSTEMS
from ..problems import REFUSED

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
            }
            for each in SYSTEMS.declarations.values()
        ],
    }


@router.get("/api/systems")
def systems() -> dict[str, Any]:
    return systems_listing()
