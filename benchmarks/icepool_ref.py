"""Exact distributions from icepool, the reference for fudgedice's exact path.

Run with the project venv: `.venv/bin/python benchmarks/icepool_ref.py --report`
prints seconds per call for each form, icepool's caches cleared before each.

Caches cleared by `clear_icepool_caches()` (icepool 2.1.3):

* every `functools.cache` in icepool's modules and classes: `icepool.d` and
  `icepool.z` (they memoise the Die objects, and each Die keeps its partial
  sums in its `_sum_cache`, so a warm `d(6)` makes `100 @ d6` nearly free),
  `PoolSource._new_raw` (the global pool cache `Pool.clear_cache()` empties)
  and `wallenius._wallenius_weights`;
* `_cache` of every module-level evaluator instance (`sum_evaluator`,
  `keep_evaluator`, ...): it keeps whole Dungeons with their ascending and
  descending state tables, so a second `pool.sum()` is a dictionary lookup;
* `icepool.math.comb_row_cache`, a plain dict of binomial rows.

Other caches live on Die, Pool and Counts instances (`cached_property`), and
every form builds fresh objects, so none of those carry over between calls.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from types import ModuleType

import icepool
import icepool.math
from icepool.evaluator.multiset_evaluator_base import MultisetEvaluatorBase

Dist = tuple[tuple[int, int], ...]
"""(outcome, integer weight) pairs in ascending order; weights sum to 6**n etc."""

SLOW_SECONDS = 1.0
"""A form whose first run takes longer than this is timed once only."""


def _icepool_modules() -> Iterator[ModuleType]:
    for name, module in list(sys.modules.items()):
        if name == "icepool" or name.startswith("icepool."):
            yield module


def _clear_functools_cache(obj: object) -> None:
    cache_clear = getattr(obj, "cache_clear", None)
    if callable(cache_clear):
        cache_clear()


def clear_icepool_caches() -> None:
    """Empty every cache icepool keeps between calls (see the module doc)."""
    for module in _icepool_modules():
        for obj in list(vars(module).values()):
            if isinstance(obj, MultisetEvaluatorBase):
                vars(obj).pop("_cache", None)
            elif isinstance(obj, type) and obj.__module__ == module.__name__:
                # Cached classmethods such as PoolSource._new_raw.
                for attr in vars(obj).values():
                    _clear_functools_cache(getattr(attr, "__func__", None))
            else:
                _clear_functools_cache(obj)
    icepool.math.comb_row_cache.clear()


def _fudge() -> icepool.Die[int]:
    # Same distribution as the six-faced dF (two each of -1, 0, +1).
    return icepool.Die([-1, 0, 1])


def _dist(die: icepool.Die[int]) -> Dist:
    return tuple(die.items())


@contextmanager
def _recursion_limit(limit: int) -> Iterator[None]:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _sum_of(count: int, die: icepool.Die[int]) -> Dist:
    # `count @ die` recurses once per die in Die._sum_all, so 1000dF
    # overflows the default limit of 1000 with a RecursionError.
    with _recursion_limit(count + 1000):
        return _dist(count @ die)


def fudge_4_at_least() -> tuple[Dist, tuple[Fraction, ...]]:
    """4dF and, per outcome, the probability of that outcome or better."""
    die = 4 @ _fudge()
    return _dist(die), tuple(die.probabilities(">="))


def d6_3_keep_lowest_2() -> Dist:
    return _dist(icepool.d(6).lowest(3, 2))


def d6_4_keep_highest_3() -> Dist:
    return _dist(icepool.d(6).highest(4, 3))


def fudge_1000() -> Dist:
    """1000dF by icepool's repeated addition (`1000 @ dF`)."""
    return _sum_of(1000, _fudge())


def fudge_1000_pool() -> Dist:
    """1000dF through the multiset evaluator (`dF.pool(1000).sum()`)."""
    return _dist(_fudge().pool(1000).sum())


def d6_10() -> Dist:
    return _sum_of(10, icepool.d(6))


def d6_100() -> Dist:
    return _sum_of(100, icepool.d(6))


def d6_3_explode() -> Dist:
    """3d6!: each d6 explodes on 6, icepool's default depth of 9."""
    return _sum_of(3, icepool.d(6).explode())


FORMS: dict[str, Callable[[], object]] = {
    "4dF (+ at-least)": fudge_4_at_least,
    "3d6kl2": d6_3_keep_lowest_2,
    "4d6kh3": d6_4_keep_highest_3,
    "10d6": d6_10,
    "100d6": d6_100,
    "3d6!": d6_3_explode,
    "1000dF": fudge_1000,
    "1000dF (pool.sum)": fudge_1000_pool,
}


def time_cold(form: Callable[[], object]) -> float:
    """Seconds for one call with icepool's caches cleared first.

    GC is off while timing, as in timeit.
    """
    clear_icepool_caches()
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        form()
        return time.perf_counter() - start
    finally:
        gc.enable()


def time_form(form: Callable[[], object], repeat: int = 3) -> tuple[float, int]:
    """Best of `repeat` cold calls, or one if the first is slow; (seconds, runs)."""
    first = time_cold(form)
    if first > SLOW_SECONDS:
        return first, 1
    return min([first, *(time_cold(form) for _ in range(repeat - 1))]), repeat


def report() -> None:
    print(f"icepool {icepool.__version__}, Python {sys.version.split()[0]}")
    print(f"{'form':<20} {'seconds/call':>13} {'runs':>5}")
    for name, form in FORMS.items():
        seconds, runs = time_form(form)
        print(f"{name:<20} {seconds:>13.6f} {runs:>5}", flush=True)


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
