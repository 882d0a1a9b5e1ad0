"""Fate Core's and Fate Condensed's stress tracks and consequences
(docs/contracts/rules.md sections 5 and 7), each rule as the text gives it."""

from __future__ import annotations

import pytest

import fudgedice
from fudgedice.systems.fate.ladders import FATE_CORE
from fudgedice.systems.fate.stress import (
    absorb,
    absorbs,
    condensed_boxes,
    consequences,
    largest_hit,
    stress_boxes,
)


@pytest.mark.parametrize(
    ("level", "boxes", "extra_mild"),
    [
        (-2, (1, 2), False),
        (0, (1, 2), False),
        (1, (1, 2, 3), False),  # Average
        (2, (1, 2, 3), False),  # Fair
        (3, (1, 2, 3, 4), False),  # Good
        (4, (1, 2, 3, 4), False),  # Great
        (5, (1, 2, 3, 4), True),  # Superb
        (8, (1, 2, 3, 4), True),
    ],
)
def test_boxes_and_consequences_by_skill(
    level: int, boxes: tuple[int, ...], extra_mild: bool
) -> None:
    assert stress_boxes(level) == boxes
    expected = {"mild": 2, "moderate": 4, "severe": 6}
    if extra_mild:
        expected["extra mild"] = 2
    assert consequences(level) == expected


def test_a_hit_checks_one_box_worth_as_much() -> None:
    assert absorbs(2, 2, (), 0)
    assert not absorbs(3, 2, (), 0)  # no box of 3 below Average: taken out
    assert absorbs(3, 3, (), 2)
    assert absorbs(5, 3, ("mild",), 2)  # the mild consequence takes 2, the box 3
    assert not absorbs(16, 3, ("mild", "moderate", "severe"), 2)
    assert absorbs(16, 4, ("mild", "moderate", "severe"), 3)
    assert absorbs(18, 4, ("mild", "moderate", "severe", "extra mild"), 5)
    assert largest_hit(0) == 14 and largest_hit(2) == 15 and largest_hit(5) == 18
    with pytest.raises(fudgedice.DiceValueError, match="no 4 box"):
        absorbs(4, 4, (), 2)


def test_the_stress_table() -> None:
    table = fudgedice.table("fate-stress")
    assert table.rows[0] == (
        "+5 Superb or more",
        "1 2 3 4",
        "mild 2, moderate 4, severe 6, extra mild 2",
        "18",
    )
    assert table.rows[-1] == ("-2 Terrible", "1 2", "mild 2, moderate 4, severe 6", "14")
    assert any("Fate Condensed: boxes absorb 1 each" in note for note in table.notes)


@pytest.mark.parametrize(
    ("level", "count"),
    [(-2, 3), (0, 3), (1, 4), (2, 4), (3, 6), (4, 6), (5, 6), (8, 6)],
)
def test_condensed_tracks_have_3_4_or_6_boxes(level: int, count: int) -> None:
    assert condensed_boxes(level) == tuple(range(1, count + 1))


@pytest.mark.parametrize("level", range(-2, 6))
def test_the_condensed_stress_table_s_largest_hit_is_the_largest_absorbed(level: int) -> None:
    row = next(
        row
        for row in fudgedice.table("fatecondensed-stress").rows
        if row[0].startswith(FATE_CORE.describe(level))
    )
    free = consequences(level)
    boxes = condensed_boxes(level)
    survived = max(n for n in range(40) if absorb(n, boxes, free, "points") is not None)
    assert row[1] == " ".join(map(str, boxes)) and row[3] == str(survived)
    assert largest_hit(level, "points") == survived == len(boxes) + sum(free.values())
