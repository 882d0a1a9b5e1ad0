"""The D6 System's tails: what its Wild Die and Character Point chains leave
past the cut-off is kept, and every chance it does not straddle is exact.

An exact chance cannot depend on how far the chains were followed, so each
roll is measured again with its chains followed further; the brute-force
comparisons (``test_d6_brute.py``) check the same against enumeration.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import fudgedice
from fudgedice.api import compile_roll
from fudgedice.exact.odds import Chance, Odds
from fudgedice.systems.d6.margin import margin_dist
from fudgedice.systems.d6.measure import depth_for, side_dist
from fudgedice.systems.d6.program import D6Program


def test_the_issue_a_second_six_on_the_wild_die_is_a_success() -> None:
    odds = fudgedice.odds("d6: 3D vs 11")
    assert odds.events["success"] == Fraction(85, 162)
    assert odds.events["failure"] == Fraction(77, 162)
    assert odds.uncertain == {}
    (tail,) = odds.tails
    assert (tail.low, tail.high, tail.p) == (99, None, Fraction(1, 6**16))
    # the tail is "a second 6 on the Wild Die, 16 times over": all successes
    listed = sum((o.p for o in odds.outcomes if o.value >= 11), Fraction(0))
    assert odds.events["success"] == listed + tail.p


def deeper(form: str, further: int) -> Odds:
    """``form`` measured with every chain followed ``further`` tosses deeper."""
    program = compile_roll(form)
    assert isinstance(program, D6Program)
    left = program.left.shape()
    if program.right is None:
        made = side_dist(left, depth_for(left.exploding) + further).combined()
    else:
        right = program.right.shape()
        made = margin_dist(left, right, depth_for(left.exploding + right.exploding) + further)
    return Odds(form, "d6", made)


FORMS = [
    ("d6: 3D vs 11", 11),
    ("d6: 4D+2 vs 15", 15),
    ("d6: 2D cp2 vs 12", 12),
    ("d6: 3D crit=cancel vs 10", 10),
    ("d6: 2D+1 nowild cp1 vs 9", 9),
    ("d6: 3D opp 2D", 0),
    ("d6: 4D+2 opp 3D+1", 0),
    ("d6: 3D crit=cancel opp 2D cp1", 0),
    ("d6: 2D cp2 opp 2D cp1", 0),
    ("d6: 3D opp 3D nowild", 0),
]


@pytest.mark.parametrize(("form", "threshold"), FORMS)
def test_exact_chances_do_not_depend_on_the_cut_off(form: str, threshold: int) -> None:
    odds = fudgedice.odds(form)
    assert odds.uncertain == {}
    assert odds.events["success"] + odds.events["failure"] == 1
    assert odds.events["success"] == odds.at_least(threshold)
    assert sum(tail.p for tail in odds.tails) == odds.truncated <= Fraction(1, 10**12)
    for further in (1, 3):
        far = deeper(form, further)
        assert far.chance_between(threshold, None) == Chance(odds.events["success"], Fraction(0))
        for value in range(odds.low - 2, odds.high + 3):
            for low, high in ((value, None), (None, value), (value, value)):
                near, deep = odds.chance_between(low, high), far.chance_between(low, high)
                if near.uncertain == deep.uncertain == 0:
                    assert near.p == deep.p, (low, high)
                assert near.p <= deep.p + deep.uncertain and deep.p <= near.p + near.uncertain


@pytest.mark.parametrize("form", ["d6: 3D opp 2D", "d6: 2D cp2 opp 2D cp1", "d6: 10D opp 9D+2"])
def test_an_opposed_margin_is_exact_wherever_it_is_listed(form: str) -> None:
    """Both sides' tails are followed through the margin: every listed value,
    and the chance of each side beyond, is exact (the same however deep)."""
    odds = fudgedice.odds(form)
    low, high = sorted(odds.tails, key=lambda tail: tail.low is not None)
    assert (low.low, low.high, high.low, high.high) == (None, odds.low - 1, odds.high + 1, None)
    for value in range(odds.low, odds.high + 2):
        assert odds.chance_between(value, None).uncertain == 0
        assert odds.chance_between(None, value - 1).uncertain == 0
    # a tail holds values next to its bound: a chance cut there is not exact
    assert odds.chance_between(odds.low - 1, None).uncertain == low.p
    assert odds.chance_between(None, odds.high + 1).uncertain == high.p
    far = deeper(form, 2)
    for outcome in odds.outcomes:
        assert far.probability(outcome.value) == outcome.p
    assert far.chance_between(odds.high + 1, None).p == high.p


def test_a_side_with_no_exploding_dice_has_no_tail() -> None:
    odds = fudgedice.odds("d6: 3D nowild opp 2D nowild")
    assert odds.tails == [] and odds.truncated == 0
    assert odds.events["success"] + odds.events["failure"] == 1


def test_the_table_shows_the_tails_as_rows() -> None:
    from fudgedice.render.odds_table import odds_text

    lines = odds_text(fudgedice.odds("d6: 3D vs 11")).splitlines()
    assert (
        lines[lines.index(next(line for line in lines if "or more" in line)) - 1].split()[0] == "43"
    )
    assert next(line for line in lines if "or more" in line).split()[:4] == [
        "99",
        "or",
        "more",
        "3.5e-11%",
    ]
    assert "success: 52.47% (85/162)" in lines
    opposed = odds_text(fudgedice.odds("d6: 3D opp 2D")).splitlines()
    rows = [line for line in opposed if "%" in line and ":" not in line]
    assert rows[0].split()[:3] == ["-99", "or", "less"] and rows[-1].split()[:3] == [
        "+106",
        "or",
        "more",
    ]
    assert "success: 79.53% (773/972)" in opposed
