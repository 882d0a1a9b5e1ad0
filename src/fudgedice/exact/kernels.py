"""Polynomial kernels on integer coefficients: the arithmetic under every
exact distribution.

* :func:`convolve` multiplies two polynomials, naively when they are small and
  by Kronecker substitution otherwise (pack each polynomial into one big
  integer, let CPython multiply, unpack);
* :func:`power` raises one to the n-th power with J. C. P. Miller's recurrence
  or by packing, whichever costs less.

Each refuses, before the work, a product too big to finish in about a second,
and charges its estimated work to the request's budget (:mod:`fudgedice.budget`).
"""

from __future__ import annotations

import math
from array import array

from .. import budget
from ..budget import STEP, digits, div_work, mul_work
from ..errors import LimitError
from ..limits import DEFAULT_LIMITS
from . import wide

_NAIVE_WORK = 2048
"""Below this many coefficient products, plain loops beat packing big integers."""


def slot_bytes(bits: int, short: bool = False) -> int:
    """Bytes of a slot that holds numbers of ``bits`` bits: rounded up to one
    or two 64-bit words when that costs at most a third more (or, for
    ``short`` factors, whose product costs little beside unpacking it, at
    most twice as much), for :func:`unpack` reads those as machine words,
    about twice as fast as a slice each."""
    need = bits // 8 + 1
    if short:
        return 8 if 4 <= need <= 8 else 16 if 8 < need <= 16 else need
    return 8 if 6 <= need <= 8 else 16 if 12 <= need <= 16 else need


def pack(coefficients: list[int] | tuple[int, ...], slot: int) -> int:
    if slot == 8:
        return int.from_bytes(array("Q", coefficients).tobytes(), "little")
    return int.from_bytes(b"".join(c.to_bytes(slot, "little") for c in coefficients), "little")


def unpack(number: int, slot: int, length: int) -> list[int]:
    raw = number.to_bytes(slot * length, "little")
    if slot in (8, 16):
        words = array("Q")
        words.frombytes(raw)
        if slot == 8:
            return words.tolist()
        return [low | high << 64 for low, high in zip(words[0::2], words[1::2], strict=True)]
    return [int.from_bytes(raw[i : i + slot], "little") for i in range(0, slot * length, slot)]


def _naive_product(
    a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...], length: int
) -> list[int]:
    """The schoolbook product: below a few thousand coefficient products it
    beats packing big integers."""
    out = [0] * length
    for j, y in enumerate(b):
        if y:
            for i, x in enumerate(a):
                out[i + j] += x * y
    return out


def naive_work(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> float:
    """Estimated work of the schoolbook product: a multiply and an add per pair."""
    bits_a = max(map(abs, a)).bit_length()
    bits_b = max(map(abs, b)).bit_length()
    return len(a) * len(b) * (STEP + mul_work(bits_a, bits_b) + digits(bits_a + bits_b))


def packed_work(length_a: int, length_b: int, slot: int) -> float:
    """Estimated work of a Kronecker product: packing and unpacking (a few
    hundred nanoseconds a coefficient and a pass over the bytes), and the
    one big multiplication."""
    coefficients = 2 * (length_a + length_b)
    return coefficients * (4 * STEP + slot / 4) + mul_work(slot * 8 * length_a, slot * 8 * length_b)


def _charge_product(work: float) -> None:
    budget.charge(work, "exact odds here (a product of two distributions)")


def convolve(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> list[int]:
    """Coefficients of the product of two polynomials with non-negative coefficients."""
    if len(a) < len(b):
        a, b = b, a
    length = len(a) + len(b) - 1
    if len(a) * len(b) <= _NAIVE_WORK:
        _charge_product(naive_work(a, b))
        return _naive_product(a, b, length)
    # a slot holds every coefficient of the product, and of each factor packed
    bound = max(max(a) * max(b) * len(b), max(a), max(b))
    check_product((bound.bit_length() // 8 + 1) * 8 * len(a))
    slot = slot_bytes(bound.bit_length())
    _charge_product(packed_work(len(a), len(b), slot))
    if wide.fits(slot * 8 * len(b), len(b), digits := wide.slot_digits(bound, False)):
        return wide.product(a, b, digits, False)
    return unpack(pack(a, slot) * pack(b, slot), slot, length)


def check_product(bits: int) -> None:
    limit = DEFAULT_LIMITS.max_product_bits
    if bits > limit:
        raise LimitError(
            f"exact odds here would multiply numbers of {bits:,} bits, more than the "
            f"limit of {limit:,} (the roll can still be rolled or sampled)"
        )


def _power_miller(base: list[int], n: int) -> list[int]:
    """Coefficients of base(x)**n by Miller's recurrence; ``base[0]`` must be non-zero.

    From P = f**n: f P' = n f' P, so for k >= 1
    k f0 c_k = sum_{i=1..min(k,d)} ((n + 1) i - k) f_i c_{k-i}, and the division
    is exact because every c_k is an integer.
    """
    degree = len(base) - 1
    length = n * degree + 1
    if degree == 2:
        return _power_three_faces(base, n)
    f0 = base[0]
    terms = [(i, fi) for i, fi in enumerate(base) if i and fi]
    coefficients = [0] * length
    coefficients[0] = f0**n
    symmetric = base == base[::-1]
    # A palindromic die gives a palindromic pool: compute the lower half only.
    stop = length // 2 + 1 if symmetric else length
    n1 = n + 1
    for k in range(1, stop):
        acc = 0
        for i, fi in terms:
            if i > k:
                break
            acc += (n1 * i - k) * fi * coefficients[k - i]
        coefficients[k] = acc // (k * f0)
    if symmetric:
        for k in range(stop, length):
            coefficients[k] = coefficients[length - 1 - k]
    return coefficients


def _power_three_faces(base: list[int], n: int) -> list[int]:
    """Miller's recurrence unrolled for three faces (Fudge dice: the hot case).

    Same recurrence as ``_power_miller``; the big-integer division dominates,
    so the loop carries the two previous coefficients in locals."""
    f0, f1, f2 = base
    length = 2 * n + 1
    coefficients = [0] * length
    previous, current = f0**n, n * f1 * f0 ** (n - 1)
    coefficients[0], coefficients[1] = previous, current
    symmetric = f0 == f2
    stop = n + 1 if symmetric else length
    n1, n2 = n + 1, 2 * n + 2
    if f0 == 1 and f1 == 1 and f2 == 1:
        for k in range(2, stop):
            previous, current = current, ((n1 - k) * current + (n2 - k) * previous) // k
            coefficients[k] = current
    else:
        for k in range(2, stop):
            previous, current = (
                current,
                ((n1 - k) * f1 * current + (n2 - k) * f2 * previous) // (k * f0),
            )
            coefficients[k] = current
    if symmetric:
        coefficients[stop:] = coefficients[length - stop - 1 :: -1]
    return coefficients


def _power_word(base: list[int], n: int) -> list[int]:
    """Kronecker substitution in machine words: every coefficient of the power
    is at most ``sum(base)**n`` < 2**64, so one byte (below 2**8) or one
    64-bit word holds it with no carry into the next, and CPython's own
    power and its byte conversions do all the work (for 4dF or 10d6 a few
    C calls, where a recurrence took a Python step per coefficient)."""
    length = n * (len(base) - 1) + 1
    if n * sum(base).bit_length() <= 8:
        return list((int.from_bytes(bytes(base), "little") ** n).to_bytes(length, "little"))
    return unpack(pack(base, 8) ** n, 8, length)  # word slots: array's own conversions


def _power_kronecker(base: list[int], n: int) -> list[int]:
    slot = slot_bytes((sum(base) ** n).bit_length())
    length = n * (len(base) - 1) + 1
    return unpack(pack(base, slot) ** n, slot, length)


PowerPlan = tuple[str, float]
"""The kernel :func:`power` uses, and its estimated work."""


def power(
    base: list[int] | tuple[int, ...],
    n: int,
    what: str | None = None,
    planned: PowerPlan | None = None,
) -> list[int]:
    """Coefficients of base(x)**n (``base[0]`` non-zero), choosing the faster
    kernel; ``what`` names the pool in a refusal; ``planned``: what
    :func:`power_plan` said of the same power (a caller that checked first)."""
    base = list(base)
    if n == 0:
        return [1]
    if n == 1 or len(base) == 1:
        return [c**n for c in base] if len(base) == 1 else base
    kernel, work = planned or power_plan(base, n)

    def fits(left: int) -> str | None:
        most = largest_power(base, n, left)
        return f"{most} such dice is the most whose exact odds fit" if most else None

    budget.charge(work, f"exact odds of {what or f'{n} dice'}", fits)
    if kernel == "word":
        return _power_word(base, n)
    if kernel == "three faces":
        return _power_three_faces(base, n)
    if kernel == "miller":
        return _power_miller(base, n)
    return _power_kronecker(base, n)


def power_plan(base: list[int], n: int, estimate: bool = True) -> PowerPlan:
    """Which kernel raises ``base`` to the n-th power within about a second
    (``word``, ``three faces``, ``miller`` or ``kronecker``; a LimitError,
    before any work, when none would) and the estimated work of that kernel,
    worked out together (a small pool's odds spent more on estimates than on
    the power); with ``estimate`` off, only the refusal of a power too big
    (work 0)."""
    length = n * (len(base) - 1) + 1
    if n * sum(base).bit_length() <= _WORD_BITS and length <= _WORD_LENGTH:
        # the total's power fits a machine word: a bound worked out once a
        # coefficient (packing, one short power, unpacking)
        return "word", (length + len(base)) * _WORD_STEP if estimate else 0.0
    if len(base) == 3 and n <= 64:
        if not estimate:
            return "three faces", 0.0
        if n * sum(base).bit_length() <= _SHORT_BITS:
            # a bound a step, worked out once: the estimate itself cost more
            # than raising 4dF to its power
            return "three faces", (2 * n + 1) * _SHORT_THREE_FACES_STEP
        return "three faces", power_work(base, n, "three faces")
    terms = sum(1 for c in base[1:] if c)
    slot_bits = (int(n * math.log2(sum(base))) // 8 + 2) * 8
    # Miller costs about outcomes x terms big-integer steps (a symmetric die's
    # pool is built from its lower half); packing wins when the die has many
    # faces (exploded dice, d100) and the pool is small.
    steps = length // 2 + 1 if base == base[::-1] else length
    miller_work = steps * terms * (slot_bits // 64 + 1)
    kronecker_bits = slot_bits * length
    if miller_work > DEFAULT_LIMITS.max_recurrence_work:
        check_product(kronecker_bits)
        return "kronecker", power_work(base, n, "kronecker") if estimate else 0.0
    if kronecker_bits > DEFAULT_LIMITS.max_product_bits:
        return "miller", power_work(base, n, "miller") if estimate else 0.0
    if not estimate:
        return "miller", 0.0
    # both possible: the one estimated cheaper
    kronecker, miller = power_work(base, n, "kronecker"), power_work(base, n, "miller")
    return ("kronecker", kronecker) if kronecker < miller else ("miller", miller)


def power_work(base: list[int], n: int, kernel: str) -> float:
    """Estimated work of raising ``base`` to the n-th power with ``kernel``.

    The recurrences take a step per coefficient (half of them for a
    symmetric die): per term of the die, a long coefficient multiplied by
    that term's weight (long itself for an explosion chain, whose weights
    are powers of the die) and added up; then one division by a small
    number. Coefficients are about as long as the power's total."""
    coefficient_bits = n * math.log2(sum(base)) + 1
    length = n * (len(base) - 1) + 1
    steps = length // 2 + 1 if base == base[::-1] else length
    words = digits(coefficient_bits)
    weight_bits = max(base).bit_length() + (length * n).bit_length()
    term = mul_work(weight_bits, coefficient_bits) + words
    divisor_bits = (length * base[0]).bit_length()
    divide = div_work(coefficient_bits, divisor_bits)
    if kernel == "three faces":
        return steps * (4 * STEP + 2 * term + divide)
    if kernel == "miller":
        terms = sum(1 for c in base[1:] if c)
        return steps * (STEP + terms * (2 * STEP + term) + divide)
    slot_bits = (int(coefficient_bits) // 8 + 2) * 8
    return budget.power_work(slot_bits * length) + length * (4 * STEP + slot_bits / 32)


_WORD_BITS = 64
"""A power whose total has at most this many bits: :func:`_power_word`."""
_WORD_LENGTH = 256
"""...and at most this many coefficients (a longer one is a big power)."""
_WORD_STEP = 2 * STEP + budget.power_work(64 * _WORD_LENGTH) / _WORD_LENGTH
"""What :func:`_power_word` costs a coefficient, at most: packing and
unpacking one word, and its share of a power of up to ``_WORD_LENGTH`` words
(the power's cost grows faster than its length, so the longest bounds all)."""

_SHORT_BITS = 60
"""Coefficients of at most this many bits (two CPython digits): short powers."""
_SHORT_THREE_FACES_STEP = (
    4 * STEP
    # a short power of three faces, at most 64 dice: the coefficients have at
    # most 61 bits, the weights 60 + 14 (the largest face count times
    # length x n <= 129 x 64), the divisor 60 + 8 (length x the first count)
    + 2 * (mul_work(74, 61) + digits(61))
    + max(div_work(61, divisor_bits) for divisor_bits in range(1, 69))
)
"""The most one step of :func:`power_work`'s three-faces estimate can cost in a
short power; with 2n + 1 steps (every one, symmetric or not), a bound of it."""


def fits_power(base: list[int], n: int, work: float) -> bool:
    """Whether ``base`` to the n-th power is accepted and takes at most ``work``."""
    try:
        return power_plan(base, n)[1] <= work
    except LimitError:
        return False


def largest_power(base: list[int], n: int, work: float | None = None) -> int:
    """The largest exponent below ``n`` whose power :func:`power_plan`
    accepts (and takes at most ``work``; 0 when none does): what a refusal
    can offer instead."""
    limit = DEFAULT_LIMITS.max_request_work if work is None else work
    return budget.largest(lambda middle: fits_power(base, middle, limit), n - 1)


def convolve_signed(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> list[int]:
    """Coefficients of the product of two polynomials whose coefficients may be
    negative: one Kronecker product of signed packings, read back with every
    slot offset by half its range (so each holds a non-negative number)."""
    if min(a) >= 0 and min(b) >= 0:
        return convolve(a, b)
    if len(a) < len(b):
        a, b = b, a
    length = len(a) + len(b) - 1
    if len(a) * len(b) <= _NAIVE_WORK:
        _charge_product(naive_work(a, b))
        return _naive_product(a, b, length)
    largest_a, largest_b = max(map(abs, a)), max(map(abs, b))
    # twice every coefficient of the product, and of each factor, fits a slot
    bound = 2 * max(largest_a * largest_b * len(b), largest_a, largest_b)
    slot = bound.bit_length() // 8 + 1
    check_product(slot * 8 * len(a))
    _charge_product(2 * packed_work(len(a), len(b), slot))
    if wide.fits(slot * 8 * len(b), len(b), digits := wide.slot_digits(bound, True)):
        return wide.product(a, b, digits, True)

    def signed_pack(coefficients: list[int] | tuple[int, ...]) -> int:
        plus = pack([max(c, 0) for c in coefficients], slot)
        return plus - pack([max(-c, 0) for c in coefficients], slot)

    half = 1 << (slot * 8 - 1)
    offset = int.from_bytes((b"\x00" * (slot - 1) + b"\x80") * length, "little")
    product = signed_pack(a) * signed_pack(b) + offset
    return [c - half for c in unpack(product, slot, length)]
