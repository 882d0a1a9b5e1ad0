"""``export`` and ``log`` are written as they are read, a page of rolls at a
time: the server holds a page, not the history, and the bytes are those of
the whole document written at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from fudgedice.log.canonical import VISIBILITIES
from fudgedice.server import connect, exports, store
from fudgedice.server.kept import Member, RollRecord, RollRequest
from fudgedice.server.writer import append_rolls

PAGE = 4


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A room of 23 rolls of every visibility, a seed revealed in between,
    and a spy on the pages read from the database."""
    monkeypatch.setattr(exports, "PAGE", PAGE)
    db = connect(str(tmp_path / "table.sqlite3"))
    room, gm, _ = store.create_room(db, "Ré ☃", "fudge", "GM")
    ann, _ = store.join(db, room.id, "Ånn =1+1")
    for count in (10, 13):
        requests = [
            RollRequest(room.id, (gm, ann)[n % 2], "4dF+1", "fudge",
                        VISIBILITIES[n % 4] if n % 2 == 0 else "self", f"L{n}", "", None)
            for n in range(count)
        ]  # fmt: skip
        append_rolls(db, requests)
        if count == 10:
            store.reveal(db, room.id)
    reads: list[int] = []
    list_rolls = store.list_rolls

    def spied(*args: Any, **kwargs: Any) -> list[RollRecord]:
        page = list_rolls(*args, **kwargs)
        reads.append(len(page))
        return page

    monkeypatch.setattr(store, "list_rolls", spied)
    yield db, store.room(db, room.id), gm, ann, reads
    db.dispose()


def _everything(db: Any, room: str) -> list[RollRecord]:
    return store.list_rolls(db, room, limit=500)


def _lazily(chunks: Any, reads: list[int]) -> list[bytes]:
    """Every chunk, checking that each was read from the database just before
    it was written: a page at a time, never the whole history ahead."""
    written = [next(chunks)]
    assert reads == []  # the document's start: nothing read yet
    for chunk in chunks:
        written.append(chunk)
        pages = [read for read in reads if read]  # (one that finds the end is no page)
        assert len(pages) <= len(written) - 1 and max(pages, default=0) <= PAGE
    return written


@pytest.mark.parametrize("viewer", ["gm", "ann"])
def test_the_log_is_streamed_a_page_at_a_time_with_the_same_bytes(
    history: Any, viewer: str
) -> None:
    db, room, gm, ann, reads = history
    me: Member = gm if viewer == "gm" else ann
    start = exports.log_start(db, room.id)
    chunks = _lazily(exports.log_bytes(db, start, me), reads)
    assert len(chunks) == 2 + 23 // PAGE + 1  # start, 6 pages, end
    whole = exports.log_document(
        room.id, store.seed_list(db, room.id), _everything(db, room.id), me
    )
    assert b"".join(chunks) == TypeAdapter(dict[str, Any]).dump_json(whole)
    assert json.loads(b"".join(chunks))["seeds"][0]["rolls"] == 10


@pytest.mark.parametrize("member", [None, "ann"])
def test_the_export_is_streamed_a_page_at_a_time_with_the_same_bytes(
    history: Any, member: str | None
) -> None:
    db, room, _, ann, reads = history
    only = ann.id if member else None
    records = [r for r in _everything(db, room.id) if only is None or r.member == only]
    reads.clear()
    chunks = _lazily(exports.rolls_json(db, room, ann, only), reads)
    sizes = [min(PAGE, len(records) - n) for n in range(0, len(records), PAGE)]
    assert [read for read in reads if read] == sizes and len(chunks) == len(sizes) + 2
    rolls = [record.for_viewer(ann) for record in records]
    document = {"room": room.id, "name": room.name, "system": room.system, "rolls": rolls}
    assert b"".join(chunks) == json.dumps(document, ensure_ascii=False).encode()
    reads.clear()
    lines = _lazily(exports.rolls_csv(db, room, ann, only), reads)
    assert b"".join(lines) == "".join(exports.csv_rows(records, ann)).encode()
    assert all(chunk.count(b"\r\n") <= PAGE for chunk in lines[1:])


def test_an_empty_rooms_log_and_export(history: Any, tmp_path: Path) -> None:
    db, *_ = history
    room, gm, _ = store.create_room(db, "empty", "fudge", "GM")
    start = exports.log_start(db, room.id)
    log = json.loads(b"".join(exports.log_bytes(db, start, gm)))
    assert log["entries"] == [] and log["head"]["seq"] == 0
    shown = json.loads(b"".join(exports.rolls_json(db, store.room(db, room.id), gm, None)))
    assert shown["rolls"] == []
