"""A new Fari character of Fari's own Fate templates, for a sheet that never
came from Fari: the blocks, their keys in Fari's order, and the labels as
Fari 6.3.6 makes them from ``character-templates/Fate Core/Fate Core.json``,
``Fate Condensed/Fate Condensed.json`` and ``Fate Accelerated/Fate
Accelerated.json`` (stored as version 3; Fari's migrations to version 6 put
the sections in two columns of one row and write every label but a link's in
capitals)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .fari_format import WRITTEN_VERSION

Block = dict[str, Any]
NewId = Callable[[], str]

FATE_SKILLS = (
    "Academics", "Athletics", "Burglary", "Contacts", "Crafts", "Deceive", "Drive",
    "Empathy", "Fight", "Investigate", "Lore", "Notice", "Physique", "Provoke",
    "Rapport", "Resources", "Shoot", "Stealth", "Will",
)  # fmt: skip
"""Fari's Fate Core and Fate Condensed templates list the same skills."""
APPROACHES = ("Careful", "Clever", "Forceful", "Flashy", "Quick", "Sneaky")
CORE, CONDENSED, ACCELERATED = "FateCore", "FateCondensed", "FateAccelerated"
EVIL_HAT = "https://www.evilhat.com/home/"
"""The link of the templates' credits section."""
STRESS_BOXES = {CORE: ("1", "2"), CONDENSED: ("1", "1", "1"), ACCELERATED: ("1", "2", "3")}
"""The boxes of a new character's stress tracks in each template."""


def text_block(new_id: NewId, label: str, *, checked: bool | None = None) -> Block:
    meta = {} if checked is None else {"checked": checked}
    return {"id": new_id(), "type": "Text", "meta": meta, "label": label, "value": ""}


def skill_block(new_id: NewId, label: str, template: str) -> Block:
    if template == ACCELERATED:
        return {"id": new_id(), "type": "Skill", "meta": {"commands": ["4dF"]},
                "label": label, "value": ""}  # fmt: skip
    return {"id": new_id(), "meta": {"commands": ["4dF"]}, "type": "Skill",
            "label": label, "value": ""}  # fmt: skip


def slots(labels: tuple[str, ...], checked: frozenset[int] = frozenset()) -> list[Block]:
    """A stress track's boxes (``checked`` by their place, from 0)."""
    return [{"checked": at in checked, "label": label} for at, label in enumerate(labels)]


def stress_block(new_id: NewId, label: str, template: str) -> Block:
    boxes = slots(STRESS_BOXES[template])
    if template == ACCELERATED:
        return {"id": new_id(), "type": "SlotTracker", "meta": {}, "label": label, "value": boxes}
    return {"id": new_id(), "label": label, "meta": {}, "type": "SlotTracker", "value": boxes}


def section(new_id: NewId, label: str, blocks: list[Block], *, card: bool = False) -> Block:
    found: Block = {"id": new_id(), "blocks": blocks, "label": label}
    if card:
        found["visibleOnCard"] = True
    return found


def _left(new_id: NewId) -> list[Block]:
    aspects = ("HIGH CONCEPT", "TROUBLE", "RELATIONSHIP", "OTHER ASPECT", "OTHER ASPECT")
    points = {"id": new_id(), "meta": {"isMainPointCounter": True, "max": "3"},
              "type": "PointCounter", "label": "FATE POINTS", "value": "3"}  # fmt: skip
    credits = {"id": new_id(), "label": "Evil Hat Productions", "type": "Link",
               "meta": {"hasDisplayName": True}, "value": EVIL_HAT}  # fmt: skip
    return [
        section(new_id, "ASPECTS", [text_block(new_id, each) for each in aspects], card=True),
        section(new_id, "STUNTS & EXTRAS", [text_block(new_id, f"STUNT #{n}") for n in (1, 2, 3)]),
        section(new_id, "OTHER", [text_block(new_id, "NOTES")]),
        section(new_id, "FATE POINTS", [points]),
        section(new_id, "CREDITS", [credits]),
    ]


def _right(new_id: NewId, template: str) -> list[Block]:
    tracks = ("STRESS",) if template == ACCELERATED else ("PHYSICAL", "MENTAL")
    skills, title = (
        (APPROACHES, "APPROACHES") if template == ACCELERATED else (FATE_SKILLS, "SKILLS")
    )
    consequences = ("MILD", "MODERATE", "SEVERE")
    return [
        section(new_id, "STRESS", [stress_block(new_id, each, template) for each in tracks]),
        section(new_id, "CONSEQUENCES",
                [text_block(new_id, each, checked=False) for each in consequences]),
        section(new_id, title, [skill_block(new_id, each.upper(), template) for each in skills],
                card=True),
    ]  # fmt: skip


def new_character(template: str, name: str, now: int, new_id: NewId) -> dict[str, Any]:
    """A character of ``template`` as Fari makes it and exports it, empty."""
    character_id, page_id = new_id(), new_id()
    columns = [{"sections": _left(new_id)}, {"sections": _right(new_id, template)}]
    return {
        "id": character_id,
        "name": name,
        "lastUpdated": now,
        "wide": False,
        "pages": [{"id": page_id, "label": "CHARACTER", "rows": [{"columns": columns}]}],
        "version": WRITTEN_VERSION,
        "fariType": "character",
    }
