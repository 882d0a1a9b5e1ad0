"""The bounds that keep every request finite.

A roll, a measurement or a sample never hangs or exhausts the machine: past
these numbers it stops with a :class:`~fudgedice.errors.LimitError` that says
which bound was hit.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds on one request: how long a roll may be, how many dice, how much work."""

    max_text: int = 1000
    """Characters in one expression."""
    max_nesting: int = 50
    """Parentheses and unary signs inside one another."""
    max_terms: int = 100
    """Numbers, pools and words in one expression."""
    max_dice: int = 10_000
    """Dice in one pool as written, and dice actually rolled in one roll
    (explosions and rerolls included)."""
    max_sides: int = 10_000
    """Sides of one die."""
    max_chain: int = 100
    """Tosses of one die: an explosion chain or a run of rerolls. A die whose
    chance of going on is so high that a chain this long is not negligible
    (above ``chain_epsilon``) is refused outright, by rolling and measuring alike."""
    chain_epsilon: Fraction = Fraction(1, 10**12)
    """Probability that the exact odds may leave out (the tails of exploding
    dice); also the chance a chain may have of reaching ``max_chain``."""
    max_measure_bits: int = 400_000_000
    """Estimated size of an exact distribution: outcomes times bits per count."""
    max_total_bits: int = 100_000
    """Size of the common denominator of an exact distribution (all its equally
    likely ways): every chance is a fraction over it, and one such fraction of a
    million bits takes seconds to reduce or to print. 10000dF needs 15,850."""
    max_span: int = 2_000_000
    """Distance between the lowest and highest value of an exact distribution
    (``d6*1000000000`` has six outcomes but a span of five billion)."""
    max_keep_work: int = 60_000_000
    """Estimated machine-word operations of exact keep/drop odds (about a
    second of work)."""
    max_product_bits: int = 6_000_000
    """Size of the largest big-integer product (Kronecker convolution) an exact
    measure may compute: CPython multiplies big integers in about a second
    at this size, and in minutes well beyond it."""
    max_recurrence_work: int = 30_000_000
    """Estimated machine-word operations of Miller's power recurrence (CPython
    does about 30 million of these big-integer word steps a second)."""
    max_pairs: int = 2_000_000
    """Outcome pairs when multiplying or dividing two random values."""
    max_character_points: int = 20
    """Character Point dice on one side of a D6 System roll: each explodes,
    and exact odds of two sides of 20 take about a second."""
    max_float_dice: int = 1_000_000_000
    """Dice in one pool of float odds (``odds(text, exact=False)``): their cost
    grows with the spread of the total, about the square root of the dice."""
    max_float_points: int = 1 << 23
    """Values of a float distribution computed at once (the length of its
    FFT): 64 MB of complex numbers, some 0.3 s of NumPy."""
    max_samples: int = 10_000_000
    """Rolls in one call to ``sample`` (their totals alone take 80 MB)."""
    max_sample_tosses: int = 30_000_000
    """Dice one call to ``sample`` may toss (about a second of NumPy work),
    when it can't draw whole rolls from the exact distribution."""
    max_request_dice: int = 200_000
    """Dice one request may roll with every die's story kept (``-n`` runs
    included): about a second, and well under 500 MB."""
    max_request_work: int = 600_000_000
    """Estimated work of one request, every step of it together, in
    nanoseconds of CPU on the reference machine (:mod:`fudgedice.budget`):
    0.6 s, leaving room under a second for what the estimates miss."""
    max_log_bytes: int = 32 * 2**20
    """Bytes of a log or session file read: about 100,000 rolls, parsed in
    well under a second and a few hundred MB."""
    max_log_entries: int = 100_000
    """Entries in one log: verifying 10,000 takes well under a second."""
    max_log_faces: int = 1_000_000
    """Faces a log's entries list in all: verifying re-rolls every one, and
    each roll may toss no more dice than its entry lists."""


DEFAULT_LIMITS = Limits()

INT64_SAFE = 1 << 62
"""Bound on every value a NumPy sampler holds, and on the total of an exact
distribution sampled with one int64 draw: a sum or difference of two values
below it cannot overflow int64, and anything beyond it is refused, never wrapped."""
