"""The table's seeds and its re-rolls (docs/fairness.md).

A room's rolls draw from its committed server seed: key = the seed, context =
``ROOM:MEMBER:CLIENT_SEED:NONCE`` (``fudgedice.stream``, version 2; a seed
committed before it, ``ROOM:CLIENT_SEED:NONCE``). Each roll's entry of the
room's hash-chained log is made by ``fudgedice.log.roll_entry`` when the roll
is (:mod:`.store`), so the log the room exports is the document
``fudgedice verify`` reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dice.program import Program
from ..log.entries import failed_draws
from ..results.roll import Roll
from ..stream import Stream, member_context, room_context
from ..stream import commitment as commitment
from ..stream import new_server_seed as new_server_seed


def context(room: str, client_seed: str, nonce: int, member: str | None = None) -> str:
    """``ROOM:MEMBER:CLIENT_SEED:NONCE`` (version 2), or without a member
    ``ROOM:CLIENT_SEED:NONCE`` (version 1): the context of a roll's stream."""
    if member is None:
        return room_context(room, client_seed, nonce)
    return member_context(room, member, client_seed, nonce)


def roll(program: Program, server_seed: bytes, roll_context: str) -> Roll:
    """The roll of ``program`` that the seed and context determine."""
    return program.roll(Stream(server_seed, roll_context), None)


def faces(result: Mapping[str, Any]) -> list[Any]:
    """Every die's value in the order rolled, an opposed roll's sides included."""
    values = [die["value"] for die in result.get("dice", [])]
    for side in result.get("sides", []):
        values.extend(faces(side))
    return values


def reproduces(
    program: Program, server_seed: bytes, roll_context: str, result: Mapping[str, Any]
) -> bool:
    """Whether the revealed seed gives exactly the faces and total stored."""
    again = roll(program, server_seed, roll_context).to_dict()
    return faces(again) == faces(result) and again["total"] == result["total"]


def fails_so(
    program: Program, server_seed: bytes, roll_context: str, result: Mapping[str, Any]
) -> bool:
    """Whether a failed roll fails, from the revealed seed, with its error on
    exactly the faces it drew."""
    drawn, error = failed_draws(program, Stream(server_seed, roll_context))
    return (
        error is not None and error.message == result.get("error") and drawn == result.get("tosses")
    )
