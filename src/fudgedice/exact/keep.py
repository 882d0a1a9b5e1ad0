"""Exact keep/drop: the sum of the highest (or lowest) dice of a pool."""

from __future__ import annotations

from collections.abc import Callable
from math import log2

from .. import budget
from ..budget import DIGIT_BITS, KARATSUBA, STEP, mul_work
from ..errors import LimitError
from ..limits import DEFAULT_LIMITS
from .dist import Bound, Cut, Dist, Image, check_span, check_total, normal, trimmed
from .kernels import unpack


def _same(low: Bound, high: Bound) -> tuple[Bound, Bound]:
    return low, high


def keep_extreme(
    die: Dist,
    n: int,
    kept: int,
    highest: bool,
    score: Callable[[int], int],
    image: Image = _same,
) -> Dist:
    """Sum of ``score`` over the ``kept`` highest (or lowest) of ``n`` dice;
    ``image`` bounds ``score`` over a range (for the cut-off tail, if any).

    By the face the last kept die shows: with the faces in order from the
    favoured end, let face ``i`` (``w`` ways, ``A(x)`` the polynomial of the
    faces before it, ``L`` the ways of the faces after it) be the ``kept``-th
    most favoured die. Then ``a < kept`` dice lie before it, all kept, and at
    least ``kept - a`` of the other ``n - a`` dice show face ``i``, the rest
    after it; so face ``i`` contributes
    ``sum_a C(n, a) A(x)**a x**((kept - a) s_i) B(n - a, kept - a)`` with
    ``B(m, r) = sum_{b >= r} C(m, b) w**b L**(m - b)`` (``s_i`` its score, from
    the least). Along ``m - r = n - kept`` the tails ``B`` follow one another
    by Pascal's rule, a few products each, and the sum over ``a`` is Horner's
    scheme in ``A``: ``kept`` steps a face, each a shift and a scaling of one
    polynomial per face before it, held as one big integer (Kronecker
    substitution: a coefficient a slot, never carrying: every count is at
    most ``total``).
    """
    check_total(n * log2(die.total), f"keeping {kept} of {n} dice")
    total = die.total**n
    cuts = kept_cuts(die, n, kept, highest, score, image) if die.total != die.mass else ()
    if kept == 0:
        return Dist(0, (die.mass**n,), total, cuts)
    faces = list(die.items())
    if highest:
        faces.reverse()
    gains = [score(value) for value, _ in faces]
    least = min(gains)
    length = kept * (max(gains) - least) + 1
    check_span(0, length - 1)
    need = total.bit_length() // 8 + 1
    # a short polynomial of short counts in machine words: unpacked at once
    slot = 8 if need <= 8 and length <= 64 else need
    bits = slot * 8
    work = keep_work(len(faces), kept, need, length)
    if work > DEFAULT_LIMITS.max_keep_work:
        raise LimitError(
            f"exact odds of keeping {kept} of {n} dice with {len(faces)} faces would "
            f"take too long (about {work:.2g} operations; the limit is "
            f"{DEFAULT_LIMITS.max_keep_work:.2g})"
        )
    what = f"exact odds of keeping {kept} of {n} dice"
    mass = sum(weight for _, weight in faces)
    # C(n, a) for a < kept and C(n - kept + r, r) for r <= kept, by their
    # recurrences (math.comb for each took seconds for 994 of 1000), and every
    # face from its numbers as long as they will be: charged first, at once
    charged = 2 * kept * (3 * STEP + 10 * budget.digits(n))
    # a small pool charges every face as its costliest (one estimate, not one
    # a face: for 3d6kl2 they cost as much as the work), a larger one exactly
    most = max(gains) - least
    worst = len(faces) * face_work(n, kept, len(faces) - 1, mass, 0, bits, most)
    if worst > _SMALL_WORK:
        worst = faces_work(0.0, n, kept, faces, gains, least, bits)
    budget.charge(charged + worst, what)
    result = _kept_polynomial(faces, gains, least, n, kept, mass, bits)
    return trimmed(kept * least, unpack(result, slot, length), total, cuts)


def _kept_polynomial(
    faces: list[tuple[int, int]],
    gains: list[int],
    least: int,
    n: int,
    kept: int,
    mass: int,
    bits: int,
) -> int:
    """The counts of :func:`keep_extreme`, each in a slot of ``bits`` bits of
    one big integer: the sum over faces of Horner's scheme in ``A``."""
    choose_n = [1] * kept
    for a in range(1, kept):
        choose_n[a] = choose_n[a - 1] * (n - a + 1) // a
    spare = n - kept
    diagonal = [1] * (kept + 1)  # C(spare + r, r)
    for r in range(1, kept + 1):
        diagonal[r] = diagonal[r - 1] * (spare + r) // r
    before: list[tuple[int, int]] = []  # (weight, shift in bits) of each face before
    below = mass
    result = 0
    for (_, weight), gain in zip(faces, gains, strict=True):
        below -= weight
        step = (gain - least) * bits
        # tails[r] = B(spare + r, r), r = kept - a: from r = 1 up, by Pascal's rule
        both = weight + below
        low = below ** (spare + 1)
        tails = [0, both ** (spare + 1) - low]
        power_of_weight = weight
        for r in range(1, kept):
            tails.append(both * tails[r] - diagonal[r] * power_of_weight * low)
            power_of_weight *= weight
        # Horner in A from a = kept - 1 down: H = H A + c_a x**((kept - a) s)
        horner = 0
        for a in range(kept - 1, -1, -1):
            if horner:
                grown = 0
                for ahead, shift in before:
                    # a face of one way (every plain die's) scales by nothing
                    grown += horner << shift if ahead == 1 else (horner << shift) * ahead
                horner = grown
            horner += (choose_n[a] * tails[kept - a]) << (step * (kept - a))
        result += horner
        if weight:
            before.append((weight, step))
    return result


_SMALL_WORK = 200_000.0
"""Below this (0.2 ms), keep/drop charges every face as its costliest."""


def keep_work(faces: int, kept: int, slot: int, length: int) -> float:
    """Operations on 64-bit words of :func:`keep_extreme`, to refuse it before
    any work: for each face, ``kept`` steps that shift and scale a polynomial
    (up to ``length`` slots) once per face before it."""
    return faces * (faces - 1) / 2 * kept * (slot * length // 8 + 1) + faces * kept


def face_work(
    n: int, kept: int, ahead: int, weight: int, below: int, bits: int, gain: int
) -> float:
    """Estimated work of one face of :func:`keep_extreme`: the tails ``B``
    (``kept`` steps of two long products; numbers of ``n`` times the bits of
    the ways), then ``kept`` Horner steps, each a shift, a scaling and an
    addition of the polynomial so far for every face before this one
    (the polynomial grows by a face's span of slots a step; taken at its
    largest), and the term added. Measured: 100d6kh50 about 4 ms."""
    both_bits = n * max((weight + below).bit_length(), 1)
    tails = kept * (4 * STEP + 3 * mul_work(both_bits, both_bits))
    polynomial = (kept * max(gain, 1) + 1) * bits
    term = 4 * STEP + mul_work(both_bits, n) + 2 * budget.linear_work(polynomial)
    horner = kept * (term + ahead * (STEP + 3 * budget.linear_work(polynomial) + 60))
    return tails + horner


def faces_work(
    start: float,
    n: int,
    kept: int,
    faces: list[tuple[int, int]],
    gains: list[int],
    least: int,
    bits: int,
) -> float:
    """``start`` plus :func:`face_work` of every face in turn, as
    :func:`keep_extreme` meets them (``ahead``: the faces with ways before
    it): the same sum, its short products written out (for a small pool the
    estimate cost as much as the work)."""
    below = sum(weight for _, weight in faces)
    ahead = 0
    total = start
    step_cost = 4 * STEP
    for (_, weight), gain in zip(faces, gains, strict=True):
        below -= weight
        both_bits = n * max((weight + below).bit_length(), 1)
        both = both_bits / DIGIT_BITS + 1
        if both < KARATSUBA:
            # mul_work(both_bits, both_bits) and mul_work(both_bits, n), schoolbook
            square = 60 + 1.6 * both * both
            by_n = n / DIGIT_BITS + 1
            scaled = 60 + (1.6 * both * by_n if both <= by_n else 1.6 * by_n * both)
        else:
            square, scaled = mul_work(both_bits, both_bits), mul_work(both_bits, n)
        tails = kept * (step_cost + 3 * square)
        polynomial = (kept * max(gain - least, 1) + 1) * bits
        linear = 40 + (polynomial / DIGIT_BITS + 1)
        term = step_cost + scaled + 2 * linear
        horner = kept * (term + ahead * (STEP + 3 * linear + 60))
        total += tails + horner
        ahead += 1 if weight else 0
    return total


def kept_cuts(
    die: Dist, n: int, kept: int, highest: bool, score: Callable[[int], int], image: Image
) -> tuple[Cut, ...]:
    """Where the kept score lies when some die was cut off: ``kept`` times the
    least (greatest) score any die can have, a sound bound for any keep; and
    when every cut-off die lies from some bound up and the highest are kept,
    the highest die of a cut-off outcome is at least that bound and is kept,
    so the bound rises to its least score there plus ``kept - 1`` of the least
    (and likewise downwards for the lowest).
    """
    count = die.total**n - die.mass**n
    if kept == 0:
        return (Cut(count, 0, 0),)
    scores = [score(value) for value, _ in die.items()]
    ranges = [(min(scores), max(scores))] + [image(cut.low, cut.high) for cut in die.cuts]
    unplaced = die.total - die.mass - sum(cut.count for cut in die.cuts)
    lows = [low for low, _ in ranges]
    highs = [high for _, high in ranges]
    least = None if unplaced or None in lows else min(x for x in lows if x is not None)
    most = None if unplaced or None in highs else max(x for x in highs if x is not None)
    low = None if least is None else kept * least
    high = None if most is None else kept * most
    if unplaced or not die.cuts:
        return normal([Cut(count, low, high)])
    if highest and least is not None and all(cut.low is not None for cut in die.cuts):
        start = min(cut.low for cut in die.cuts if cut.low is not None)
        top = image(start, None)[0]
        if top is not None:
            low = max(low if low is not None else top, top + (kept - 1) * least)
    if not highest and most is not None and all(cut.high is not None for cut in die.cuts):
        start = max(cut.high for cut in die.cuts if cut.high is not None)
        bottom = image(None, start)[1]
        if bottom is not None:
            high = min(high if high is not None else bottom, bottom + (kept - 1) * most)
    return normal([Cut(count, low, high)])
