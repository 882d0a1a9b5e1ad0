"""The test vectors of docs/fairness.md, checked twice: by a few lines of this
file that know only HMAC-SHA256 and the stream's rules (as another language's
implementation would), and by the project's own code."""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import fudgedice
from fudgedice.log.entries import drawn
from fudgedice.stream import Stream, room_stream

FAIRNESS = Path(__file__).resolve().parent.parent / "docs" / "fairness.md"
ROOM_SEED = bytes(range(32))
"""The key the page writes ``000102...1e1f``, and the key of its room rolls."""

FACES = {
    "d6": list(range(1, 7)),
    "d%": list(range(1, 101)),
    "dF": [-1, -1, 0, 0, 1, 1],
    "dF.1": [-1, 0, 0, 0, 0, 1],
}
"""Each die's faces in the stream's order, as the page lists them."""


# ---------------------------------------------- the stream, from the rules alone


def words(key: bytes, context: str) -> Iterator[int]:
    """u0, u1, ...: HMAC-SHA256(key, context:i) read as big-endian 32-bit words."""
    block = 0
    while True:
        digest = hmac.new(key, f"{context}:{block}".encode(), hashlib.sha256).digest()
        yield from struct.unpack(">8I", digest)
        block += 1


def draws(source: Iterator[int], n: int) -> Iterator[int]:
    """Draws below n: a word under the largest multiple of n is taken mod n."""
    limit = 2**32 - 2**32 % n
    for word in source:
        if word < limit:
            yield word % n


def draw_one(source: Iterator[int], n: int) -> int:
    return next(draws(source, n))


# ------------------------------------------------------- the page's tables


def _key(cell: str) -> bytes:
    cell = cell.strip().strip("`")
    if cell.startswith('"'):
        return cell.strip('"').encode()
    assert cell in ("000102...1e1f", "room"), cell
    return ROOM_SEED


def table(header: str) -> list[list[str]]:
    """The rows of the page's table whose header line is ``header``."""
    lines = FAIRNESS.read_text("utf-8").splitlines()
    start = lines.index(header) + 2  # the header and its |---| line
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    assert rows, f"no rows under {header!r}"
    return rows


def numbers(cell: str) -> list[int]:
    return [int(word) for word in cell.split()]


@dataclass(frozen=True)
class WholeRoll:
    key: bytes
    context: str
    text: str
    dice: list[str]
    """Each toss's die, in order."""
    faces: list[int]
    total: int

    @property
    def id(self) -> str:
        return f"{self.text} ({self.context or 'seed'})"


def whole_rolls() -> list[WholeRoll]:
    rolls = []
    for key, context, text, dice, faces, total in table(
        "| key | context | roll | dice | faces | total |"
    ):
        tossed = []
        for count, die in re.findall(r"(\d+) (\S+)", dice):
            tossed += [die] * int(count)
        rolls.append(
            WholeRoll(
                _key(key),
                context.strip("`"),
                text.strip("`"),
                tossed,
                numbers(faces),
                int(total),
            )
        )
    return rolls


def _room_stream(key: bytes, context: str) -> Stream:
    """The project's stream of a room roll: ``ROOM:CLIENT_SEED:NONCE`` (version
    1) or ``ROOM:MEMBER:CLIENT_SEED:NONCE`` (version 2)."""
    parts = context.split(":")
    if len(parts) == 3:
        return room_stream(key, parts[0], parts[1], int(parts[2]))
    room, member, client, nonce = parts
    return room_stream(key, room, client, int(nonce), member=member)


# ---------------------------------------------------------------- the tests


@pytest.mark.parametrize("row", table("| key | context | block 0 | u0 .. u7 |"))
def test_blocks_and_words(row: list[str]) -> None:
    key, context, block, listed = _key(row[0]), row[1].strip("`"), row[2].strip("`"), row[3]
    assert hmac.new(key, f"{context}:0".encode(), hashlib.sha256).hexdigest() == block
    source = words(key, context)
    assert [next(source) for _ in range(8)] == numbers(listed)
    stream = Stream(key, context)
    assert [stream.word() for _ in range(8)] == numbers(listed)


@pytest.mark.parametrize("row", table("| key | context | n | draws |"))
def test_draws_below_n(row: list[str]) -> None:
    key, context, n, listed = _key(row[0]), row[1].strip("`"), int(row[2]), numbers(row[3])
    source = draws(words(key, context), n)
    assert [next(source) for _ in listed] == listed
    stream = Stream(key, context)
    assert [stream.below(n) for _ in listed] == listed


def test_the_rejection_vector_does_reject() -> None:
    """The page says key "7" discards u2, u4 and u5 below 2**31 + 1: it must."""
    source = words(b"7", "")
    first = [next(source) for _ in range(7)]
    limit = 2**31 + 1
    assert [index for index, word in enumerate(first) if word >= limit] == [2, 4, 5]


@pytest.mark.parametrize("roll", whole_rolls(), ids=lambda roll: roll.id)
def test_whole_rolls(roll: WholeRoll) -> None:
    # the faces, from the rules alone: each die's face list indexed by a draw
    source = words(roll.key, roll.context)
    expected = [FACES[die][draw_one(source, len(FACES[die]))] for die in roll.dice]
    assert expected == roll.faces
    # the project draws the same faces and reaches the listed total
    if roll.context:
        rolled = fudgedice.roll(roll.text, stream=_room_stream(roll.key, roll.context))
    else:
        rolled = fudgedice.roll(roll.text, seed=roll.key.decode())
    assert rolled.tosses == roll.faces
    assert rolled.total == roll.total


def test_every_system_has_a_whole_roll_vector() -> None:
    texts = [roll.text for roll in whole_rolls()]
    prefixes = {text.split(":")[0] if ":" in text else "fudge" for text in texts}
    assert prefixes >= {"fudge", "power", "3d6fudge", "d6", "fate"}
    assert any("@" in text for text in texts), "a technique"
    assert any(" opp " in text for text in texts), "an opposed roll"
    assert any(roll.context for roll in whole_rolls()), "a room roll"


def test_a_whole_number_seed_is_its_decimal_text() -> None:
    assert fudgedice.roll("4dF.1", seed=7).tosses == fudgedice.roll("4dF.1", seed="7").tosses


@pytest.mark.parametrize("row", table("| key | context | roll | faces | error |"))
def test_failed_rolls(row: list[str]) -> None:
    key, context, text = _key(row[0]), row[1].strip("`"), row[2].strip("`")
    faces, error = numbers(row[3]), row[4]
    # from the rules alone: the four dF drawn sum to +1 or more, so (s+4)/5 - 1 is 0
    source = words(key, context)
    expected = [FACES["dF"][draw_one(source, 6)] for _ in range(4)]
    assert expected == faces and sum(faces) >= 1
    rolled, drawn_faces, failure = drawn(text, _room_stream(key, context))
    assert rolled is None and failure is not None
    assert (drawn_faces, failure.message) == (faces, error)


def test_version_2_puts_the_member_in_the_context() -> None:
    rows = {roll.context: roll for roll in whole_rolls()}
    ann, bo = rows["room:ann:lucky:0"], rows["room:bo:lucky:0"]
    assert ann.text == bo.text and ann.faces != bo.faces
