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
from typing import Any, TypeGuard

from .. import api
from ..errors import DiceError, DiceValueError, LimitError, TooManyDice
from ..limits import DEFAULT_LIMITS, Limits
from ..stream import commitment as commitment_of
from ..stream import room_stream
from .canonical import (
    FORMAT,
    GENESIS,
    PLACEHOLDER_FIELDS,
    ROLL_FIELDS,
    SHARED_FIELDS,
    VISIBILITIES,
    digest,
    entry_hash,
    is_hex64,
)
from .entries import checked_room
from .report import Failure, Report


class _Failed(Exception):
    """The first failure found: unwinds to :func:`verify`."""

    def __init__(self, seq: int | None, reason: str) -> None:
        super().__init__(reason)
        self.failure = Failure(seq, reason)


@dataclasses.dataclass(slots=True)
class _Seed:
    commitment: str
    server_seed: bytes | None
    rolls: int | None
    """Nonces used under it, stated at the reveal."""
    matches: bool = True
    """Its revealed server seed (if any) hashes to its commitment."""
    used: int = 0
    """Entries under it so far."""
    first: int = 0
    """The seq of its first entry (0: none yet)."""


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_error(fields: Mapping[str, Any]) -> str | None:
    """What is wrong with a roll's own fields, or None."""
    missing = [name for name in ROLL_FIELDS if name not in fields]
    if missing:
        return f"it lacks {', '.join(missing)}"
    for name in ("at", "roller", "text", "client_seed"):
        if not isinstance(fields[name], str):
            return f"its {name} is not text"
    faces = fields["faces"]
    if not isinstance(faces, list) or not all(_whole(face) for face in faces):
        return "its faces are not a list of whole numbers"
    if not _whole(fields["total"]):
        return "its total is not a whole number"
    return None


def _placeholder_error(entry: Mapping[str, Any]) -> str | None:
    missing = [name for name in PLACEHOLDER_FIELDS if name not in entry]
    if missing:
        return f"it lacks {', '.join(missing)}"
    if entry["hidden"] is not True:
        return "its hidden is not true"
    if not is_hex64(entry["digest"]):
        return "its digest is not 64 hex digits"
    for name in ("at", "roller"):
        if not isinstance(entry[name], str):
            return f"its {name} is not text"
    if "text" in entry or "faces" in entry or "total" in entry:
        return "a hidden roll's placeholder shows its text, faces or total"
    return None


def _seeds(document: Mapping[str, Any]) -> list[_Seed]:
    raw = document.get("seeds")
    if not isinstance(raw, list) or not raw:
        raise _Failed(None, "its seeds are not a list of at least one seed")
    seeds: list[_Seed] = []
    for index, record in enumerate(raw, 1):
        if not isinstance(record, dict) or not is_hex64(record.get("commitment")):
            raise _Failed(None, f"seed {index} has no commitment of 64 hex digits")
        server_seed, rolls = record.get("server_seed"), record.get("rolls")
        if server_seed is None:
            seeds.append(_Seed(record["commitment"], None, None))
            continue
        if not is_hex64(server_seed) or not _whole(rolls) or rolls < 0:
            raise _Failed(None, f"seed {index} is revealed without 64 hex digits and its rolls")
        revealed = bytes.fromhex(server_seed)
        matches = commitment_of(revealed) == record["commitment"]
        seeds.append(_Seed(record["commitment"], revealed, rolls, matches))
    if len({seed.commitment for seed in seeds}) < len(seeds):
        raise _Failed(None, "a commitment is listed twice in its seeds")
    return seeds


def _check_size(entries: list[Any]) -> None:
    limits = DEFAULT_LIMITS
    if len(entries) > limits.max_log_entries:
        raise LimitError(
            f"a log of {len(entries):,} entries is more than the limit of "
            f"{limits.max_log_entries:,}"
        )
    faces = 0
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        opening = entry.get("opening")
        opened = opening.get("entry") if isinstance(opening, dict) else None
        for holder in (entry, opened):
            listed = holder.get("faces") if isinstance(holder, dict) else None
            faces += len(listed) if isinstance(listed, list) else 0
    if faces > limits.max_log_faces:
        raise LimitError(
            f"a log listing {faces:,} faces is more than the limit of {limits.max_log_faces:,}"
        )


def verify(log: object, *, published: Mapping[int, str] | None = None) -> Report:
    """Check a log document (docs/fairness.md): each revealed seed hashes to
    its commitment; the hash chain is unbroken and gap-free; seeds follow one
    another and nonces run 0, 1, 2, ... under each; every hidden roll's opening
    matches its placeholder; and every roll whose seed is revealed gives,
    re-rolled from the stream, the very faces and total the entry lists.

    ``published`` maps a seq to the hash (or its first 16 hex digits or more)
    shown for it during play: the log must hold that very entry, which no one
    can rewrite, nor anything before it, without changing its hash."""
    if not isinstance(log, dict):
        return Report(None, 0, 0, 0, 0, 0, Failure(None, "a log is a JSON object"))
    entries = log.get("entries")
    room = log.get("room")
    checker = _Checker(room if isinstance(room, str) else None, published_hashes(published))
    try:
        if log.get("format") != FORMAT:
            raise _Failed(None, f"its format is not {FORMAT!r}")
        try:
            checker.room = checked_room(room)
        except DiceError as error:
            raise _Failed(None, error.message) from None
        if not isinstance(entries, list):
            raise _Failed(None, "its entries are not a list")
        _check_size(entries)
        checker.entries = len(entries)
        checker.seeds = _seeds(log)
        checker.by_commitment = {seed.commitment: i for i, seed in enumerate(checker.seeds)}
        for position, entry in enumerate(entries, 1):
            checker.entry(position, entry)
        checker.finish(log.get("head"))
    except _Failed as failed:
        return checker.report(failed.failure)
    return checker.report(None)


class _Checker:
    """The walk along the chain: where it stands, and what it has counted."""

    def __init__(self, room: str | None, published: Mapping[int, str]) -> None:
        self.room = room
        self.published = published
        self.entries = 0
        self.seeds: list[_Seed] = []
        self.by_commitment: dict[str, int] = {}
        self.prev = GENESIS
        self.current = 0
        """The index of the seed in force."""
        self.checked = 0
        self.pending = 0

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
        )

    def entry(self, position: int, entry: object) -> None:
        if not isinstance(entry, dict):
            raise _Failed(position, "the entry is not a JSON object")
        seq = entry.get("seq")
        if seq != position or not _whole(seq):
            raise _Failed(
                position,
                f"it is numbered {seq!r} where {position} was next: an entry is missing, "
                "added or out of order",
            )
        if entry.get("prev") != self.prev:
            raise _Failed(position, f"its prev is not the hash of seq {position - 1}")
        try:
            own = entry_hash(entry)
        except DiceValueError as error:
            raise _Failed(position, error.message) from None
        if entry.get("hash") != own:
            raise _Failed(position, "its hash does not match its content: the entry was changed")
        shown = self.published.get(position)
        if shown is not None and not own.startswith(shown):
            raise _Failed(
                position,
                f"its hash {own[:16]}... is not the {shown[:16]}... published for it: the log "
                "was rewritten up to here",
            )
        hidden = entry.get("hidden", False)
        wrong = _placeholder_error(entry) if hidden is not False else _type_error(entry)
        if wrong is None and entry.get("visibility") not in VISIBILITIES:
            wrong = f"its visibility is not one of {', '.join(VISIBILITIES)}"
        if wrong is None and (entry["visibility"] == "public") == bool(hidden):
            wrong = "a public roll is hidden, or a hidden one public"
        if wrong is not None:
            raise _Failed(position, wrong)
        seed = self._seed_of(position, entry)
        fields = self._opened(position, entry, seed) if hidden else entry
        if fields is None or seed.server_seed is None:
            self.pending += 1
        else:
            self._reroll(position, fields, seed.server_seed)
            self.checked += 1
        self.prev = own

    def _seed_of(self, position: int, entry: Mapping[str, Any]) -> _Seed:
        """The seed in force for the entry; its nonce is the next one of it."""
        index = (
            self.by_commitment.get(entry["commitment"])
            if isinstance(entry["commitment"], str)
            else None
        )
        if index is None:
            raise _Failed(position, "its commitment is none of the log's seeds")
        if index < self.current:
            raise _Failed(position, "it rolls under a seed after a later seed took over")
        self.current = index
        seed = self.seeds[index]
        if not seed.matches:
            raise _Failed(
                position, "the revealed server seed of its commitment does not hash to it"
            )
        nonce = entry["nonce"]
        if nonce != seed.used or not _whole(nonce):
            raise _Failed(
                position,
                f"its nonce is {nonce!r} where {seed.used} was next under its seed: a roll "
                "is missing, repeated or out of order",
            )
        seed.used += 1
        seed.first = seed.first or position
        return seed

    def _opened(
        self, position: int, entry: Mapping[str, Any], seed: _Seed
    ) -> Mapping[str, Any] | None:
        """A hidden roll's fields from its opening; None while it has none."""
        opening = entry.get("opening")
        if opening is None:
            if seed.server_seed is not None:
                raise _Failed(position, "a hidden roll whose seed is revealed has no opening")
            return None
        salt = opening.get("salt") if isinstance(opening, dict) else None
        fields = opening.get("entry") if isinstance(opening, dict) else None
        if not is_hex64(salt) or not isinstance(fields, dict):
            raise _Failed(position, "its opening is not a salt of 64 hex digits and an entry")
        try:
            opened = digest(bytes.fromhex(salt), fields)
        except DiceValueError as error:
            raise _Failed(position, f"its opening: {error.message}") from None
        if opened != entry["digest"]:
            raise _Failed(
                position,
                "its opening does not match its placeholder's digest: the revealed entry "
                "was changed",
            )
        wrong = _type_error(fields)
        if wrong is not None:
            raise _Failed(position, f"its opening: {wrong}")
        differ = [name for name in SHARED_FIELDS if fields.get(name) != entry.get(name)]
        if differ:
            raise _Failed(
                position, f"its opening's {', '.join(differ)} differ from its placeholder's"
            )
        return fields

    def _reroll(self, position: int, fields: Mapping[str, Any], server_seed: bytes) -> None:
        faces: list[int] = fields["faces"]
        assert self.room is not None
        limits = _limits_for(min(len(faces), DEFAULT_LIMITS.max_dice))
        stream = room_stream(server_seed, self.room, fields["client_seed"], fields["nonce"])
        try:
            rolled = api.compile_roll(fields["text"]).roll(stream, None, limits)
        except TooManyDice as error:
            if len(faces) < DEFAULT_LIMITS.max_dice:
                raise _Failed(
                    position, f"its seed tosses more dice than the {len(faces)} faces it lists"
                ) from None
            raise _Failed(position, f"its roll text does not roll: {error.message}") from None
        except DiceError as error:
            raise _Failed(position, f"its roll text does not roll: {error.message}") from None
        if rolled.tosses != faces:
            raise _Failed(
                position,
                f"its faces {_short(faces)} are not those its seed gives: {_short(rolled.tosses)}",
            )
        if rolled.total != fields["total"]:
            raise _Failed(
                position, f"its total {fields['total']} is not its roll's total {rolled.total}"
            )

    def finish(self, head: object) -> None:
        """Each revealed seed's roll count is the number of its entries, and
        the head names the last entry: nothing was cut from an end."""
        for index, seed in enumerate(self.seeds, 1):
            if not seed.matches:
                raise _Failed(None, f"seed {index}'s revealed server seed does not hash to it")
            if seed.rolls is not None and seed.rolls != seed.used:
                if seed.rolls > seed.used:
                    named = seed.first + seed.used if seed.first else None
                else:
                    named = seed.first + seed.rolls
                raise _Failed(
                    named,
                    f"seed {index} was revealed after {seed.rolls} rolls, and the log holds "
                    f"{seed.used} under it",
                )
        beyond = [seq for seq in self.published if seq > self.entries]
        if beyond:
            raise _Failed(
                min(beyond), f"the log ends at seq {self.entries}, and a hash was published for it"
            )
        if not isinstance(head, dict) or not _whole(head.get("seq")):
            raise _Failed(None, "its head is not an object with the last seq and hash")
        last = head["seq"]
        if last > self.entries:
            raise _Failed(
                self.entries + 1,
                f"its head names seq {last}, and the log ends at seq {self.entries}: "
                "entries were cut from its end",
            )
        if last < self.entries:
            raise _Failed(
                last + 1, f"its head names seq {last}: the entries after it were added later"
            )
        if head.get("hash") != self.prev:
            raise _Failed(
                self.entries or None, "its head's hash is not the last entry's: the end changed"
            )


@functools.lru_cache(maxsize=256)
def _limits_for(faces: int) -> Limits:
    """The limits of a re-roll: no more dice than its entry lists."""
    return dataclasses.replace(DEFAULT_LIMITS, max_dice=faces)


PUBLISHED_DIGITS = 16
"""The fewest hex digits of a published hash (64 bits): what a roll's line shows."""


def published_hashes(published: Mapping[int, str] | None) -> dict[int, str]:
    """Hashes published during play, by seq, checked."""
    if published is None:
        return {}
    if not isinstance(published, Mapping):
        raise DiceValueError("published hashes are a mapping of seq to hash")
    checked: dict[int, str] = {}
    for seq, shown in published.items():
        if not _whole(seq) or seq < 1:
            raise DiceValueError(f"a published hash's seq is a whole number >= 1, not {seq!r}")
        if not (
            isinstance(shown, str)
            and PUBLISHED_DIGITS <= len(shown) <= 64
            and all(char in "0123456789abcdef" for char in shown)
        ):
            raise DiceValueError(
                f"a published hash is {PUBLISHED_DIGITS} to 64 lowercase hex digits, "
                f"not {str(shown)[:70]!r}"
            )
        checked[seq] = shown
    return checked


def _short(faces: list[int]) -> str:
    shown = " ".join(str(face) for face in faces[:20])
    return f"[{shown}{' ...' if len(faces) > 20 else ''}]"
