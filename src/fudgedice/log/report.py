"""What ``verify`` found: how much of the log it checked, and the first failure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..render.numbers import counted


@dataclass(frozen=True, slots=True)
class Failure:
    """The first thing wrong with a log."""

    seq: int | None
    """The entry that fails (its place in the log, from 1); None when the
    document as a whole is wrong (no entries, a bad format)."""
    reason: str

    def __str__(self) -> str:
        where = "the log" if self.seq is None else f"seq {self.seq}"
        return f"{where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Report:
    """A log checked, with no network and no server."""

    room: str | None
    entries: int
    """Entries in the log."""
    checked: int
    """Entries checked whole before any failure: their place in the chain and
    the dice their revealed seed gives."""
    pending: int
    """Entries whose place in the chain is checked, but whose dice wait for
    their seed to be revealed (or, for a hidden roll, for its opening)."""
    seeds: int
    revealed: int
    failure: Failure | None = None
    by_hand: int = 0
    """Of the entries checked, those of dice read by hand: their reading is
    checked (the text reads the faces to the total), not where the faces
    came from."""
    changes: int = 0
    """Sheet changes whose fields were checked: they draw no dice, so their
    place in the chain is all there is to check (not counted in ``checked``)."""
    played: int = 0
    """Play entries and invokes on rolls whose arithmetic of fate points and
    free invokes was replayed (:mod:`.play_checks`)."""
    waiting: int = 0
    """Hidden spends not opened yet: what they paid is not known, so the
    points of their roller (and the GM's pool) are taken as the next entry
    states them."""
    talk: int = 0
    """Messages (talk) in their place in the chain, a hidden one's words
    checked against its digest where its opening is shown; they draw no dice
    (not counted in ``checked``), and a private one stays unopened for good."""

    @property
    def ok(self) -> bool:
        """Nothing is wrong (some rolls may still wait for their seed)."""
        return self.failure is None

    @property
    def complete(self) -> bool:
        """Nothing is wrong and every roll was checked."""
        return self.failure is None and self.pending == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "complete": self.complete,
            "room": self.room,
            "entries": self.entries,
            "checked": self.checked,
            "pending": self.pending,
            "seeds": self.seeds,
            "revealed": self.revealed,
            "by_hand": self.by_hand,
            "changes": self.changes,
            "played": self.played,
            "waiting": self.waiting,
            "talk": self.talk,
            "failure": None
            if self.failure is None
            else {"seq": self.failure.seq, "reason": self.failure.reason},
        }

    def __str__(self) -> str:
        room = "" if self.room is None else f" of room {self.room!r}"
        seeds = f"{counted(self.seeds, 'seed')}, {self.revealed} revealed"
        lines = [f"log{room}: {counted(self.entries, 'entry', 'entries')}, {seeds}"]
        if self.failure is not None:
            lines.append(f"FAILED at {self.failure}")
            lines.append(f"{counted(self.checked, 'entry', 'entries')} checked before it")
        elif self.pending:
            waits = "waits for its" if self.pending == 1 else "wait for their"
            place = "its" if self.pending == 1 else "their"
            lines.append(
                f"chain intact: {counted(self.checked, 'roll')} checked; {self.pending} {waits} "
                f"seed's reveal (only {place} place in the chain is checked)"
            )
        else:
            follow = (
                "the 1 roll follows from its revealed seed"
                if self.checked == 1
                else f"all {self.checked} rolls follow from their revealed seeds"
            )
            lines.append(
                f"verified: {follow}, the hash chain is unbroken and gap-free, every hidden "
                "roll matches its placeholder"
            )
        if self.by_hand:
            were = "was" if self.by_hand == 1 else "were"
            lines.append(
                f"{self.by_hand} of them {were} dice read by hand: their reading is checked, not "
                "the dice"
            )
        if self.changes:
            lines.append(
                f"{counted(self.changes, 'sheet change')}: in their place "
                "in the chain (they draw no dice)"
            )
        if self.played:
            lines.append(
                f"{counted(self.played, 'play entry', 'play entries')} and invokes: "
                "their fate points and free invokes add up"
            )
        if self.waiting:
            lines.append(
                f"{counted(self.waiting, 'hidden spend')} not opened yet: "
                "what they paid waits for their opening"
            )
        if self.talk:
            lines.append(
                f"{self.talk} message{'s' if self.talk != 1 else ''} of talk: in their place in "
                "the chain (they draw no dice; a private one is opened only to its readers)"
            )
        return "\n".join(lines)
