"""Fixtures shared by the test folders: data transcribed from the seeds, the
check of exploding dice's tails against a deeper enumeration, and a forger's
rewrite of a log's hash chain."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import fudgedice
from fudgedice.log.canonical import GENESIS, entry_hash

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def seed_chart() -> list[tuple[int, int]]:
    """Seed 002's dice-reduction chart, transcribed verbatim ("Die Code | 5D |
    Wild Die"), as (5D bonus, Wild Die bonus) for 1D..50D."""
    rows = (DATA / "seed002_reduction_chart.txt").read_text("utf-8").splitlines()
    return [
        (int(five), int(wild))
        for _, five, wild in ([cell.strip() for cell in row.split("|")[:3]] for row in rows)
    ]


Chances = dict[int, Fraction]
TailCheck = Callable[[fudgedice.Odds, Chances, Chances], None]


@pytest.fixture(scope="session")
def check_tails() -> TailCheck:
    """The brute-force tests' check of the tails: see :func:`_check_tails`."""
    return _check_tails


def _check_tails(odds: fudgedice.Odds, listed: Chances, deeper: Chances) -> None:
    """The tails against an enumeration one toss deeper: every outcome the
    fast path cut off (the deeper chances less the listed ones) lies inside a
    tail, and every chance called exact lies within what the deeper
    enumeration knows of it (its own cut-off part is all it may miss)."""
    assert sum(tail.p for tail in odds.tails) == odds.truncated
    assert (odds.truncated == 0) == (odds.tails == [])
    gained = {
        value: deeper.get(value, Fraction(0)) - listed.get(value, Fraction(0)) for value in deeper
    }
    assert all(p >= 0 for p in gained.values())
    assert sum(gained.values()) <= odds.truncated
    for value, p in gained.items():
        if p:
            assert any(
                (tail.low is None or tail.low <= value)
                and (tail.high is None or value <= tail.high)
                for tail in odds.tails
            ), (value, odds.tails)
    missing = 1 - sum(deeper.values())
    assert missing < odds.truncated or odds.truncated == 0
    values = sorted(deeper)
    for value in range(values[0] - 2, values[-1] + 3):
        for low, high in ((value, None), (None, value), (value, value + 1)):
            chance = odds.chance_between(low, high)
            known = sum(
                p
                for v, p in deeper.items()
                if (low is None or v >= low) and (high is None or v <= high)
            )
            # the deeper enumeration misses only its own cut-off part
            assert known <= chance.p + chance.uncertain
            if chance.uncertain == 0:
                assert known <= chance.p <= known + missing, (low, high)
        assert odds.at_least(value) == odds.chance_between(value, None).p
        assert odds.at_most(value) == odds.chance_between(None, value).p


def _rechained(log: dict[str, Any]) -> dict[str, Any]:
    prev = GENESIS
    for entry in log["entries"]:
        entry["prev"] = prev
        entry["hash"] = prev = entry_hash(entry)
    log["head"]["hash"] = prev
    return log


@pytest.fixture(scope="session")
def rechained() -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The log (changed in place) with every hash made again, as a forger who
    holds the database would: what is left to catch a tampered entry is what
    the verifier checks beyond the chain."""
    return _rechained
