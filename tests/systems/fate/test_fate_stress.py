"""Fate Core's stress tracks and consequences (docs/contracts/rules.md section 5), each
rule as the text gives it."""

from __future__ import annotations

import pytest

import fudgedice
from fudgedice.systems.fate.stress import absorbs, consequences, largest_hit, stress_boxes


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
