"""A character sheet's page at the table: what ``fudgedice sheet show``
prints, every trait with its chance, measured once for each version of the
sheet and kept (bounded), and measured as ``GET /api/odds`` is: one request's
budget of work (:mod:`fudgedice.budget`; a trait past it says so in its
line, as on the command line), in the measuring process, through the gate
of measures (:class:`.odds.OddsGate`: one at a time, each address's
allowance). A sheet's page waits a little for its place, where ``/api/odds``
is refused at once: the members of a table read their sheets together (after
each change, each spend). A sheet whose page can't be measured now is still
answered, without its page: its reader never sees an old version, nor none."""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from .. import sheets
from ..budget import current, within_budget
from ..limits import DEFAULT_LIMITS
from ..sheets.levels import level_name
from ..sheets.model import POINTS
from .odds import OddsGate
from .problems import Problem
from .sheet_state import adjusted, state, wound_shift
from .sheet_store import Stored, checked

SHOWN_WITH_ODDS = 60
"""Traits a sheet's page shows with their chances at most: each is a measure."""
PAGES = 256
"""Sheets kept as shown, at most."""
WAIT = 3.0
"""Seconds a sheet's page waits for a place in the gate of measures at most."""
MEASURED_WITHIN = 10.0
"""Seconds a request waits for a sheet's page being measured at most (a
measure takes a second; the measuring process, started anew, takes longer
to load the engine on a loaded machine): past it, the sheet is answered
without its page, which is kept when its measure ends."""
KEPT_CHARACTERS = 4_000_000
"""Characters of the sheets kept (their texts and pages) at most: a sheet is
at most 32 KiB, and a page of 60 traits a few KB."""

Key = tuple[str, str, int]
SheetJSON = dict[str, Any]
"""A sheet as an answer shows it: ``{"system", "name", "traits", "points",
"page"}``, and ``page_error`` when its page could not be measured now."""


@within_budget
def _shown(text: str) -> tuple[str, float]:
    """In the measuring process: the page of the sheet ``text`` (checked
    already), and the work it was charged: all its traits one request."""
    page = sheets.show(sheets.load_text(text))
    spent = current()
    return page, spent.spent if spent is not None else 0.0


def described(sheet: sheets.Sheet, page: str | None) -> SheetJSON:
    """The sheet's system, name, traits (the buttons that roll them, each with
    its level as a wound leaves it), points, the state the rules read (wounds,
    stress, consequences, aspects: :func:`.sheet_state.state`) and page."""
    shift = wound_shift(sheet)
    traits = [
        {"name": t.name, "table": t.table, "level": level_name(sheet.system, t.level.value),
         "adjusted": adjusted(sheet, t.level.value, shift)}
        for t in sheet.traits.values()
    ]  # fmt: skip
    points = {key: sheet.count(key) for key in POINTS if key in sheet.values}
    return {"system": sheet.system, "name": sheet.name, "traits": traits, "points": points,
            "state": state(sheet), "page": page}  # fmt: skip


class SheetPages:
    """Sheets as shown, by room, member and version, the least read first out:
    a sheet kept is read again without being read from its text, nor measured."""

    def __init__(self, gate: OddsGate, size: int = PAGES) -> None:
        self.gate, self.size = gate, size
        self.wait = WAIT
        """Seconds a page waits for the gate (:data:`WAIT`)."""
        self.within = MEASURED_WITHIN
        """Seconds a page waits for its measure (:data:`MEASURED_WITHIN`)."""
        self.measured = 0
        """Pages measured so far (a page served from the cache is not)."""
        self._kept: OrderedDict[Key, tuple[bytes, SheetJSON, int]] = OrderedDict()
        self._characters = 0
        self._lock = threading.Lock()

    def shown(self, room: str, stored: Stored, address: str) -> SheetJSON:
        """``stored`` as shown, kept or made now. A sheet that exists is always
        answered: when its page would be measured and can't be now (the gate
        busy past :attr:`wait`, the address's allowance spent, the measuring
        process lost), with ``page`` null and ``page_error`` saying why, for
        the reader to ask again in a moment."""
        found = self._find(room, stored)
        if found is not None:
            return found
        sheet = checked(stored.text)
        if len(sheet.traits) > SHOWN_WITH_ODDS:
            return self._keep(room, stored, described(sheet, None))
        try:
            with self.gate.slot(address, self.wait):
                # measured meanwhile by the request this one waited behind (another
                # member's page reading the same version, say): not measured again
                found = self._find(room, stored)
                return found if found is not None else self._measure(room, stored, sheet)[0]
        except Problem as problem:
            return {**described(sheet, None), "page_error": problem.error}

    def listed(self, room: str, kept: Sequence[Stored], address: str) -> list[SheetJSON]:
        """Several sheets in one request: those not kept are measured (in one
        place of the gate) while the request's work stays within one
        request's budget; each one left says why in its ``page_error``."""
        shown: list[SheetJSON] = []
        work, refused, holding = 0.0, None, False
        with contextlib.ExitStack() as held:
            for stored in kept:
                found = self._find(room, stored)
                if found is not None:
                    shown.append(found)
                    continue
                sheet = checked(stored.text)
                if refused is None and work >= DEFAULT_LIMITS.max_request_work:
                    refused = Problem(503, "not measured yet: read this sheet alone")
                if refused is None and not holding:
                    try:
                        held.enter_context(self.gate.slot(address, self.wait))
                        holding = True
                    except Problem as problem:
                        refused = problem
                    found = self._find(room, stored)  # measured while this one waited
                    if found is not None:
                        shown.append(found)
                        continue
                if refused is not None:
                    shown.append({**described(sheet, None), "page_error": refused.error})
                    continue
                try:
                    made, spent = self._measure(room, stored, sheet)
                except Problem as problem:  # its measure still under way, or lost
                    refused = problem
                    shown.append({**described(sheet, None), "page_error": problem.error})
                    continue
                shown.append(made)
                work += spent
        return shown

    def _find(self, room: str, stored: Stored) -> SheetJSON | None:
        key, digest = _key(room, stored)
        with self._lock:
            found = self._kept.get(key)
            if found is None or found[0] != digest:
                return None
            self._kept.move_to_end(key)
            return found[1]

    def _measure(self, room: str, stored: Stored, sheet: sheets.Sheet) -> tuple[SheetJSON, float]:
        """The sheet with its page, measured now; a page not measured within
        :attr:`within` is refused (503) and kept once it is."""
        if len(sheet.traits) > SHOWN_WITH_ODDS:
            return self._keep(room, stored, described(sheet, None)), 0.0

        def made(measured: tuple[str, float]) -> SheetJSON:
            with self._lock:
                self.measured += 1
            return self._keep(room, stored, described(sheet, measured[0]))

        page, spent = self.gate.run(_shown, stored.text, within=self.within, later=made)
        return made((page, spent)), spent

    def _keep(self, room: str, stored: Stored, shown: SheetJSON) -> SheetJSON:
        key, digest = _key(room, stored)
        size = len(stored.text) + len(shown["page"] or "")
        with self._lock:
            old = self._kept.pop(key, None)
            self._characters += size - (old[2] if old is not None else 0)
            self._kept[key] = (digest, shown, size)
            while len(self._kept) > self.size or self._characters > KEPT_CHARACTERS:
                self._characters -= self._kept.popitem(last=False)[1][2]
        return shown


def _key(room: str, stored: Stored) -> tuple[Key, bytes]:
    """The sheet's key, and its text's digest: a version names one text."""
    digest = hashlib.sha256(stored.text.encode("utf-8", "surrogatepass")).digest()
    return (room, stored.member, stored.version), digest
