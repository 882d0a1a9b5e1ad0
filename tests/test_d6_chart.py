"""The D6 System's dice-reduction chart against seed 002, row by row."""

from __future__ import annotations

import pytest

import fudgedice
from fudgedice.systems.d6 import bonus_5d, bonus_wild

# Transcribed verbatim from seed 002 ("Die Code | 5D | Wild Die").
SEED_CHART_TEXT = """
1D | 0 | 0 |
2D | 0 | 4 |
3D | 0 | 7 |
4D | 0 | 11 |
5D | 0 | 14 |
6D | 4 | 18 |
7D | 7 | 21 |
8D | 11 | 25 |
9D | 14 | 28 |
10D | 18 | 32 |
11D | 21 | 35 |
12D | 25 | 39 |
13D | 28 | 42 |
14D | 32 | 46 |
15D | 35 | 49 |
16D | 39 | 53 |
17D | 42 | 56 |
18D | 46 | 60 |
19D | 49 | 63 |
20D | 53 | 67 |
21D | 56 | 70 |
22D | 60 | 74 |
23D | 63 | 77 |
24D | 67 | 81 |
25D | 70 | 84 |
26D | 74 | 88 |
27D | 77 | 91 |
28D | 81 | 95 |
29D | 84 | 98 |
30D | 88 | 102 |
31D | 91 | 105 |
32D | 95 | 109 |
33D | 98 | 112 |
34D | 102 | 116 |
35D | 105 | 119 |
36D | 109 | 123 |
37D | 112 | 126 |
38D | 116 | 130 |
39D | 119 | 133 |
40D | 123 | 137 |
41D | 126 | 140 |
42D | 130 | 144 |
43D | 133 | 147 |
44D | 137 | 151 |
45D | 140 | 154 |
46D | 144 | 158 |
47D | 147 | 161 |
48D | 151 | 165 |
49D | 154 | 168 |
50D | 158 | 172 |
"""

SEED_CHART: list[tuple[int, int]] = [
    (int(five), int(wild))
    for code, five, wild in (
        [cell.strip() for cell in line.split("|")[:3]]
        for line in SEED_CHART_TEXT.split("\n")
        if line
    )
]


def test_transcription_is_whole() -> None:
    assert len(SEED_CHART) == 50


def test_table_equals_the_seed_chart_exactly() -> None:
    table = fudgedice.table("d6-reduction")
    assert table.header == ("Die Code", "5D", "Wild Die")
    expected = tuple(
        (f"{n}D", str(five), str(wild)) for n, (five, wild) in enumerate(SEED_CHART, 1)
    )
    assert table.rows == expected


def test_formula_reproduces_every_row() -> None:
    for dice, (five, wild) in enumerate(SEED_CHART, 1):
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
