"""Rolling one checked side of a Fudge roll, or reading it by hand.

Plain pools go through the generic roller; the pools a side treats specially
(a dice technique, advantage or take zero) are rolled here, and each writes
the step that explains its reading. The same code serves the random roller
and dice read by hand, so the two can never disagree.
"""

from __future__ import annotations

import re

from ...dice.arithmetic import WordValue
from ...dice.hand import HandRoller, written
from ...dice.roller import Roller, roll_node, roll_pool
from ...errors import DiceValueError
from ...language.tree import D6, D100, FUDGE_DIE, Pool
from ...results.dice import DieRoll, Mark, Part, PoolRoll
from ...results.roll import Roll
from . import power
from .checking import SidePlan
from .details import FudgeDetails
from .ladders import Ladder
from .techniques import (
    SEED_D100,
    D100Table,
    fudge_from_3d6,
    fudge_from_d6,
    read_4d6,
    technique_name,
    three_d6_range,
)


def roll_side(
    side: SidePlan, roller: Roller, word_value: WordValue, d100: D100Table, steps: list[str]
) -> Part:
    """Roll ``side``, reading ``@d%`` on ``d100``; explanations go to ``steps``."""

    def roll_one(pool: Pool, roller: Roller) -> PoolRoll:
        if side.special(pool):
            return _roll_special(pool, roller, side, d100, steps)
        return roll_pool(pool, roller)

    return roll_node(side.expr, roller, word_value, roll_one)


def _roll_special(
    pool: Pool, roller: Roller, side: SidePlan, d100: D100Table, steps: list[str]
) -> PoolRoll:
    options = side.options_for(pool)
    if options.take_zero:
        if options.asked:
            steps.append(_advantage_note(0, []))
        steps.append(f"take zero: {pool.source} is not rolled, every die counts as blank")
        return PoolRoll(pool, [], 0)
    technique = technique_name(pool.technique) if pool.technique else None
    if technique == "3d6":
        faces = [roller.toss(D6) for _ in range(3)]
        rolled = sum(faces)
        result = fudge_from_3d6(rolled)
        steps.append(
            f"3d6: {'+'.join(map(str, faces))} = {rolled}, "
            f"{three_d6_range(rolled)} on the table -> {result:+d}"
        )
        return PoolRoll(pool, [DieRoll(D6, face, str(face)) for face in faces], result)
    if technique == "d%":
        rolled = roller.toss(D100)
        result = d100.read(rolled)
        shown = "00" if rolled == 100 else str(rolled)
        which = "the seed's table" if d100 == SEED_D100 else "the custom table"
        steps.append(f"d%: {shown} ({d100.range_of(rolled)} on {which}) -> {result:+d}")
        return PoolRoll(pool, [DieRoll(D100, rolled, shown)], result)
    if technique == "4d6":
        return _roll_4d6(pool, roller, steps)
    if technique == "d6":
        faces = [roller.toss(D6) for _ in range(pool.count)]
        values = [fudge_from_d6(face) for face in faces]
        dice = [DieRoll(D6, value, str(face)) for face, value in zip(faces, values, strict=True)]
        read = " ".join(
            f"{face}={FUDGE_DIE.face_label(v).strip() or 'blank'}"
            for face, v in zip(faces, values, strict=True)
        )
        steps.append(f"d6 as Fudge dice (1-2 -, 3-4 blank, 5-6 +): {read}")
    else:
        values = [roller.toss(pool.die) for _ in range(pool.count)]
        dice = [DieRoll(pool.die, value, pool.die.face_label(value)) for value in values]
    level = options.advantage
    ignored = power.ignored(values, level)
    for index in ignored:
        dice[index].set_aside(Mark.IGNORED, "advantage" if level > 0 else "disadvantage")
    if options.asked:
        steps.append(_advantage_note(level, ignored))
    total = sum(value for index, value in enumerate(values) if index not in ignored)
    return PoolRoll(pool, dice, total)


def _roll_4d6(pool: Pool, roller: Roller, steps: list[str]) -> PoolRoll:
    if isinstance(roller, HandRoller):
        faces, positive = _read_4d6_by_hand(roller)
    else:
        faces = (roller.toss(D6), roller.toss(D6), roller.toss(D6), roller.toss(D6))
        positive = (True, True, False, False)  # the first two dice are declared positive
    reading = read_4d6(faces, positive)
    dice = []
    for index, face in enumerate(faces):
        colour = "p" if positive[index] else "n"
        die = DieRoll(
            D6, face, f"{colour}{face}", (Mark.POSITIVE if positive[index] else Mark.NEGATIVE).value
        )
        if index in reading.removed:
            die.set_aside(Mark.REMOVED, "above the lowest")
        dice.append(die)
    steps.append(reading.explanation)
    return PoolRoll(pool, dice, reading.result)


def _advantage_note(level: int, ignored: list[int]) -> str:
    if level == 0:
        return "advantage and disadvantage cancel: the roll is made as normal"
    word = {1: "advantage", 2: "double advantage", -1: "disadvantage", -2: "double disadvantage"}
    face = "-" if level > 0 else "+"
    if not ignored:
        return f"{word[level]}: no {face} to ignore"
    which = ", ".join(str(index + 1) for index in ignored)
    count = "one" if len(ignored) == 1 else "two"
    dice = "die" if len(ignored) == 1 else "dice"
    return f"{word[level]}: ignored {count} {face} ({dice} {which})"


def _read_4d6_by_hand(roller: HandRoller) -> tuple[tuple[int, int, int, int], tuple[bool, ...]]:
    """Four d6 read from the table: ``p4 p3 n3 n3`` (colour and face), or four
    plain faces taken as two positive dice, then two negative."""
    faces: list[int] = []
    colours: list[str] = []
    for _ in range(4):
        token = roller.next_face("a d6 of 4d6, written p4 (positive) or n3 (negative)")
        match = re.fullmatch(r"([pn]?)([1-6])", token.strip().lower())
        if match is None:
            raise DiceValueError(
                f"die {roller.used}: {written(token)} is not a face of a positive or negative d6",
                hint="write each die as p1..p6 (positive) or n1..n6 (negative)",
            )
        colours.append(match.group(1))
        faces.append(int(match.group(2)))
    if all(colours):
        positive = tuple(colour == "p" for colour in colours)
        if sum(positive) != 2:
            raise DiceValueError(
                f"4d6 reads two positive and two negative dice, not {sum(positive)} "
                f"positive and {4 - sum(positive)} negative"
            )
    elif not any(colours):
        positive = (True, True, False, False)
    else:
        raise DiceValueError(
            "mark every die of 4d6 p or n, or none (then the first two are positive)"
        )
    return (faces[0], faces[1], faces[2], faces[3]), positive


def side_roll(
    system: str, ladder: Ladder, title: str, degree: int, part: Part, steps: list[str]
) -> Roll:
    """One side of an opposed action, as a roll of its own."""
    return Roll(
        title,
        system,
        degree,
        part,
        result=ladder.describe(degree),
        steps=steps,
        details=FudgeDetails(ladder.system, degree),
        title=title,
        quick_read=True,
    )
