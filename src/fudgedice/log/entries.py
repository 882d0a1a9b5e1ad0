"""Making one entry of a log: roll from the room's stream, record the faces,
chain the entry to the one before, hide it behind a placeholder if it is hidden.

Nothing here stores anything: a CLI session keeps its entries in a file, a
table server in its database, and both export the same document.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .. import api
from ..errors import DiceTypeError, DiceValueError
from ..results.roll import Roll
from ..stream import room_stream
from .canonical import (
    PLACEHOLDER_FIELDS,
    ROLL_FIELDS,
    VISIBILITIES,
    Visibility,
    digest,
    entry_hash,
)

NAME_CHARACTERS = 64
"""Characters in a roller's name, a room's id or a client seed."""

SALT_BYTES = 32


@dataclass(frozen=True, slots=True)
class Logged:
    """One roll as the log holds it."""

    entry: dict[str, Any]
    """The entry in the chain: the roll's fields, or for a hidden roll its
    placeholder; with ``prev`` and ``hash``."""
    opening: dict[str, Any] | None
    """A hidden roll's ``{"salt", "entry"}``, kept private until its seed is
    revealed; None for a public roll."""
    roll: Roll
    """The roll itself, to show the roller."""

    @property
    def hash(self) -> str:
        return str(self.entry["hash"])


def now() -> str:
    """The time of an entry: UTC, ISO 8601, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def checked_name(value: object, what: str, *, empty: bool = False) -> str:
    """A roller's name, a room's id or a client seed: text of at most
    NAME_CHARACTERS characters, none of them a control character (C0, DEL,
    C1), so that every field of a log stays on its line."""
    if not isinstance(value, str):
        raise DiceTypeError(f"{what} is text, not {type(value).__name__}")
    if not value and not empty:
        raise DiceValueError(f"{what} is empty")
    if len(value) > NAME_CHARACTERS:
        raise DiceValueError(f"{what} has at most {NAME_CHARACTERS} characters, not {len(value)}")
    if any(unicodedata.category(char) == "Cc" for char in value):
        raise DiceValueError(f"{what} {value!r} holds a control character")
    return value


def checked_room(value: object) -> str:
    """A room's id: a name with no ``:``, so that a stream's context
    ``ROOM:CLIENT_SEED:NONCE`` reads one way only."""
    room = checked_name(value, "a room's id")
    if ":" in room:
        raise DiceValueError(f"a room's id has no ':' ({room!r})")
    return room


def checked_visibility(value: object) -> Visibility:
    for visibility in VISIBILITIES:
        if value == visibility:
            return visibility
    raise DiceValueError(f"visibility is one of {', '.join(VISIBILITIES)}, not {value!r}")


def chained(fields: dict[str, Any], prev: str) -> dict[str, Any]:
    """``fields`` with ``prev`` and their ``hash``: the next link of the chain."""
    entry = {**fields, "prev": prev}
    entry["hash"] = entry_hash(entry)
    return entry


def roll_entry(
    *,
    server_seed: bytes,
    commitment: str,
    room: str,
    seq: int,
    nonce: int,
    prev: str,
    text: str,
    roller: str,
    visibility: str = "public",
    client_seed: str = "",
    at: str | None = None,
    read: Sequence[str] | None = None,
    extra: Mapping[str, Any] | None = None,
    extra_shown: Mapping[str, Any] | None = None,
) -> Logged:
    """Roll ``text`` from the room's stream for ``nonce`` and make its entry.

    With ``read``, the dice were rolled by hand and these are their faces as
    written: the entry is ``by_hand``, takes no nonce (``null``) and draws
    nothing. ``extra`` fields join the roll's own (a table's member id, a
    label: hidden with the roll); ``extra_shown`` ones are also on a hidden
    roll's placeholder. The arguments are checked first: a bad roll text
    raises the project's own error and makes no entry."""
    shown = checked_visibility(visibility)
    if at is not None and not isinstance(at, str):
        raise DiceTypeError(f"an entry's time is ISO 8601 text, not {type(at).__name__}")
    roller = checked_name(roller, "a roller's name")
    client_seed = checked_name(client_seed, "a client seed", empty=True)
    more = {**(extra or {}), **(extra_shown or {})}
    if set(more) & {*ROLL_FIELDS, *PLACEHOLDER_FIELDS, "by_hand", "prev", "hash", "opening"}:
        raise DiceValueError(f"extra fields may not be named as the log's own: {sorted(more)}")
    if read is None:
        rolled = api.roll(text, stream=room_stream(server_seed, room, client_seed, nonce))
        faces: list[Any] = rolled.tosses
        used: int | None = nonce
    else:
        rolled = api.read(text, list(read))
        faces, used = list(read), None
    fields: dict[str, Any] = {
        "seq": seq,
        "at": now() if at is None else at,
        "roller": roller,
        "text": text,
        "visibility": shown,
        "client_seed": client_seed,
        "nonce": used,
        "commitment": commitment,
        "faces": faces,
        "total": rolled.total,
        **({"by_hand": True} if read is not None else {}),
        **more,
    }
    if shown == "public":
        return Logged(chained(fields, prev), None, rolled)
    salt = secrets.token_bytes(SALT_BYTES)
    placeholder = {
        "seq": seq,
        "at": fields["at"],
        "roller": roller,
        "visibility": shown,
        "hidden": True,
        "nonce": used,
        "commitment": commitment,
        "digest": digest(salt, fields),
        **(extra_shown or {}),
    }
    return Logged(chained(placeholder, prev), {"salt": salt.hex(), "entry": fields}, rolled)
