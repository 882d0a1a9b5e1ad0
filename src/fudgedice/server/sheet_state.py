"""A sheet's state as the table's page shows it beside the traits: wounds,
stress boxes, consequences by name, aspects, and each trait's level as a
wound leaves it (``Good-1``), so that nobody has to open the whole sheet
to see that a character is hurt."""

from __future__ import annotations

from typing import Any

from .. import api, sheets
from ..sheets.levels import level_name
from ..sheets.rules import D6_OPTION, OUT_OF_ACTION, WOUND_PENALTY, worst_wound

PIPS_A_DIE = 3

Shift = tuple[str, int | None] | None
"""A wound and what it takes from every trait's level (D6: in pips), or
None for a character the wound puts out of the action; None for no wound."""


def wound_shift(sheet: sheets.Sheet) -> Shift:
    """What the sheet's wound does to its traits' levels, as a roll by name
    applies it (:mod:`fudgedice.sheets.rolling`)."""
    if sheet.state == "wound track":
        worst = worst_wound(sheet.wounds())
        if worst is None or worst == "Scratch":
            return None
        return (worst, None if worst in OUT_OF_ACTION else WOUND_PENALTY[worst])
    if sheet.state == "wound level":
        wound = sheet.d6_wound()
        if wound == "none":
            return None
        taken = api.D6_WOUND_DICE.get(D6_OPTION[wound])
        return (wound, None if taken is None else -taken * PIPS_A_DIE)
    return None


def adjusted(sheet: sheets.Sheet, value: int, shift: Shift) -> str | None:
    """A trait's level after the wound: ``+0 Fair (Hurt -1)``, ``2D+1
    (wounded -1D)``, ``no roll (Incapacitated)``; None when unchanged."""
    if shift is None:
        return None
    wound, by = shift
    if by is None:
        return f"no roll ({wound})"
    if sheet.state == "wound level":
        return f"{level_name(sheet.system, max(value + by, 0))} ({wound} {by // PIPS_A_DIE}D)"
    return f"{level_name(sheet.system, value + by)} ({wound} {by:+d})"


def state(sheet: sheets.Sheet) -> dict[str, Any]:
    """The state the rules read, by the sheet's kind of state: ``wounds``
    (the Fudge track: each level's boxes and those checked), ``wound`` (D6),
    or ``stress`` (each track's boxes, checked or free), ``consequences``
    (each slot, its shifts and its name or null) and ``aspects`` (Fate)."""
    if sheet.state == "wound track":
        checked, boxes = sheet.wounds(), sheet.wound_boxes()
        track = [{"level": level, "boxes": boxes[level], "checked": checked[level]}
                 for level in checked]  # fmt: skip
        return {"wounds": track, "worst": worst_wound(checked)}
    if sheet.state == "wound level":
        return {"wound": sheet.d6_wound()}
    if sheet.state != "stress":
        return {}
    marked = sheet.stress()
    stress = [
        {
            "track": track,
            "boxes": [{"value": box, "checked": box in marked[track]} for box in boxes],
        }
        for track, boxes in sheet.stress_tracks().items()
    ]
    taken = sheet.consequences()
    consequences = [{"slot": slot, "shifts": shifts, "name": taken.get(slot)}
                    for slot, shifts in sheet.consequence_slots().items()]  # fmt: skip
    # a template's aspects are empty until filled in: no aspect yet, not a blank one
    keys = ("high_concept", "trouble", "aspects")
    aspects = [text for key in keys for text in sheet.texts(key) if text.strip()]
    return {"stress": stress, "consequences": consequences, "aspects": aspects}
