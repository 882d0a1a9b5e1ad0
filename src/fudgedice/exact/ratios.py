"""Exact chances as Fractions, built fast: every count of a distribution is
over one denominator, a product of dice sizes."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache, lru_cache

from .. import budget
from ..budget import (
    DIGIT_BITS,
    STEP,
    digits,
    div_work,
    gcd_work,
    linear_work,
    mul_work,
    power_work,
)
from .figures import in_lowest_terms, ratio


class Reducer:
    """Fractions over one denominator, reduced by its small prime factors.

    Every denominator of the odds is a product of dice sizes, so its prime
    factors are at most the largest die. Dividing a count by those few primes
    costs a few passes over its digits, where ``math.gcd`` of numbers of
    thousands of digits is quadratic: ``odds("10000dF").outcomes`` builds
    20001 Fractions of some 4800 digits each. The factors of 2 are counted in
    the bits; a count that holds a prime many times (the sure outcomes of
    exploding dice are scaled by powers of the die) has them taken off in
    one long division when the counts before it held about as many, else
    stripped in growing powers; each division is charged to the request's
    budget, a long one before it is made.
    """

    __slots__ = (
        "bits",
        "denominator",
        "factors",
        "hints",
        "hints_for",
        "odd",
        "reduced",
        "twos",
        "what",
    )

    def __init__(self, denominator: int, what: str = "reducing exact chances") -> None:
        self.denominator = denominator
        self.what = what
        """What a refusal names: the chances of which roll."""
        self.reduced: dict[int, int] = {}
        """The denominator divided by a few small factors, by what was removed
        (most counts share only a few factors with it: a division saved)."""
        self.hints: dict[int, int] = {}
        """How many times the last count with many of a prime held it."""
        self.hints_for: object = None
        """The request the hints were learnt in: each request starts without
        them, so that what it is charged does not depend on what ran before."""
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
        self.factors: list[tuple[int, int, int, int]] | None = None
        if rest == 1:
            self.factors = [
                (prime, exponent, prime ** _held(prime), _held(prime))
                for prime, exponent in factors
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
            return ratio(numerator, self.denominator)
        twos = 0
        if self.twos:
            twos = min((numerator & -numerator).bit_length() - 1, self.twos)
            if twos:
                numerator >>= twos
        # the odd part of the denominator, less what the count shares with it;
        # the power of two is shifted back on at the end
        odd = self.odd
        removed = 1
        for prime, exponent, chunk, held in self.factors:
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
            # a chunk's worth at least: the rest taken from its quotient, no
            # further than the denominator holds
            if exponent <= held:
                taken, numerator = exponent, quotient * prime ** (held - exponent)
            else:
                more, numerator = self._many(quotient, prime, exponent - held, chunk, held)
                taken = held + more
            # the power, the division of the denominator, and the Python
            # around a count that held many (measured at some 12 microseconds)
            bits = taken * math.log2(prime) + 1
            budget.charge(
                power_work(bits) + div_work(odd.bit_length(), bits) + _MANY_STEPS, self.what
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
        return in_lowest_terms(numerator, odd << (self.twos - twos))

    def _many(self, number: int, prime: int, cap: int, chunk: int, held: int) -> tuple[int, int]:
        """(e, number / prime**e) for the largest e (at most ``cap``), for a
        count that held a chunk of the prime. Counts side by side hold it about
        as often (the sure outcomes of ``d6: 5 opp 1000D`` hold 3 from once to
        836 times, each a few times more or less than the one before): a
        guess a little below the last count's takes them in one long division,
        and one remainder by the chunk tells the few more. Without a guess, or
        when it was too many, they are stripped in growing powers."""
        current = budget.current()
        if self.hints_for is not current:
            self.hints.clear()
            self.hints_for = current
        what = self.what
        guess = min(self.hints.get(prime, 0) - held - _MARGIN, cap)
        if guess < held:
            taken, number = _strip(number, prime, cap, what)
            self.hints[prime] = held + taken
            return taken, number
        # the power, the long division, then a remainder by the chunk and a
        # product and a sum of the quotient's length
        bits = number.bit_length()
        guess_bits = guess * math.log2(prime) + 1
        budget.charge(
            power_work(guess_bits)
            + div_work(bits, guess_bits)
            + div_work(bits, DIGIT_BITS)
            + 2 * linear_work(bits)
            + _DIVISION_STEP,
            what,
        )
        power = prime**guess
        quotient, rest = divmod(number, power)
        if rest:
            # fewer than guessed: counted in the remainder, shorter than the
            # power, and number / p**t is quotient * p**(guess - t) + rest / p**t
            taken, rest = _strip(rest, prime, guess, what)
            scale_bits = (guess - taken) * math.log2(prime) + 1
            budget.charge(power_work(scale_bits) + mul_work(bits, scale_bits), what)
            number = quotient * prime ** (guess - taken) + rest
        else:
            taken, number = guess, quotient
            if cap > taken:
                more, number = self._few(number, prime, cap - taken, chunk, held)
                taken += more
        self.hints[prime] = held + taken
        return taken, number

    def _few(self, number: int, prime: int, cap: int, chunk: int, held: int) -> tuple[int, int]:
        """(e, number / prime**e) for the largest e (at most ``cap``): one
        remainder by the chunk when there are fewer than a chunk's worth
        (charged by the caller), else stripped in growing powers."""
        quotient, rest = divmod(number, chunk)
        if not rest:
            if cap <= held:
                return cap, quotient * prime ** (held - cap)
            more, number = _strip(quotient, prime, cap - held, self.what)
            return held + more, number
        taken = min(_valuation(rest, prime), cap)
        if not taken:
            return 0, number
        power = prime**taken
        return taken, quotient * (chunk // power) + rest // power


_MARGIN = 4
"""How many fewer factors than the last count's a guess takes: counts side
by side differ by a few (a chance, then its at-least, then its at-most)."""
_MANY_STEPS = 12_000.0
"""The Python around a count that holds a prime many times: the calls, the
charges and their estimates, the hints."""


def complement(fraction: Fraction) -> Fraction:
    """1 - ``fraction`` (between 0 and 1): the same denominator, and no
    reduction to do again (a common factor of both would divide the numerator)."""
    numerator, denominator = fraction.as_integer_ratio()  # one call, not two properties
    return in_lowest_terms(denominator - numerator, denominator)


def _strip(number: int, prime: int, cap: int | None = None, what: str = "") -> tuple[int, int]:
    """(e, number / prime**e) for the largest e (at most ``cap``): ``100**10000``
    holds 2 twenty thousand times, so divide by prime**(2**j) for growing j
    while it divides, a few dozen big divisions rather than one a factor. The
    first power that doesn't divide leaves a remainder, shorter than it, that
    holds the prime as often as what is left of the number (fewer than 2**j
    times): shrinking powers count them in that short remainder, and one last
    division takes them all off the number (the count of 3 in the tails of
    ``d6: 5 opp 1000D`` is in the hundreds: dividing the long number by each
    shrinking power took half the time).
    ``what``: the divisions are charged to the request's budget under that
    name, each long one before it is made (short ones together, at the end)."""
    limit = number.bit_length() if cap is None else cap
    powers = _doubling_powers(prime, limit)
    exponent = 0
    step = 0
    short = 0.0
    rest = 0
    while step < len(powers) and exponent + (1 << step) <= limit:
        short += _charge_division(number.bit_length(), powers[step].bit_length(), what)
        quotient, rest = divmod(number, powers[step])
        if rest:
            break
        number, exponent, step = quotient, exponent + (1 << step), step + 1
    if not rest:
        # the cap (or the last power) ended the climb: shrinking powers on the number
        for down in range(step - 1, -1, -1):
            if exponent + (1 << down) <= limit:
                short += _charge_division(number.bit_length(), powers[down].bit_length(), what)
                quotient, remainder = divmod(number, powers[down])
                if not remainder:
                    number, exponent = quotient, exponent + (1 << down)
    else:
        more = 0
        for down in range(step - 1, -1, -1):
            if exponent + more + (1 << down) <= limit:
                short += _charge_division(rest.bit_length(), powers[down].bit_length(), what)
                quotient, remainder = divmod(rest, powers[down])
                if not remainder:
                    rest, more = quotient, more + (1 << down)
        if more:
            bits = more * math.log2(prime) + 1
            short += _charge_division(number.bit_length(), bits, what, power_work(bits))
            number //= prime**more
            exponent += more
    if what and short:
        budget.charge(short, what)
    return exponent, number


_LONG_WORK = 20_000.0
"""A division estimated past this much work is charged on its own, before
it is made; shorter ones together, after."""
_DIVISION_STEP = 400.0
"""The Python around one division of :func:`_strip` (a loop's step, its
charge), measured at about 0.3 microseconds."""


def _charge_division(bits: float, divisor_bits: float, what: str, extra: float = 0.0) -> float:
    """Charge a long division (and ``extra`` work before it) before it is
    made and return 0; a short one's work is returned, to be charged later
    with the others. Nothing when ``what`` is empty (not charged at all)."""
    if not what:
        return 0.0
    work = div_work(bits, divisor_bits) + _DIVISION_STEP + extra
    if work <= _LONG_WORK:
        return work
    budget.charge(work, what)
    return 0.0


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


@cache
def _held(prime: int) -> int:
    """How many factors of ``prime`` one remainder can tell: the chunk (that
    power of the prime) stays below 2**30, where CPython divides a long
    integer fastest."""
    return max(1, int(29 / math.log2(prime)))


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
