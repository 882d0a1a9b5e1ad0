"""A sheet's values put into a Fari character's blocks (the reverse of
:func:`.fari.import_fari`): each key into the block that holds it, a block
added where the sheet holds more than the character has room for (Fari's
template's label and keys), and a block whose value the sheet no longer holds
left blank. Skills are written as Fari's players type them (``4``, ``-1``),
fate points and refresh too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .fari_format import FariError, Place
from .fari_mapping import TEMPLATE_OF, Found
from .fari_templates import skill_block, text_block
from .model import Sheet

NewId = Callable[[], str]


def overlay(data: dict[str, Any], found: Found, sheet: Sheet, new_id: NewId) -> None:
    """Write ``sheet``'s values into ``data``, the character whose sheet-held
    blocks are ``found``."""
    data["name"] = sheet.name
    values = sheet.values
    _put(found.high_concept, str(values.get("high_concept", "")))
    _put(found.trouble, str(values.get("trouble", "")))
    _put(found.notes, "\n".join(sheet.texts("notes")))
    home = _home([found.high_concept, found.trouble, *found.aspects], data, sheet)
    _fill(found.aspects, sheet.texts("aspects"), home, lambda n: text_block(new_id, "OTHER ASPECT"))
    stunts = _home([*found.stunts], data, sheet) if found.stunts else home
    _fill(found.stunts, sheet.texts("stunts"), stunts,
          lambda n: text_block(new_id, f"STUNT #{n}"))  # fmt: skip
    _points(found, sheet)
    _skills(found, sheet, data, new_id)
    _stress(found, sheet)
    _consequences(found, sheet, data, new_id)
    data.setdefault("fariType", "character")


def _put(place: Place | None, value: str) -> None:
    if place is not None:
        place.block["value"] = value


def _home(places: Sequence[Place | None], data: dict[str, Any], sheet: Sheet) -> list[Any]:
    """The blocks of the section that holds the first of ``places`` (or of the
    first section of the character), where new blocks go."""
    for place in places:
        if place is not None:
            blocks: list[Any] = place.section["blocks"]
            return blocks
    for page in data["pages"]:
        for row in page.get("rows", []):
            for column in row["columns"]:
                for section in column["sections"]:
                    found: list[Any] = section["blocks"]
                    return found
    raise FariError("the character of [fari] layout has no section", source=sheet.source)


def _fill(
    places: list[Place], texts: list[str], home: list[Any], make: Callable[[int], dict[str, Any]]
) -> None:
    """``texts`` into the blocks in order, the rest blank; a new block each past them."""
    for at, place in enumerate(places):
        place.block["value"] = texts[at] if at < len(texts) else ""
    for at in range(len(places), len(texts)):
        block = make(at + 1)
        block["value"] = texts[at]
        home.append(block)


def _points(found: Found, sheet: Sheet) -> None:
    points, refresh = sheet.values.get("fate_points"), sheet.values.get("refresh")
    if found.points is not None:
        found.points.block["value"] = "" if points is None else str(points)
        meta = found.points.block.get("meta")
        if refresh is not None and found.refresh is None and isinstance(meta, dict):
            meta["max"] = str(refresh)
    if found.refresh is not None:
        found.refresh.block["value"] = "" if refresh is None else str(refresh)


def _skills(found: Found, sheet: Sheet, data: dict[str, Any], new_id: NewId) -> None:
    levels = {trait.name.casefold(): trait.level.value for trait in sheet.traits.values()}
    names = {trait.name.casefold(): trait.name for trait in sheet.traits.values()}
    for place in found.skills:
        label = str(place.block.get("label") or "").strip().casefold()
        level = levels.pop(label, None)
        place.block["value"] = "" if level is None else str(level)
    if not levels:
        return
    home = _home(list(found.skills), data, sheet)
    for key, level in levels.items():
        block = skill_block(new_id, names[key], TEMPLATE_OF[sheet.system])
        block["value"] = str(level)
        home.append(block)


def _stress(found: Found, sheet: Sheet) -> None:
    if sheet.state != "stress":
        return
    tracks, checked = sheet.stress_tracks(), sheet.stress()
    for track, place in found.stress.items():
        boxes = tracks.get(track)
        if boxes is None:
            continue
        ticked = set(checked.get(track, []))
        points = found.kinds.get(track) == "points"  # 1-point boxes: Fari labels each "1"
        labels = ["1" if points else str(box) for box in boxes]
        slots = place.block["value"]
        if [slot.get("label") if isinstance(slot, dict) else None for slot in slots] == labels:
            for slot, box in zip(slots, boxes, strict=True):
                slot["checked"] = box in ticked
        else:  # the rules give the track other boxes: slots as Fari's template writes them
            place.block["value"] = [
                {"checked": box in ticked, "label": label}
                for box, label in zip(boxes, labels, strict=True)
            ]


def _consequences(found: Found, sheet: Sheet, data: dict[str, Any], new_id: NewId) -> None:
    if sheet.state != "stress":
        return
    taken = sheet.consequences()
    for name, place in found.consequences.items():
        place.block["value"] = taken.get(name, "")
    places: list[Place | None] = list(found.consequences.values())
    for name, text in taken.items():  # taken where the character has no block for it
        if name not in found.consequences:
            block = text_block(new_id, name.title(), checked=False)
            block["value"] = text
            _home(places, data, sheet).append(block)
