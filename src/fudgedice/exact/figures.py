"""Numbers at the edge of exact odds: Fractions built fast, exact fractions
as text however long, and decimals that never overflow a float."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal, localcontext
from fractions import Fraction


def exact_text(p: Fraction) -> str:
    """``"n/d"`` however long: Python refuses to print integers of more than
    4300 digits unless asked, and 10000dF's chances have thousands."""
    if p.denominator.bit_length() < 14_000:
        return f"{p.numerator}/{p.denominator}"
    with _long_numbers():
        return f"{p.numerator}/{p.denominator}"


@contextmanager
def _long_numbers() -> Iterator[None]:
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def decimal(value: Fraction) -> Decimal:
    """``value`` to 28 significant digits, however large (no float overflow)."""
    with localcontext() as context:
        context.prec = 28
        return Decimal(value.numerator) / Decimal(value.denominator)


def approximate(value: Decimal, digits: int = 4) -> str:
    """``value`` to ``digits`` significant digits, as a float would print it;
    in scientific form past the float range."""
    as_float = float(value)
    if math.isfinite(as_float):
        return f"{as_float:.{digits}g}"
    return f"{value:.{digits - 1}e}"


def json_number(value: Decimal) -> float | str:
    """A float for JSON, or past the float range the number in scientific
    form as text (JSON parsers read floats; none reads 1e+309)."""
    as_float = float(value)
    return as_float if math.isfinite(as_float) else f"{value:.16e}"


def _reduced(numerator: int, denominator: int) -> Fraction:
    """A Fraction already in lowest terms, built without checking again."""
    value = object.__new__(Fraction)
    value._numerator = numerator  # type: ignore[attr-defined]
    value._denominator = denominator  # type: ignore[attr-defined]
    return value


def _ratio(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` for integers (denominator > 0).

    Odds tables build thousands of Fractions; the public constructor spends
    most of its time deciding what kind of numbers it was given. Here they are
    always ints, so reduce by the gcd and fill the two slots directly.
    """
    common = math.gcd(numerator, denominator)
    return _reduced(numerator // common, denominator // common)


if set(getattr(Fraction, "__slots__", ())) != {"_numerator", "_denominator"}:
    _reduced = Fraction  # an unfamiliar fractions module: take the public road
