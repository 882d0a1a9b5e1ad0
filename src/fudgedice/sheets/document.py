"""A sheet's TOML text: read within a size bound, parsed with tomlkit (which
keeps comments and layout when a value changes), every mistake located by
line and column, and written back atomically.

Nothing here knows a game system: :mod:`.model` reads the parsed document.
"""

from __future__ import annotations

import re
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError, TOMLKitError
from tomlkit.toml_document import TOMLDocument

from .. import files
from ..errors import DiceValueError, LimitError
from ..files import OWNER_ONLY
from ..names import refusal

MAX_SHEET_BYTES = 32 * 1024
"""A character sheet is a page or two of text (a full one is about 3 KB); a
file past this is refused before it is parsed. tomlkit, which keeps the
layout, reads about 100 KB a second on this project's 2-core machine."""
MAX_SHEET_VALUES = 2000
"""Keys and values in one sheet: counted first with the standard library's
fast reader, since tomlkit takes seconds over a long array."""


class SheetError(DiceValueError):
    """A sheet that can't be read or used: the file and the place in it."""

    def __init__(
        self,
        message: str,
        *,
        source: str = "sheet",
        line: int | None = None,
        column: int | None = None,
        line_text: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = source if line is None else f"{source}:{line}:{column or 1}"
        super().__init__(
            f"{where}: {message}",
            text=line_text,
            position=None if line_text is None or column is None else column - 1,
            hint=hint,
        )
        self.source, self.line, self.column = source, line, column


@dataclass(frozen=True)
class Document:
    """A parsed sheet and the text it came from."""

    text: str
    toml: TOMLDocument
    source: str
    """The file's name (or ``sheet``), for messages."""

    def fail(
        self,
        message: str,
        table: str | None = None,
        key: str | None = None,
        *,
        at_value: bool = True,
        hint: str | None = None,
    ) -> SheetError:
        """An error pointing at ``key`` of ``table`` (``None``: the top level)."""
        found = locate(self.text, table, key, at_value=at_value)
        if found is None:  # a table the sheet does not have: no line to show
            return SheetError(message, source=self.source, hint=hint)
        line, column = found
        lines = self.text.splitlines()
        line_text = lines[line - 1] if 0 < line <= len(lines) else None
        return SheetError(
            message,
            source=self.source,
            line=line,
            column=column,
            line_text=line_text,
            hint=hint,
        )

    def check_name(
        self,
        text: str,
        what: str,
        table: str | None = None,
        key: str | None = None,
        *,
        at_value: bool = True,
    ) -> None:
        """Refuse a name (``what``: "a trait's name") holding what no name may
        (:mod:`fudgedice.names`): the value as TOML reads it, so that an escape
        (``"\\u202E"``, ``"\\n"``) is no way round."""
        refused = refusal(text, what)
        if refused is not None:
            raise self.fail(refused, table, key, at_value=at_value)


def parse(text: object, source: str = "sheet") -> Document:
    """The document of a sheet's text, or a :class:`SheetError` with the line
    and column of the first mistake."""
    if not isinstance(text, str):
        raise SheetError(f"a sheet is TOML text, not {type(text).__name__}", source=source)
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SHEET_BYTES:
        raise LimitError(f"{source}: a sheet of more than {MAX_SHEET_BYTES:,} bytes is refused")
    _precheck(text, source)
    try:
        toml = tomlkit.parse(text)
    except ParseError as error:
        lines = text.splitlines()
        line_text = lines[error.line - 1] if 0 < error.line <= len(lines) else None
        # tomlkit says "... at line L col C": the place is given apart
        message = re.sub(r" at line \d+ col \d+$", "", str(error))
        raise SheetError(
            f"not valid TOML: {message}",
            source=source,
            line=error.line,
            column=error.col + 1,
            line_text=line_text,
            hint="TOML writes 'key = value'; text is quoted: Melee = \"Good\"",
        ) from None
    except (TOMLKitError, RecursionError, ValueError) as error:
        # nesting deep enough to exhaust the parser's recursion is no sheet
        raise SheetError(f"not valid TOML: {error}", source=source) from None
    return Document(text, toml, source)


_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def _precheck(text: str, source: str) -> None:
    """Read the text with the standard library first: a mistake's place, and
    the number of values, before the slower layout-keeping parse."""
    try:
        values = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _AT.search(str(error))
        line, column = (int(found.group(1)), int(found.group(2))) if found else (None, None)
        lines = text.splitlines()
        line_text = lines[line - 1] if line is not None and 0 < line <= len(lines) else None
        raise SheetError(
            f"not valid TOML: {_AT.sub('', str(error)).lower()}",
            source=source,
            line=line,
            column=column,
            line_text=line_text,
            hint="TOML writes 'key = value'; text is quoted: Melee = \"Good\"",
        ) from None
    except RecursionError:
        raise SheetError("not valid TOML: nested too deeply", source=source) from None
    count, stack = 0, list[Any]([values])
    while stack:
        item = stack.pop()
        children = list(item.values()) if isinstance(item, dict) else item
        if isinstance(item, dict | list):
            count += len(children)
            stack.extend(child for child in children if isinstance(child, dict | list))
        if count > MAX_SHEET_VALUES:
            raise LimitError(
                f"{source}: more than {MAX_SHEET_VALUES:,} keys and values is no character sheet"
            )


_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")


def _key_pattern(key: str) -> re.Pattern[str]:
    quoted = re.escape(key)
    return re.compile(rf"^\s*(?:{quoted}|\"{quoted}\"|'{quoted}')\s*=\s*")


def _table_name(header: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in header.split("."))


def locate(
    text: str, table: str | None, key: str | None, *, at_value: bool = True
) -> tuple[int, int] | None:
    """Line and column (from 1) of ``key`` in ``table`` (its value's start,
    or the key's), of the table's header when ``key`` is None or absent, or
    None when the table is not there."""
    current: str | None = None
    header_at: tuple[int, int] | None = (1, 1) if table is None else None
    pattern = _key_pattern(key) if key is not None else None
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        found = _HEADER.match(line)
        if found:
            current = _table_name(found.group(1))
            if current == table and header_at is None:
                header_at = (number, line.index("[") + 1)
            continue
        if current == table and pattern is not None:
            matched = pattern.match(line)
            if matched:
                column = matched.end() if at_value else len(line) - len(line.lstrip())
                return number, column + 1
    return header_at


def read_file(path: str | Path) -> Document:
    """A sheet file, read within :data:`MAX_SHEET_BYTES` and parsed."""
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_SHEET_BYTES + 1)
    except OSError as error:
        raise SheetError(
            f"can't read the sheet: {error.strerror or error}", source=str(path)
        ) from None
    if len(data) > MAX_SHEET_BYTES:
        raise LimitError(f"{path}: a sheet of more than {MAX_SHEET_BYTES:,} bytes is refused")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise SheetError("not UTF-8 text", source=str(path), line=line) from None
    return parse(text, str(path))


def write_atomically(path: str | Path, text: str, *, expected: str | None = None) -> None:
    """Replace the file at ``path`` with ``text`` so that a crash leaves the
    old sheet or the new one, never half of one: a temporary file in the same
    folder, flushed to disk, then renamed over it. With ``expected``, the file
    must still hold that text (it was read for this change): a change made
    meanwhile by someone else is refused, never overwritten."""
    path = Path(path)
    if expected is not None:
        try:
            with path.open("rb") as file:
                current = file.read(MAX_SHEET_BYTES + 1)
        except OSError:
            current = b""
        if current != expected.encode("utf-8"):
            raise SheetError(
                "the sheet changed while this change was being made: nothing was written",
                source=str(path),
                hint="run the command again",
            )
    try:
        mode = stat.S_IMODE(path.stat().st_mode)  # an edit keeps the file's permissions
    except FileNotFoundError:
        mode = OWNER_ONLY
    except OSError as error:
        raise SheetError(
            f"can't write the sheet: {error.strerror or error}", source=str(path)
        ) from None
    try:
        files.write_atomically(path, text.encode("utf-8"), mode=mode)
    except OSError as error:
        raise SheetError(
            f"can't write the sheet: {error.strerror or error}", source=str(path)
        ) from None
