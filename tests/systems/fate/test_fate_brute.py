"""Fate's exact odds against brute force: all 81 ways 4dF can fall (each of
four dice -, blank or +, equally likely), and for reroll invokes every
sequence of rolls the policy could use, with the policy applied afresh
here. Reading dice by hand walks the same sequences through the roller, so
what is rolled and what is measured are one."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import fudgedice

ROLLS = list(itertools.product((-1, 0, 1), repeat=4))
"""Every way four Fudge dice fall: 81 equally likely tuples."""
FACES = {-1: "-", 0: "0", 1: "+"}
BELOW = {"fail": 0, "tie": 1, "style": 3}
"""The shifts each policy rerolls below (docs/contracts/rules.md: below 0 fail, 0 tie, 3+ style)."""


def named(shifts: int) -> str:
    if shifts < 0:
        return "fail"
    if shifts == 0:
        return "tie"
    return "succeed" if shifts <= 2 else "succeed with style"


def written(roll: tuple[int, ...]) -> list[str]:
    return [FACES[die] for die in roll]


def kept_roll(
    rolls: tuple[tuple[int, ...], ...], skill: int, against: int, policy: str
) -> tuple[int, int]:
    """(the dice that stand, rerolls spent): the first roll, then each next
    one while the policy finds the current roll short."""
    current, spent = sum(rolls[0]), 0
    for later in rolls[1:]:
        if skill + current - against >= BELOW[policy]:
            break
        current, spent = sum(later), spent + 1
    return current, spent


def as_chances(counts: Counter[int], total: int) -> dict[int, Fraction]:
    return {value: Fraction(n, total) for value, n in counts.items() if n}


def outcome_chances(chances: dict[int, Fraction], against: int) -> dict[str, Fraction]:
    out = dict.fromkeys(("fail", "tie", "succeed", "succeed with style"), Fraction(0))
    for value, p in chances.items():
        out[named(value - against)] += p
    out["success"] = out["succeed"] + out["succeed with style"]
    out["failure"] = out["fail"]
    return out


def exact(odds: fudgedice.Odds) -> dict[int, Fraction]:
    return {row.value: row.p for row in odds.outcomes if row.p}


@pytest.mark.parametrize("skill", range(-2, 9))
def test_every_skill_against_every_opposition(skill: int) -> None:
    counts = Counter(skill + sum(roll) for roll in ROLLS)
    chances = as_chances(counts, len(ROLLS))
    assert exact(fudgedice.odds(f"fate: {skill}")) == chances
    for against in range(-4, 13):
        odds = fudgedice.odds(f"fate: {skill} vs {against}")
        assert exact(odds) == chances
        assert odds.events == outcome_chances(chances, against)
        assert (
            sum(odds.events[name] for name in ("fail", "tie", "succeed", "succeed with style")) == 1
        )
        assert odds.events["success"] + odds.events["tie"] + odds.events["failure"] == 1


CASES = [
    ("Good", 3, "Great", 4, "fail", 1),
    ("Good", 3, "Great", 4, "tie", 1),
    ("Good", 3, "Great", 4, "style", 1),
    ("Fair+2", 4, "Superb", 5, "fail", 2),
    ("Average", 1, "Good", 3, "tie", 2),
    ("Legendary", 8, "Poor", -1, "fail", 1),
    ("Terrible", -2, "Legendary", 8, "style", 2),
]


@pytest.mark.parametrize(
    ("skill_text", "skill", "against_text", "against", "policy", "times"), CASES
)
def test_reroll_policy_against_every_sequence(
    skill_text: str, skill: int, against_text: str, against: int, policy: str, times: int
) -> None:
    option = "reroll" if times == 1 else f"reroll{times}"
    odds = fudgedice.odds(f"fate: {skill_text} {option}={policy} vs {against_text}")
    counts: Counter[int] = Counter()
    spent = 0
    sequences = list(itertools.product(ROLLS, repeat=times + 1))
    for rolls in sequences:
        dice, used = kept_roll(rolls, skill, against, policy)
        counts[skill + dice] += 1
        spent += used > 0
    chances = as_chances(counts, len(sequences))
    assert exact(odds) == chances
    events = outcome_chances(chances, against)
    events["reroll invoke spent"] = Fraction(spent, len(sequences))
    assert odds.events == events


@pytest.mark.parametrize(("left", "right"), [(3, 2), (0, 0), (5, -1), (-2, 8)])
def test_active_opposition_against_every_pair(left: int, right: int) -> None:
    counts = Counter((left + sum(a)) - (right + sum(b)) for a in ROLLS for b in ROLLS)
    odds = fudgedice.odds(f"fate: {left} opp {right}")
    chances = as_chances(counts, len(ROLLS) ** 2)
    assert exact(odds) == chances
    assert odds.events == outcome_chances(chances, 0)


@pytest.mark.parametrize(
    ("left", "right", "policy"), [(3, 2, "fail"), (1, 4, "tie"), (4, 4, "style")]
)
def test_opposed_reroll_against_every_sequence(left: int, right: int, policy: str) -> None:
    """The left side rerolls against what the right side rolled: 81**3 sequences."""
    sums = [sum(roll) for roll in ROLLS]
    counts: Counter[int] = Counter()
    spent = 0
    for first in sums:
        for other in sums:
            against = right + other
            short = left + first - against < BELOW[policy]
            spent += short * len(sums)
            for second in sums:
                counts[left + (second if short else first) - against] += 1
    total = len(sums) ** 3
    odds = fudgedice.odds(f"fate: {left} reroll={policy} opp {right}")
    chances = as_chances(counts, total)
    assert exact(odds) == chances
    events = outcome_chances(chances, 0)
    events["reroll invoke spent"] = Fraction(spent, total)
    assert odds.events == events


@pytest.mark.parametrize(
    ("text", "skill", "against", "policy"),
    [("fate: Good reroll vs Great", 3, 4, "fail"), ("fate: Fair reroll=tie vs 2", 2, 2, "tie")],
)
def test_dice_read_by_hand_follow_the_policy(
    text: str, skill: int, against: int, policy: str
) -> None:
    """Every first roll, and after one the policy rerolls every second roll,
    read by hand: the totals tally to the exact odds."""
    counts: Counter[int] = Counter()
    for first in ROLLS:
        _, spent = kept_roll((first, first), skill, against, policy)
        if not spent:
            rolled = fudgedice.read(text, written(first))
            assert rolled.to_dict()["details"]["rerolls"] == 0
            counts[rolled.total] += len(ROLLS)
            continue
        for second in ROLLS:
            rolled = fudgedice.read(text, written(first) + written(second))
            assert rolled.total == skill + sum(second)
            assert [die.kept for die in rolled.dice] == [False] * 4 + [True] * 4
            counts[rolled.total] += 1
    assert exact(fudgedice.odds(text)) == as_chances(counts, len(ROLLS) ** 2)


def test_opposed_dice_read_by_hand_tally_to_the_odds() -> None:
    counts: Counter[int] = Counter()
    for a in ROLLS:
        for b in ROLLS:
            rolled = fudgedice.read("fate: Good opp Fair", [*written(a), "opp", *written(b)])
            assert rolled.events[-1] == named(rolled.total)
            assert rolled.verdict in rolled.events
            counts[rolled.total] += 1
    assert exact(fudgedice.odds("fate: Good opp Fair")) == as_chances(counts, len(ROLLS) ** 2)


def test_opposed_reroll_read_by_hand_follows_the_policy() -> None:
    """Every first roll of both sides; the reroll, when the policy calls for
    one, from a spread of second rolls, written with the left side's dice."""
    seconds = ROLLS[::20]
    for a in ROLLS:
        for b in ROLLS:
            left, right = 3 + sum(a), 2 + sum(b)
            faces = [*written(a), "opp", *written(b)]
            if left - right >= 0:
                assert fudgedice.read("fate: Good reroll opp Fair", faces).total == left - right
                continue
            for second in seconds:
                # each side's dice together: the reroll's after the left side's first four
                again = [*written(a), *written(second), "opp", *written(b)]
                rolled = fudgedice.read("fate: Good reroll opp Fair", again)
                assert rolled.total == 3 + sum(second) - right
