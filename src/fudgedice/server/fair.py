"""The table's seeds and its re-rolls (docs/fairness.md).

A room's rolls draw from its committed server seed: key = the seed, context =
``ROOM:CLIENT_SEED:NONCE`` (``fudgedice.stream``). Each roll's entry of the
room's hash-chained log is made by ``fudgedice.log.roll_entry`` when the roll
is (:mod:`.store`), so the log the room exports is the document
``fudgedice verify`` reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dice.program import Program
from ..results.roll import Roll
from ..stream import Stream, room_context
from ..stream import commitment as commitment
from ..stream import new_server_seed as new_server_seed


def context(room: str, client_seed: str, nonce: int) -> str:
    """``ROOM:CLIENT_SEED:NONCE``: the context of a roll's stream."""
    return room_context(room, client_seed, nonce)


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
