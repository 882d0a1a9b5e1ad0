"""A room's history as a reader may see it: the hash-chained log of
FAIRNESS.md (for ``fudgedice verify``), and the rolls as JSON or CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from . import fair
from .records import Member, RollRecord
from .store import log_entry


def log_entries(
    records: Iterable[RollRecord], viewer: Member, revealed: set[int]
) -> Iterator[dict[str, Any]]:
    """Every entry of the chain, in order. A hidden roll is its placeholder;
    its salt and entry are added for a reader who may see it, and for everyone
    once its seed is revealed (FAIRNESS.md), so that it can be checked."""
    prev = fair.GENESIS
    for record in records:
        entry = log_entry(record)
        if record.hidden and record.salt is not None:
            item = fair.placeholder(entry, record.salt)
            if record.visible_to(viewer) or record.epoch in revealed:
                item = {**item, "salt": record.salt, "entry": entry}
        else:
            item = dict(entry)
        yield {**item, "prev": prev, "hash": record.hash}
        prev = record.hash


CSV_COLUMNS = (
    "seq", "at", "member", "name", "visibility", "hidden", "text", "label", "total",
    "result", "verdict", "faces", "by_hand", "nonce", "client_seed", "commitment", "verified",
)  # fmt: skip

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> str:
    """A spreadsheet reads a cell that starts with '=' (or '+', '-', '@') as a
    formula: such text, typed by a user, is kept text by a leading quote."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) and not _number(text) else text


def _number(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def csv_rows(records: Sequence[RollRecord], viewer: Member) -> Iterator[str]:
    """The header, then one line a roll; a hidden roll has only who and when."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")

    def line(values: Iterable[Any]) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([_cell(value) for value in values])
        return buffer.getvalue()

    yield line(CSV_COLUMNS)
    for record in records:
        shown = record.for_viewer(viewer)
        shown["hidden"] = not record.visible_to(viewer)
        if not shown["hidden"]:
            shown["text"] = record.text
            shown["faces"] = " ".join(str(face) for face in fair.faces(record.result))
        yield line(shown.get(column) for column in CSV_COLUMNS)
