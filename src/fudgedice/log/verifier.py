"""``verify(log)``: check an exported log offline, and name the first entry
that fails and why.

A log is trusted for nothing: every field is checked for its type before it is
used, and whatever is wrong is a :class:`~.report.Failure`, never an exception.
Only a document past the limits (too many entries or faces to re-roll in
reasonable time) is refused with a :class:`~fudgedice.errors.LimitError`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

from .. import api, budget
from ..dice.program import Program
from ..errors import ChangedRule, DiceError, DiceValueError, TooManyDice
from ..limits import DEFAULT_LIMITS, Limits
from ..memory import reserve
from ..render.numbers import counted
from ..stream import Stream, room_stream
from .canonical import (
    DRAWLESS,
    FORMATS,
    GENESIS,
    SHARED_FIELDS,
    digest,
    entry_hash,
    is_hex64,
    opens_at_reveal,
)
from .document import (
    Failed,
    Seed,
    check_size,
    drawing_member,
    entry_error,
    own_fields_error,
    published_hashes,
    seeds_of,
    whole,
)
from .entries import checked_room, failed_draws
from .kinds import KindChecks
from .report import Failure, Report


def verify(log: object, *, published: Mapping[int, str] | None = None) -> Report:
    """Check a log document (docs/fairness.md): each revealed seed hashes to
    its commitment; the hash chain is unbroken and gap-free; seeds follow one
    another and nonces run 0, 1, 2, ... under each (each member's own, under a
    seed of version 2 of the stream); every hidden roll's opening matches its
    placeholder; every roll whose seed is revealed gives, re-rolled from the
    stream, the very faces and total the entry lists; and a failed roll's
    text fails, with its error, on the very faces it lists.

    ``published`` maps a seq to the hash (or its first 16 hex digits or more)
    shown for it during play: the log must hold that very entry, which no one
    can rewrite, nor anything before it, without changing its hash."""
    if not isinstance(log, dict):
        return Report(None, 0, 0, 0, 0, 0, Failure(None, "a log is a JSON object"))
    entries = log.get("entries")
    room = log.get("room")
    checker = _Checker(room if isinstance(room, str) else None, published_hashes(published))
    try:
        if log.get("format") not in FORMATS:
            raise Failed(None, f"its format is not one of {', '.join(map(repr, FORMATS))}")
        try:
            checker.room = checked_room(room)
        except DiceError as error:
            raise Failed(None, error.message) from None
        if not isinstance(entries, list):
            raise Failed(None, "its entries are not a list")
        faces = check_size(entries)
        _charge(len(entries), faces)
        checker.entries = len(entries)
        checker.seeds = seeds_of(log)
        checker.by_commitment = {seed.commitment: i for i, seed in enumerate(checker.seeds)}
        # charged as a whole above: a roll re-rolled is never refused midway,
        # which would read as an entry that fails
        with budget.paid():
            for position, entry in enumerate(entries, 1):
                checker.entry(position, entry)
        checker.finish(log.get("head"))
    except Failed as failed:
        return checker.report(failed.failure)
    return checker.report(None)


ENTRY_WORK = 40_000
"""Estimated work of checking one entry (its hashes, its fields, its roll
made again) besides its dice (ten thousand entries: about 0.45 s)."""
FACE_WORK = 3_000
"""Estimated work of each face a roll made again tosses."""


def _charge(entries: int, faces: int) -> None:
    """The whole verification, charged before it starts, by its size."""

    def fits(left: int) -> str:
        most = int(left // (ENTRY_WORK + FACE_WORK * faces / max(entries, 1)))
        return f"about {most:,} such entries can be verified in one request"

    budget.charge(
        entries * ENTRY_WORK + faces * FACE_WORK,
        f"verifying a log of {entries:,} entries and {faces:,} faces",
        fits,
    )


class _Checker:
    """The walk along the chain: where it stands, and what it has counted."""

    def __init__(self, room: str | None, published: Mapping[int, str]) -> None:
        self.room = room
        self.published = published
        self.entries = 0
        self.seeds: list[Seed] = []
        self.by_commitment: dict[str, int] = {}
        self.prev = GENESIS
        self.current = 0
        """The index of the seed in force."""
        self.checked = 0
        self.pending = 0
        self.by_hand = 0
        self.changes = 0
        self.talk = 0
        self.kinds = KindChecks()

    def report(self, failure: Failure | None) -> Report:
        revealed = sum(seed.server_seed is not None for seed in self.seeds)
        return Report(
            self.room,
            self.entries,
            self.checked,
            self.pending,
            len(self.seeds),
            revealed,
            failure,
            self.by_hand,
            self.changes,
            self.kinds.ledger.replayed,
            self.kinds.ledger.waiting,
            self.talk,
        )

    def entry(self, position: int, entry: object) -> None:
        if not isinstance(entry, dict):
            raise Failed(position, "the entry is not a JSON object")
        seq = entry.get("seq")
        if seq != position or not whole(seq):
            raise Failed(
                position,
                f"it is numbered {seq!r} where {position} was next: an entry is missing, "
                "added or out of order",
            )
        if entry.get("prev") != self.prev:
            raise Failed(position, f"its prev is not the hash of seq {position - 1}")
        try:
            own = entry_hash(entry)
        except DiceValueError as error:
            raise Failed(position, error.message) from None
        if entry.get("hash") != own:
            raise Failed(position, "its hash does not match its content: the entry was changed")
        shown = self.published.get(position)
        if shown is not None and not own.startswith(shown):
            raise Failed(
                position,
                f"its hash {own[:16]}... is not the {shown[:16]}... published for it: the log "
                "was rewritten up to here",
            )
        hidden = entry.get("hidden", False)
        wrong = entry_error(entry)
        if wrong is not None:
            raise Failed(position, wrong)
        seed = self._seed_of(position, entry)
        fields = self._opened(position, entry, seed) if hidden else entry
        self.kinds.entry(position, entry, fields)
        kind = entry.get("kind", "roll")
        if kind == "talk":  # words: checked where opened, never re-made, never waiting
            self.talk += 1
        elif kind in DRAWLESS:  # draws nothing: its place in the chain is what there is to check
            self.changes += fields is not None and kind == "sheet"
            self.pending += fields is None
        elif fields is not None and fields.get("by_hand") is True:
            self._read(position, fields)  # its seed plays no part
            self.checked += 1
            self.by_hand += 1
        elif fields is None or seed.server_seed is None:
            self.pending += 1
        else:
            self._reroll(position, fields, seed)
            self.checked += 1
        self.prev = own

    def _seed_of(self, position: int, entry: Mapping[str, Any]) -> Seed:
        """The seed in force for the entry; its nonce is the next one of it."""
        index = (
            self.by_commitment.get(entry["commitment"])
            if isinstance(entry["commitment"], str)
            else None
        )
        if index is None:
            raise Failed(position, "its commitment is none of the log's seeds")
        if index < self.current:
            raise Failed(position, "it rolls under a seed after a later seed took over")
        self.current = index
        seed = self.seeds[index]
        if not seed.matches:
            raise Failed(position, "the revealed server seed of its commitment does not hash to it")
        nonce = entry["nonce"]
        if nonce is None:
            return seed  # dice read by hand take no nonce
        if entry.get("kind") == "spend":
            return seed  # its roll's nonce, drawn again: _spend checks that it is
        if seed.stream == 1:
            expected, whose = seed.used, ""
        else:
            member = drawing_member(position, entry)
            expected, whose = seed.by_member.get(member, 0), f" of member {member!r}"
            seed.by_member[member] = expected + 1
        if nonce != expected or not whole(nonce):
            raise Failed(
                position,
                f"its nonce is {nonce!r} where {expected} was next{whose} under its seed: a "
                "roll is missing, repeated or out of order",
            )
        seed.used += 1
        seed.positions.append(position)
        return seed

    def _opened(
        self, position: int, entry: Mapping[str, Any], seed: Seed
    ) -> Mapping[str, Any] | None:
        """A hidden roll's fields from its opening; None while it has none."""
        opening = entry.get("opening")
        if opening is None:
            if seed.server_seed is not None and opens_at_reveal(entry.get("kind")):
                raise Failed(position, "a hidden roll whose seed is revealed has no opening")
            return None
        salt = opening.get("salt") if isinstance(opening, dict) else None
        fields = opening.get("entry") if isinstance(opening, dict) else None
        if not is_hex64(salt) or not isinstance(fields, dict):
            raise Failed(position, "its opening is not a salt of 64 hex digits and an entry")
        try:
            opened = digest(bytes.fromhex(salt), fields)
        except DiceValueError as error:
            raise Failed(position, f"its opening: {error.message}") from None
        if opened != entry["digest"]:
            raise Failed(
                position,
                "its opening does not match its placeholder's digest: the revealed entry "
                "was changed",
            )
        wrong = own_fields_error(fields)
        if wrong is not None:
            raise Failed(position, f"its opening: {wrong}")
        shared = (*SHARED_FIELDS, "kind", "of")
        differ = [name for name in shared if fields.get(name) != entry.get(name)]
        if differ:
            raise Failed(
                position, f"its opening's {', '.join(differ)} differ from its placeholder's"
            )
        return fields

    def _reroll(self, position: int, fields: Mapping[str, Any], seed: Seed) -> None:
        faces: list[int] = fields["faces"]
        assert self.room is not None and seed.server_seed is not None
        member = None if seed.stream == 1 else drawing_member(position, fields)
        stream = room_stream(
            seed.server_seed, self.room, fields["client_seed"], fields["nonce"], member
        )
        if "error" in fields:
            self._failed(position, fields, stream)
            return
        limits = _limits_for(min(len(faces), DEFAULT_LIMITS.max_dice))
        try:
            rolled = _as_logged(fields["text"]).roll(stream, None, limits)
        except TooManyDice as error:
            if len(faces) < DEFAULT_LIMITS.max_dice:
                raise Failed(
                    position, f"its seed tosses more dice than the {len(faces)} faces it lists"
                ) from None
            raise Failed(position, f"its roll text does not roll: {error.message}") from None
        except DiceError as error:
            raise Failed(position, f"its roll text does not roll: {error.message}") from None
        _drawn_as_listed(position, faces, rolled.tosses)
        if rolled.total != fields["total"]:
            raise Failed(
                position, f"its total {fields['total']} is not its roll's total {rolled.total}"
            )
        self.kinds.rolled(position, rolled.margin)

    def _failed(self, position: int, fields: Mapping[str, Any], stream: Stream) -> None:
        """A failed roll: its text, drawn from its stream, fails with its
        error on exactly the faces it lists."""
        faces: list[int] = fields["faces"]
        limits = _limits_for(min(len(faces), DEFAULT_LIMITS.max_dice))  # bounded by the listing
        try:
            program = _as_logged(fields["text"])
            drawn, error = failed_draws(program, stream, limits)
        except DiceError as refused:
            raise Failed(
                position, f"its roll text fails before any die is drawn: {refused.message}"
            ) from None
        if error is None:
            raise Failed(position, "it is listed as failed, and its roll text rolls")
        _drawn_as_listed(position, faces, drawn)
        if error.message != fields["error"]:
            raise Failed(
                position, f"its error {fields['error']!r} is not its roll's: {error.message!r}"
            )

    def _read(self, position: int, fields: Mapping[str, Any]) -> None:
        """Dice rolled by hand: the text must read its faces to its total."""
        try:
            read = api.read(fields["text"], fields["faces"])
        except DiceError as error:
            raise Failed(position, f"its dice read by hand do not read: {error.message}") from None
        if read.total != fields["total"]:
            raise Failed(
                position, f"its total {fields['total']} is not its reading's total {read.total}"
            )

    def finish(self, head: object) -> None:
        """Each revealed seed's roll count is the number of its entries, and
        the head names the last entry: nothing was cut from an end."""
        for index, seed in enumerate(self.seeds, 1):
            if not seed.matches:
                raise Failed(None, f"seed {index}'s revealed server seed does not hash to it")
            if seed.rolls is not None and seed.rolls != seed.used:
                if seed.rolls > seed.used:
                    named = seed.positions[-1] + 1 if seed.positions else None
                else:
                    named = seed.positions[seed.rolls]
                raise Failed(
                    named,
                    f"seed {index} was revealed after {counted(seed.rolls, 'roll')}, and the "
                    f"log holds {seed.used} under it",
                )
        beyond = [seq for seq in self.published if seq > self.entries]
        if beyond:
            raise Failed(
                min(beyond), f"the log ends at seq {self.entries}, and a hash was published for it"
            )
        if not isinstance(head, dict) or not whole(head.get("seq")):
            raise Failed(None, "its head is not an object with the last seq and hash")
        last = head["seq"]
        if last < 0:  # no entry is named by it, so the failure is the head's own
            raise Failed(None, f"its head names seq {last}, and seqs count from 1")
        if last > self.entries:
            raise Failed(
                self.entries + 1,
                f"its head names seq {last}, and the log ends at seq {self.entries}: "
                "entries were cut from its end",
            )
        if last < self.entries:
            raise Failed(
                last + 1, f"its head names seq {last}: the entries after it were added later"
            )
        if head.get("hash") != self.prev:
            raise Failed(
                self.entries or None, "its head's hash is not the last entry's: the end changed"
            )


def _as_logged(text: str) -> Program:
    """The program of a logged roll text: one a corrected rule now refuses
    rolls as it did when it was logged (:class:`~fudgedice.errors.ChangedRule`)."""
    try:
        return api.compile_roll(text)
    except ChangedRule as changed:
        return api.compile_roll(changed.formerly)


def _drawn_as_listed(position: int, faces: list[int], drawn: list[int]) -> None:
    """Refuses an entry whose faces are not the ones its stream draws."""
    if drawn != faces:
        raise Failed(
            position, f"its faces {_short(faces)} are not those its seed gives: {_short(drawn)}"
        )


@functools.lru_cache(maxsize=256)
def _limits_for(faces: int) -> Limits:
    """The limits of a re-roll: no more dice than its entry lists."""
    return dataclasses.replace(DEFAULT_LIMITS, max_dice=faces)


reserve("limits of re-rolls", 256, 1000)


def _short(faces: list[int]) -> str:
    shown = " ".join(str(face) for face in faces[:20])
    return f"[{shown}{' ...' if len(faces) > 20 else ''}]"
