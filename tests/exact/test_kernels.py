"""The polynomial kernels against arithmetic that is obviously right.

Every product is checked against the schoolbook definition
``c_k = sum_{i + j = k} a_i b_j`` and every power against that product
applied ``n`` times, on bases chosen to break the shortcuts: asymmetric ones
(no palindromic half), zero coefficients inside (terms skipped by Miller's
recurrence), huge coefficients (wide Kronecker slots), three faces beyond the
unrolled ``n <= 64`` case, and sizes taken from the code's own thresholds so
that each branch of the choice between kernels is seen to run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from math import comb
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fudgedice import budget
from fudgedice.errors import LimitError
from fudgedice.exact import kernels
from fudgedice.limits import DEFAULT_LIMITS, Limits

KERNELS = ("_power_word", "_power_miller", "_power_three_faces", "_power_kronecker", "pack")


def schoolbook(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The product of two polynomials, straight from the definition."""
    return [
        sum(a[i] * b[k - i] for i in range(max(0, k - len(b) + 1), min(k, len(a) - 1) + 1))
        for k in range(len(a) + len(b) - 1)
    ]


def repeated(base: Sequence[int], n: int) -> list[int]:
    """``base ** n`` as ``n`` schoolbook multiplications."""
    out = [1]
    for _ in range(n):
        out = schoolbook(base, out)
    return out


@contextmanager
def spying(mp: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Record, in order, every call to a kernel (and to ``pack``, which only
    the Kronecker paths use) while still computing the real answer."""
    record: list[str] = []
    for name in KERNELS:
        original: Callable[..., Any] = getattr(kernels, name)

        def spy(*args: Any, _name: str = name, _original: Callable[..., Any] = original) -> Any:
            record.append(_name)
            return _original(*args)

        mp.setattr(kernels, name, spy)
    yield record


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    with spying(monkeypatch) as record:
        yield record


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every kernel (and packing) fail the test: a refusal must come first."""
    for name in KERNELS:

        def forbidden(*args: Any, _name: str = name) -> Any:
            raise AssertionError(f"{_name} ran although the work should be refused")

        monkeypatch.setattr(kernels, name, forbidden)


# Coefficients: mostly small, with zeros (inside a polynomial too) and a few
# huge ones so that a Kronecker slot spans many bytes.
coefficient = st.one_of(
    st.integers(min_value=0, max_value=9),
    st.just(0),
    st.integers(min_value=0, max_value=2**70),
)
# The zero polynomial has a test of its own below; elsewhere keep one
# non-zero coefficient in each factor.
polynomial = st.lists(coefficient, min_size=1, max_size=70).filter(any)
# power() wants a non-zero constant term; the rest may be zero anywhere.
base_strategy = st.builds(
    lambda head, tail: [head, *tail],
    st.integers(min_value=1, max_value=2**20),
    st.lists(coefficient, min_size=0, max_size=11),
)
palindrome = base_strategy.map(lambda half: half + half[-2::-1])


# -- packing -----------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=20), st.data())
def test_pack_places_each_coefficient_in_its_own_slot(slot: int, data: st.DataObject) -> None:
    values = data.draw(st.lists(st.integers(min_value=0, max_value=256**slot - 1), max_size=30))
    packed = kernels.pack(values, slot)
    assert packed == sum(value << (8 * slot * i) for i, value in enumerate(values))
    assert kernels.unpack(packed, slot, len(values)) == values


def test_unpack_pads_missing_high_slots_with_zeros() -> None:
    assert kernels.unpack(0x0201, 1, 4) == [1, 2, 0, 0]
    assert kernels.unpack(0x0201, 2, 2) == [0x0201, 0]


# -- convolve ----------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(polynomial, polynomial)
def test_convolve_is_the_schoolbook_product(a: list[int], b: list[int]) -> None:
    expected = schoolbook(a, b)
    assert kernels.convolve(a, b) == expected
    assert kernels.convolve(tuple(b), tuple(a)) == expected


@settings(max_examples=100, deadline=None)
@given(polynomial, polynomial)
def test_convolve_by_packing_is_exact_at_any_size(a: list[int], b: list[int]) -> None:
    """With the naive threshold at zero even a 1 x 1 product is packed: the
    slot must hold the largest possible coefficient, zeros included."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernels, "_NAIVE_WORK", 0)
        with spying(mp) as record:
            assert kernels.convolve(a, b) == schoolbook(a, b)
    assert record == ["pack", "pack"]


@pytest.mark.parametrize(
    ("long", "short", "packed"),
    [
        (kernels._NAIVE_WORK, 1, False),
        (kernels._NAIVE_WORK + 1, 1, True),
        (kernels._NAIVE_WORK // 2, 2, False),
        (kernels._NAIVE_WORK // 2 + 1, 2, True),
        (150, 70, True),
    ],
)
def test_convolve_packs_exactly_past_the_naive_threshold(
    calls: list[str], long: int, short: int, packed: bool
) -> None:
    a = [(7 * i * i + 3) % 11 for i in range(long)]  # zeros inside, no symmetry
    b = [5 + 2**70 * i for i in range(short)]
    assert kernels.convolve(b, a) == schoolbook(a, b)
    assert ("pack" in calls) is packed


def test_convolve_with_the_zero_polynomial_past_the_naive_threshold() -> None:
    zero, other = [0] * 50, [300] * 50
    assert len(zero) * len(other) > kernels._NAIVE_WORK
    assert kernels.convolve(zero, other) == [0] * 99


def test_convolve_wide_coefficients_do_not_carry_into_neighbours() -> None:
    """top * top has 126 bits, two short of its 16-byte slot: only the
    len(b) factor of the bound leaves room for a sum of 40 such products."""
    top = 2**63 - 1
    a = [top] * 60
    b = [top, 0, top] * 20
    result = kernels.convolve(a, b)
    assert result == schoolbook(a, b)
    assert max(result) == 40 * top * top


@pytest.mark.usefixtures("no_work")
def test_convolve_refuses_a_product_past_the_limit_before_working() -> None:
    a = [2**1000] * 4000
    with pytest.raises(LimitError) as refused:
        kernels.convolve(a, a)
    assert "limit of 6,000,000" in str(refused.value)


def test_convolve_limit_is_inclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    """A product of exactly ``max_product_bits`` is allowed, one slot more is not
    (all-ones coefficients: one byte a slot, so 8 bits a coefficient)."""
    monkeypatch.setattr(kernels, "DEFAULT_LIMITS", Limits(max_product_bits=8 * 300))
    assert kernels.convolve([1] * 300, [1] * 10) == schoolbook([1] * 300, [1] * 10)
    with pytest.raises(LimitError, match=r"numbers of 2,408 bits, more than the limit of 2,400"):
        kernels.convolve([1] * 301, [1] * 10)


# -- power: every kernel against repeated multiplication ---------------------


@settings(max_examples=100, deadline=None)
@given(base_strategy, st.integers(min_value=0, max_value=16))
def test_power_is_repeated_multiplication(base: list[int], n: int) -> None:
    assert kernels.power(base, n) == repeated(base, n)
    assert kernels.power(tuple(base), n) == repeated(base, n)


@settings(max_examples=60, deadline=None)
@given(palindrome, st.integers(min_value=1, max_value=16))
def test_power_of_a_palindrome_is_repeated_multiplication(base: list[int], n: int) -> None:
    result = kernels.power(base, n)
    assert result == repeated(base, n)
    assert result == result[::-1]


@settings(max_examples=60, deadline=None)
@given(st.one_of(base_strategy, palindrome), st.integers(min_value=1, max_value=16))
def test_miller_recurrence_and_packing_agree_with_repeated_multiplication(
    base: list[int], n: int
) -> None:
    expected = repeated(base, n)
    if len(base) > 1:
        assert kernels._power_miller(base, n) == expected
    assert kernels._power_kronecker(base, n) == expected


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=1, max_value=2**40),
    st.integers(min_value=0, max_value=2**40),
    st.integers(min_value=0, max_value=2**40),
    st.integers(min_value=1, max_value=70),
)
def test_three_face_recurrence_is_repeated_multiplication(
    f0: int, f1: int, f2: int, n: int
) -> None:
    assert kernels._power_three_faces([f0, f1, f2], n) == repeated([f0, f1, f2], n)
    assert kernels._power_three_faces([f0, f1, f0], n) == repeated([f0, f1, f0], n)


def test_three_face_shortcut_for_all_ones_matches_the_general_loop() -> None:
    """[1, 1, 1] takes its own loop; [2, 2, 2] ** n is 2 ** n times it."""
    ones = kernels._power_three_faces([1, 1, 1], 90)
    twos = kernels._power_three_faces([2, 2, 2], 90)
    assert twos == [2**90 * c for c in ones]
    assert ones == repeated([1, 1, 1], 90)


def test_power_trivial_exponents_and_constants() -> None:
    assert kernels.power([4, 1, 7], 0) == [1]
    assert kernels.power([5], 3) == [125]
    base = (3, 0, 2, 9)
    once = kernels.power(base, 1)
    assert once == [3, 0, 2, 9]
    once[0] = 99  # the result is a fresh list, not the caller's
    assert kernels.power(base, 1) == [3, 0, 2, 9]


@pytest.mark.parametrize("n", [2, 7, 30, 61])
def test_two_faces_give_binomial_coefficients(n: int) -> None:
    assert kernels.power([1, 1], n) == [comb(n, k) for k in range(n + 1)]
    assert kernels.power([3, 2], n) == [comb(n, k) * 3 ** (n - k) * 2**k for k in range(n + 1)]


# -- power: which kernel runs, on large pools --------------------------------


@pytest.mark.parametrize(
    ("base", "n", "expected_calls"),
    [
        # three faces: unrolled recurrence up to 64 dice, through Miller beyond
        ([1, 1, 1], 64, ["_power_three_faces"]),
        ([1, 1, 1], 65, ["_power_miller", "_power_three_faces"]),
        ([1, 1, 1], 200, ["_power_miller", "_power_three_faces"]),
        ([2, 3, 5], 100, ["_power_miller", "_power_three_faces"]),
        ([2, 0, 1], 130, ["_power_miller", "_power_three_faces"]),
        ([3, 1, 3], 97, ["_power_miller", "_power_three_faces"]),
        ([1, 0, 1], 150, ["_power_miller", "_power_three_faces"]),
        ([5, 0, 0], 70, ["_power_miller", "_power_three_faces"]),
        # Miller's general recurrence: symmetric (odd and even length) or not
        ([1] * 6, 100, ["_power_miller"]),
        ([1] * 4, 101, ["_power_miller"]),
        ([3, 0, 1, 4, 1, 5], 80, ["_power_miller"]),
        ([2, 0, 0, 0, 0, 0, 0, 0, 7], 60, ["_power_miller"]),
        ([1, 1], 200, ["_power_miller"]),
        # the kernel estimated cheaper: packing for many faces and few dice
        # (a d100 pool, an exploded die), the recurrence otherwise (the cases
        # here are clear by a factor of two or more)
        ([1] * 10, 64, ["_power_miller"]),
        ([1] * 10, 65, ["_power_miller"]),
        ([1] * 100, 10, ["_power_kronecker", "pack"]),
        ([9, 1, 0, 2, 0, 0, 6, 5, 3, 5, 8, 9, 7], 40, ["_power_miller"]),
        ([9, 1, 0, 2, 0, 0, 6, 5, 3, 5, 8, 9, 7], 70, ["_power_miller"]),
    ],
)
def test_power_chooses_its_kernel_and_is_exact(
    calls: list[str], base: list[int], n: int, expected_calls: list[str]
) -> None:
    assert kernels.power(base, n) == repeated(base, n)
    assert calls == expected_calls


def test_power_falls_back_to_miller_when_packing_is_too_big(
    calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten faces with 15 000-bit weights, 7 dice: one packed power would exceed
    ``max_product_bits``, so the recurrence runs despite the many terms (given
    the time: its estimate is past one request's budget of work)."""
    monkeypatch.setattr(budget, "DEFAULT_LIMITS", Limits(max_request_work=10**10))
    base = [2**15_000 + 17 * i for i in range(10)]
    n = 7
    assert (n * 9 + 1) * (sum(base) ** n).bit_length() > DEFAULT_LIMITS.max_product_bits
    assert kernels.power(base, n) == repeated(base, n)
    assert calls == ["_power_miller"]


@pytest.mark.parametrize(
    ("base", "n"),
    [
        ([1, 1, 1], 2),
        ([1, 1, 1], 100),
        ([1] * 6, 30),
        ([4, 0, 1, 2], 25),
    ],
)
def test_power_packs_when_the_recurrence_would_take_too_long(
    monkeypatch: pytest.MonkeyPatch, base: list[int], n: int
) -> None:
    """With no recurrence budget the packed power is the fallback (with the
    default limits this branch is only reached when packing is refused too)."""
    monkeypatch.setattr(kernels, "DEFAULT_LIMITS", Limits(max_recurrence_work=0))
    with spying(monkeypatch) as record:
        result = kernels.power(base, n)
    assert result == repeated(base, n)
    if n * sum(base).bit_length() <= 64:
        assert record == ["_power_word"]  # a power in machine words is never costed
    elif len(base) == 3 and n <= 64:
        assert record == ["_power_three_faces"]  # the unrolled case is never costed
    else:
        assert record == ["_power_kronecker", "pack"]


@pytest.mark.usefixtures("no_work")
@pytest.mark.parametrize(("base", "n"), [([1, 1, 1], 50_000), ([1, 1, 1, 1], 30_000)])
def test_power_refuses_when_both_kernels_are_too_big(base: list[int], n: int) -> None:
    with pytest.raises(LimitError, match=r"more than the limit of 6,000,000"):
        kernels.power(base, n)


def test_power_refusal_names_the_limit_in_force(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        kernels, "DEFAULT_LIMITS", Limits(max_recurrence_work=0, max_product_bits=1000)
    )
    with pytest.raises(LimitError, match=r"more than the limit of 1,000 "):
        kernels.power([1] * 6, 30)


@pytest.mark.parametrize("base", [[1, 1, 1], [1, 2, 3], [3, 0, 1], [7, 5, 9], [1, 1, 2**20]])
def test_a_short_power_of_three_faces_is_charged_at_least_its_estimate(base: list[int]) -> None:
    # short powers are charged a bound worked out once: it must err high
    for n in range(1, 65):
        kernel, work = kernels.power_plan(base, n)
        # a power whose total fits a machine word is packed into words
        expected = "word" if n * sum(base).bit_length() <= 64 else "three faces"
        assert kernel == expected
        if kernel == "three faces":
            assert work >= kernels.power_work(base, n, "three faces")


@pytest.mark.parametrize("seed", range(20))
def test_a_power_in_machine_words_equals_the_recurrence(seed: int) -> None:
    # every coefficient below 2**8 (bytes) or 2**64 (words), at the edges too
    rng = random.Random(seed)
    for _ in range(50):
        base = [rng.randint(0, 40) for _ in range(rng.randint(2, 14))]
        base[0] = base[0] or 1
        for n in (1, 2, 8 // sum(base).bit_length() or 1, 64 // sum(base).bit_length() or 1):
            kernel, work = kernels.power_plan(base, n)
            if n > 1 and kernel == "word":
                assert work > 0
                assert kernels.power(base, n) == kernels._power_miller(base, n)
    assert kernels.power_plan([1] * 6, 10)[0] == "word"  # 10d6
    assert kernels.power_plan([1] * 6, 25)[0] != "word"  # 6**25 passes 2**64
