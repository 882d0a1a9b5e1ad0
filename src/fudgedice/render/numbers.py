"""How numbers are written for people: signs, percentages, exact fractions,
counts of things."""

from __future__ import annotations

from fractions import Fraction

from ..exact.figures import exact_text


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


def chance_note(p: Fraction) -> str:
    """``31/81 (38.3%)`` for a note in a roll's explanation; the percentage
    alone when the fraction is long (a note is read at a glance: 10000dF's
    chances have thousands of digits, past the 4,300 Python writes unasked)."""
    short = p.denominator.bit_length() <= 128
    return f"{p.numerator}/{p.denominator} ({float(p):.1%})" if short else f"{float(p):.1%}"


def counted(count: int, one: str, many: str | None = None) -> str:
    """``1 roll``, ``2 rolls``: a count and its noun, singular for one alone
    (``many`` for a plural not made with an s: ``entry``, ``entries``)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"
