"""Properties of random ``d6:`` rolls drawn from the grammar: each one either
raises the project's own error or rolls a total its exact odds call possible,
reads back the same from its own dice, and has odds that add up to 1."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import fudgedice
from fudgedice import Mark
from fudgedice.errors import DiceError


@st.composite
def sides(draw: st.DrawFn) -> str:
    dice = draw(st.integers(0, 6))
    pips = draw(st.integers(-3, 5))
    code = f"{dice}D{pips:+d}" if pips else f"{dice}D"
    options = draw(
        st.lists(
            st.sampled_from(
                [
                    "nowild",
                    "crit=cancel",
                    "crit=ignore",
                    "crit=complication",
                    "cp1",
                    "cp2",
                    "fp",
                    "fast",
                    "wildonly",
                    "allow=cpfp",
                ]
            ),
            max_size=3,
            unique=True,
        )
    )
    return " ".join([code, *options])


@st.composite
def rolls(draw: st.DrawFn) -> str:
    text = "d6: " + draw(sides())
    check = draw(st.sampled_from(["", "vs", "opp"]))
    if check == "vs":
        text += " vs " + draw(st.sampled_from(["12", "Moderate", "Very Easy", "Heroic+2"]))
    elif check == "opp":
        text += " opp " + draw(sides())
    return text


def _marked(roll: fudgedice.Roll) -> list[str]:
    """The roll's own dice, written as a player would mark them by hand."""
    return [
        ("w" if Mark.WILD in die.marks else "c" if Mark.CHARACTER_POINT in die.marks else "")
        + die.face
        for die in roll.dice
    ]


@settings(max_examples=80, deadline=None)
@given(rolls(), st.integers(0, 10**6))
def test_rolls_are_possible_and_read_back(text: str, seed: int) -> None:
    try:
        odds = fudgedice.odds(text)
    except DiceError:
        return
    assert sum(outcome.p for outcome in odds.outcomes) + odds.truncated == 1
    assert odds.truncated <= Fraction(1, 10**12)
    roll = fudgedice.roll(text, seed=seed)
    assert odds.probability(roll.total) > 0
    if " opp " not in text:
        assert fudgedice.read(text, _marked(roll)).total == roll.total
