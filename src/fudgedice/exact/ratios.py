"""Exact chances as Fractions, built fast: every count of a distribution is
over one denominator, a product of dice sizes."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache, lru_cache

from .. import budget
from ..budget import DIGIT_BITS, STEP, digits, div_work, gcd_work
from .figures import _ratio, _reduced


class Reducer:
    """Fractions over one denominator, reduced by its small prime factors.

    Every denominator of the odds is a product of dice sizes, so its prime
    factors are at most the largest die. Dividing a count by those few primes
    costs a few passes over its digits, where ``math.gcd`` of numbers of
    thousands of digits is quadratic: ``odds("10000dF").outcomes`` builds
    20001 Fractions of some 4800 digits each. The factors of 2 are counted in
    the bits; a count that holds a prime many times (the sure outcomes of
    exploding dice are scaled by powers of the die) has them stripped in
    growing powers, each division charged to the request's budget first.
    """

    __slots__ = ("bits", "denominator", "factors", "odd", "reduced", "twos")

    def __init__(self, denominator: int) -> None:
        self.denominator = denominator
        self.reduced: dict[int, int] = {}
        """The denominator divided by a few small factors, by what was removed
        (most counts share only a few factors with it: a division saved)."""
        self.bits = denominator.bit_length()
        self.twos = (denominator & -denominator).bit_length() - 1
        factors: list[tuple[int, int]] = []
        self.odd = denominator >> self.twos
        rest = self.odd
        for prime in _small_primes()[1:]:
            if rest == 1:
                break
            if rest % prime == 0:
                exponent, rest = _strip(rest, prime)
                factors.append((prime, exponent))
        # a factor beyond the largest die: leave the reduction to gcd
        self.factors: list[tuple[int, int, int]] | None = None
        if rest == 1:
            self.factors = [
                (prime, exponent, prime ** _CHUNKS.get(prime, 1)) for prime, exponent in factors
            ]

    def work(self) -> float:
        """Estimated work of one Fraction whose count holds each prime only a
        few times: a remainder per odd prime, a few passes, a few steps."""
        if self.factors is None:
            return gcd_work(self.bits)
        passes = len(self.factors) * div_work(self.bits, DIGIT_BITS) + 8 * digits(self.bits)
        return 8 * STEP + passes

    def __call__(self, numerator: int) -> Fraction:
        if self.factors is None or numerator == 0:
            return _ratio(numerator, self.denominator)
        twos = 0
        if self.twos:
            twos = min((numerator & -numerator).bit_length() - 1, self.twos)
            if twos:
                numerator >>= twos
        # the odd part of the denominator, less what the count shares with it;
        # the power of two is shifted back on at the end
        odd = self.odd
        removed = 1
        for prime, exponent, chunk in self.factors:
            quotient, rest = divmod(numerator, chunk)
            if rest:
                # fewer factors than one chunk: the small remainder tells how
                # many, and numerator / p**t is quotient * (chunk / p**t) + rest / p**t
                taken = min(_valuation(rest, prime), exponent)
                if taken:
                    power = prime**taken
                    numerator = quotient * (chunk // power) + rest // power
                    removed *= power
                continue
            # many: strip them in growing powers, no further than the denominator's
            taken, numerator = _strip(numerator, prime, exponent, charged=True)
            if taken:
                budget.charge(
                    div_work(odd.bit_length(), taken * prime.bit_length()),
                    "reducing exact chances",
                )
                odd //= prime**taken
        if removed != 1:
            if odd is not self.odd:
                odd //= removed
            else:
                known = self.reduced.get(removed)
                if known is None:
                    known = odd // removed
                    if len(self.reduced) < 1024:
                        self.reduced[removed] = known
                odd = known
        return _reduced(numerator, odd << (self.twos - twos))


def complement(fraction: Fraction) -> Fraction:
    """1 - ``fraction`` (between 0 and 1): the same denominator, and no
    reduction to do again (a common factor of both would divide the numerator)."""
    return _reduced(fraction.denominator - fraction.numerator, fraction.denominator)


def _strip(
    number: int, prime: int, cap: int | None = None, charged: bool = False
) -> tuple[int, int]:
    """(e, number / prime**e) for the largest e (at most ``cap``): ``100**10000``
    holds 2 twenty thousand times, so divide by prime**(2**j) for growing j
    while it divides, then by shrinking ones: a few dozen big divisions
    rather than one a factor, each about as long as what it removes.
    ``charged``: the divisions are charged to the request's budget, each
    long one before it is made (short ones, together, at the end)."""
    limit = number.bit_length() if cap is None else cap
    powers = _doubling_powers(prime, limit)
    exponent = 0
    step = 0
    short = 0
    while step < len(powers) and exponent + (1 << step) <= limit:
        short += _charge_division(number, powers[step]) if charged else 0
        quotient, remainder = divmod(number, powers[step])
        if remainder:
            break
        number, exponent, step = quotient, exponent + (1 << step), step + 1
    for down in range(step - 1, -1, -1):
        if exponent + (1 << down) <= limit:
            short += _charge_division(number, powers[down]) if charged else 0
            quotient, remainder = divmod(number, powers[down])
            if not remainder:
                number, exponent = quotient, exponent + (1 << down)
    if short:
        budget.charge(short * _SHORT_DIVISION, "reducing exact chances")
    return exponent, number


_LONG_BITS = 3000
"""A division of a number longer than this is charged on its own."""
_SHORT_DIVISION = 2_500.0
"""Work of dividing a number of at most ``_LONG_BITS`` bits (and the step
around it)."""


def _charge_division(number: int, divisor: int) -> int:
    """Charge a long division before it is made; 1 for a short one (charged
    later, with the others)."""
    bits = number.bit_length()
    if bits <= _LONG_BITS:
        return 1
    budget.charge(div_work(bits, divisor.bit_length()), "reducing exact chances")
    return 0


@lru_cache(maxsize=64)
def _doubling_powers(prime: int, limit: int) -> tuple[int, ...]:
    """prime, prime**2, prime**4, ... while the exponent stays within ``limit``:
    computed once per denominator, not once a count."""
    powers = [prime]
    while 2 << (len(powers) - 1) <= limit:
        powers.append(powers[-1] * powers[-1])
    return tuple(powers)


def _valuation(number: int, prime: int) -> int:
    """How many times ``prime`` divides the small ``number`` (> 0)."""
    count = 0
    while number % prime == 0:
        number //= prime
        count += 1
    return count


_CHUNKS = {prime: max(1, int(29 / math.log2(prime))) for prime in (2, 3, 5, 7)}
"""For the small primes, how many factors one remainder can tell: the chunk
stays below 2**30, where CPython divides a long integer fastest."""


@cache
def _small_primes() -> tuple[int, ...]:
    """The primes up to the largest die a roll may name (10,000 sides)."""
    limit = 10_000
    sieve = bytearray([1]) * (limit + 1)
    sieve[0:2] = b"\x00\x00"
    for number in range(2, 101):
        if sieve[number]:
            sieve[number * number :: number] = bytes(len(range(number * number, limit + 1, number)))
    return tuple(number for number, prime in enumerate(sieve) if prime)
