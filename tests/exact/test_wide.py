"""Wide products through ``decimal`` (``exact/wide.py``) against the binary
Kronecker product they stand in for, and against the schoolbook product."""

from __future__ import annotations

import random

import pytest

from fudgedice.exact import kernels, wide


def schoolbook(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def binary(monkeypatch: pytest.MonkeyPatch, a: list[int], b: list[int], signed: bool) -> list[int]:
    with monkeypatch.context() as patch:
        patch.setattr(wide, "fits", lambda bits, coefficients, digits: False)
        return kernels.convolve_signed(a, b) if signed else kernels.convolve(a, b)


def taken(monkeypatch: pytest.MonkeyPatch, a: list[int], b: list[int], signed: bool) -> list[int]:
    calls: list[bool] = []
    original = wide.product

    def spy(x: list[int], y: list[int], width: int, sign: bool) -> list[int]:
        calls.append(sign)
        return original(x, y, width, sign)

    with monkeypatch.context() as patch:
        patch.setattr(wide, "product", spy)
        result = kernels.convolve_signed(a, b) if signed else kernels.convolve(a, b)
    assert calls == [signed], "the wide product was not taken"
    return result


@pytest.mark.parametrize(("length", "bits"), [(300, 256), (504, 256), (250, 700), (2000, 40)])
def test_wide_products_are_the_binary_products(
    monkeypatch: pytest.MonkeyPatch, length: int, bits: int
) -> None:
    rng = random.Random(length * bits)
    a = [rng.getrandbits(bits) for _ in range(length)]
    b = [rng.getrandbits(bits) for _ in range(length - 7)]
    b[0] = b[-1] = 0  # zeros at the ends, and a coefficient at its largest
    a[5] = 2**bits - 1
    assert taken(monkeypatch, a, b, False) == binary(monkeypatch, a, b, False)
    signed_a = [value if rng.random() < 0.5 else -value for value in a]
    signed_b = [value if rng.random() < 0.5 else -value for value in b]
    signed_b[3] = -(2**bits - 1)
    expected = binary(monkeypatch, signed_a, signed_b, True)
    assert taken(monkeypatch, signed_a, signed_b, True) == expected


def test_the_largest_coefficients_fill_their_slots_without_carrying(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    top = 10**80 - 1
    a, b = [top] * 400, [top] * 400
    result = taken(monkeypatch, a, b, False)
    assert result == binary(monkeypatch, a, b, False)
    assert max(result) == 400 * top * top
    negative = taken(monkeypatch, a, [-top] * 400, True)
    assert negative == [-value for value in result]


def test_a_small_wide_product_is_the_schoolbook_one() -> None:
    a = [3, 0, -7, 12, 0]
    b = [-1, 5, 0, 2]
    assert wide.product(a, b, wide.slot_digits(12 * 7 * 4, True), True) == schoolbook(a, b)
    positive = [abs(x) for x in a]
    width = wide.slot_digits(12 * 5 * 4, False)
    assert wide.product(positive, [abs(y) for y in b], width, False) == schoolbook(
        positive, [abs(y) for y in b]
    )


def test_short_factors_and_huge_slots_stay_binary() -> None:
    least = wide.MIN_BITS + 100 * wide.BITS_PER_COEFFICIENT
    assert not wide.fits(least - 1, 100, 100)
    assert wide.fits(least, 100, wide.MAX_SLOT_DIGITS)
    assert not wide.fits(10**6, 100, wide.MAX_SLOT_DIGITS + 1)
