"""Every use of the fairness scheme (FAIRNESS.md) by the table, in one place.

A room's rolls draw from its committed server seed: key = the seed, context =
``ROOM:CLIENT_SEED:NONCE``. Each roll is one entry of the room's hash-chained
log; a hidden roll is chained as a placeholder holding SHA-256(salt + entry),
its salt and entry published when its seed is revealed.

INTERIM: the fairness work (a ``Stream`` and a log package with ``verify``) is
being built apart. Until it lands, this module draws from an HMAC-SHA256
stream of the same key and context through ``random.Random``'s interface, and
writes the log in the shape below. When it lands, only this module changes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from ..dice.program import Program
from ..results.roll import Roll

LOG_VERSION = 1
GENESIS = "0" * 64
"""The ``prev`` of a room's first entry."""


def new_server_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


def context(room: str, client_seed: str, nonce: int) -> str:
    return f"{room}:{client_seed}:{nonce}"


class _StreamRandom(random.Random):
    """Bits from blocks HMAC-SHA256(key, context + ":" + i), i = 0, 1, ...
    (the interim stand-in for the project's ``Stream``)."""

    def __init__(self, key: bytes, context: str) -> None:
        self._key = key
        self._context = context.encode()
        self._block = 0
        self._bits = 0
        self._have = 0
        super().__init__(0)

    def getrandbits(self, k: int, /) -> int:
        while self._have < k:
            message = self._context + b":" + str(self._block).encode()
            digest = hmac.new(self._key, message, hashlib.sha256).digest()
            self._block += 1
            self._bits = (self._bits << 256) | int.from_bytes(digest, "big")
            self._have += 256
        self._have -= k
        drawn = self._bits >> self._have
        self._bits &= (1 << self._have) - 1
        return drawn

    def random(self) -> float:
        return self.getrandbits(53) / (1 << 53)


def roll(program: Program, server_seed: bytes, roll_context: str) -> Roll:
    """The roll of ``program`` that the seed and context determine."""
    return program.roll(_StreamRandom(server_seed, roll_context), None)


def canonical(value: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8: the form every hash is taken of."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def faces(result: Mapping[str, Any]) -> list[Any]:
    """Every die's value in the order rolled, an opposed roll's sides included."""
    values = [die["value"] for die in result.get("dice", [])]
    for side in result.get("sides", []):
        values.extend(faces(side))
    return values


def entry(fields: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
    """A roll's log entry: what it was, who rolled it, under which seed, and
    what came of it (faces and total)."""
    keys = (
        "seq", "at", "member", "name", "text", "label", "visibility",
        "client_seed", "nonce", "commitment", "by_hand",
    )  # fmt: skip
    return {
        **{key: fields[key] for key in keys},
        "result": {"faces": faces(result), "total": result["total"]},
    }


def placeholder(full: Mapping[str, Any], salt: str) -> dict[str, Any]:
    """What the chain holds of a hidden roll: no face, total, text or label."""
    digest = hashlib.sha256(bytes.fromhex(salt) + canonical(full)).hexdigest()
    keys = ("seq", "member", "name", "visibility", "nonce", "commitment")
    return {**{key: full[key] for key in keys}, "hidden": True, "digest": digest}


def new_salt() -> str:
    return secrets.token_hex(16)


def chain(prev: str, chained: Mapping[str, Any]) -> str:
    """An entry's own hash: SHA-256 of the previous hash and its canonical JSON."""
    return hashlib.sha256(prev.encode() + canonical(chained)).hexdigest()


def reproduces(
    program: Program, server_seed: bytes, roll_context: str, result: Mapping[str, Any]
) -> bool:
    """Whether the revealed seed gives exactly the faces and total stored."""
    again = roll(program, server_seed, roll_context).to_dict()
    return faces(again) == faces(result) and again["total"] == result["total"]


def log_document(
    room: str, seeds: Sequence[Mapping[str, Any]], entries: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The exported log: the seeds (revealed ones with their seed) and the
    chained entries, each with ``prev`` and ``hash``."""
    return {"version": LOG_VERSION, "room": room, "seeds": list(seeds), "entries": list(entries)}
