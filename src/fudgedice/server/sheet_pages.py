"""A character sheet's page at the table: what ``fudgedice sheet show``
prints, every trait with its chance, measured once for each version of the
sheet and kept (bounded), and measured as ``GET /api/odds`` is: one request's
budget of work (:mod:`fudgedice.budget`; a trait past it says so in its
line, as on the command line), in the measuring process, through the gate
of measures (:class:`.odds.OddsGate`: one at a time, each address's
allowance; refused at once, never queued)."""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

from .. import sheets
from ..budget import current, within_budget
from ..limits import DEFAULT_LIMITS
from .odds import OddsGate
from .problems import Problem
from .sheet_store import Stored

SHOWN_WITH_ODDS = 60
"""Traits a sheet's page shows with their chances at most: each is a measure."""
PAGES = 256
"""Pages kept: each at most about 45 KB (60 traits' lines, the sheet's
aspects and notes), so some 12 MB at worst."""

Key = tuple[str, str, int]


@within_budget
def _shown(text: str) -> tuple[str, float]:
    """In the measuring process: the page of the sheet ``text`` (checked
    already), and the work it was charged: all its traits one request."""
    page = sheets.show(sheets.load_text(text))
    spent = current()
    return page, spent.spent if spent is not None else 0.0


class SheetPages:
    """Pages by room, member and sheet version, the least read first out."""

    def __init__(self, gate: OddsGate, size: int = PAGES) -> None:
        self.gate, self.size = gate, size
        self.measured = 0
        """Pages measured so far (a page served from the cache is not)."""
        self._pages: OrderedDict[Key, tuple[bytes, str | None]] = OrderedDict()
        self._lock = threading.Lock()

    def page(self, room: str, stored: Stored, sheet: sheets.Sheet, address: str) -> str | None:
        """The page of ``sheet`` (``stored``'s), kept or measured now: a 429
        or 503 when it can't be measured now. None past :data:`SHOWN_WITH_ODDS`
        traits."""
        if len(sheet.traits) > SHOWN_WITH_ODDS:
            return None
        found = self._kept(room, stored)
        if found is not None:
            return found[1]
        with self.gate.slot(address):
            return self._measure(room, stored, sheet)[0]

    def pages(
        self, room: str, kept: Sequence[tuple[Stored, sheets.Sheet]], address: str
    ) -> list[str | Problem | None]:
        """The pages of several sheets in one request: those not kept are
        measured (in one place of the gate) while the request's work stays
        within one request's budget; each one left is the Problem that says why."""
        shown: list[str | Problem | None] = []
        work, refused, holding = 0.0, None, False
        with contextlib.ExitStack() as held:
            for stored, sheet in kept:
                found = self._kept(room, stored)
                if found is not None:
                    shown.append(found[1])
                    continue
                if refused is None and work >= DEFAULT_LIMITS.max_request_work:
                    refused = Problem(503, "not measured yet: read this sheet alone")
                if refused is None and not holding:
                    try:
                        held.enter_context(self.gate.slot(address))
                        holding = True
                    except Problem as problem:
                        refused = problem
                if refused is not None:
                    shown.append(refused)
                    continue
                page, spent = self._measure(room, stored, sheet)
                shown.append(page)
                work += spent
        return shown

    def _kept(self, room: str, stored: Stored) -> tuple[bytes, str | None] | None:
        key, digest = _key(room, stored)
        with self._lock:
            found = self._pages.get(key)
            if found is None or found[0] != digest:
                return None
            self._pages.move_to_end(key)
            return found

    def _measure(self, room: str, stored: Stored, sheet: sheets.Sheet) -> tuple[str | None, float]:
        many = len(sheet.traits) > SHOWN_WITH_ODDS
        page, spent = (None, 0.0) if many else self.gate.run(_shown, stored.text)
        key, digest = _key(room, stored)
        with self._lock:
            self.measured += 1
            self._pages[key] = (digest, page)
            self._pages.move_to_end(key)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)
        return page, spent


def _key(room: str, stored: Stored) -> tuple[Key, bytes]:
    """The page's key, and its text's digest: a version names one text."""
    digest = hashlib.sha256(stored.text.encode("utf-8", "surrogatepass")).digest()
    return (room, stored.member, stored.version), digest
