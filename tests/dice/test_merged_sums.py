"""Pools alike but for their count, added with one sign, are measured as one
pool (``3d3!!+3d3!!`` is ``6d3!!``: one power of the die, not a chain of ever
longer products); the chances are those of the sum, term by term."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

import fudgedice


def chances(text: str) -> dict[int, Fraction]:
    return {o.value: o.p for o in fudgedice.odds(text).outcomes}


def summed(*terms: tuple[int, str]) -> dict[int, Fraction]:
    """The chances of a sum of independent terms (each with its sign), by brute force."""
    parts = [(sign, chances(text)) for sign, text in terms]
    out: dict[int, Fraction] = {}
    for picks in product(*(part.items() for _, part in parts)):
        value = sum(sign * v for (sign, _), (v, _) in zip(parts, picks, strict=True))
        p = Fraction(1)
        for _, chance in picks:
            p *= chance
        out[value] = out.get(value, Fraction(0)) + p
    return out


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("3d6+2d6", [(1, "3d6"), (1, "2d6")]),
        ("3d6-2d6-d6+d6", [(1, "3d6"), (-1, "2d6"), (-1, "d6"), (1, "d6")]),
        ("2d4>=3+d4>=3-1", [(1, "2d4>=3"), (1, "d4>=3"), (1, "-1")]),
        ("d6r1+2d6r1", [(1, "d6r1"), (1, "2d6r1")]),
        ("2d6kh1+2d6kh1", [(1, "2d6kh1"), (1, "2d6kh1")]),  # keep: not a sum of dice
        ("dF+d6+dF", [(1, "dF"), (1, "d6"), (1, "dF")]),
    ],
)
def test_a_sum_of_alike_pools_has_the_chances_of_the_sum(
    text: str, terms: list[tuple[int, str]]
) -> None:
    assert chances(text) == summed(*terms)


def test_alike_exploding_pools_are_one_pool() -> None:
    twelve = fudgedice.odds("+".join(["3d3!!"] * 12))
    assert twelve.dist == fudgedice.odds("36d3!!").dist
    assert fudgedice.odds("d6!+d6!+d6!").dist == fudgedice.odds("3d6!").dist
