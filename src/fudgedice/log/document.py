"""A log document's parts, checked for their shape before the walk along its
chain (:mod:`.verifier`): its seeds, its size, an entry's fields, and the
hashes published during play. Nothing here trusts a field's type."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeGuard

from ..errors import DiceError, DiceValueError, LimitError
from ..limits import DEFAULT_LIMITS
from ..stream import commitment as commitment_of
from .canonical import (
    FORMAT_V1,
    KINDS,
    PLACEHOLDER_FIELDS,
    ROLL_FIELDS,
    STREAMS,
    is_hex64,
    visibilities_of,
)
from .entries import checked_member
from .play_entries import play_fields_error
from .report import Failure
from .sheet_entries import sheet_fields_error
from .talk_entries import talk_fields_error


class Failed(Exception):
    """The first failure found: unwinds to :func:`.verifier.verify`."""

    def __init__(self, seq: int | None, reason: str) -> None:
        super().__init__(reason)
        self.failure = Failure(seq, reason)


@dataclasses.dataclass(slots=True)
class Seed:
    """A server seed of the log, and what the walk counted under it."""

    commitment: str
    server_seed: bytes | None
    rolls: int | None
    """Nonces used under it, stated at the reveal (every member's, together)."""
    matches: bool = True
    """Its revealed server seed (if any) hashes to its commitment."""
    stream: int = 2
    """The version of the dice stream its rolls draw from."""
    used: int = 0
    """Nonces taken under it so far (every member's, together)."""
    by_member: dict[str, int] = dataclasses.field(default_factory=dict)
    """Version 2: each member's next nonce under it."""
    positions: list[int] = dataclasses.field(default_factory=list)
    """The seq of each entry that took one of its nonces."""


def whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def roll_fields_error(fields: Mapping[str, Any]) -> str | None:
    """What is wrong with a roll's own fields, or None."""
    missing = [name for name in ROLL_FIELDS if name not in fields]
    if missing:
        return f"it lacks {', '.join(missing)}"
    for name in ("at", "roller", "text", "client_seed"):
        if not isinstance(fields[name], str):
            return f"its {name} is not text"
    faces, by_hand = fields["faces"], fields.get("by_hand", False)
    if by_hand is not True and by_hand is not False:
        return "its by_hand is not true or false"
    if "error" in fields:
        return failed_fields_error(fields)
    if by_hand:
        if fields["nonce"] is not None:
            return "dice read by hand take no nonce"
        if not isinstance(faces, list) or not all(isinstance(face, str) for face in faces):
            return "its faces read by hand are not a list of text"
    elif not isinstance(faces, list) or not all(whole(face) for face in faces):
        return "its faces are not a list of whole numbers"
    if not whole(fields["total"]):
        return "its total is not a whole number"
    return None


def drawing_member(position: int, entry: Mapping[str, Any]) -> str:
    """The roller's member id, which a roll of version 2 draws with."""
    try:
        return checked_member(entry.get("member"))
    except DiceError as error:
        raise Failed(
            position, f"it draws from a seed of version 2 without a member: {error.message}"
        ) from None


def failed_fields_error(fields: Mapping[str, Any]) -> str | None:
    """What is wrong with a failed roll's fields (faces drawn, no total, an
    error), or None."""
    if not isinstance(fields["error"], str) or not fields["error"]:
        return "its error is not text"
    if fields.get("by_hand", False) or fields["nonce"] is None:
        return "a failed roll is drawn from the stream: it has a nonce and no faces by hand"
    if not isinstance(fields["faces"], list) or not all(whole(face) for face in fields["faces"]):
        return "its faces are not a list of whole numbers"
    if fields["total"] is not None:
        return "a failed roll has no total"
    return None


def own_fields_error(fields: Mapping[str, Any]) -> str | None:
    """What is wrong with an entry's own fields (a public entry, or a hidden
    one's opening), by its kind."""
    kind = fields.get("kind", "roll")
    if kind not in KINDS:
        return f"its kind is not one of {', '.join(KINDS)}"
    if kind == "sheet":
        return sheet_fields_error(fields)
    if kind == "play":
        return play_fields_error(fields)
    if kind == "talk":
        return talk_fields_error(fields)
    return roll_fields_error(fields)


def entry_error(entry: Mapping[str, Any]) -> str | None:
    """What is wrong with an entry of the chain (a placeholder, or a public
    entry's own fields) and its visibility, or None."""
    hidden = entry.get("hidden", False)
    wrong = placeholder_error(entry) if hidden is not False else own_fields_error(entry)
    allowed = visibilities_of(entry.get("kind"))
    if wrong is None and entry.get("visibility") not in allowed:
        wrong = f"its visibility is not one of {', '.join(allowed)}"
    if wrong is None and (entry["visibility"] == "public") == bool(hidden):
        wrong = "a public roll is hidden, or a hidden one public"
    return wrong


def placeholder_error(entry: Mapping[str, Any]) -> str | None:
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
    if entry["nonce"] is not None and not whole(entry["nonce"]):
        return "its nonce is not a whole number (or null, for dice read by hand)"
    if entry.get("kind", "roll") not in KINDS:
        return f"its kind is not one of {', '.join(KINDS)}"
    if entry.get("kind") == "play":
        return "a play entry is public, never hidden"
    if any(name in entry for name in ("change", "character", "action", "sheet", "point")):
        return "a hidden entry's placeholder shows what it changed or spent"
    if "to" in entry:
        return "a hidden message's placeholder shows whom it is to"
    if "text" in entry or "faces" in entry or "total" in entry:
        return "a hidden roll's placeholder shows its text, faces or total"
    return None


def seeds_of(document: Mapping[str, Any]) -> list[Seed]:
    """The log's seeds, checked; in a log of version 2 each names the
    version of the dice stream it draws with (``stream``: 1 or 2), in a log
    of version 1 every seed is of version 1."""
    raw = document.get("seeds")
    old = document.get("format") == FORMAT_V1
    if not isinstance(raw, list) or not raw:
        raise Failed(None, "its seeds are not a list of at least one seed")
    seeds: list[Seed] = []
    for index, record in enumerate(raw, 1):
        if not isinstance(record, dict) or not is_hex64(record.get("commitment")):
            raise Failed(None, f"seed {index} has no commitment of 64 hex digits")
        server_seed, rolls = record.get("server_seed"), record.get("rolls")
        stream = 1 if old else record.get("stream")
        if stream not in STREAMS or not whole(stream):
            raise Failed(None, f"seed {index}'s stream is not 1 or 2")
        if server_seed is None:
            seeds.append(Seed(record["commitment"], None, None, stream=stream))
            continue
        if not is_hex64(server_seed) or not whole(rolls) or rolls < 0:
            raise Failed(None, f"seed {index} is revealed without 64 hex digits and its rolls")
        revealed = bytes.fromhex(server_seed)
        matches = commitment_of(revealed) == record["commitment"]
        seeds.append(Seed(record["commitment"], revealed, rolls, matches, stream))
    if len({seed.commitment for seed in seeds}) < len(seeds):
        raise Failed(None, "a commitment is listed twice in its seeds")
    return seeds


def check_size(entries: list[Any]) -> int:
    """Refuse a log past the limits; the faces its entries list in all."""
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
    return faces


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
        if not whole(seq) or seq < 1:
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
