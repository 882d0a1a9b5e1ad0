"""Every cache is charged by the bytes it holds (fudgedice.memory): one LRU
over the process, under a share of its ceiling, and a process answering a
stream of distinct large odds stays under that ceiling."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from fudgedice import memory
from fudgedice.memory import MB, Ledger, SizedCache, estimate

ROOT = Path(__file__).resolve().parents[1]


def ledger_of(limit: int) -> Ledger:
    ledger = Ledger(memory.SMALLEST_CEILING)
    ledger.limit = limit
    return ledger


def test_big_integers_are_counted_by_their_bits() -> None:
    small, big = estimate(3), estimate(3**10_000)  # 15,850 bits: 529 digits of 30 bits
    assert small == 28 and big == 28 + 528 * 4
    assert estimate((3**10_000,) * 100) >= 100 * big
    assert estimate(Fraction(3**10_000, 2**9_999)) > big + estimate(2**9_999)
    assert estimate([1, "x" * 1000, None]) > 1000


def test_objects_are_counted_through_their_fields() -> None:
    class Slotted:
        __slots__ = ("counts", "total")

        def __init__(self) -> None:
            self.counts = tuple(range(2**100, 2**100 + 1000))
            self.total = 5

    assert estimate(Slotted()) > 1000 * 36


def test_the_least_recently_used_entry_of_any_cache_goes_first() -> None:
    ledger = ledger_of(10_000)
    first = SizedCache[str, int]("first", 100, lambda value: value, ledger)
    second = SizedCache[str, int]("second", 100, lambda value: value, ledger)
    first.put("a", 4000)
    second.put("b", 4000)
    assert first.get("a") == 4000  # "a" used after "b": "b" is now the oldest
    second.put("c", 4000)
    assert first.get("a") == 4000 and second.get("b") is None and second.get("c") == 4000
    assert ledger.held == 8000 == first.held + second.held and ledger.dropped == 4000


def test_an_entry_past_half_of_the_limit_is_not_kept() -> None:
    ledger = ledger_of(10_000)
    cache = SizedCache[str, int]("cache", 100, lambda value: value, ledger)
    cache.put("small", 100)
    assert cache.put("huge", 6000) == 6000  # answered, not kept
    assert cache.get("huge") is None and cache.get("small") == 100


def test_the_count_still_bounds_a_cache() -> None:
    ledger = ledger_of(10**9)
    cache = SizedCache[int, int]("cache", 3, lambda value: 1, ledger)
    for key in range(5):
        cache.put(key, key)
    assert len(cache) == 3 and cache.get(0) is None and cache.get(4) == 4
    cache.clear()
    assert len(cache) == 0 and ledger.held == 0


def test_a_lower_ceiling_shrinks_the_caches_at_once() -> None:
    ledger = Ledger(512 * MB)
    cache = SizedCache[int, int]("cache", 1000, lambda value: MB, ledger)
    for key in range(100):
        cache.put(key, key)
    assert ledger.held == 100 * MB
    ledger.set_ceiling(64 * MB)
    assert ledger.held <= ledger.limit <= 16 * MB and cache.get(99) == 99


def test_a_cache_that_goes_gives_its_bytes_back() -> None:
    ledger = ledger_of(10**9)
    cache = SizedCache[int, int]("throwaway", 10, lambda value: 500, ledger)
    cache.put(1, 1)
    assert ledger.held == 500
    del cache
    assert ledger.held == 0 and not list(ledger.caches)


def test_the_ceiling_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(memory.CEILING_VARIABLE, "300")
    assert memory.ceiling_from_environment() == 300 * MB
    monkeypatch.setenv(memory.CEILING_VARIABLE, "lots")
    assert memory.ceiling_from_environment() == memory.DEFAULT_CEILING


STREAM = """
import json, random, resource
import fudgedice
from fudgedice.errors import DiceError
from fudgedice.memory import LEDGER, estimate

def rss():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024

chosen = random.Random(22)
most = measured = 0
for k in range({requests}):
    n, i = chosen.randint(1000, 6000), chosen.randint(-50, 50)
    try:
        odds = fudgedice.odds(f"{{n}}dF+{{i}}" if k % 2 else f"d6: {{n // 2}}D+{{i % 3}}")
    except DiceError:
        continue
    measured += estimate(odds)
    del odds
    most = max(most, rss())
print(json.dumps({{"most": most, "end": rss(), "held": LEDGER.held, "limit": LEDGER.limit,
                  "dropped": LEDGER.dropped, "ceiling": LEDGER.ceiling, "measured": measured}}))
"""


def test_a_stream_of_distinct_large_odds_stays_under_the_ceiling() -> None:
    """One process measures distinct large odds, each kept in the caches
    (a few MB apiece): without the ledger they would pass the ceiling. With
    it, the caches hold no more than their share and the process's resident
    memory stays under the ceiling (lowered to 128 MB here so that the
    stream passes it in seconds, 512 MB by default; before the ledger, this
    stream left the process at 186 MB, now 57 MB)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), memory.CEILING_VARIABLE: "128"}
    run = subprocess.run(
        [sys.executable, "-c", STREAM.format(requests=120)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    seen = json.loads(run.stdout)
    assert seen["ceiling"] == 128 * MB
    assert seen["held"] <= seen["limit"] <= 32 * MB  # a quarter, less what is set aside
    # what the caches were offered would not have fitted
    assert seen["held"] + seen["dropped"] > seen["ceiling"] and seen["measured"] > seen["ceiling"]
    assert seen["most"] < seen["ceiling"], seen
