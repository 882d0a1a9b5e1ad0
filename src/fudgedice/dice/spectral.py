"""Float odds of sums of many dice: a die's characteristic function raised to
a power by FFT, with a bound on every error it makes.

A sum of ``N`` independent dice has the spectrum of one die to the power
``N``. Three things keep it fast and honest:

* **A window.** Almost every value of ``1000000d6`` has a chance below
  float64's smallest numbers. A Chernoff bound, computed from each die's
  exact distribution, finds the values outside which the whole remaining
  probability is below ``OUTSIDE`` (about 1e-301); only the window between is
  computed, by an FFT as long as the window (a power of two), not as long as
  the range of totals. What lies outside folds onto the window (the FFT is
  circular) and adds at most that much to a value.
* **Centred dice.** Each die is placed around its mean, so the phase that
  ``N`` multiplies stays small where the spectrum is large.
* **A bound.** The rounding of the die's chances and of the forward FFT
  (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., Thm.
  24.2, at twice its constant for the mixed-radix FFT), of the power (its
  logarithm and exponential), and of the inverse FFT are each bounded from
  the numbers actually computed; the sum is :attr:`FloatSum.error`, a bound
  on the absolute error of every value's chance. Cut-off explosion chains
  add their mass (:attr:`FloatSum.truncated`). ``tests/test_float_odds.py``
  holds every bound against the exact Fractions where both can be computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .. import budget
from ..errors import LimitError
from ..limits import DEFAULT_LIMITS

FloatArray = npt.NDArray[np.float64]
ComplexArray = npt.NDArray[np.complex128]

UNIT = 2.0**-53
"""Unit round-off of float64."""
OUTSIDE_LOG = -1000 * math.log(2)
"""The natural log of ``OUTSIDE``: the probability left outside the window
on each side (2**-1000, about 1e-301)."""
OUTSIDE = 2.0**-1000
_THETAS = np.exp2(np.arange(-48.0, 12.0, 0.5))
"""Chernoff exponents tried: any one gives a valid bound, the best is kept."""
VALUE_WORK = 400 + 2 * len(_THETAS) * 25
"""Estimated work of one value of a die: its chance as a float, and its terms
of the Chernoff bound on either side."""
FFT_WORK = 30
"""Estimated work of one point of the FFTs, per level (log2 of the length)."""
PART_WORK = 60
"""Estimated work of one point for each part (its spectrum and power)."""


@dataclass(frozen=True, slots=True)
class Part:
    """``count`` dice alike: each the values ``lo, lo+1, ...`` in ``counts``
    ways of ``total`` (ways missing from the counts are a cut-off tail)."""

    lo: int
    counts: tuple[int, ...]
    total: int
    count: int

    @property
    def hi(self) -> int:
        return self.lo + len(self.counts) - 1


@dataclass(frozen=True, slots=True)
class Term:
    """``weight`` times the distribution of ``shift`` plus the sum of the
    parts (a mixture of terms describes a roll whose dice depend on a branch)."""

    parts: tuple[Part, ...]
    shift: int = 0
    weight: float = 1.0
    weight_error: float = 0.0
    """Bound on the relative error of ``weight`` (a float made from a power)."""


@dataclass(frozen=True, slots=True)
class FloatSum:
    """Chances of the values ``lo, lo+1, ...`` as float64; every other value
    has a chance of at most :attr:`error` too."""

    lo: int
    chances: FloatArray
    error: float
    """Bound on the absolute error of each value's chance (rounding, and the
    probability outside the window folded onto it)."""
    truncated: float
    """Probability of the cut-off explosion chains: not in :attr:`chances`,
    lying above (or below) the values listed."""


def _pmf(part: Part) -> FloatArray:
    # int / int is correctly rounded in Python, however long the integers
    return np.array([count / part.total for count in part.counts], dtype=np.float64)


def _log_mgf(part: Part, pmf: FloatArray, thetas: FloatArray) -> FloatArray:
    """log E[exp(theta * value)] of one die (of its listed part), for each theta."""
    values = np.arange(part.lo, part.hi + 1, dtype=np.float64)
    top = np.where(thetas > 0, values[-1], values[0])
    with np.errstate(divide="ignore"):
        weights = (np.exp(thetas[:, None] * (values[None, :] - top[:, None])) * pmf).sum(axis=1)
        logged: FloatArray = thetas * top + np.log(weights)
    return logged


def _window(term: Term, pmfs: Sequence[FloatArray]) -> tuple[int, int]:
    """Values of the term's sum outside which at most ``OUTSIDE`` of its
    probability lies on either side (Chernoff: P(S >= a) <= exp(K(t) - t a))."""
    lowest = term.shift + sum(part.count * part.lo for part in term.parts)
    highest = term.shift + sum(part.count * part.hi for part in term.parts)
    ends = []
    for thetas in (_THETAS, -_THETAS):
        cumulant = sum(
            part.count * _log_mgf(part, pmf, thetas)
            for part, pmf in zip(term.parts, pmfs, strict=True)
        )
        reach = (np.asarray(cumulant) - OUTSIDE_LOG) / thetas
        # a little slack for the rounding of the cumulant itself
        slack = 1e-9 * (np.abs(reach) + abs(term.shift)) + 2
        ends.append(reach + np.sign(thetas) * slack)
    high = float(np.min(ends[0])) + term.shift
    low = float(np.max(ends[1])) + term.shift
    return max(lowest, math.floor(low)), min(highest, math.ceil(high))


def _fft_gamma(size: int) -> float:
    """Higham's bound on the relative 2-norm error of an FFT of ``size``
    points, doubled for a mixed-radix algorithm."""
    gamma4 = 4 * UNIT / (1 - 4 * UNIT)
    eta = UNIT + gamma4 * (math.sqrt(2) + UNIT)
    levels = max(1, math.ceil(math.log2(size)))
    return 2 * levels * eta / (1 - 2 * levels * eta)


def _full(weights: FloatArray, half: FloatArray) -> float:
    """The 2-norm over the whole spectrum of a real signal's half spectrum.
    (Sums here are NumPy's own, never BLAS's ``dot``: its threads wait on a
    busy machine, 100 ms for a dot product of 16,000 numbers.)"""
    return math.sqrt(float((weights * half * half).sum()))


def _spectrum(
    part: Part, pmf: FloatArray, size: int, gamma: float
) -> tuple[ComplexArray, FloatArray, float, int, float]:
    """One die's spectrum, centred on its mean, with a bound on each modulus:
    the spectrum, the bound, the 2-norm of its error, the value at index 0,
    and the die's listed mass."""
    listed = math.fsum(pmf)
    centre = round(float((np.arange(len(pmf)) * pmf).sum()) / listed) if listed else 0
    placed = np.zeros(size)
    np.add.at(placed, (np.arange(len(pmf)) - centre) % size, pmf)
    spectrum = np.fft.rfft(placed)
    spectrum[0] = listed  # the mass, to one rounding
    mass = sum(part.counts) / part.total
    # 2-norm of the spectrum's error: the FFT's, and the chances' own rounding
    delta = (gamma + UNIT) * math.sqrt(size) * math.sqrt(float((pmf * pmf).sum()))
    modulus = np.abs(spectrum)
    upper = np.maximum(modulus, np.minimum(mass, modulus + delta))
    return spectrum, upper, delta, part.lo + centre, mass


def float_sum(terms: Sequence[Term], what: str) -> FloatSum:
    """The distribution of a mixture of sums of dice, as float64 with bounds."""
    # a weight below float64's range: the term adds less than OUTSIDE anywhere
    error = OUTSIDE * sum(1 for term in terms if term.weight == 0)
    terms = [term for term in terms if term.weight != 0]
    distinct = {part for term in terms for part in term.parts}
    budget.charge(sum(len(part.counts) for part in distinct) * VALUE_WORK, f"float odds of {what}")
    pmfs = {part: _pmf(part) for part in distinct}
    windows = [_window(term, [pmfs[part] for part in term.parts]) for term in terms]
    low = min(window[0] for window in windows)
    high = max(window[1] for window in windows)
    width = high - low + 1
    size = max(2, 1 << (width - 1).bit_length())
    limit = DEFAULT_LIMITS.max_float_points
    if size > limit:
        raise LimitError(
            f"float odds of {what} would compute {size:,} values at once, more than the "
            f"limit of {limit:,}",
            hint="fewer dice, or fewer sides: the values that matter grow with the spread",
        )
    levels = size.bit_length()
    budget.charge(
        size * (FFT_WORK * levels * (1 + len(terms)) + PART_WORK * (len(pmfs) + len(terms))),
        f"float odds of {what}",
    )
    half = size // 2 + 1
    weights = np.full(half, 2.0)
    weights[0] = weights[-1] = 1.0  # k = 0 and k = size/2 appear once in the full spectrum
    gamma = _fft_gamma(size)
    spectra = {part: _spectrum(part, pmf, size, gamma) for part, pmf in pmfs.items()}
    chances = np.zeros(width)
    truncated = 0.0
    for term, (term_low, term_high) in zip(terms, windows, strict=True):
        if term_low > term_high:
            continue
        logged = np.zeros(half, dtype=np.complex128)
        log_upper = np.zeros(half)
        with np.errstate(divide="ignore", invalid="ignore"):
            for part in term.parts:
                spectrum, upper, _, _, _ = spectra[part]
                logged += part.count * np.log(spectrum)
                log_upper += part.count * np.log(upper)
            powered = np.exp(logged)
        powered[~np.isfinite(logged.real)] = 0  # a zero of the spectrum: exp(-inf)
        rolled = np.fft.irfft(powered, size)
        offset = term.shift + sum(part.count * spectra[part][3] for part in term.parts)
        # the value low + j lies at index (low + j - offset) mod size
        index = (np.arange(width) + low - offset) % size
        scale = term.weight
        chances += scale * rolled[index]
        # the bound: forward spectra (Cauchy-Schwarz over the spectrum), power, inverse
        forward = 0.0
        for part in term.parts:
            _, upper, delta, _, _ = spectra[part]
            others = np.exp(log_upper - np.log(upper))  # upper >= delta > 0
            forward += part.count * delta * _full(weights, others)
        exponent = np.where(np.isfinite(logged.real), np.abs(logged), 0.0)
        powering = float((weights * 8 * UNIT * (exponent + 2) * np.abs(powered)).sum())
        inverse = gamma * _full(weights, np.abs(powered)) / math.sqrt(size)
        inverse += UNIT * float(np.max(np.abs(rolled)))
        error += abs(scale) * ((forward + powering) / size + inverse) * (1 + 4 * UNIT)
        # the weight's own error, its rounding, and the rounding of the sum of terms
        error += (term.weight_error + 2 * UNIT) * abs(scale) * float(np.max(np.abs(rolled)))
        error += 2 * OUTSIDE * abs(scale)  # folded onto the window from either side
        # each die's cut-off chance, rounded up: a union bound over the dice
        lost = sum(part.count * (part.total - sum(part.counts)) / part.total for part in term.parts)
        truncated += abs(scale) * min(1.0, lost * (1 + 4 * UNIT))
    np.maximum(chances, 0.0, out=chances)  # every true chance is >= 0: never further away
    return FloatSum(low, chances, error * (1 + 1e-6), truncated * (1 + 1e-9))
