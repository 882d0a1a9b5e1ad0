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
from ..dice.program import Program
from ..dice.roller import Roller
from ..errors import DiceError, DiceTypeError, DiceValueError, TooManyDice
from ..limits import DEFAULT_LIMITS, Limits
from ..results.roll import Roll
from ..stream import Stream, room_stream
from .canonical import (
    PLACEHOLDER_FIELDS,
    ROLL_FIELDS,
    ROLL_VISIBILITIES,
    STREAM,
    STREAMS,
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
    roll: Roll | None
    """The roll itself, to show the roller; None for a failed roll."""
    error: DiceError | None = None
    """Why the roll failed after its dice were drawn (a division by zero, a
    limit reached while exploding): it is in the log all the same, as a failed
    roll with the faces it drew, and its nonce is spent."""

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


def checked_member(value: object) -> str:
    """A member id in a stream's context (version 2): a name with no ``:``,
    so that ``ROOM:MEMBER:CLIENT_SEED:NONCE`` reads one way only."""
    member = checked_name(value, "a member id")
    if ":" in member:
        raise DiceValueError(f"a member id has no ':' ({member!r})")
    return member


def checked_visibility(
    value: object, allowed: tuple[Visibility, ...] = ROLL_VISIBILITIES
) -> Visibility:
    """``value``, if it is one of the visibilities ``allowed`` (a roll's, by default)."""
    for visibility in allowed:
        if value == visibility:
            return visibility
    raise DiceValueError(f"visibility is one of {', '.join(allowed)}, not {value!r}")


def chained(fields: dict[str, Any], prev: str) -> dict[str, Any]:
    """``fields`` with ``prev`` and their ``hash``: the next link of the chain."""
    entry = {**fields, "prev": prev}
    entry["hash"] = entry_hash(entry)
    return entry


def roll_label(text: object, label: object) -> str:
    """A roll's label, whichever way it was given: the ``label`` beside its
    text (an entry's field of that name, as the page shows it) or else what
    its text says after ``#``; "" when it has none. The server reads a roll's
    label with it, and ``verify`` the label its entry keeps.

    >>> roll_label("d6: 3D # initiative: Orc", None), roll_label("d6: 3D", " initiative ")
    ('initiative: Orc', 'initiative')
    >>> roll_label("fate: +2 # attack", "defend"), roll_label("fate: +2", None)
    ('defend', '')
    """
    if isinstance(label, str) and label.strip():
        return label.strip()
    return text.partition("#")[2].strip() if isinstance(text, str) else ""


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
    member: str | None = None,
    stream: int = STREAM,
    at: str | None = None,
    read: Sequence[str] | None = None,
    extra: Mapping[str, Any] | None = None,
    extra_shown: Mapping[str, Any] | None = None,
) -> Logged:
    """Roll ``text`` from the room's stream for ``nonce`` and make its entry.

    Version 2 of the stream (``stream``) draws from the context
    ``ROOM:MEMBER:CLIENT_SEED:NONCE`` and needs ``member``, which the entry
    and its placeholder show; version 1 (a seed committed before it) draws
    from ``ROOM:CLIENT_SEED:NONCE``. With ``read``, the dice were rolled by
    hand and these are their faces as written: the entry is ``by_hand``,
    takes no nonce (``null``) and draws nothing. ``extra`` fields join the
    roll's own (a label: hidden with the roll); ``extra_shown`` ones are also
    on a hidden roll's placeholder. The arguments are checked first: a bad
    roll text raises the project's own error and makes no entry; a roll failing
    once drawn makes a failed roll's entry (:attr:`Logged.error` says why)."""
    shown = checked_visibility(visibility)
    if at is not None and not isinstance(at, str):
        raise DiceTypeError(f"an entry's time is ISO 8601 text, not {type(at).__name__}")
    roller = checked_name(roller, "a roller's name")
    client_seed = checked_name(client_seed, "a client seed", empty=True)
    more = {**(extra or {}), **(extra_shown or {})}
    member = _drawing_member(member, stream, more)
    who = {} if member is None else {"member": member}
    error: DiceError | None = None
    if read is None:
        drawing = room_stream(
            server_seed, room, client_seed, nonce, member if stream == 2 else None
        )
        rolled, faces, error = drawn(text, drawing)
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
        "total": None if rolled is None else rolled.total,
        **({"error": error.message} if error is not None else {}),
        **({"by_hand": True} if read is not None else {}),
        **who,
        **more,
    }
    if shown == "public":
        return Logged(chained(fields, prev), None, rolled, error)
    placeholder = {
        "seq": seq,
        "at": fields["at"],
        "roller": roller,
        "visibility": shown,
        "hidden": True,
        "nonce": used,
        "commitment": commitment,
        **who,
        **(extra_shown or {}),
    }
    return _hidden(fields, placeholder, prev, rolled, error)


def _hidden(
    fields: dict[str, Any],
    placeholder: dict[str, Any],
    prev: str,
    rolled: Roll | None,
    error: DiceError | None,
) -> Logged:
    """A hidden roll: its placeholder, holding the digest of its fields with a
    fresh salt, in the chain; the salt and fields kept as its opening."""
    salt = secrets.token_bytes(SALT_BYTES)
    placeholder = {**placeholder, "digest": digest(salt, fields)}
    opening = {"salt": salt.hex(), "entry": fields}
    return Logged(chained(placeholder, prev), opening, rolled, error)


def drawless_entry(
    fields: dict[str, Any], prev: str, shown: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """An entry that draws nothing (a sheet's change, talk), chained after
    ``prev``: a public one whole; a hidden one as a placeholder holding the
    digest of its fields with a fresh salt, and ``shown`` (what everyone may
    read of it), with its opening (the salt and fields) to keep."""
    if fields["visibility"] == "public":
        return chained(fields, prev), None
    salt = secrets.token_bytes(SALT_BYTES)
    placeholder = {
        "seq": fields["seq"],
        "at": fields["at"],
        "roller": fields["roller"],
        "visibility": fields["visibility"],
        "hidden": True,
        "nonce": None,
        "commitment": fields["commitment"],
        "digest": digest(salt, fields),
        "kind": fields["kind"],
        **shown,
    }
    return chained(placeholder, prev), {"salt": salt.hex(), "entry": fields}


def _drawing_member(member: str | None, stream: int, more: Mapping[str, Any]) -> str | None:
    """The member id checked (version 2 draws with one), once the stream's
    version and the extra fields are."""
    if stream not in STREAMS:
        raise DiceValueError(f"a dice stream's version is one of {STREAMS}, not {stream!r}")
    if set(more) & {*ROLL_FIELDS, *PLACEHOLDER_FIELDS, *_OWN, "member"}:
        raise DiceValueError(f"extra fields may not be named as the log's own: {sorted(more)}")
    return checked_member(member) if member is not None or stream == 2 else None


_OWN = ("by_hand", "error", "prev", "hash", "opening")
"""Fields of an entry that are neither a roll's nor a placeholder's own."""


def drawn(text: str, stream: Stream) -> tuple[Roll | None, list[Any], DiceError | None]:
    """``text`` rolled from ``stream``: the roll, its faces and None; or, for
    a roll that failed once it had read the stream, None, the faces it drew
    before failing and its error. A roll that fails before reading the
    stream (bad syntax, a limit known before drawing, ``1/0``) raises: its
    answer depends on no die, so it makes no entry."""
    program = api.compile_roll(text)
    start = stream.mark()
    try:
        rolled = program.roll(stream, None)
    except DiceError:
        faces, error = failed_draws(program, stream.rewound(start, Stream))
        if error is None:  # not reproduced on the general path: the first error stands
            raise
        return None, faces, error
    return rolled, list(rolled.tosses), None


def failed_draws(
    program: Program, stream: Stream, limits: Limits = DEFAULT_LIMITS
) -> tuple[list[int], DiceError | None]:
    """The faces a roll of ``program`` draws from ``stream`` before it fails,
    and its error; raised again if it read nothing of the stream (no die
    decided it). ``(faces, None)`` if it does not fail. A roll's general path
    is the one place every die is drawn (:class:`~fudgedice.dice.roller.Roller`),
    so it is what a verifier walks again, within ``limits``: past the dice of
    ``limits`` that ``DEFAULT_LIMITS`` allows too, the error is the one the
    roll gave under ``DEFAULT_LIMITS`` (a pool counted before it is drawn)."""
    start = stream.mark()
    roller = Roller(stream, limits)
    try:
        program.roll_with(roller, None)
    except TooManyDice as error:
        if stream.mark() == start:
            raise
        if roller.tossed > DEFAULT_LIMITS.max_dice:
            try:
                Roller(stream, DEFAULT_LIMITS).take(roller.tossed)
            except TooManyDice as as_made:
                return roller.drawn, as_made
        return roller.drawn, error
    except DiceError as error:
        if stream.mark() == start:
            raise
        return roller.drawn, error
    return roller.drawn, None
