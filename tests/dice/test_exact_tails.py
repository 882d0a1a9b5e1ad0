"""Exploding pools keep what they cut off as tails, and stay exact where the
tails cannot reach.

An exact chance cannot depend on how far the chains were followed: measured
again with every chain followed much deeper, it must come out the same, and
any chance the deeper measure calls exact must lie within what the shallower
one says it may be. The brute-force comparisons (``test_oracle.py``) check the
same against enumeration for the small pools.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import fudgedice
from fudgedice import parse
from fudgedice.dice.arithmetic import WordValue
from fudgedice.dice.measure import exploding_dice, measure
from fudgedice.exact.odds import Odds
from fudgedice.language.tree import Word

FORMS = [
    "3d6!",
    "2d6!p",
    "4d6!kh3",
    "4d6!kl3",
    "5d10!>=8",
    "5d10! >=8",
    "5d10!>=8>=8f1",
    "2d6!! >=7",
    "d6!-d4",
    "-d6!+3",
    "4dF!",
    "3dF!p",
    "d6!<2",
    "2d6!*3",
    "d6!/2",
    "d6!*-2",
    "d6!-d6!",
    "d6!*d4",
]


def _no_words(word: Word) -> int:
    raise AssertionError(word)


def deeper(form: str) -> Odds:
    """``form`` measured with every chain followed a good way deeper (as if the
    roll had a thousand times more exploding dice sharing the 1e-12)."""
    node = parse(form).side.expr
    word_value: WordValue = _no_words
    return Odds(form, "fudge", measure(node, word_value, 1000 * exploding_dice(node)))


@pytest.mark.parametrize("form", FORMS)
def test_exact_chances_do_not_depend_on_the_cut_off(form: str) -> None:
    odds, far = fudgedice.odds(form), deeper(form)
    assert odds.tails and sum(tail.p for tail in odds.tails) == odds.truncated
    assert far.truncated < odds.truncated
    for value in range(odds.low - 3, odds.high + 4):
        for low, high in ((value, None), (None, value), (value, value)):
            near, deep = odds.chance_between(low, high), far.chance_between(low, high)
            # what each says surely belongs and may belong brackets the other
            assert near.p <= deep.p + deep.uncertain and deep.p <= near.p + near.uncertain
            if near.uncertain == 0:
                assert deep.p <= near.p <= deep.p + deep.uncertain
            if deep.uncertain == 0:
                assert near.p <= deep.p <= near.p + near.uncertain
            if near.uncertain == deep.uncertain == 0:
                assert near.p == deep.p, (low, high)


@pytest.mark.parametrize(
    ("form", "label"),
    [
        ("3d6!", "105 or more"),
        ("2d6!p", "82 or more"),
        ("4d6!kh3", "105 or more"),
        ("4d6!kl3", "3 or more"),
        ("5d10! >=8", "13 or more"),
        ("2d6!!", "98 or more"),
        ("d6!-d4", "93 or more"),
        ("-d6!+3", "-94 or less"),
        ("4dF!", "23 or more"),
        ("2d6!*3", "294 or more"),
        ("d6!*-2", "-194 or less"),
    ],
)
def test_one_sided_tails_make_every_chance_on_their_near_side_exact(form: str, label: str) -> None:
    """A tail "L or more" makes at_least(v) exact for every v up to L (the
    tail counted in) and at_most(v) for every v below it; "H or less" the
    other way round."""
    odds = fudgedice.odds(form)
    (tail,) = odds.tails
    assert tail.label == label
    for value in range(odds.low - 2, odds.high + 3):
        at_least, at_most = odds.chance_between(value, None), odds.chance_between(None, value)
        if tail.high is None:
            assert tail.low is not None
            assert (at_least.uncertain == 0) == (value <= tail.low)
            assert (at_most.uncertain == 0) == (value < tail.low)
            if value <= tail.low:
                listed = sum((o.p for o in odds.outcomes if o.value >= value), Fraction(0))
                assert odds.at_least(value) == listed + tail.p
        else:
            assert (at_most.uncertain == 0) == (value >= tail.high)
            assert (at_least.uncertain == 0) == (value > tail.high)
        assert odds.at_least(value) == at_least.p and odds.at_most(value) == at_most.p


def test_a_compounded_success_past_the_cut_off_is_one_success() -> None:
    odds = fudgedice.odds("d6!! >=6")
    assert [(tail.low, tail.high, tail.label) for tail in odds.tails] == [(1, 1, "1 (tail)")]
    assert odds.at_least(1) == Fraction(1, 6) and odds.at_most(0) == Fraction(5, 6)
    assert odds.probability(1) == Fraction(1, 6) - odds.truncated


def test_tails_with_no_known_side_leave_chances_uncertain_not_wrong() -> None:
    product = fudgedice.odds("d6!*d4")
    assert [tail.label for tail in product.tails] == ["anywhere"]
    assert product.chance_between(1, None) == (1 - product.truncated, product.truncated)
    difference = fudgedice.odds("d6!-d6!")
    assert [tail.label for tail in difference.tails] == ["-2 or less", "2 or more", "anywhere"]
    both = difference.tails[-1].p
    # at 0, the tail below lies surely under it and the one above surely over
    assert difference.chance_between(0, None).uncertain == both
    assert difference.at_least(0) + difference.at_most(-1) == 1 - both
    # a check against such a roll says how much it may be missing
    check = fudgedice.odds("d6!-d6! vs 0")
    assert check.uncertain == {"success": both, "failure": both}
    assert check.events["success"] + check.events["failure"] + both == 1


def test_the_json_has_the_tails() -> None:
    plain = fudgedice.odds("2d6+1").to_dict()
    assert plain["tails"] == [] and plain["truncated"] == 0.0
    data = json.loads(json.dumps(fudgedice.odds("3d6!").to_dict()))
    # the cut-off rest is one tail: every outcome of it is 105 or more
    (tail,) = data["tails"]
    assert (tail["min"], tail["max"], tail["label"]) == (105, None, "105 or more")
    assert tail["p"] == data["truncated"]
    assert Fraction(tail["exact"]) == fudgedice.odds("3d6!").truncated
    assert "uncertain" not in json.dumps(data["events"])
    straddled = fudgedice.odds("d6!-d6! vs 0").to_dict()["events"]
    assert Fraction(straddled["success"]["uncertain"]) == fudgedice.odds("d6!-d6!").tails[-1].p
