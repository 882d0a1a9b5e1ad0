"""``sample(text, n, events=True)``: the totals and a boolean array per event
of ``odds(text).events``, the same names, each event's frequency within a
z-test of its exact chance (a fixed seed: the test is repeatable)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fudgedice
from fudgedice import LimitError, Sampled

ROLLS = 200_000
Z = 5.0
"""A fixed-seed z-bound: a wrong rule misses by far more (1/6 of a crit is
hundreds of standard errors at this many rolls)."""

FORMS = [
    "4dF+2",
    "Good vs Great",
    "Good opp Fair",
    "4dF coin",
    "power: Good adv vs Great",
    "power: 4dF+2 dis2 vs Superb",
    "power: 4dF+2 take0 vs Good",
    "3d6fudge: Good",
    "3d6fudge: Poor",
    "3d6fudge: Good opp Great",
    "d6: 4D+2",
    "d6: 4D+2 crit=cancel",
    "d6: 4D+2 crit=ignore vs 12",
    "d6: 4D+2 vs 15",
    "d6: 4D+2 opp 3D+1",
    "d6: 3D ties=meet opp 3D",
    "d6: 4D dmg 3D",
    "d6: 2D cp2 vs 10",
    "d6: 1D",
    "fate: Good vs Great",
    "fate: Good opp Fair",
    "fate: Good reroll vs Great",
    "fate: Good reroll2=style opp Great",
]


def _z(frequency: float, p: float, n: int) -> float:
    if p in (0.0, 1.0):
        return 0.0 if frequency == p else math.inf
    return abs(frequency - p) / math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("text", FORMS)
def test_events_agree_with_the_odds(text: str) -> None:
    sampled = fudgedice.sample(text, ROLLS, seed=11, events=True)
    assert isinstance(sampled, Sampled)
    totals, events = sampled
    odds = fudgedice.odds(text)
    assert set(events) == set(odds.events)
    for name, happened in events.items():
        assert happened.dtype == np.bool_ and happened.shape == (ROLLS,)
        # a chance a tail straddles is known within its uncertainty
        p = float(odds.events[name] + odds.uncertain.get(name, 0) / 2)
        assert _z(float(happened.mean()), p, ROLLS) < Z, name
    # the totals follow the odds too: their mean, within a z-bound
    mean, spread = float(odds.mean), odds.stdev
    assert abs(float(totals.mean()) - mean) <= Z * spread / math.sqrt(ROLLS)


def test_events_are_those_of_the_same_rolls() -> None:
    """The events belong to the very totals beside them."""
    totals, events = fudgedice.sample("d6: 4D+2 vs 15", 50_000, seed=2, events=True)
    assert (events["success"] == (totals >= 15)).all()
    assert (events["failure"] == ~events["success"]).all()
    totals, events = fudgedice.sample("d6: 4D+2 crit=cancel", 50_000, seed=2, events=True)
    # a cancelled Wild Die and highest die: the total is at most 2 + 3 * 6 - 6
    assert int(totals[events["critical failure"]].max()) <= 2 + 12


def test_same_seed_same_sample() -> None:
    first = fudgedice.sample("d6: 5D+1 opp 4D", 1000, seed=5, events=True)
    again = fudgedice.sample("d6: 5D+1 opp 4D", 1000, seed=5, events=True)
    assert (first.totals == again.totals).all()
    assert all((first.events[name] == again.events[name]).all() for name in first.events)
    assert (fudgedice.sample("d6: 5D+1 opp 4D", 1000, seed=5) == first.totals).all()


def test_events_flag_checked() -> None:
    with pytest.raises(fudgedice.DiceTypeError, match="events is True or False"):
        fudgedice.sample("4dF", 3, events="yes")  # type: ignore[call-overload]


@pytest.mark.parametrize("text", ["d6: 5D", "d6: 2D cp3", "d6: 8D crit=cancel"])
def test_d6_totals_match_the_exact_distribution(text: str) -> None:
    """The table-drawn exploding dice: every total's frequency against its chance."""
    totals = fudgedice.sample(text, ROLLS, seed=3)
    odds = fudgedice.odds(text)
    values, counts = np.unique(totals, return_counts=True)
    seen = dict(zip(values.tolist(), counts.tolist(), strict=True))
    for value in range(odds.low, odds.high + 1):
        p = float(odds.probability(value))
        assert _z(seen.get(value, 0) / ROLLS, p, ROLLS) < Z, value


@pytest.mark.parametrize(
    "text",
    [
        "fate:10000000000000000000vs Great",
        "fate: Good vs 10000000000000000000",
        "fate: Good opp 10000000000000000000",
    ],
)
def test_a_fate_roll_past_int64_is_refused_not_overflowed(text: str) -> None:
    # found by the fuzzer: NumPy raised OverflowError adding the modifier
    with pytest.raises(LimitError, match="too large to sample"):
        fudgedice.sample(text, 168, seed=18446744073709551616, events=True)
