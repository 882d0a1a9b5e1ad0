"""Every system's rolled events, exact events and sampled events agree.

A system states its verdict and events once (``Program.declare``); the base
applies that one declaration to a roll, to exact odds and to samples. This
walks every registered system and a family of forms for each, and checks:

* exactly, against brute force: every sequence of draws a small form can make
  is fed through the roll path (a stream that yields given draws), each
  weighted by its chance, so the chance of each event the rolls name is known
  exactly and compared with ``odds(...).events`` (exploding dice: the draws
  past a depth are left unresolved, and the odds must lie within that mass);
* statistically, for samples: each event's count in ``sample_events`` on a
  fixed seed lies within a binomial bound whose false-alarm rate is 1e-6.

The planted faults at the end show each check can fail.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest

from fudgedice.api import compile_roll
from fudgedice.dice.outcomes import Band, Outcomes
from fudgedice.dice.program import Program
from fudgedice.dice.roller import Roller
from fudgedice.limits import DEFAULT_LIMITS
from fudgedice.stream import Stream
from fudgedice.systems import SYSTEMS

FORMS: dict[str, tuple[str, ...]] = {
    "fudge": (
        "4dF",
        "Good vs Great",
        "Fair opp Good",
        "4dF coin",
        "2dF@d6 vs Fair",
        "3dF+1 vs 0",
    ),
    "power": ("power: 4dF+2 adv vs 3", "power: 3dF dis opp 2dF", "power: 4dF take0 vs 1"),
    "3d6fudge": ("3d6fudge: Good", "3d6fudge: Fair-2", "3d6fudge: Fair opp Mediocre"),
    "d6": (
        "d6: 2D",
        "d6: 2D+1 vs 8",
        "d6: 1D crit=cancel vs 3",
        "d6: 2D crit=ignore vs 6",
        "d6: 1D opp 1D",
        "d6: 1D opp 1D ties=meet",
        "d6: 2D dmg 1D",
        "d6: 1D weapon 1 fp dmg 1D armor 1",
        "d6: 1D unarmed fp rp=3 dmg 1D",
        "d6: 1D+2 rpb vs 5",
    ),
    "fate": (
        "fate: Good",
        "fate: Good vs Great",
        "fate: Fair opp Good",
        "fate: Good reroll vs Great",
    ),
    "fatecondensed": ("fatecondensed: Good vs Superb", "fatecondensed: Average reroll=tie vs Fair"),
    "fae": ("fae: Fair vs Good", "fae: Average opp Mediocre"),
}
"""Form families per system: plain, a difficulty, opposed, and each system's own
options (techniques, advantage, crit rules, ties, damage, reroll invokes)."""

FUDGE_DICE_ONLY = {"fudge", "power", "fate", "fatecondensed", "fae"}
"""Systems whose forms here draw below 6 for Fudge dice alone: the draws that
show the same face (-1, -1, 0, 0, +1, +1) are followed as one, weighted 2/6."""
SAMPLED_ONLY = {"3d6fudge: Fair opp Mediocre"}
"""Forms too large to enumerate in a test's time (216**2 rolls): samples and
odds are compared; each side's read is enumerated by the lone forms."""

EXTRA_DRAWS = 3
"""Draws a path may make beyond the shortest roll's before it is left
unresolved (an exploding die's chain): its mass bounds the difference."""
EXTRA_FOR = {"fate: Good reroll vs Great": 4, "fatecondensed: Average reroll=tie vs Fair": 4}
"""A reroll invoke's four dice, followed whole."""
MOST_UNRESOLVED = Fraction(1, 100)
"""Brute force leaves at most this chance unresolved, so its bound says something."""
SAMPLES = 20_000
Z = 4.9
"""A two-sided normal bound with a false-alarm rate of 1e-6 an event."""


class _Scripted(Stream):
    """A stream that yields the draws it is given, then the first of each
    range, noting each draw's range; past ``most`` draws it gives up."""

    __slots__ = ("_most", "asked", "merged", "script")

    def __init__(self, script: list[int], most: int, merged: bool) -> None:
        super().__init__(b"scripted")
        self.script = script
        self.asked: list[int] = []
        self.merged = merged
        self._most = most

    def below(self, n: int) -> int:
        index = len(self.asked)
        if index >= self._most:
            raise _Deep
        self.asked.append(n)
        choice = self.script[index] if index < len(self.script) else 0
        return choice * 2 if self.merged and n == 6 else choice

    def draws(self, n: int, count: int) -> list[int]:
        return [self.below(n) for _ in range(count)]


class _Deep(Exception):
    """A path drew more than the enumeration follows."""


def _paths(program: Program, merged: bool) -> Iterator[tuple[Fraction, list[str] | None]]:
    """Every sequence of draws the roll path makes, with its chance and the
    roll's events (None: left unresolved past the depth)."""
    first = _Scripted([], 10**6, merged)
    program.roll_with(Roller(first, DEFAULT_LIMITS), None)
    most = len(first.asked) + EXTRA_FOR.get(program.expression.text, EXTRA_DRAWS)
    script: list[int] = []
    while True:
        stream = _Scripted(script, most, merged)
        try:
            events: list[str] | None = program.roll_with(
                Roller(stream, DEFAULT_LIMITS), None
            ).events
        except _Deep:
            events = None
        ranges = [3 if merged and n == 6 else n for n in stream.asked]
        choices = script + [0] * (len(ranges) - len(script))
        yield Fraction(1, math.prod(ranges)), events
        # the next path: the last draw that has a face left moves on
        position = len(ranges) - 1
        while position >= 0 and choices[position] == ranges[position] - 1:
            position -= 1
        if position < 0:
            return
        script = [*choices[:position], choices[position] + 1]


def rolled_chances(program: Program, merged: bool) -> tuple[dict[str, Fraction], Fraction]:
    """Each rolled event's exact chance, and the mass of paths left unresolved."""
    chances: dict[str, Fraction] = {}
    unresolved = Fraction(0)
    for weight, events in _paths(program, merged):
        if events is None:
            unresolved += weight
            continue
        for name in set(events):
            chances[name] = chances.get(name, Fraction(0)) + weight
    return chances, unresolved


def check_agreement(program: Program, merged: bool, exact: bool = True, seed: int = 7) -> None:
    """Rolled, exact and sampled events of ``program`` agree (AssertionError if not)."""
    odds = program.odds()
    named = set(program.outcomes.names())
    assert set(odds.events) == named, "the odds name the declared events"
    told = set(program.outcomes.names(rolled=True)) if exact else set()
    rolled, unresolved = rolled_chances(program, merged) if exact else ({}, Fraction(0))
    assert set(rolled) <= told, (
        f"a roll names events the declaration does not: {set(rolled) - told}"
    )
    assert unresolved <= MOST_UNRESOLVED
    for name in sorted(told):
        chance, more = odds.events[name], odds.uncertain.get(name, Fraction(0))
        seen = rolled.get(name, Fraction(0))
        # brute force knows `seen` surely and at most `unresolved` more
        assert seen <= chance + more and chance <= seen + unresolved, (
            f"{name}: rolls give {seen} (+{unresolved} unresolved), odds {chance} (+{more})"
        )
    sampled = program.sample_events(SAMPLES, np.random.default_rng(seed))
    assert set(sampled.events) == named, "the samples name the declared events"
    for name, flags in sorted(sampled.events.items()):
        p = float(odds.events[name])
        p_high = p + float(odds.uncertain.get(name, 0))
        count = int(flags.sum())
        spread = Z * math.sqrt(SAMPLES * max(p_high, 1e-9) * (1 - p)) + 1
        assert SAMPLES * p - spread <= count <= SAMPLES * p_high + spread, (
            f"{name}: {count} of {SAMPLES} sampled, odds {p:.6f}"
        )


def test_every_registered_system_has_forms() -> None:
    assert set(FORMS) == set(SYSTEMS)


@pytest.mark.parametrize(
    ("system", "text"),
    [(system, text) for system in SYSTEMS for text in FORMS.get(system, ())],
    ids=lambda value: str(value),
)
def test_rolled_exact_and_sampled_events_agree(system: str, text: str) -> None:
    program = compile_roll(text)
    check_agreement(program, system in FUDGE_DICE_ONLY, exact=text not in SAMPLED_ONLY)


# planted faults: each check catches its own kind of disagreement


def _fresh(text: str) -> Program:
    """A program of its own to plant a fault in (compiled programs are shared)."""
    return copy.copy(compile_roll(text))


def test_a_roll_that_states_its_rule_again_is_caught() -> None:
    """A roll naming its events apart from the declaration (off by one)."""
    program = _fresh("Good vs Great")
    # Great is +2: the declaration's success starts there, the planted rule at +3
    planted = Outcomes((Band("success", 3, None, True), Band("failure", None, 2, True)))
    original = program.roll_with

    def roll_with(roller: Roller, seed: int | str | None) -> object:
        rolled = original(roller, seed)
        rolled.verdict, rolled.events = planted.resolve(rolled.total)
        return rolled

    program.roll_with = roll_with  # type: ignore[assignment,method-assign]
    with pytest.raises(AssertionError, match="failure: rolls give"):
        check_agreement(program, merged=program.expression.system != "d6")


def test_a_wrong_exact_chance_of_a_fact_is_caught() -> None:
    program = _fresh("d6: 2D+1 vs 8")
    program.fact_chances = lambda: {"critical": Fraction(1, 5)}  # type: ignore[method-assign]
    with pytest.raises(AssertionError, match="complication: rolls give"):
        check_agreement(program, merged=program.expression.system != "d6")


def test_a_sampler_that_misreports_a_fact_is_caught() -> None:
    program = _fresh("d6: 2D+1 vs 8")
    original = program.sample_facts

    def sample_facts(n: int, rng: np.random.Generator) -> object:
        totals, facts = original(n, rng)
        return totals, {name: ~flags for name, flags in facts.items()}

    program.sample_facts = sample_facts  # type: ignore[assignment,method-assign]
    with pytest.raises(AssertionError, match=r"complication: \d+ of \d+ sampled"):
        check_agreement(program, merged=program.expression.system != "d6")


def test_a_sampler_that_forgets_a_fact_is_refused() -> None:
    """The base never leaves a declared event silently empty."""
    program = _fresh("d6: 2D+1 vs 8")
    original = program.sample_facts
    program.sample_facts = lambda n, rng: (original(n, rng)[0], {})  # type: ignore[method-assign]
    with pytest.raises(ValueError, match="did not report the fact 'critical'"):
        program.sample_events(10, np.random.default_rng(1))
