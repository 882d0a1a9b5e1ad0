"""Every operator of the language against the brute-force oracle, exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

import fudgedice
from fudgedice import parse
from fudgedice.tree import Pool

from .oracle import brute_force, brute_force_shallow

FORMS = [
    "2",
    "-3",
    "d6",
    "3d6",
    "d%",
    "4dF",
    "3dF.1",
    "2dF.2",
    "4d6kh3",
    "3d6kl2",
    "4d6dh1",
    "4d6dl1",
    "5d4kh2",
    "3dFkl1",
    "2d6!",
    "2d6!!",
    "2d6!p",
    "2d4!>=4",
    "d6!<2",
    "2d6!kh1",
    "2d6!!kl1",
    "3d6r<=2",
    "3d6ro<=2",
    "2d6ro1!",
    "2d8r1!!",
    "5d6>=5",
    "4d10>=8f1",
    "4d6>4f<2",
    "3d4ro1",
    "2d3!>=3",
    "2d6!!>=7",
    "4d6kh2>=4",
    "2d6!p>5",
    "2d6+3",
    "2d6-d4",
    "d6*d4",
    "2d6/d3",
    "(d6+2)*3",
    "-(d4-d6)",
    "d20+d12-2d4",
    "7/2",
    "-7/2",
]


@pytest.mark.parametrize("form", FORMS)
def test_matches_brute_force(form: str) -> None:
    fudgedice.clear_caches()
    odds = fudgedice.odds(form)
    expected = brute_force(parse(form).side.expr)
    got = {outcome.value: outcome.p for outcome in odds.outcomes}
    expected = {value: p for value, p in expected.items() if p}
    assert got == expected
    assert odds.truncated == 1 - sum(expected.values())


def test_truncation_is_reported_and_tiny() -> None:
    odds = fudgedice.odds("3d6!")
    assert 0 < odds.truncated <= Fraction(1, 10**12)
    assert fudgedice.odds("3d6").truncated == 0


def test_floor_division_rounds_down() -> None:
    assert fudgedice.odds("7/2").probability(3) == 1
    assert fudgedice.odds("-7/2").probability(-4) == 1


@pytest.mark.parametrize("form", ["d6!>=5", "2d4!>=3", "d6!p>=5", "d6!!>=4"])
def test_many_exploding_faces_below_the_horizon(form: str) -> None:
    """Where several faces explode the oracle cannot follow every chain to the
    cut-off; chains of up to four tosses settle every total below a horizon."""
    node = parse(form).side.expr
    assert isinstance(node, Pool)
    odds = fudgedice.odds(form)
    expected = brute_force_shallow(node, tosses=4)
    assert node.explode is not None
    horizon = node.explode.on.value * 4 - (4 if node.explode.mode == "!p" else 0)
    for value, p in expected.items():
        if value < horizon:
            assert odds.probability(value) == p, value
