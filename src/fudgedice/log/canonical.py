"""The log's fixed forms: canonical JSON, the hashes, and the fields of an entry.

docs/fairness.md states every rule here in words, so that a log can be
checked by a program written in another language.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any, Final, Literal, TypeGuard

from ..errors import DiceValueError

FORMAT: Final = "fudgedice-log/2"
"""The ``format`` of an exported log document: what this version writes."""

FORMAT_V1: Final = "fudgedice-log/1"
"""The format of logs written before version 2 of the stream: still read, and
every one of its seeds is of version 1."""

FORMATS: Final = (FORMAT_V1, FORMAT)

STREAMS: Final = (1, 2)
"""Versions of a table's dice stream: 1, context ``ROOM:CLIENT_SEED:NONCE``
and one nonce counter a seed; 2, context ``ROOM:MEMBER:CLIENT_SEED:NONCE``
and one nonce counter a member under each seed."""

STREAM: Final = 2
"""The version of the stream a new seed draws with."""

GENESIS: Final = "0" * 64
"""The ``prev`` of the first entry: there is no entry before it."""

Visibility = Literal["public", "gm", "self", "secret", "blind", "whisper"]
VISIBILITIES: Final[tuple[Visibility, ...]] = ("public", "gm", "self", "secret", "blind", "whisper")
"""Who sees an entry: everyone; its maker and the GM; its maker only; the GM
only (the GM's own); ``blind``, the GM only, not even its roller (a roll made
for the GM to read); ``whisper``, its sender and the one member it is ``to``
(talk only). Every entry but a public one enters the chain as a placeholder,
so that the log any reader exports verifies."""

RollVisibility = Literal["public", "gm", "self", "secret", "blind"]
ROLL_VISIBILITIES: Final[tuple[RollVisibility, ...]] = ("public", "gm", "self", "secret", "blind")
"""How a roll (or a sheet's change) may be hidden: all but ``whisper``."""

TalkVisibility = Literal["public", "gm", "self", "secret", "whisper"]
TALK_VISIBILITIES: Final[tuple[TalkVisibility, ...]] = ("public", "gm", "self", "secret", "whisper")
"""How talk may be hidden: all but ``blind`` (words are read by whoever says them)."""


def visibilities_of(kind: object) -> tuple[Visibility, ...]:
    """The visibilities an entry of ``kind`` (None: a roll) may have."""
    return TALK_VISIBILITIES if kind == "talk" else ROLL_VISIBILITIES


KINDS: Final = ("roll", "spend", "sheet", "play", "talk")
"""What an entry records: a roll (an entry with no ``kind``), a point spent
on a roll after it was made (:mod:`.spends`), a sheet's change
(:mod:`.sheet_entries`), an action at the table (:mod:`.play_entries`), a
message (:mod:`.talk_entries`)."""

DRAWLESS: Final = ("sheet", "play", "talk")
"""The kinds that draw nothing: their place in the chain and their fields are
what is checked, and no seed's reveal makes them again."""

KEPT_PRIVATE: Final = ("talk",)
"""The kinds whose hidden entries stay closed when their seed is revealed
(a reveal opens every other one to everyone): a reveal is about the dice,
and private words are no part of them."""


def opens_at_reveal(kind: object) -> bool:
    """Whether a hidden entry of ``kind`` (None: a roll) is opened to everyone
    once its seed is revealed."""
    return kind not in KEPT_PRIVATE


ROLL_FIELDS: Final = (
    "seq",
    "at",
    "roller",
    "text",
    "visibility",
    "client_seed",
    "nonce",
    "commitment",
    "faces",
    "total",
)
"""A roll's own fields: what a public entry holds besides ``prev`` and
``hash``, and what a hidden roll's opening publishes."""

PLACEHOLDER_FIELDS: Final = (
    "seq",
    "at",
    "roller",
    "visibility",
    "hidden",
    "nonce",
    "commitment",
    "digest",
)
"""A hidden roll's fields in the chain: who rolled when, under which seed and
nonce, and the digest of the roll's own fields; no text, face or total."""

SHARED_FIELDS: Final = ("seq", "at", "roller", "visibility", "nonce", "commitment", "member")
"""The fields a hidden roll's opening must repeat exactly."""

_HEX64 = re.compile(r"[0-9a-f]{64}")


_encode = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
).encode
"""Made once: ``json.dumps`` with options builds an encoder on every call."""


def canonical(value: Any) -> bytes:
    """Canonical JSON: keys sorted, no spaces, non-ASCII written as itself,
    UTF-8 (the escapes of JSON.stringify: ``\\"``, ``\\\\``, ``\\n`` and
    ``\\u001f`` for the other control characters)."""
    try:
        return _encode(value).encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError) as error:
        raise DiceValueError(f"not a canonical JSON value: {error}") from None


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def entry_hash(entry: Mapping[str, Any]) -> str:
    """SHA-256 of the previous hash (its 64 hex digits, as ASCII) followed by
    the entry's canonical JSON, every field but ``hash`` and ``opening``."""
    prev = entry.get("prev")
    if not isinstance(prev, str) or not is_hex64(prev):
        raise DiceValueError("its prev is not 64 lowercase hex digits")
    body = {key: value for key, value in entry.items() if key not in ("hash", "opening")}
    return sha256_hex(prev.encode("ascii") + canonical(body))


def digest(salt: bytes, fields: Mapping[str, Any]) -> str:
    """A hidden roll's placeholder digest: SHA-256 of the salt's 32 bytes
    followed by the canonical JSON of the roll's own fields."""
    return sha256_hex(salt + canonical(fields))


def is_hex64(value: object) -> TypeGuard[str]:
    """64 lowercase hex digits: a hash, a commitment, a seed or a salt."""
    return isinstance(value, str) and _HEX64.fullmatch(value) is not None
