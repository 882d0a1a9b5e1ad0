"""Power Fudge (seed 000): target numbers, its ladder, advantage, take zero."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import fudgedice
from fudgedice import DiceValueError

FACES = (-1, 0, 1)


def faces(text: str) -> list[str]:
    """Dice as a player jots them down: ``"+ + - 0"``."""
    return text.split()


def brute(n: int, level: int, faces: tuple[int, ...] = FACES) -> dict[int, Fraction]:
    """Every face sequence; advantage strikes ``level`` minus results from the
    list (disadvantage, plus results), then the rest is added up."""
    counter: Counter[int] = Counter()
    for roll in itertools.product(faces, repeat=n):
        kept = list(roll)
        for _ in range(abs(level)):
            target = -1 if level > 0 else 1
            if target in kept:
                kept.remove(target)
        counter[sum(kept)] += 1
    total = len(faces) ** n
    return {value: Fraction(count, total) for value, count in counter.items()}


def ours(text: str) -> dict[int, Fraction]:
    return {outcome.value: outcome.p for outcome in fudgedice.odds(text).outcomes}


OPTION = {2: "adv2", 1: "adv", 0: "", -1: "dis", -2: "dis2"}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8])
@pytest.mark.parametrize("level", [2, 1, 0, -1, -2])
def test_advantage_matches_brute_force(n: int, level: int) -> None:
    assert ours(f"power: {n}dF {OPTION[level]}") == brute(n, level)


@pytest.mark.parametrize("level", [2, 1, -1, -2])
def test_advantage_on_other_dice(level: int) -> None:
    # dF.1 (one +, one -, four blanks) and ordinary d6 read as Fudge dice
    assert ours(f"power: 4dF.1 {OPTION[level]}") == brute(4, level, (-1, 0, 0, 0, 0, 1))
    d6_read = (-1, -1, 0, 0, 1, 1)
    assert ours(f"power: 3dF@d6 {OPTION[level]}") == brute(3, level, d6_read)


def test_levels_add_and_cancel() -> None:
    assert ours("power: 4dF adv adv") == ours("power: 4dF adv2")
    assert ours("power: 4dF adv dis") == ours("power: 4dF")
    assert ours("power: 4dF adv2 dis") == ours("power: 4dF adv")
    assert ours("power: 4dF dis dis2 adv") == ours("power: 4dF dis2")
    with pytest.raises(DiceValueError, match="stacks once at most"):
        fudgedice.odds("power: 4dF adv2 adv")
    with pytest.raises(DiceValueError, match="stacks once at most"):
        fudgedice.odds("power: 4dF dis dis dis")


def test_seed_000_advantage_example() -> None:
    # "+ + - -" with advantage is +1, with disadvantage -1
    assert fudgedice.read("power: 4dF adv", faces("+ + - -")).total == 1
    assert fudgedice.read("power: 4dF dis", faces("+ + - -")).total == -1
    assert fudgedice.read("power: 4dF adv2", faces("+ + - -")).total == 2
    assert fudgedice.read("power: 4dF dis2", faces("+ + - -")).total == -2
    assert fudgedice.read("power: 4dF adv dis", faces("+ + - -")).total == 0
    # with no - showing, advantage changes nothing
    assert fudgedice.read("power: 4dF adv", faces("+ 0 0 +")).total == 2


def test_explanation_shows_the_ignored_die() -> None:
    rolled = fudgedice.read("power: 4dF adv", faces("+ + - -"))
    assert "advantage: ignored one - (die 3)" in rolled.text
    assert "([-] ignored)" in rolled.text
    assert [die.kept for die in rolled.dice] == [True, True, False, True]
    nothing = fudgedice.read("power: 4dF adv", faces("+ 0 0 +"))
    assert "advantage: no - to ignore" in nothing.text
    double = fudgedice.read("power: 4dF dis2", faces("+ + - -"))
    assert "double disadvantage: ignored two + (dice 1, 2)" in double.text
    cancel = fudgedice.read("power: 4dF adv dis", faces("+ + - -"))
    assert "cancel" in cancel.text


def test_seed_000_take_zero() -> None:
    # taking zero on 4dF+2 gives +2, and no dice are read
    rolled = fudgedice.read("power: 4dF+2 take0", [])
    assert rolled.total == 2
    assert rolled.result == "+2 Great"
    assert rolled.dice == []
    assert "take zero" in rolled.text
    assert fudgedice.roll("power: 4dF+2 take0", seed=5).total == 2
    assert fudgedice.odds("power: 4dF+2 take0").probability(2) == 1
    # ... and a +3 target is then missed (seed 000)
    assert fudgedice.read("power: 4dF+2 take0 vs 3", []).verdict == "failure"
    assert fudgedice.odds("power: 4dF+2 take0 vs 3").events["success"] == 0


@pytest.mark.parametrize("options", ["adv take0", "take0 dis", "adv2 dis take0", "take0 adv2"])
def test_take_zero_with_advantage_is_an_error(options: str) -> None:
    with pytest.raises(DiceValueError, match="neither advantage nor disadvantage"):
        fudgedice.odds(f"power: 4dF+2 {options}")


@pytest.mark.parametrize("options", ["adv dis take0", "take0 adv2 dis2"])
def test_take_zero_when_advantage_and_disadvantage_cancel(options: str) -> None:
    # seed 000: equal levels cancel "and the roll is made as normal", so it may take zero
    rolled = fudgedice.read(f"power: 4dF+2 {options}", [])
    assert rolled.total == 2
    assert "advantage and disadvantage cancel" in rolled.text
    assert fudgedice.odds(f"power: 4dF+2 {options}").probability(2) == 1


def test_taking_zero_is_a_choice_not_an_impossibility() -> None:
    short = fudgedice.read("power: 4dF+2 take0 vs 3", [])
    assert "can't be done" not in short.text
    assert "taking zero fails for certain; rolling would succeed with chance 31/81" in short.text
    assert fudgedice.odds("power: 4dF+2 vs 3").events["success"] == Fraction(31, 81)
    made = fudgedice.read("power: 4dF+2 take0 vs 1", [])
    assert "taking zero succeeds for certain" in made.text


def test_seed_000_superhuman_needs_seven() -> None:
    odds = fudgedice.odds("power: 4dF+4 vs Superhuman")
    assert odds.events["success"] == fudgedice.odds("4dF").at_least(3)
    assert fudgedice.read("power: 4dF+4 vs Superhuman", faces("+ + + 0")).margin == 0
    rolled = fudgedice.read("power: 4dF+4 vs Superhuman", faces("+ + 0 0"))
    assert (rolled.total, rolled.verdict, rolled.margin) == (6, "failure", -1)
    assert rolled.to_dict()["details"] == {
        "ladder": "power",
        "rolled_degree": 6,
        "difficulty": 7,
        "coin": None,
    }
    assert rolled.result == "+6 Legendary vs +7 Superhuman: failure, margin -1"
    assert fudgedice.odds("power: 4dF vs 7").events["success"] == 0


def test_seed_000_examples_of_reading() -> None:
    # plus, plus, minus, blank totals +1; minus, minus, blank, blank -2
    assert fudgedice.read("power: 4dF", faces("+ + - 0")).total == 1
    assert fudgedice.read("power: 4dF", faces("- - 0 0")).total == -2
    # 4dF+2 rolling + - + - is +2: a Great result
    assert fudgedice.read("power: 4dF+2", faces("+ - + -")).result == "+2 Great"


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (-9, "Subhuman"),
        (-4, "Subhuman"),
        (-3, "Terrible"),
        (0, "Fair"),
        (3, "Superb"),
        (4, "Incredible"),
        (5, "Legendary"),
        (6, "Legendary"),
        (7, "Superhuman"),
        (9, "Superhuman"),
        (10, "Unearthly"),
        (13, "Unearthly"),
        (14, "Cosmic"),
        (40, "Cosmic"),
    ],
)
def test_power_ladder(value: int, name: str) -> None:
    rolled = fudgedice.read(
        f"power: 4dF + {value}" if value >= 0 else f"power: 4dF - {-value}", faces("0 0 0 0")
    )
    assert rolled.result == f"{value:+d} {name}"


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("Subhuman", -4),
        ("superhuman", 7),
        ("LEGENDARY", 5),
        ("Unearthly", 10),
        ("Cosmic", 14),
        ("Incredible", 4),
        ("Good", 1),
    ],
)
def test_power_target_words(word: str, value: int) -> None:
    rolled = fudgedice.read(f"power: 4dF vs {word}", faces("0 0 0 0"))
    assert rolled.to_dict()["details"]["difficulty"] == value


def test_power_odds_names_results() -> None:
    odds = fudgedice.odds("power: 4dF+6")
    naming = odds.value_name
    assert naming is not None
    named = {outcome.value: naming(outcome.value) for outcome in odds.outcomes}
    assert named[2] == "Great"
    assert named[10] == "Unearthly"
    assert odds.value_title == "result"


def test_power_words_and_options_are_power_only() -> None:
    with pytest.raises(DiceValueError, match="Power Fudge option"):
        fudgedice.odds("4dF adv")
    with pytest.raises(DiceValueError, match="not a word of the fudge ladder"):
        fudgedice.odds("4dF vs Superhuman")
    with pytest.raises(DiceValueError, match="unknown option"):
        fudgedice.odds("power: 4dF adv3")
    with pytest.raises(DiceValueError, match="one pool of Fudge dice"):
        fudgedice.odds("power: 4dF + 2dF adv")
    with pytest.raises(DiceValueError, match="gives a result"):
        fudgedice.odds("power: 4dF@3d6 adv")
    with pytest.raises(DiceValueError, match="without modifiers"):
        fudgedice.odds("power: 4dFkh3 adv")


def test_power_misspelled_word_suggests() -> None:
    with pytest.raises(DiceValueError) as error:
        fudgedice.odds("power: 4dF vs Superhumn")
    assert error.value.hint == "did you mean 'Superhuman'?"
    assert error.value.position == 14


def test_power_bare_modifier_rolls_the_dice() -> None:
    assert ours("power: +2") == ours("power: 4dF+2")
    assert ours("power: 2 adv") == ours("power: 4dF+2 adv")


def test_power_opposed_with_advantage() -> None:
    odds = fudgedice.odds("power: 4dF adv opp 4dF")
    left = brute(4, 1)
    right = brute(4, 0)
    expected: dict[int, Fraction] = {}
    for a, pa in left.items():
        for b, pb in right.items():
            expected[a - b] = expected.get(a - b, Fraction(0)) + pa * pb
    assert {o.value: o.p for o in odds.outcomes} == expected
    assert sum(odds.events.values()) == 1


def test_advantage_on_many_dice_is_fast_and_whole() -> None:
    odds = fudgedice.odds("power: 1000dF adv2")
    assert sum(outcome.p for outcome in odds.outcomes) == 1
    assert odds.low == -998
    assert odds.high == 1000


def test_rolls_with_advantage_are_possible_values() -> None:
    possible = set(ours("power: 4dF+1 adv2"))
    for seed in range(50):
        assert fudgedice.roll("power: 4dF+1 adv2", seed=seed).total in possible
