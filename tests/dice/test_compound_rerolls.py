"""A compounded chain (``!!``) with rerolls reads back in the order it is shown.

A toss rerolled inside the chain is shown in the chain's brackets where it came
(``[6+(1)+1]``: a 6, a 1 rerolled, a 1), not before the chain: with reroll-once
(``ro``) the order decides which toss was the reroll, and ``read`` takes the faces
in the order thrown.
"""

from __future__ import annotations

import pytest

import fudgedice
from fudgedice import Mark, Roll


def shown_faces(roll: Roll) -> list[str]:
    """The faces in the order the roll's explanation shows them."""
    faces: list[str] = []
    for die in roll.dice:
        if not die.marks & Mark.COMPOUNDED:
            faces.append(die.face if not die.die.fudge else {" ": "0"}.get(die.face, die.face))
            continue
        if die.die.fudge:
            at = 0
            while at < len(die.face):
                toss = die.face[at + 1] if die.face[at] == "(" else die.face[at]
                faces.append({" ": "0"}.get(toss, toss))
                at += 4 if die.face[at] == "(" else 2
        else:
            faces.extend(toss.strip("()") for toss in die.face.split("+"))
    return faces


def test_a_reroll_inside_the_chain_is_shown_where_it_came() -> None:
    roll = fudgedice.read("d6!!ro1", ["6", "1", "1"])
    assert roll.total == 7
    assert "[6+(1)+1]" in roll.text
    assert "rerolled" not in roll.text  # no separate entry before the chain


@pytest.mark.parametrize("text", ["d6!!ro1", "3d6!!>=4ro<=3", "4dF!!ro<0", "5d6!!ro<3kh2"])
def test_rolls_read_back_in_the_order_shown(text: str) -> None:
    inside = 0
    for seed in range(400):
        roll = fudgedice.roll(text, seed=seed)
        inside += any(die.marks & Mark.COMPOUNDED and "(" in die.face for die in roll.dice)
        again = fudgedice.read(text, shown_faces(roll))
        assert (again.total, again.text) == (roll.total, roll.text), seed
    assert inside  # the seeds did roll chains with a reroll inside
