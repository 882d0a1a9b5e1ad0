"""Products of wide polynomials through the standard library's ``decimal``.

A Kronecker product packs each polynomial into one big integer; past a
hundred thousand bits or so CPython's Karatsuba multiplication is most of an
odds call (two 100D sides of the D6 System, opposed: about 20 ms). libmpdec,
behind :mod:`decimal`, multiplies such numbers by a number-theoretic
transform, exactly, in about half that time, and more so as they grow. The
polynomials are packed in decimal slots (each coefficient's digits, padded),
multiplied at unlimited precision with rounding trapped, and read back slot
by slot. Only the packing base changes; the product is the same, count for
count (``tests/exact/test_kernels.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

MIN_BITS = 100_000
"""The shorter factor packed must be at least this long, plus
:data:`BITS_PER_COEFFICIENT` for each of its coefficients, for the transform
to pay for writing and reading decimal digits. Timed on this project's
machine: 200 coefficients of 256 bits (about 105,000 bits packed) are a little
faster in binary, 250 faster in decimal; 2,000 coefficients in 64-bit slots
(128,000 bits) faster in binary, 8,000 twice as fast in decimal."""

BITS_PER_COEFFICIENT = 32

MAX_SLOT_DIGITS = 4000
"""Slots are read back with ``int(str)``, which refuses more than 4300 digits."""


def fits(shorter_bits: int, coefficients: int, slot_digits: int) -> bool:
    """Whether a product whose shorter factor packs into ``shorter_bits`` bits
    (``coefficients`` of them) is better taken through :func:`product`."""
    return (
        shorter_bits >= MIN_BITS + BITS_PER_COEFFICIENT * coefficients
        and slot_digits <= MAX_SLOT_DIGITS
    )


def slot_digits(bound: int, signed: bool) -> int:
    """Decimal digits of a slot holding every coefficient up to ``bound`` in
    size (signed: offset by half the slot's range, so one digit more)."""
    return len(str(bound)) + (1 if signed else 0)


def _packed(coefficients: Sequence[int], width: int) -> str:
    # highest coefficient first: the slots read left to right as digits
    # (str and zfill: twice as fast as a format spec with a width)
    return "".join([str(c).zfill(width) for c in reversed(coefficients)])


def product(a: Sequence[int], b: Sequence[int], width: int, signed: bool) -> list[int]:
    """Coefficients of ``a * b``, each at most ``10**width`` (signed: half
    that) in size, by one multiplication of decimal-packed integers."""
    # imported here: only wide products need it, and odds start without it
    import decimal

    context = decimal.Context(
        prec=decimal.MAX_PREC,
        Emax=decimal.MAX_EMAX,
        Emin=decimal.MIN_EMIN,
        traps=[decimal.Inexact, decimal.Rounded, decimal.InvalidOperation],
    )
    length = len(a) + len(b) - 1
    if not signed:
        packed = context.multiply(
            decimal.Decimal(_packed(a, width)), decimal.Decimal(_packed(b, width))
        )
        digits = str(packed).zfill(width * length)
        return [
            int(digits[start : start + width]) for start in range(len(digits) - width, -1, -width)
        ]

    def signed_packed(coefficients: Sequence[int]) -> decimal.Decimal:
        plus = decimal.Decimal(_packed([max(c, 0) for c in coefficients], width))
        return context.subtract(
            plus, decimal.Decimal(_packed([max(-c, 0) for c in coefficients], width))
        )

    half = 5 * 10 ** (width - 1)
    offset = decimal.Decimal(("5" + "0" * (width - 1)) * length)
    packed = context.add(context.multiply(signed_packed(a), signed_packed(b)), offset)
    digits = str(packed).zfill(width * length)
    return [
        int(digits[start : start + width]) - half
        for start in range(len(digits) - width, -1, -width)
    ]
