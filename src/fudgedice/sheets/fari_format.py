"""Fari's character file (``NAME.fari.json``): read within bounds, walked
block by block, and written as Fari writes it.

The format is Fari's (fari.app, github.com/farirpgs/fari-app, v6.3.6):
``lib/domains/character/types.tsx`` (``ICharacter``: ``pages`` of ``rows`` of
``columns`` of ``sections`` of ``blocks``; a block's ``type`` is ``Text``,
``Numeric``, ``Skill``, ``DicePool``, ``PointCounter``, ``SlotTracker``, ...)
and ``lib/domains/fari-entity/FariEntity.ts``, whose ``export`` writes
``JSON.stringify({...character, fariType: "character"})``: one line, no
spaces, the keys in the order the character holds them. Characters of
version 4 (``sections.left``/``right``) and 5 are read too, as Fari migrates
them; version 6 is written.

Nothing here knows a sheet: :mod:`.fari_mapping` reads the blocks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import LimitError
from .document import SheetError

MAX_FARI_BYTES = 64 * 1024
"""A Fate character from Fari is 5-10 KB; one with images pasted in can be
megabytes, and a sheet keeps no image (a sheet is at most 32 KiB)."""
MAX_DEPTH = 16
"""Objects and lists inside one another: a version 6 block's stress box is
13 deep."""
MAX_BLOCKS = 1000
VERSIONS = (4, 5, 6)
WRITTEN_VERSION = 6


class FariError(SheetError):
    """A file that is not a Fari character a sheet can hold."""


@dataclass(frozen=True)
class Place:
    """A block and where it is: its section, and its path in the file."""

    block: dict[str, Any]
    section: dict[str, Any]
    path: str

    @property
    def kind(self) -> str:
        return str(self.block.get("type", ""))

    @property
    def label(self) -> str:
        """The block's label, as a key: case and a leading ``2:`` set aside."""
        return key_of(self.block.get("label"))

    @property
    def section_label(self) -> str:
        return key_of(self.section.get("label"))


def key_of(label: object) -> str:
    """``"2: Mild"`` and ``"MILD"`` are both ``mild``."""
    text = label if isinstance(label, str) else ""
    return re.sub(r"^\s*[+-]?\d+\s*:\s*", "", text).strip().casefold()


def read(text: str, source: str) -> dict[str, Any]:
    """The character in a ``.fari.json`` file's text, its shape checked."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FARI_BYTES:
        raise LimitError(
            f"{source}: a Fari file of more than {MAX_FARI_BYTES:,} bytes is refused "
            "(a Fate character is 5-10 KB; remove its images in Fari first)"
        )
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise FariError(
            f"not Fari's JSON: {error.msg}",
            source=source,
            line=error.lineno,
            column=error.colno,
            hint="export the character from Fari: its menu, Export, a .fari.json file",
        ) from None
    except (RecursionError, ValueError) as error:
        raise FariError(f"not Fari's JSON: {error}", source=source) from None
    _check_depth(data, source)
    try:
        dumps(data).encode("utf-8")
    except UnicodeEncodeError:
        raise FariError(
            "not Fari's JSON: a text holds half of a surrogate pair", source=source
        ) from None
    if not isinstance(data, dict):
        raise FariError(f"a Fari file is a JSON object, not a {_kind(data)}", source=source)
    kind = data.get("fariType", "character")
    if kind != "character":
        raise FariError(
            f"this Fari file is a {kind!r}, not a character",
            source=source,
            hint="export a character from Fari's character manager",
        )
    version = data.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise FariError(
            f"a Fari character of version {version!r}: fudgedice reads versions 4 to 6",
            source=source,
            hint="open it in Fari and export it again",
        )
    if not isinstance(data.get("name", ""), str) or not isinstance(data.get("pages"), list):
        raise FariError("a Fari character has a name and pages", source=source)
    count = sum(1 for _ in places(data, source))
    if count > MAX_BLOCKS:
        raise LimitError(f"{source}: {count} blocks is more than a sheet holds ({MAX_BLOCKS})")
    return data


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is no number JSON writes")


def _kind(value: object) -> str:
    return {list: "list", str: "text", bool: "boolean"}.get(type(value), "number")


def _check_depth(data: object, source: str) -> None:
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FariError(f"not a Fari character: nested {depth} deep", source=source)
        children = list(item.values()) if isinstance(item, dict) else item
        if isinstance(children, list):
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


def sections(data: dict[str, Any], source: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each section of the character, in the order Fari shows them, and its path."""
    for p, page in enumerate(data["pages"]):
        where = f"pages[{p}]"
        if not isinstance(page, dict):
            raise FariError(f"{where} is no page", source=source)
        if isinstance(page.get("rows"), list):
            columns = [
                (f"{where}.rows[{r}].columns[{c}]", column)
                for r, row in enumerate(page["rows"])
                for c, column in enumerate(_list(row, "columns", f"{where}.rows[{r}]", source))
            ]
        elif isinstance(page.get("sections"), dict):
            columns = [(f"{where}.sections.{side}", {"sections": page["sections"].get(side, [])})
                       for side in ("left", "right")]  # fmt: skip
        else:
            raise FariError(f"{where} has no rows of sections", source=source)
        for at, column in columns:
            for s, section in enumerate(_list(column, "sections", at, source)):
                if not isinstance(section, dict) or not isinstance(section.get("blocks"), list):
                    raise FariError(f"{at}.sections[{s}] is no section of blocks", source=source)
                yield f"{at}.sections[{s}]", section


def places(data: dict[str, Any], source: str) -> Iterator[Place]:
    """Each block of the character and its place."""
    for at, section in sections(data, source):
        for b, block in enumerate(section["blocks"]):
            if not isinstance(block, dict) or not isinstance(block.get("type"), str):
                raise FariError(f"{at}.blocks[{b}] is no block", source=source)
            yield Place(block, section, f"{at}.blocks[{b}]")


def _list(item: object, key: str, where: str, source: str) -> list[Any]:
    found = item.get(key) if isinstance(item, dict) else None
    if not isinstance(found, list):
        raise FariError(f"{where} has no list of {key}", source=source)
    return found


def dumps(data: dict[str, Any]) -> str:
    """The character as Fari's export writes it (``JSON.stringify``)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
