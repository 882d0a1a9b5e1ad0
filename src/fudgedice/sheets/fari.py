"""Fate characters from Fari (fari.app) and back (docs/sheets.md, "Characters
from Fari"): ``fudgedice sheet import FILE.fari.json`` and ``sheet export
FILE --to fari``.

A sheet holds a Fari character's name, aspects, stunts, notes, fate points
and refresh, skills (or approaches), the boxes checked of its physical and
mental stress and its consequences. Everything else of the file (Fari's ids,
labels, pages and sections, and the blocks a sheet has no key for) is kept in
the sheet's ``[fari]`` table, as ``layout``: Fari's own JSON with the values
the sheet holds taken out. Export puts the sheet's values back into it, so a
file imported and exported is the file Fari wrote; a sheet that never came
from Fari is written into a new character of Fari's Fate template.

>>> from fudgedice import sheets
>>> cynere = sheets.load_text(sheets.new_sheet("fate", "Cynere"))
>>> text = export_fari(cynere, now=1700000000, new_id=iter(map(str, range(100))).__next__)
>>> text[:52]
'{"id":"0","name":"Cynere","lastUpdated":1700000000,"'
>>> print(import_fari(text).splitlines()[3])
name = "Cynere"
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable
from typing import Any

import tomlkit

from ..errors import LimitError
from .document import MAX_SHEET_BYTES, SheetError, parse
from .fari_format import MAX_FARI_BYTES, FariError, dumps, read
from .fari_mapping import (
    SYSTEM_OF,
    TEMPLATE_OF,
    TITLES,
    Found,
    checked_boxes,
    find,
    is_fate,
    match_tracks,
    number_of,
    skill_name,
    text_of,
)
from .fari_overlay import overlay
from .fari_templates import new_character
from .levels import rules_of
from .model import SYSTEMS, Sheet, load

__all__ = ["MAX_FARI_BYTES", "FariError", "export_fari", "import_fari", "read_fari_file"]


def import_fari(text: str, source: str = "character.fari.json") -> str:
    """The TOML text of a sheet holding the Fate character of a ``.fari.json``
    file's text: a :class:`FariError` (``source``'s place in it) when it is
    not one a sheet can hold."""
    data = read(text, source)
    found = find(data, source)
    if not is_fate(found):
        raise FariError(
            "this Fari character is no Fate character: it has no High Concept and no "
            "skill rolled with 4dF",
            source=source,
            hint="a character made from Fari's Fate Core, Condensed or Accelerated template",
        )
    system = SYSTEM_OF[found.template]
    tried = [system, "fate"] if system in SYSTEMS and system != "fate" else ["fate"]
    refused: SheetError | None = None
    for each in tried:
        for opt_out in (False, True):  # skills off the pyramid (the spread) are Fari's to allow
            sheet_text = _sheet_of(read(text, source), each, source, opt_out)
            try:
                load(parse(sheet_text, "sheet"))
            except SheetError as error:
                refused = refused or error
                continue
            return sheet_text
    assert refused is not None
    # the sheet's place says nothing of the file's: the why alone
    why = re.sub(r"^sheet(:\d+:\d+)?: ", "", refused.message)
    raise FariError(f"the sheet made from it is refused: {why}", source=source, hint=refused.hint)


def _sheet_of(data: dict[str, Any], system: str, source: str, opt_out: bool) -> str:
    """The text of a ``system`` sheet of the character ``data`` (``opt_out``:
    with its skills' check turned off)."""
    found = find(data, source)
    match_tracks(found, system)
    values = _values(data, found, source)
    _blank(found)
    stress = getattr(rules_of(system), "stress", None)
    check = str(getattr(stress, "check_key", "pyramid")) if opt_out else None
    return _toml(system, values, found, dumps(data), check)


def read_fari_file(path: str) -> str:
    """A ``.fari.json`` file's text, read within :data:`MAX_FARI_BYTES`."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FARI_BYTES + 1)
    except OSError as error:
        raise FariError(f"can't read the file: {error.strerror or error}", source=path) from None
    if len(data) > MAX_FARI_BYTES:
        raise LimitError(f"{path}: a Fari file of more than {MAX_FARI_BYTES:,} bytes is refused")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark is no mistake
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise FariError("not UTF-8 text", source=path, line=line) from None


def export_fari(
    sheet: Sheet, *, now: int | None = None, new_id: Callable[[], str] | None = None
) -> str:
    """The ``.fari.json`` text of a Fate sheet, as Fari's export writes it:
    into the sheet's ``[fari] layout`` when it came from Fari, else into a new
    character of Fari's template (``now``: its ``lastUpdated``, Unix seconds;
    ``new_id``: its ids, random UUIDs by default)."""
    if sheet.system not in TEMPLATE_OF:
        raise FariError(
            f"a {sheet.system} sheet has no Fari character: only Fate sheets do",
            source=sheet.source,
        )
    kept = sheet.values.get("fari", {})
    layout = kept.get("layout") if isinstance(kept, dict) else None
    if layout is not None and not isinstance(layout, str):
        raise sheet.document.fail("[fari] layout is Fari's JSON, as text", "fari", "layout")
    where = f"{sheet.source} [fari] layout"
    if layout is None:
        made = new_id or (lambda: str(uuid.uuid4()))
        stamp = int(time.time()) if now is None else now
        data = new_character(TEMPLATE_OF[sheet.system], sheet.name, stamp, made)
    else:
        data = read(layout, where)
    found = find(data, where)
    match_tracks(found, sheet.system)
    overlay(data, found, sheet, new_id or (lambda: str(uuid.uuid4())))
    return dumps(data)


def _values(data: dict[str, Any], found: Found, source: str) -> dict[str, Any]:
    """The sheet's keys, read from the blocks that hold them."""
    name = data.get("name", "")
    if not name.strip():
        raise FariError(
            "the Fari character has no name",
            source=source,
            hint="name it in Fari and export it again",
        )
    skills: dict[str, int] = {}
    for place in found.skills:
        level = number_of(place, source)
        if level is not None:
            skills.setdefault(skill_name(place.block.get("label")) or "Skill", level)
    return {
        "name": name.strip(),
        "high_concept": text_of(found.high_concept, source),
        "trouble": text_of(found.trouble, source),
        "aspects": [text for place in found.aspects if (text := text_of(place, source))],
        "stunts": [text for place in found.stunts if (text := text_of(place, source))],
        "notes": text_of(found.notes, source),
        "fate_points": number_of(found.points, source),
        "refresh": number_of(found.refresh, source)
        if found.refresh is not None
        else number_of(found.points, source, "max"),
        "skills": skills,
        "stress": {
            track: checked_boxes(place, found.kinds[track]) for track, place in found.stress.items()
        },
        "consequences": {n: text_of(p, source) for n, p in found.consequences.items()},
    }


def _blank(found: Found) -> None:
    """Take out of Fari's JSON the values the sheet holds: one place for each."""
    texts = [found.high_concept, found.trouble, found.notes, *found.aspects, *found.stunts]
    for place in [*texts, *found.skills, *found.consequences.values(), found.points]:
        if place is not None:
            place.block["value"] = ""
    if found.refresh is not None:
        found.refresh.block["value"] = ""
    for place in found.stress.values():
        for slot in place.block["value"]:  # a mapped track's value is a list of boxes
            if isinstance(slot, dict) and "checked" in slot:
                slot["checked"] = False


def _string(text: str) -> str:
    return tomlkit.string(text).as_string()


def _key(name: str) -> str:
    bare = name.replace("_", "").replace("-", "")
    return name if bare.isascii() and bare.isalnum() else _string(name)


def _toml(system: str, values: dict[str, Any], found: Found, layout: str, check: str | None) -> str:
    """The sheet's text: its keys in the order of a new sheet's, then ``[fari]``."""
    rules = rules_of(system)
    lines = [
        f"# A {TITLES[found.template]} character from Fari (fari.app). [fari] keeps what",
        "# the sheet has no key for; `fudgedice sheet export FILE --to fari` writes it back.",
        f'system = "{system}"',
        f"name = {_string(values['name'])}",
        f"high_concept = {_string(values['high_concept'])}",
        f"trouble = {_string(values['trouble'])}",
        f"aspects = [{', '.join(map(_string, values['aspects']))}]",
        f"stunts = [{', '.join(map(_string, values['stunts']))}]",
    ]
    lines += [
        f"{key} = {values[key]}" for key in ("refresh", "fate_points") if values[key] is not None
    ]
    if values["notes"]:
        lines.append(f"notes = {_string(values['notes'])}")
    skills = values["skills"]
    if check is not None:
        lines.append(f"{check} = false".ljust(21) + f"# Fari's skills break the {check}")
    table = "approaches" if system == "fae" else "skills"
    lines += ["", f"[{table}]"]
    lines += [
        f"{_key(name)} = {_string(str(rules.written(level)))}" for name, level in skills.items()
    ]
    if values["stress"]:
        lines += ["", "[stress]             # the boxes checked"]
        lines += [f"{track} = {boxes}" for track, boxes in values["stress"].items()]
    if values["consequences"]:
        lines += ["", "[consequences]"]
        lines += [f"{_key(n)} = {_string(t)}" for n, t in values["consequences"].items()]
    lines += ["", "[fari]               # Fari's layout: its ids, labels, sections, other blocks"]
    for kept in found.kept:
        lines.append(f"# {kept} is Fari's alone: it is kept here as it was")
    quoted = f"'{layout}'" if "'" not in layout else _string(layout)
    lines.append(f"layout = {quoted}")
    text = "\n".join(lines) + "\n"
    if len(text.encode("utf-8")) > MAX_SHEET_BYTES:
        raise FariError(
            f"the sheet made from it would be {len(text.encode('utf-8')):,} bytes, "
            f"more than a sheet's {MAX_SHEET_BYTES:,}",
            source="character",
            hint="Fari's file holds more than a sheet keeps (images, long texts)",
        )
    return text
