"""Hand-written NumPy baselines for fudgedice's sampling and float paths.

Run with the project venv: `.venv/bin/python benchmarks/numpy_baseline.py --report`
prints best-of-5 seconds per call, timeit-style.

* Sampling 4dF+2 10**6 times, two ways: the obvious per-die roll and a
  faster one that is just as honest (see `sample_fudge_sum`).
* The 1000dF distribution by 1000 float64 `np.convolve` steps, a reference
  for a float path, not an exact result: the far tails (past float64's
  smallest values, ~5e-324) underflow to 0.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from collections.abc import Callable
from functools import partial

import numpy as np
import numpy.typing as npt

SEED = 20240601
SAMPLES = 10**6
REPEAT = 5

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def sample_fudge_sum_naive(
    rng: np.random.Generator, n: int, dice: int = 4, modifier: int = 2
) -> IntArray:
    """n rolls of {dice}dF+{modifier}: one integer in [-1, 1] per die, summed."""
    totals: IntArray = rng.integers(-1, 2, size=(n, dice)).sum(axis=1) + modifier
    return totals


def fudge_sum_table(dice: int, modifier: int = 0) -> IntArray:
    """Total of {dice}dF+{modifier} for each integer 0 .. 3**dice - 1.

    The integer's base-3 digits, minus one each, are the dice.
    """
    codes = np.arange(3**dice)
    digits = codes[:, np.newaxis] // 3 ** np.arange(dice) % 3
    totals: IntArray = digits.sum(axis=1) - dice + modifier
    return totals


def sample_fudge_sum(
    rng: np.random.Generator, n: int, dice: int = 4, modifier: int = 2
) -> IntArray:
    """n rolls of {dice}dF+{modifier}, drawing one integer per roll, not per die.

    The 3**dice face tuples are equally likely and map one-to-one onto the
    integers 0 .. 3**dice - 1, so one uniform draw in that range is one roll
    of all the dice. It has exactly the naive sampler's distribution, and it
    is about 10x faster: 1 draw and a table lookup instead of 4 draws and an
    axis sum. Only sensible while 3**dice is small.
    """
    table = fudge_sum_table(dice, modifier)
    return table[rng.integers(0, table.size, size=n)]


def fudge_sum_pmf(dice: int) -> FloatArray:
    """P(total of {dice}dF == k) at index k + dice, by repeated convolution.

    Each step convolves with the one-die pmf (1/3 each) rather than counts:
    3**1000 overflows float64, probabilities only underflow in the tails.
    """
    face = np.full(3, 1 / 3)
    pmf = np.ones(1)
    for _ in range(dice):
        pmf = np.convolve(pmf, face)
    return pmf


def _fft_power(pmf: FloatArray, n: int) -> FloatArray:
    """The pmf of the sum of ``n`` independent values of ``pmf`` by one real
    FFT: transform (zero-padded past the sum's length), raise, transform back."""
    length = n * (len(pmf) - 1) + 1
    size = 1 << (length - 1).bit_length()
    spectrum = np.fft.rfft(pmf, size) ** n
    out: FloatArray = np.fft.irfft(spectrum, size)[:length]
    return out


def uniform_sum_pmf(dice: int, sides: int) -> FloatArray:
    """P(sum of {dice}d{sides} == k) at index k - dice, by FFT."""
    return _fft_power(np.full(sides, 1 / sides), dice)


def exploding_chain_pmf(sides: int, depth: int) -> FloatArray:
    """One d{sides}! exploding on its top face, followed ``depth`` tosses deep
    as fudgedice follows it (the chains whose ``depth`` tosses all exploded
    are cut off): P(total == k) at index k."""
    pmf = np.zeros(sides * depth)
    chance = 1 / sides
    for level in range(depth):
        start = level * sides + 1
        pmf[start : start + sides - 1] = chance ** (level + 1)
    return pmf


def exploding_sum_pmf(dice: int, sides: int, depth: int) -> FloatArray:
    """{dice}d{sides}!, each chain cut ``depth`` tosses deep: the float FFT
    of the same truncated pool fudgedice measures exactly (index: total)."""
    return _fft_power(exploding_chain_pmf(sides, depth), dice)


def successes_pmf(dice: int, chance: float) -> FloatArray:
    """P(k of {dice} dice succeed), each with ``chance``, by FFT."""
    return _fft_power(np.array([1 - chance, chance]), dice)


def wild_die_pmf(dice: int, depth: int) -> FloatArray:
    """The D6 System's ``{dice}D`` (default complication: the total is read
    as rolled): {dice - 1}d6 plus one exploding Wild Die, by FFT."""
    wild = exploding_chain_pmf(6, depth)
    if dice == 1:
        return wild
    plain = np.zeros(6 * (dice - 1) + 1)
    plain[dice - 1 :] = uniform_sum_pmf(dice - 1, 6)
    length = len(plain) + len(wild) - 1
    size = 1 << (length - 1).bit_length()
    both: FloatArray = np.fft.irfft(np.fft.rfft(plain, size) * np.fft.rfft(wild, size), size)
    return both[:length]


def keep_highest_pmf(dice: int, sides: int, kept: int) -> FloatArray:
    """P(sum of the {kept} highest of {dice}d{sides} == k) at index k - kept,
    in floats: the faces from the highest down, an array of kept sums for
    each number of dice placed so far (fewer than {kept}); once {kept} are
    placed the rest are lower, and their chance folds into one factor."""
    from math import comb

    length = kept * (sides - 1) + 1
    states = np.zeros((kept, length))
    states[0, 0] = 1.0
    result = np.zeros(length)
    chance = 1 / sides
    for face in range(sides, 0, -1):
        below = (face - 1) / sides
        step = face - 1
        following = np.zeros_like(states)
        for placed in range(kept):
            current = states[placed]
            free, short = dice - placed, kept - placed
            stay = (face / sides) ** free
            for j in range(short):
                ways = comb(free, j) * chance**j * below ** (free - j)
                weight = comb(free, j) * chance**j
                stay -= ways
                if j * step < length:
                    following[placed + j, j * step :] += weight * current[: length - j * step]
            if short * step < length and stay > 0:
                result[short * step :] += stay * current[: length - short * step]
        states = following
    return result


# ------------------------------------------------- the systems' rules, by hand
# Each samples n rolls of one game rule the way a NumPy user would write it:
# every die tossed, vectorised over the rolls (benchmarks/sampling.py times
# fudgedice.sample against them).


def sample_fudge_check(
    rng: np.random.Generator, n: int, skill: int = 1, difficulty: int = 2
) -> tuple[IntArray, npt.NDArray[np.bool_]]:
    """Good vs Great: 4dF + skill, and whether it reached the difficulty."""
    degree = rng.integers(-1, 2, size=(n, 4)).sum(axis=1) + skill
    return degree, degree >= difficulty


def sample_power_advantage(rng: np.random.Generator, n: int, skill: int = 2) -> IntArray:
    """power: 4dF+2 adv: one - result ignored when any die shows -."""
    faces = rng.integers(-1, 2, size=(n, 4))
    totals: IntArray = faces.sum(axis=1) + (faces == -1).any(axis=1) + skill
    return totals


def sample_fudge_3d6(rng: np.random.Generator, n: int, skill: int = 6) -> IntArray:
    """3d6fudge: Good: triples first, then skill less the two lowest dice."""
    dice = rng.integers(1, 7, size=(n, 3))
    margin = skill - (dice.sum(axis=1) - dice.max(axis=1))
    triple = (dice[:, 0] == dice[:, 1]) & (dice[:, 1] == dice[:, 2])
    face = dice[:, 0]
    margin = np.where(triple & (face <= 2), np.maximum(margin, 0), margin)
    margin = np.where(triple & (face >= 5), np.minimum(margin, -1), margin)
    pinned: IntArray = np.where(
        triple & ((face == 3) | (face == 4)), 0 if skill >= 2 else -1, margin
    )
    return pinned


def sample_d6_wild(
    rng: np.random.Generator, n: int, dice: int = 4, pips: int = 2, cancel: bool = False
) -> tuple[IntArray, npt.NDArray[np.bool_]]:
    """d6: 4D+2: three d6 and a Wild Die that explodes on 6; its first 1 is a
    critical failure (crit=cancel: it and the highest other die count 0)."""
    plain = rng.integers(1, 7, size=(n, dice - 1))
    first = rng.integers(1, 7, size=n)
    wild = first.copy()
    live = np.flatnonzero(first == 6)
    while live.size:
        again = rng.integers(1, 7, size=live.size)
        wild[live] += again
        live = live[again == 6]
    totals = plain.sum(axis=1) + wild + pips
    critical = first == 1
    if cancel:
        totals = totals - np.where(critical, wild + plain.max(axis=1), 0)
    return totals, critical


def sample_fate_check(
    rng: np.random.Generator, n: int, skill: int = 3, against: int = 4
) -> IntArray:
    """fate: Good vs Great: 4dF + skill, shifts against the opposition."""
    shifts: IntArray = rng.integers(-1, 2, size=(n, 4)).sum(axis=1) + skill - against
    return shifts


# ------------------------------------------------- float odds past exact, by hand


def pool_pmf_fft(face_pmf: FloatArray, dice: int) -> FloatArray:
    """The distribution of `dice` dice of one pmf: its rfft to the power, on a
    power-of-two length that holds every total (np.fft's fast case)."""
    length = dice * (len(face_pmf) - 1) + 1
    size = 1 << (length - 1).bit_length()
    spectrum = np.fft.rfft(face_pmf, size)
    pmf: FloatArray = np.fft.irfft(spectrum**dice, size)[:length]
    return pmf


def d6_system_pmf_fft(dice: int, depth: int = 20) -> FloatArray:
    """d6: ND: N-1 d6 and a Wild Die exploding on 6, followed `depth` tosses."""
    wild = np.zeros(6 * depth)
    for sixes in range(depth):
        wild[6 * sixes + 1 : 6 * sixes + 6] = 6.0 ** -(sixes + 1)  # 6k + r, r = 1..5
    length = (dice - 1) * 5 + 1 + len(wild)
    size = 1 << (length - 1).bit_length()
    spectrum = np.fft.rfft(np.full(6, 1 / 6), size) ** (dice - 1) * np.fft.rfft(wild, size)
    pmf: FloatArray = np.fft.irfft(spectrum, size)[:length]
    return pmf


def best_seconds(func: Callable[[], object], repeat: int = REPEAT) -> float:
    """Best of `repeat` runs, each of enough loops for >= 0.2 s, per call."""
    timer = timeit.Timer(func)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number


def benchmarks(seed: int = SEED) -> dict[str, Callable[[], object]]:
    rng = np.random.default_rng(seed)
    return {
        "4dF+2 x10**6 naive": partial(sample_fudge_sum_naive, rng, SAMPLES),
        "4dF+2 x10**6 base-3": partial(sample_fudge_sum, rng, SAMPLES),
        "1000dF pmf convolve": partial(fudge_sum_pmf, 1000),
    }


def report() -> None:
    print(f"numpy {np.__version__}, Python {sys.version.split()[0]}")
    print(f"{'baseline':<22} {'seconds/call':>13}")
    for name, func in benchmarks().items():
        print(f"{name:<22} {best_seconds(func):>13.6f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="print the timing table")
    args = parser.parse_args(argv)
    if args.report:
        report()
    else:
        parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
