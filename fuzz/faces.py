"""The faces a player would write down for a roll, to hand back to ``read``.

Fudge dice as ``+``, ``-`` and ``0``; numbered dice as their number (``00`` for a
d% 100, as the roll shows it); a compounded chain (``6+6+2``, ``++-``) as its
tosses one by one. D6 System: ``w`` before each Wild Die toss and ``c`` before each
Character Point die toss (:class:`fudgedice.Mark`). ``4dF@4d6``: ``p``/``n`` before
its positive and negative dice (they already show ``p4``/``n3``). An opposed roll:
the left side's faces, the word ``opp``, the right side's (``written``); ``plain``
is the same without the word, the order ``docs/fudge.md`` and ``docs/3d6fudge.md``
describe for their systems.
"""

from __future__ import annotations

from dataclasses import dataclass

from fudgedice import DieRoll, Mark, Roll

FUDGE_FACES = {"+": "+", "-": "-", " ": "0"}


@dataclass(frozen=True)
class HandFaces:
    written: list[str]
    """The faces as a player writes them (``opp`` between two sides)."""
    plain: list[str] | None
    """For an opposed roll: the same faces without ``opp``; None otherwise."""


def die_tokens(die: DieRoll) -> list[str]:
    """One entry of ``Roll.dice`` as the faces written for it."""
    fudge = die.die.fudge
    tosses = compounded_tosses(die.face, fudge) if die.marks & Mark.COMPOUNDED else [die.face]
    out = []
    for toss in tosses:
        token = FUDGE_FACES.get(toss, toss) if fudge else toss
        if die.marks & Mark.WILD:
            token = "w" + token
        elif die.marks & Mark.CHARACTER_POINT:
            token = "c" + token
        elif die.marks & Mark.POSITIVE and not token.startswith("p"):
            token = "p" + token
        elif die.marks & Mark.NEGATIVE and not token.startswith("n"):
            token = "n" + token
        out.append(token)
    return out


def compounded_tosses(face: str, fudge: bool) -> list[str]:
    """The tosses of a compounded chain's face, in the order thrown: faces joined
    by '+', a toss rerolled inside the chain in brackets ('6+(1)+4'). A Fudge
    face is one character ('+', '-', ' '), so '++(-)++ ' is +, -, + then blank."""
    if not fudge:
        return [toss.strip("()") for toss in face.split("+")]
    tosses = []
    at = 0
    while at < len(face):
        if face[at] == "(":
            tosses.append(face[at + 1])
            at += 3
        else:
            tosses.append(face[at])
            at += 1
        at += 1  # the '+' between two tosses
    return tosses


def tokens(dice: list[DieRoll]) -> list[str]:
    """Every die of a list, in order, as written faces."""
    return [token for die in dice for token in die_tokens(die)]


def hand_faces(roll: Roll) -> HandFaces:
    """The faces to give ``read`` so that it reads ``roll`` again."""
    if len(roll.sides) == 2:
        left, right = tokens(roll.sides[0].dice), tokens(roll.sides[1].dice)
        return HandFaces([*left, "opp", *right], [*left, *right])
    return HandFaces(tokens(roll.dice), None)
