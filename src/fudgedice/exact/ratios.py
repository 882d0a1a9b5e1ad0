"""Exact chances as Fractions, built fast: every count of a distribution is
over one denominator, a product of dice sizes."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache, lru_cache

from .figures import _ratio, _reduced


class Reducer:
    """Fractions over one denominator, reduced by its small prime factors.

    Every denominator of the odds is a product of dice sizes, so its prime
    factors are at most the largest die. Dividing a count by those few primes
    costs a few passes over its digits, where ``math.gcd`` of numbers of
    thousands of digits is quadratic: ``odds("10000dF").outcomes`` builds
    20001 Fractions of some 4800 digits each.
    """

    __slots__ = ("denominator", "factors")

    def __init__(self, denominator: int) -> None:
        self.denominator = denominator
        factors: list[tuple[int, int]] = []
        rest = denominator
        for prime in _small_primes():
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

    def __call__(self, numerator: int) -> Fraction:
        if self.factors is None or numerator == 0:
            return _ratio(numerator, self.denominator)
        removed = 1
        for prime, exponent, chunk in self.factors:
            rest = numerator % chunk
            if rest:
                # fewer factors than one chunk: the small remainder tells how many
                taken = min(_valuation(rest, prime), exponent)
                numerator //= prime**taken
            else:
                # many: strip them by doubling powers, no further than the denominator's
                taken, numerator = _strip(numerator, prime, exponent)
            removed *= prime**taken
        return _reduced(numerator, self.denominator // removed)


def complement(fraction: Fraction) -> Fraction:
    """1 - ``fraction`` (between 0 and 1): the same denominator, and no
    reduction to do again (a common factor of both would divide the numerator)."""
    return _reduced(fraction.denominator - fraction.numerator, fraction.denominator)


def _strip(number: int, prime: int, cap: int | None = None) -> tuple[int, int]:
    """(e, number / prime**e) for the largest e (at most ``cap``): ``100**10000``
    holds 2 twenty thousand times, so divide by prime**(2**j), largest first,
    in a few dozen big operations rather than one a factor."""
    limit = number.bit_length() if cap is None else cap
    powers = _doubling_powers(prime, limit)
    exponent = 0
    for step in range(len(powers) - 1, -1, -1):
        if exponent + (1 << step) <= limit and number % powers[step] == 0:
            number //= powers[step]
            exponent += 1 << step
    return exponent, number


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
