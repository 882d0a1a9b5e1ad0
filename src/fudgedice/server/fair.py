"""Every use of the fairness scheme (FAIRNESS.md) by the table, in one place.

A room's rolls draw from its committed server seed: key = the seed, context =
``ROOM:CLIENT_SEED:NONCE``. Each roll is one entry of the room's hash-chained
log; a hidden roll is chained as a placeholder holding SHA-256(salt + entry),
its salt and entry published when its seed is revealed.

The dice come from the project's stream (``fudgedice.stream``, docs/fairness.md).
INTERIM: the log is still written in this module's own shape below, not yet
the ``fudgedice-log/1`` document of docs/fairness.md that ``fudgedice verify``
reads (``fudgedice.log``); when it moves to that, only this module and the
exports change.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from ..dice.program import Program
from ..results.roll import Roll
from ..stream import Stream

LOG_VERSION = 1
GENESIS = "0" * 64
"""The ``prev`` of a room's first entry."""


def new_server_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


def context(room: str, client_seed: str, nonce: int) -> str:
    return f"{room}:{client_seed}:{nonce}"


def roll(program: Program, server_seed: bytes, roll_context: str) -> Roll:
    """The roll of ``program`` that the seed and context determine."""
    return program.roll(Stream(server_seed, roll_context), None)


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
