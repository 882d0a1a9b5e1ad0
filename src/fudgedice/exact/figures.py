"""Numbers at the edge of exact odds: Fractions built fast, exact fractions
as text however long, and decimals that never overflow a float."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal, localcontext
from fractions import Fraction

from .. import budget
from ..errors import LimitError

MAX_EXACT_CHARACTERS = 15_000_000
"""Digits of exact fractions one document of odds (JSON, or a table with
``--exact --all``) may hold: writing out long integers is quadratic in
CPython, and this many take about a second."""
MAX_DIGIT_WORK = 10**10
"""Digits written times the digits of each number: CPython writes an integer
out in time quadratic in its length, so a few rows of numbers of 20,000 digits
cost as much as thousands of short ones."""


def too_many_digits(rows: int, denominator: int) -> bool:
    """Whether ``rows`` exact fractions over ``denominator`` (each up to twice
    its digits and a slash) are past what one document may write out: the digits
    themselves, or the quadratic cost of writing each long integer."""
    width = 2 * (int(denominator.bit_length() * math.log10(2)) + 1) + 1  # "n/d"
    return rows * width > MAX_EXACT_CHARACTERS or rows * width * width > 2 * MAX_DIGIT_WORK


JSON_ROW_WORK = 18_000
"""Estimated work of a row of the odds as JSON, besides its fraction's digits:
its dictionary (5 microseconds, measured) and ``json.dumps(..., indent=2)`` of
it (12 microseconds; the CLI's indent keeps json in Python)."""


def charge_json(rows: int, values: int, denominator: int, notation: str) -> None:
    """Refuse, before any row is built, odds as JSON too long to write out
    (``values`` fractions over ``denominator``), else charge writing ``rows``:
    each fraction in decimal (quadratic in its length), its dictionary, and
    the JSON text of both (some 12 microseconds, more for a long fraction)."""
    what = f"the exact odds of {notation} as JSON"
    if too_many_digits(values, denominator):
        digits = int(denominator.bit_length() * math.log10(2)) + 1
        raise LimitError(
            f"{what} would take about {values * digits * 2 // 1_000_000} MB of fractions; "
            "the table (without --json) and the Python API give any value's exact chance"
        )
    bits = denominator.bit_length()
    width = 2 * bits * math.log10(2) + 3
    each = 2 * budget.str_work(bits) + 3 * budget.linear_work(bits) + JSON_ROW_WORK + 8 * width

    def fits(left: int) -> str:
        return (
            f"at most {max(int(left // each), 0):,} rows fit as JSON; the table (without "
            "--json) and the Python API give any value's exact chance"
        )

    budget.charge(rows * each, what, fits)


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


_KEPT_BITS = 256
"""Bits of a long numerator or denominator that :func:`decimal` keeps: far
more than 28 digits need, and CPython turns an integer into a Decimal in
time quadratic in its length (a 200,000-bit variance took 0.1 s)."""


def decimal(value: Fraction) -> Decimal:
    """``value`` to 28 significant digits, however large (no float overflow)."""
    numerator, denominator = abs(value.numerator), value.denominator
    # dropping the low bits of long numbers changes the quotient by far less
    # than its 28th digit; the power of two they stood for is put back
    shift_up = max(numerator.bit_length() - _KEPT_BITS, 0)
    shift_down = max(denominator.bit_length() - _KEPT_BITS, 0)
    with localcontext() as context:
        context.prec = 28
        result = Decimal(numerator >> shift_up) / Decimal(denominator >> shift_down)
        if shift_up != shift_down:
            result *= Decimal(2) ** (shift_up - shift_down)
        return -result if value.numerator < 0 else result


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


def in_lowest_terms(numerator: int, denominator: int) -> Fraction:
    """A Fraction already in lowest terms, built without checking again."""
    value = object.__new__(Fraction)
    value._numerator = numerator  # type: ignore[attr-defined]
    value._denominator = denominator  # type: ignore[attr-defined]
    return value


def ratio(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` for integers (denominator > 0).

    Odds tables build thousands of Fractions; the public constructor spends
    most of its time deciding what kind of numbers it was given. Here they are
    always ints, so reduce by the gcd and fill the two slots directly.
    """
    common = math.gcd(numerator, denominator)
    return in_lowest_terms(numerator // common, denominator // common)


def chance_table(
    lo: int, counts: tuple[int, ...], ways: list[int], total: int
) -> dict[int, Fraction]:
    """``{lo + i: ways[i] / total}`` in lowest terms for every ``i`` whose
    count is not 0: the table of a short total (one gcd a row), built in one
    loop, each Fraction filled as :func:`in_lowest_terms` fills it (a small pool's
    at-least table spent more on calls around its Fractions than on them)."""
    table: dict[int, Fraction] = {}
    if not _SLOTS_KNOWN:
        for index, count in enumerate(counts):
            if count:
                table[lo + index] = Fraction(ways[index], total)
        return table
    new = object.__new__
    for index, count in enumerate(counts):
        if count:
            way = ways[index]
            common = math.gcd(way, total)
            chance = new(Fraction)
            chance._numerator = way // common  # type: ignore[attr-defined]
            chance._denominator = total // common  # type: ignore[attr-defined]
            table[lo + index] = chance
    return table


_SLOTS_KNOWN = set(getattr(Fraction, "__slots__", ())) == {"_numerator", "_denominator"}
if not _SLOTS_KNOWN:
    in_lowest_terms = Fraction  # an unfamiliar fractions module: take the public road
