"""How numbers are written for people: signs, percentages, exact fractions."""

from __future__ import annotations

from fractions import Fraction

from ..exact.odds import exact_text


def signed(value: int) -> str:
    return f"{value:+d}"


def percent(p: Fraction | float) -> str:
    value = float(p) * 100
    if value == 0:
        return "0%"
    if value < 0.01:
        return f"{value:.2g}%"
    return f"{value:.2f}%"


def exact(p: Fraction) -> str:
    return exact_text(p)


def digits(number: int) -> int:
    """Decimal digits of ``number``, near enough, without printing it."""
    return int(abs(number).bit_length() * 0.30103) + 1
