"""What a roll tosses, told before it rolls: a :data:`Schedule`.

A program whose tosses can be told in advance (so many dice of such a kind,
and dice that roll again on one face) says so with its ``schedule()``;
:mod:`.quick` draws them with the functions here, looks the outcome up, and
checks the schedule against the general path on every outcome it keeps.
"""

from __future__ import annotations

from ..language.tree import Node, Pool, walk
from ..stream import Stream
from .pools import plan

Toss = tuple[int, tuple[int, ...], int, int | None, str | None]
"""``(n, faces, count, again, line)``: ``count`` dice of ``faces`` (each a
draw below ``n``), each tossed again while it shows ``again`` (None: never).
With ``line`` (a pool's source, such as ``4D``), the dice are a pool of numbered
faces, never tossed again, that the roll reads by their sum alone and shows in
one line of its text, ``4D: 1 3 3 2 = 9``: outcomes are then kept by that sum
and the line written from the faces (the system that says so tests it)."""
Schedule = tuple[Toss, ...]
"""Every toss of a roll, in the order the stream gives them."""

LONGEST_CHAIN = 8
"""A chain longer than this (a die rolling again 8 times) goes to the general
path, which knows the limits of chains."""


def draw(schedule: Schedule, stream: Stream) -> tuple[list[int], list[int], list[str]] | None:
    """The faces the schedule tosses from ``stream``, in order; the outcome's
    key, a pool kept by its sum standing for its faces; and those pools'
    lines, ``4D: 1 3 3 2 = 9`` (None: a chain ran past :data:`LONGEST_CHAIN`)."""
    faces: list[int] = []
    key: list[int] = []
    lines: list[str] = []
    for n, tossed, count, again, line in schedule:
        if again is None:
            group = [tossed[index] for index in stream.draws(n, count)]
            faces += group
            if line is None:
                key += group
            else:
                total, said = pool_line(tuple(group), line)
                key.append(total)
                lines.append(said)
            continue
        for _ in range(count):
            chain = 0
            while True:
                face = tossed[stream.below(n)]
                faces.append(face)
                key.append(face)
                if face != again:
                    break
                chain += 1
                if chain >= LONGEST_CHAIN:
                    return None
    return faces, key, lines


def merged(schedule: Schedule) -> Schedule:
    """The same tosses, plain pools of one die in a row drawn in one go (the
    stream gives the same draws either way)."""
    merged: list[Toss] = []
    for toss in schedule:
        if not toss[2]:
            continue
        last = merged[-1] if merged else None
        if (
            last is not None
            and last[3] is None is toss[3]
            and last[4] is None is toss[4]
            and last[1] == toss[1]
        ):
            merged[-1] = (last[0], last[1], last[2] + toss[2], None, None)
        else:
            merged.append(toss)
    return tuple(merged)


def asks(schedule: Schedule, faces: list[int]) -> list[int]:
    """The ``n`` of every draw the schedule made to toss ``faces``."""
    asks: list[int] = []
    at = 0
    for n, _, count, again, _ in schedule:
        if again is None:
            asks += [n] * count
            at += count
            continue
        for _ in range(count):
            while True:
                asks.append(n)
                at += 1
                if at > len(faces) or faces[at - 1] != again:
                    break
    return asks


def possible_outcomes(schedule: Schedule) -> int:
    """How many outcomes the schedule can toss, a chain counted as twice the
    faces of its die (most chains stop at the first toss)."""
    total = 1
    for _, tossed, count, again, line in schedule:
        faces = len(set(tossed))
        if line is not None:
            total *= (faces - 1) * count + 1  # the sums of count dice
        else:
            total *= (faces * 2 if again is not None else faces) ** count
    return total


def plain_tosses(expressions: list[Node]) -> Schedule | None:
    """The tosses of expressions whose pools toss each die once (no reroll,
    no explosion, no technique; keeping, dropping and counting only read the
    faces): each pool's dice in the order the walk rolls them (None: some
    pool tosses again)."""
    tosses: list[Toss] = []
    for expression in expressions:
        for node in walk(expression):
            if isinstance(node, Pool):
                plan(node)  # the pool's own checks, as the general path makes them
                if node.reroll or node.explode or node.technique is not None:
                    return None
                tossed = node.die.tossed
                tosses.append((len(tossed), tossed, node.count, None, None))
    return tuple(tosses)


def pool_line(faces: tuple[int, ...], line: str) -> tuple[int, str]:
    """A pool kept by its sum: the sum, and its line ``4D: 1 3 3 2 = 9``."""
    total = sum(faces)
    return total, f"{line}: {' '.join(map(str, faces))} = {total}"


def cut(text: str, lines: list[str]) -> tuple[str, ...] | None:
    """``text`` cut around each of ``lines`` in turn (each a whole line of it,
    found exactly once); None if one is not."""
    rows = text.split("\n")
    pieces: list[str] = []
    start = 0
    for line in lines:
        found = [index for index, row in enumerate(rows) if row.lstrip(" ") == line]
        if len(found) != 1 or found[0] < start:
            return None
        index = found[0]
        row = rows[index]
        before = "\n".join(rows[start:index])
        pieces.append((before + "\n" if index > start else "") + row[: len(row) - len(line)])
        rows[index] = ""
        start = index
    pieces.append("\n".join(rows[start:]))
    return tuple(pieces)
