"""The Fractions that odds hand out behave exactly like any other Fraction."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

import fudgedice
from fudgedice.exact.figures import _ratio


@given(st.integers(min_value=0, max_value=10**30), st.integers(min_value=1, max_value=10**30))
def test_ratio_is_the_reduced_fraction(numerator: int, denominator: int) -> None:
    made = _ratio(numerator, denominator)
    expected = Fraction(numerator, denominator)
    assert type(made) is Fraction
    assert (made.numerator, made.denominator) == (expected.numerator, expected.denominator)
    assert made == expected and hash(made) == hash(expected)
    assert made + 1 == expected + 1 and float(made) == float(expected)


def test_odds_columns_are_consistent() -> None:
    odds = fudgedice.odds("3d6kh2+d4")
    running = Fraction(0)
    for outcome in odds.outcomes:
        running += outcome.p
        assert outcome.at_most == running
        assert outcome.at_least == 1 - running + outcome.p
    assert running == 1
    assert odds.at_least_table() == {o.value: o.at_least for o in odds.outcomes}
