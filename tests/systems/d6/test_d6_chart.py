"""The D6 System's dice-reduction chart against seed 002, row by row."""

from __future__ import annotations

import pytest

import fudgedice
from fudgedice.systems.d6.rules import bonus_5d, bonus_wild


def test_transcription_is_whole(seed_chart: list[tuple[int, int]]) -> None:
    assert len(seed_chart) == 50


def test_table_equals_the_seed_chart_exactly(seed_chart: list[tuple[int, int]]) -> None:
    table = fudgedice.table("d6-reduction")
    assert table.header == ("Die Code", "5D", "Wild Die")
    expected = tuple(
        (f"{n}D", str(five), str(wild)) for n, (five, wild) in enumerate(seed_chart, 1)
    )
    assert table.rows == expected


def test_formula_reproduces_every_row(seed_chart: list[tuple[int, int]]) -> None:
    for dice, (five, wild) in enumerate(seed_chart, 1):
        assert (bonus_5d(dice), bonus_wild(dice)) == (five, wild), dice


@pytest.mark.parametrize(
    ("dice", "five", "wild"), [(51, 161, 175), (52, 165, 179), (100, 333, 347)]
)
def test_beyond_the_chart_follows_the_formula(dice: int, five: int, wild: int) -> None:
    # seed 002: subtract 5 (or 1), multiply by 3.5, round up
    assert (bonus_5d(dice), bonus_wild(dice)) == (five, wild)
    row = fudgedice.table("d6-reduction", to=dice).rows[-1]
    assert row == (f"{dice}D", str(five), str(wild))


def test_table_to_a_shorter_length() -> None:
    assert len(fudgedice.table("d6-reduction", to=3).rows) == 3


def test_difficulty_table() -> None:
    rows = fudgedice.table("d6-difficulties").rows
    assert rows[0] == ("Very Easy", "1-5", "5")
    assert rows[2] == ("Moderate", "11-15", "15")
    assert rows[-1] == ("Legendary", "31+", "31")
