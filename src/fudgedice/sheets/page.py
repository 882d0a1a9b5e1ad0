"""A sheet as a page to read (``fudgedice sheet show``): every trait with its
level and its chance against a typical difficulty, measured by the same roll
text that rolling it by name would make (wounds included), then points,
wounds, stress and the rest."""

from __future__ import annotations

from fractions import Fraction

from .. import api
from ..errors import DiceError
from ..render.numbers import percent
from .levels import level_name
from .model import FREE_TEXT, POINTS, Sheet
from .rolling import resolve
from .rules import WOUND_LEVELS, worst_wound


def chance(sheet: Sheet, trait: str) -> Fraction | str:
    """The chance to succeed with ``trait`` at the typical difficulty, or why
    there is no roll (a character out of the action)."""
    try:
        plan = resolve(f"{sheet.traits[trait.lower()].name}{sheet.rules.typical}", [sheet])
        return api.odds(plan.text).events.get("success", "no success to measure")
    except DiceError as error:
        return error.message.split(": ", 1)[-1]


def _heading(sheet: Sheet) -> list[str]:
    title = f"{sheet.name} ({sheet.system} sheet)"
    lines = [title, "=" * len(title)]
    for key in FREE_TEXT:
        value = sheet.values.get(key)
        if value:
            lines.append(f"{key}: {', '.join(sheet.texts(key))}")
    return lines


def show(sheet: Sheet) -> str:
    """The page: traits by table, then the rest of the sheet."""
    lines = _heading(sheet)
    against = sheet.rules.typical.strip() or "success"
    tables: dict[str, list[str]] = {}
    width = max((len(trait.name) for trait in sheet.traits.values()), default=0)
    levels = [level_name(sheet.system, t.level.value) for t in sheet.traits.values()]
    level_width = max((len(level) for level in levels), default=0)
    for trait, level in zip(sheet.traits.values(), levels, strict=True):
        found = chance(sheet, trait.name)
        shown = percent(found) if isinstance(found, Fraction) else found
        base = f" ({trait.written})" if trait.level.base else ""
        tables.setdefault(trait.table, []).append(
            f"  {trait.name:<{width}}  {level:<{level_width}}  {shown}{base}"
        )
    for table, rows in tables.items():
        lines += ["", f"{table.capitalize()} (chance {against}):", *rows]
    lines += _state(sheet)
    return "\n".join(lines)


def _state(sheet: Sheet) -> list[str]:
    lines = [""]
    points = [f"{POINTS[key]} {sheet.count(key)}" for key in POINTS if key in sheet.values]
    if points:
        lines.append("Points: " + ", ".join(points))
    for key in ("high_concept", "trouble"):
        if sheet.values.get(key):
            lines.append(f"{key.replace('_', ' ').capitalize()}: {sheet.values[key]}")
    for key in ("aspects", "stunts", "gifts", "faults"):
        if sheet.texts(key):
            lines.append(f"{key.capitalize()}: {'; '.join(sheet.texts(key))}")
    if sheet.state == "wound level":
        lines.append(f"Wound: {sheet.d6_wound()}")
    elif sheet.state == "stress":
        for track, boxes in sheet.stress_tracks().items():
            checked = sheet.stress()[track]
            shown = " ".join(f"[{'x' if box in checked else ' '}{box}]" for box in boxes)
            named = "Stress" if track == "stress" else f"{track.capitalize()} stress"
            lines.append(f"{named}: {shown}")
        taken = sheet.consequences()
        for name, value in sheet.consequence_slots().items():
            lines.append(f"  {name} ({value}): {taken.get(name, '-')}")
    elif sheet.state == "wound track":
        wounds, sizes = sheet.wounds(), sheet.wound_boxes()
        marks = [
            f"{level} {'x' * wounds[level]}{'_' * (sizes[level] - wounds[level])}"
            for level in WOUND_LEVELS
        ]
        worst = worst_wound(wounds)
        lines.append("Wounds: " + ", ".join(marks) + (f" (now {worst})" if worst else ""))
    return lines
