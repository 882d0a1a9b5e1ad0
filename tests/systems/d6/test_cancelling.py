"""The margin's core when one side cancels, built from powers
(``systems/d6/cancelling.py``), against the product it replaces: the
cancelling side's numerator convolved with the other side's, mirrored."""

from __future__ import annotations

import pytest

from fudgedice.exact.kernels import convolve_signed
from fudgedice.systems.d6 import margin
from fudgedice.systems.d6.cancelling import SAME_DICE_FROM, against_plain, numerator_span, worth_it
from fudgedice.systems.d6.margin import _total, numerator
from fudgedice.systems.d6.measure import SideShape


def _shape(
    plain: int, cancel: bool, modifier: int = 0, cp: int = 0, wild: bool = True
) -> SideShape:
    return SideShape(plain, wild, cp, modifier, "cancel" if cancel else "complication")


def _product(left: SideShape, right: SideShape, depth: int) -> tuple[int, list[int], int]:
    (left_lo, left_counts, left_total), _ = numerator(left, depth)
    (right_lo, right_counts, right_total), _ = numerator(right, depth)
    counts = convolve_signed(left_counts, right_counts[::-1])
    return left_lo - (right_lo + len(right_counts) - 1), counts, left_total * right_total


SHAPES = [
    _shape(plain, cancel, modifier, cp, wild)
    for plain, cancel, modifier, cp, wild in [
        (0, False, 0, 0, True),
        (0, False, 2, 1, False),
        (1, True, 0, 0, True),
        (1, False, -1, 0, True),
        (2, True, 3, 1, True),
        (3, False, 0, 2, False),
        (4, True, -2, 0, True),
        (5, False, 1, 0, True),
        (7, True, 0, 2, True),
        (9, False, 0, 0, True),
    ]
]


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_span_is_the_numerators(depth: int) -> None:
    for shape in SHAPES:
        lo, counts, total = numerator(shape, depth)[0]
        assert numerator_span(shape, depth) == (lo, lo + len(counts) - 1)
        assert _total(shape, depth) == total


@pytest.mark.parametrize("depth", [1, 2, 4])
@pytest.mark.parametrize("dice", [1, 2, 3, 5, 8])
def test_powers_give_the_product_count_for_count(depth: int, dice: int) -> None:
    for cancelling, other in [
        (_shape(dice, True), _shape(dice, False)),
        (_shape(dice, True, 3, 2), _shape(dice, False, -2, 1)),
        (_shape(dice, True, -1, 1), _shape(dice, False, 4, 0, False)),
    ]:
        lo, counts, _ = _product(cancelling, other, depth)
        assert against_plain(cancelling, other, depth) == (lo, counts)


@pytest.mark.parametrize("dice", [10, 30, 99])
def test_wide_equal_sides_match_the_product(dice: int) -> None:
    cancelling = _shape(dice, True, 1, 1)
    other = _shape(dice, False, -2)
    lo, counts, _ = _product(cancelling, other, 2)
    assert against_plain(cancelling, other, 2) == (lo, counts)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (_shape(60, True, 2, 1), _shape(60, False, -1)),
        (_shape(60, False, 0, 0, False), _shape(60, True, 3)),
    ],
)
def test_the_margin_is_the_same_by_either_path(
    monkeypatch: pytest.MonkeyPatch, left: SideShape, right: SideShape
) -> None:
    taken: list[int] = []

    def spy(cancelling: SideShape, other: SideShape, depth: int) -> tuple[int, list[int]]:
        taken.append(depth)
        return against_plain(cancelling, other, depth)

    with monkeypatch.context() as patch:
        patch.setattr(margin, "against_plain", spy)
        fast = margin.margin_dist(left, right, 2)
    assert taken == [2]
    with monkeypatch.context() as patch:
        patch.setattr(margin, "worth_it", lambda cancelling, other: False)
        assert margin.margin_dist(left, right, 2) == fast


def test_small_or_unequal_sides_keep_the_product() -> None:
    assert worth_it(_shape(SAME_DICE_FROM, True), _shape(SAME_DICE_FROM, False))
    assert not worth_it(_shape(SAME_DICE_FROM - 1, True), _shape(SAME_DICE_FROM - 1, False))
    assert not worth_it(_shape(80, True), _shape(79, False))
    assert not worth_it(_shape(80, True), _shape(80, True))
