"""Exact odds of a pool of alike exploding dice, without raising big numbers
to a power.

A die that explodes on faces that all add the same ``step`` (``a`` ways in
``T``), every toss alike, followed ``depth`` tosses deep, is
``C(x) = S(x) * sum_{k<depth} T**(depth-1-k) a**k x**(step k)`` over a total
of ``T**depth``: ``S`` the stopping toss's counts, ``k`` the explosions before
it. ``n`` such dice are therefore ``S(x)**n * W(x**step)`` with
``W(z) = sum_m w_m a**m T**(K-m) z**m``, ``K = n (depth - 1)`` and ``w`` the
coefficients of ``(1 + z + ... + z**(depth-1))**n`` (the ways ``n`` chains
explode ``m`` times in all).

Raising ``C`` to the n-th power directly multiplies numbers of ``n depth
log2(T)`` bits a coefficient (the issue measured 83 % of ``odds("10d6!")`` in
those powers, growing as N**2.46). Here every power and product is of short
numbers: with ``sigma = S**n`` and ``omega_m = w_m a**m``, the count of
outcome ``step q + b`` is ``T**(K-q) u_b[q]``, where ``u_b`` is the product of
the polynomials ``sigma_{step alpha + b} T**alpha`` and ``omega`` (one
Kronecker product for each ``b < step``), and only then one multiplication by
a power of ``T`` an outcome. The answer is the same Dist, count for count
(tests/exact/test_exploding.py checks it against the power of the chain).
"""

from __future__ import annotations

import struct
from itertools import accumulate, compress, repeat
from math import log2
from operator import lshift, mul

from .. import budget
from ..budget import STEP, mul_work
from .dist import Cut, Dist, Shape, check_repeat, normal
from .kernels import pack, packed_work, slot_bytes, unpack


def chain_dist(stop: dict[int, int], step: int, ways: int, total: int, depth: int) -> Dist:
    """One die: a stopping toss (``stop``: what it adds -> ways) after ``k <
    depth`` explosions, each adding ``step`` in ``ways`` of ``total``; the
    chains whose ``depth`` tosses all exploded are cut off (``ways**depth``)."""
    weights: dict[int, int] = {}
    for k in range(depth):
        scale = total ** (depth - 1 - k) * ways**k
        for value, count in stop.items():
            key = value + step * k
            weights[key] = weights.get(key, 0) + count * scale
    counts = [0] * (max(weights) - min(weights) + 1)
    for value, count in weights.items():
        counts[value - min(weights)] = count
    shape = chain_shape(stop, step, ways, total, depth)
    return Dist(shape.lo, tuple(counts), shape.total, shape.cuts)


def chain_shape(stop: dict[int, int], step: int, ways: int, total: int, depth: int) -> Shape:
    """The :class:`Shape` of :func:`chain_dist` (``step`` at least 1), as
    ``measure._chain`` bounds its cut-off chains: each adds at least ``depth``
    steps and a stop."""
    cut = ways**depth
    low, high = min(stop), max(stop) + step * (depth - 1)
    cuts = normal([Cut(cut, step * depth + min(stop), None)])
    return Shape(low, high, total**depth - cut, total**depth, cuts)


def pool_work(stop: list[int], n: int, depth: int, ways: int, total: int, step: int) -> float:
    """Estimated work of :func:`exploding_pool`: its two short powers (one
    big power each, packed), the residues' Kronecker products, and one
    product an outcome by a power of ``total``, with the passes around them."""
    total_bits = log2(total)
    sigma_length = n * (len(stop) - 1) + 1
    span = (sigma_length - 1) // step + 1
    omega_length = n * (depth - 1) + 1
    sigma_bits = n * log2(sum(stop))
    omega_bits = n * log2(sum(ways**k for k in range(depth)))
    slot = int(sigma_bits + omega_bits + span * total_bits + span.bit_length()) // 8 + 2
    outcomes = sigma_length + step * (omega_length - 1)
    outcome_bits = n * depth * total_bits
    shorts = budget.power_work(sigma_length * (sigma_bits + 8)) + budget.power_work(
        omega_length * (omega_bits + 8)
    )
    products = step * packed_work(omega_length, span, slot)
    scaling = sigma_length * (4 * STEP + mul_work(sigma_bits, span * total_bits))
    powers = omega_length * (2 * STEP + mul_work(total_bits, outcome_bits))
    each = outcomes * (6 * STEP + mul_work(slot * 8, outcome_bits))
    return shorts + products + scaling + powers + each


def _power(base: list[int], n: int) -> list[int]:
    """``base`` (short, with short coefficients) to the n-th power, packed."""
    slot = slot_bytes((sum(base) ** n).bit_length(), short=True)
    return unpack(pack(base, slot) ** n, slot, n * (len(base) - 1) + 1)


def _power_packed(base: list[int], n: int) -> tuple[int, int]:
    """``base`` to the n-th power in slots just wide enough for its
    coefficients: the power costs as its size to about the 1.6th, so narrow
    slots pay for the widening after it. A coefficient of ``P * Q`` is at
    most ``max(P) * sum(Q)``, so every one is at most
    ``max(base) * sum(base)**(n - 1)`` (a byte less than ``sum(base)**n``
    for a chain of 17 tosses and 10 dice)."""
    slot = _bytes_for(max(base) * sum(base) ** (n - 1))
    return pack(base, slot) ** n, slot


def _widened(packed: tuple[int, int], slot: int, length: int) -> int:
    """A packed polynomial moved to wider slots, byte column by byte column."""
    number, narrow = packed
    if narrow == slot:
        return number
    raw = number.to_bytes(narrow * length, "little")
    wide = bytearray(slot * length)
    for k in range(narrow):
        wide[k::slot] = raw[k::narrow]
    return int.from_bytes(wide, "little")


def _bytes_for(bound: int) -> int:
    """Bytes that hold every number from 0 to ``bound``."""
    return (bound.bit_length() + 7) // 8 or 1


_HIGHS = {9: "B", 10: "H", 12: "I", 16: "Q"}
"""Slots of 9 to 16 bytes read as a machine word and a short part (struct)."""


def _slot(bound: int) -> int:
    """Bytes of a slot for numbers up to ``bound``: 8, or a size
    :data:`_HIGHS` reads when one is at most a few bytes more, else just
    enough."""
    need = _bytes_for(bound)
    if need <= 8:
        return 8
    return next((size for size in _HIGHS if size >= need), need) if need <= 16 else need


def _read(number: int, slot: int, length: int) -> list[int]:
    """:func:`~fudgedice.exact.kernels.unpack`, a machine word a slot where
    it can: most coefficients fit one word, so one flat read gives them, and
    the few with a short part above it take it after (a slice and a join
    each would cost as much as the product they feed)."""
    high = _HIGHS.get(slot)
    if high is None:
        return unpack(number, slot, length)
    raw = number.to_bytes(slot * length, "little")
    words = list(struct.unpack("<" + f"Q{slot - 8}x" * length, raw))
    highs: bytes | tuple[int, ...] = (
        raw[8::9] if slot == 9 else struct.unpack("<" + ("8x" + high) * length, raw)
    )
    for i in compress(range(length), highs):
        words[i] |= highs[i] << 64
    return words


def exploding_pool(
    stop: dict[int, int], step: int, ways: int, total: int, depth: int, n: int, what: str
) -> Dist:
    """The sum of ``n`` dice of :func:`chain_dist` (``step`` at least 1), the
    same Dist as ``repeat(chain_dist(...), n)``; refused before any work when
    it would not fit (:func:`~fudgedice.exact.dist.check_repeat`, the budget)."""
    die = chain_shape(stop, step, ways, total, depth)
    check_repeat(die, n, what)
    lo = min(stop)
    dense = [0] * (max(stop) - lo + 1)
    for value, count in stop.items():
        dense[value - lo] = count

    def fits(left: int) -> str | None:
        most = budget.largest(
            lambda m: pool_work(dense, m, depth, ways, total, step) <= left, n - 1
        )
        return f"{most} such dice is the most whose exact odds fit" if most else None

    work = pool_work(dense, n, depth, ways, total, step)
    budget.charge(work, f"exact odds of {what}", fits)
    sigma = _power(dense, n)
    levels = [ways**k for k in range(depth)]
    top = n * (depth - 1)
    span = (len(sigma) - 1) // step + 1
    powers = list(accumulate(repeat(total, max(top, span - 1)), mul, initial=1))
    residues = [list(map(mul, sigma[residue::step], powers)) for residue in range(step)]
    # u_b[q] is at most the sum of its residue's scaled counts times omega's
    # largest coefficient (at most max(levels) sum(levels)**(n - 1)): omega is
    # raised in its own narrow slots, then widened
    bound = max(map(sum, residues)) * max(levels) * sum(levels) ** (n - 1)
    slot = _slot(bound)
    packed_omega = _widened(_power_packed(levels, n), slot, top + 1)
    descending = powers[top::-1]
    shifts = range(0, 8 * slot * span, 8 * slot)
    counts: list[int] = [0] * (len(sigma) + step * top)
    for residue, scaled in enumerate(residues):
        if not any(scaled):
            continue
        packed = sum(map(lshift, scaled, shifts))
        values = _read(packed * packed_omega, slot, len(scaled) + top)
        # q <= top: times T**(top - q); beyond, every term holds T**(q - top)
        head = list(map(mul, values, descending))
        tail = [value // powers[q] for q, value in enumerate(values[top + 1 :], 1)]
        counts[residue::step] = head + tail
    # a pool is cut off when any die is: then it adds at least that die's
    # least cut-off outcome and the least of every other die (shape_power)
    (cut,) = die.cuts
    assert cut.low is not None
    everything, listed = die.total**n, die.mass**n
    cuts = (Cut(everything - listed, cut.low + (n - 1) * lo, None),)
    return Dist(n * lo, tuple(counts), everything, cuts)
