"""Exact keep/drop: the sum of the highest (or lowest) dice of a pool."""

from __future__ import annotations

from collections.abc import Callable
from math import log2

from .. import budget
from ..budget import STEP, mul_work
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

    Walks the faces from the favoured end, holding for each number of dice
    placed so far (fewer than ``kept``) the polynomial of the kept score, as
    one big integer (Kronecker substitution: a coefficient a slot). Placing
    ``j`` dice on a face shifts a polynomial by ``j`` times the face's score.
    Once ``kept`` dice are placed the score is settled and the other dice can
    only show less favoured faces, so every way of finishing folds into one
    factor ``sum_j C(free, j) w**j below**(free - j)``. Each face then costs a
    few big-integer operations per number of dice placed.
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
    # every count is at most ``total``, so a slot of its width never carries
    slot = total.bit_length() // 8 + 1
    bits = slot * 8
    # each face shifts and scales about kept**2 / 2 states of length x slot bytes
    work = len(faces) * (kept * (kept + 3) // 2) * (slot * length // 8 + 1)
    if work > DEFAULT_LIMITS.max_keep_work:
        raise LimitError(
            f"exact odds of keeping {kept} of {n} dice with {len(faces)} faces would "
            f"take too long (about {work:.2g} operations; the limit is "
            f"{DEFAULT_LIMITS.max_keep_work:.2g})"
        )
    what = f"exact odds of keeping {kept} of {n} dice"
    # the Python of every face alone, known now: refused here rather than
    # face by face when even that does not fit
    loops = _FACE_STEPS + kept * _PLACED_STEPS + kept * (kept + 1) // 2 * _WAY_STEPS
    budget.check(
        len(faces) * loops,
        f"{what} with {len(faces):,} faces",
        lambda left: f"at most {int(left // loops):,} faces fit (a die with fewer faces)",
    )
    # C(n - placed, j) for the j < kept - placed dice that leave a state short,
    # each row by C(m, j) = C(m, j - 1) (m - j + 1) / j (math.comb for each
    # took seconds for 994 of 1000): charged first, numbers of up to n bits
    entries = kept * (kept + 1) // 2
    budget.charge(entries * (3 * STEP + 10 * budget.digits(n)), what)
    binomials = []
    for placed in range(kept):
        free = n - placed
        row = [1]
        for j in range(1, kept - placed):
            row.append(row[-1] * (free - j + 1) // j)
        binomials.append(row)
    below = sum(weight for _, weight in faces)
    states = [0] * kept
    states[0] = 1
    result = 0
    # a face's estimate depends only on how long its numbers are: faces side
    # by side share it (40,000 faces of 8d9998!! k4, 302 estimates), and
    # estimating each took longer than the face itself
    estimates: dict[tuple[int, ...], float] = {}
    for (_, weight), gain in zip(faces, gains, strict=True):
        below -= weight  # weight of the faces less favoured than this one
        step = (gain - least) * bits
        both = weight + below
        # charged face by face, from the numbers as long as they now are
        # (the result's length to the next 4096 bits: it grows face by face)
        result_bits = (result.bit_length() >> 12) + 1 << 12
        key = (
            step,
            weight.bit_length(),
            below.bit_length(),
            both.bit_length(),
            result_bits,
            *[state.bit_length() for state in states],
        )
        work = estimates.get(key)
        if work is None:
            work = estimates[key] = face_work(n, states, step, weight, below, result_bits)
        budget.charge(work, what)
        following = [0] * kept
        for placed, current in enumerate(states):
            if not current:
                continue
            free = n - placed
            short = kept - placed
            row = binomials[placed]
            # finishing: j >= short dice on this face, the rest below it; the
            # binomial theorem gives that sum as everything less j < short
            # each product is made before its shift: the shift leaves only
            # zeros below, and the product of the short factors costs less
            # (26d%!pk shifted the state by 800,000 bits, then multiplied)
            finish = both**free
            for j in range(short):
                ways = row[j] * weight**j
                following[placed + j] += (current * ways) << (step * j)
                finish -= ways * below ** (free - j)
            if finish:
                result += (current * finish) << (step * short)
        states = following
    return trimmed(kept * least, unpack(result, slot, length), total, cuts)


_FACE_STEPS = 2_500.0
"""The Python of one face of :func:`keep_extreme`: its estimate looked up
and charged, its weights, the new states."""
_PLACED_STEPS = 1_000.0
"""The Python for each count of dice placed so far, on one face."""
_WAY_STEPS = 700.0
"""The Python for each way of placing dice on a face, past its arithmetic."""


def face_work(
    n: int, states: list[int], step: int, weight: int, below: int, result_bits: int = 0
) -> float:
    """Estimated work of one face of :func:`keep_extreme`, from the numbers as
    long as they are when it starts: for each count of dice placed, ``short``
    states multiplied by the ways of placing ``j`` dice (``C(free, j) w**j``),
    shifted and added up, the powers of the weights in those ways, and the
    finishing factor raised to ``free``, multiplied in and added to the
    result (``result_bits`` long); ``j`` taken at the middle of its range
    (the finish's shift in full); and the Python around them, which is most
    of a face when the numbers are short (8d9998!! k4: 19 microseconds a
    face, 12 of them the loops). Measured: 94d2!!=0dl (short states, long
    weights) 1.2 s; 39d8!pk6 (states of a million bits) 1.5 s."""
    kept = len(states)
    weight_bits, below_bits = weight.bit_length(), below.bit_length()
    both_bits = (weight + below).bit_length()
    work = _FACE_STEPS
    for placed, current in enumerate(states):
        if not current:
            continue
        free, short = n - placed, kept - placed
        middle = short / 2
        state = current.bit_length()
        ways = free.bit_length() * middle + middle * weight_bits
        rest = (free - middle) * below_bits
        work += _PLACED_STEPS + short * (
            _WAY_STEPS
            + mul_work(state, ways)
            + 2 * budget.linear_work(state + ways + step * middle)
            + budget.power_work(middle * weight_bits)
            + budget.power_work(rest)
            + mul_work(ways, rest)
        )
        finish = free * both_bits
        term = state + finish + step * short
        work += (
            budget.power_work(finish)
            + mul_work(state, finish)
            + budget.linear_work(term)
            + budget.linear_work(max(term, result_bits))
        )
    return work


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
