"""Fudge (seeds 001 and 003): the ladder, traits, checks, opposed actions,
the situational roll and its even/odd coin, through the API and the CLI."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import fudgedice
from fudgedice import DiceValueError
from fudgedice.api import compile_roll
from fudgedice.cli import main
from fudgedice.dice.program import Program
from fudgedice.systems.fudge.ladders import FUDGE
from fudgedice.systems.fudge.program import FudgeProgram


def faces(text: str) -> list[str]:
    """Dice as a player jots them down: ``"+ + - 0"``."""
    return text.split()


def read(text: str, dice: str) -> fudgedice.Roll:
    return fudgedice.read(text, dice.split())


# --- the ladder ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (-7, "Terrible-4"),
        (-4, "Terrible-1"),
        (-3, "Terrible"),
        (-2, "Poor"),
        (-1, "Mediocre"),
        (0, "Fair"),
        (1, "Good"),
        (2, "Great"),
        (3, "Superb"),
        (4, "Superb+1"),
        (7, "Superb+4"),
        (9, "Superb+6"),
    ],
)
def test_ladder_names(value: int, name: str) -> None:
    assert FUDGE.name(value) == name


@pytest.mark.parametrize(
    ("trait", "level"),
    [
        ("Terrible", -3),
        ("poor", -2),
        ("MEDIOCRE", -1),
        ("Fair", 0),
        ("Good", 1),
        ("great", 2),
        ("Superb", 3),
        ("Legendary", 4),
        ("Superb+2", 5),
        ("Good-1", 0),
        ("Terrible-1", -4),
    ],
)
def test_traits_roll_the_default_dice(trait: str, level: int) -> None:
    # a trait with no dice rolls 4dF: Good means 4dF+1
    odds = fudgedice.odds(trait)
    assert odds.low == level - 4
    assert odds.high == level + 4
    assert odds.probability(level) == Fraction(19, 81)
    assert read(trait, "0 0 0 0").total == level


def test_misspelled_word_suggests_the_nearest() -> None:
    with pytest.raises(DiceValueError) as error:
        fudgedice.odds("Gret vs Good")
    assert error.value.hint == "did you mean 'Great'?"
    assert error.value.position == 0
    with pytest.raises(DiceValueError, match="not a word of the fudge ladder"):
        fudgedice.odds("Good vs Very Good")


def test_plain_roll_is_read_from_fair() -> None:
    # a situational roll: 0 is Fair, +1 Good, -1 Mediocre
    assert read("4dF", "+ + - 0").result == "+1 Good"
    assert read("4dF", "- 0 0 0").result == "-1 Mediocre"
    assert read("4dF+2", "+ 0 - +").result == "+3 Superb"
    odds = fudgedice.odds("4dF")
    assert odds.value_title == "rolled degree"
    assert odds.value_name is not None and odds.value_name(-4) == "Terrible-1"


def test_quick_read_cancels_pairs() -> None:
    rolled = read("4dF", "+ + - 0")
    assert "cancel 1 +/- pair, set aside 1 blank -> + left = +1" in rolled.text


def test_generic_rolls_are_untouched() -> None:
    for text in ("3d6", "4d6kh3", "2d6!", "3d6+2", "d%", "10d10>=8"):
        program = compile_roll(text)
        assert type(program) is Program, text
        assert fudgedice.roll(text, seed=1).result is None
    assert type(compile_roll("4dF")) is FudgeProgram
    assert type(compile_roll("3d6 + Good")) is FudgeProgram


# --- seed 001's worked examples --------------------------------------------------------


def test_nathaniel_good_bow_skill() -> None:
    # rolling 0 gives Good, +1 Great, -3 a Poor shot
    assert read("Good", "+ - 0 0").result == "+1 Good"
    assert read("Good", "+ 0 0 0").result == "+2 Great"
    assert read("Good", "- - - 0").result == "-2 Poor"


def test_captain_wallop_great_plus_two() -> None:
    # "Great +2" against a Great difficulty: Superb+1, not even close
    rolled = read("Great vs Great", "+ + 0 0")
    assert rolled.total == 4
    assert rolled.result == "+4 Superb+1 vs +2 Great: success, margin +2"
    assert rolled.verdict == "success"


def test_fair_poet_writes_a_great_poem() -> None:
    assert read("Fair", "+ + 0 0").result == "+2 Great"


# --- seed 003's worked examples --------------------------------------------------------


def test_relative_degree_from_each_side() -> None:
    # Good against Mediocre: +2 from his side, -2 from hers
    his = read("Good opp Mediocre", "0 0 0 0 0 0 0 0")
    hers = read("Mediocre opp Good", "0 0 0 0 0 0 0 0")
    assert his.total == 2
    assert hers.total == -2
    assert his.margin == 2
    assert [side.total for side in his.sides] == [1, -1]
    assert his.result == "relative degree +2: Good wins by 2"
    assert hers.result == "relative degree -2: Good wins by 2"
    assert [side.result for side in his.sides] == ["+1 Good", "-1 Mediocre"]


def test_willie_mays_superb_plus_four() -> None:
    assert read("Superb", "+ + + +").result == "+7 Superb+4"


def test_great_difficulty_cliff() -> None:
    # a rolled degree of Great or higher climbs the very hard cliff
    assert read("Good vs Great", "+ 0 0 0").verdict == "success"
    assert read("Good vs Great", "0 0 0 0").verdict == "failure"
    assert read("Good vs Great", "0 0 0 0").margin == -1


def test_situational_roll_good_or_better() -> None:
    # "none if a Situational roll gives a Good or better result": 31/81
    assert fudgedice.odds("4dF vs Good").events["success"] == Fraction(31, 81)


def test_even_odd_coin() -> None:
    odds = fudgedice.odds("4dF coin")
    assert odds.events == {"even": Fraction(41, 81), "odd": Fraction(40, 81)}
    assert f"{float(odds.events['even']):.1%}" == "50.6%"
    assert read("4dF coin", "+ 0 0 0").result == "odd"
    assert read("4dF coin", "+ - 0 0").result == "even"
    assert read("4dF coin", "+ - 0 0").to_dict()["details"]["coin"] == "even"
    with pytest.raises(DiceValueError, match="even/odd coin"):
        fudgedice.odds("4dF coin vs Good")
    with pytest.raises(DiceValueError, match="reads Fudge dice"):
        fudgedice.odds("3d6 coin")


def brute_coin(n: int) -> Fraction:
    faces = itertools.product((-1, 0, 1), repeat=n)
    return Fraction(sum(1 for roll in faces if sum(roll) % 2 == 0), 3**n)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_coin_matches_brute_force(n: int) -> None:
    assert fudgedice.odds(f"{n}dF coin").events["even"] == brute_coin(n)


# --- checks ------------------------------------------------------------------------------


def test_unopposed_odds() -> None:
    odds = fudgedice.odds("Good vs Great")
    assert odds.events == {"success": Fraction(31, 81), "failure": Fraction(50, 81)}
    assert odds.value_title == "rolled degree"


def brute_opposed(left: int, right: int) -> dict[int, Fraction]:
    counter: Counter[int] = Counter()
    for roll in itertools.product((-1, 0, 1), repeat=8):
        counter[(left + sum(roll[:4])) - (right + sum(roll[4:]))] += 1
    return {value: Fraction(count, 3**8) for value, count in counter.items()}


def test_opposed_odds_match_brute_force() -> None:
    odds = fudgedice.odds("Good opp Fair")
    expected = brute_opposed(1, 0)
    assert {o.value: o.p for o in odds.outcomes} == expected
    assert odds.events["tie"] == expected[0]
    assert odds.events["success"] == sum(p for v, p in expected.items() if v > 0)
    assert odds.events["failure"] == sum(p for v, p in expected.items() if v < 0)
    assert odds.value_title == "relative degree"


def test_opposed_sides_roll_their_dice() -> None:
    # a bare number on the other side of 'opp' is a trait level, and rolls
    assert fudgedice.odds("Good opp 0").outcomes == fudgedice.odds("Good opp Fair").outcomes
    rolled = read("4dF+1 opp Fair", "+ 0 0 0 - 0 0 0")
    assert rolled.total == 3
    assert rolled.sides[1].title == "Fair"


def test_tie_is_status_quo() -> None:
    rolled = read("Good opp Good", "0 0 0 0 0 0 0 0")
    assert rolled.result == "relative degree +0: a tie: status quo"
    assert rolled.verdict == "tie"


def test_difficulty_below_terrible_is_flagged() -> None:
    rolled = read("Poor vs Terrible-1", "0 0 0 0")
    assert "below Terrible: automatic for most characters, no roll needed" in rolled.text
    impossible = read("Poor vs Superb+4", "0 0 0 0")
    assert "can't be done" in impossible.text


def test_difficulty_is_not_a_roll() -> None:
    with pytest.raises(DiceValueError, match="a difficulty is a level"):
        fudgedice.odds("Good vs 4dF")


def test_label_and_system_prefix() -> None:
    rolled = read("fudge: Good opp Fair # archery", "0 0 0 0 0 0 0 0")
    assert rolled.label == "archery"
    assert rolled.result == "relative degree +1: Good wins by 1"


def test_sample_checks() -> None:
    values = fudgedice.sample("Good opp Fair", 2000, seed=3)
    assert set(values.tolist()) <= set(range(-7, 10))
    assert abs(values.mean() - 1) < 0.3
    coin = fudgedice.sample("4dF@4d6", 100, seed=1)
    assert set(coin.tolist()) <= set(range(-5, 6))


# --- every form of the issue measures (its speed is in benchmarks/cases_fudge.py) ---------

FORMS = [
    "Good",
    "Good vs Great",
    "Good opp Fair",
    "4dF coin",
    "4dF@d6",
    "4dF@3d6",
    "4dF@d%",
    "4dF@4d6",
    "power: 4dF+2 adv vs Superhuman",
    "power: 4dF dis2",
    "power: 4dF+2 take0",
    "power: 4dF+1 adv opp 4dF+2 dis",
]


@pytest.mark.parametrize("text", FORMS)
def test_every_form_measures_to_a_whole(text: str) -> None:
    odds = fudgedice.odds(text)
    assert sum(outcome.p for outcome in odds.outcomes) == 1
    for p in odds.events.values():
        assert 0 <= p <= 1


# --- the command line ------------------------------------------------------------------


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_read_examples() -> None:
    assert cli("read", "4dF", "+", "+", "-", "0").startswith("4dF = 1 -> +1 Good")
    assert cli("read", "4dF@3d6", "3", "3", "6").startswith("4dF@3d6 = 1 -> +1 Good")
    assert cli("read", "4dF@4d6", "p4", "p3", "n3", "n3").startswith("4dF@4d6 = 0 -> +0 Fair")
    assert cli("read", "4dF@d%", "00").startswith("4dF@d% = 4 -> +4 Superb+1")
    out = cli("read", "Good vs Great", "+", "0", "0", "-")
    assert out.startswith("Good vs Great = 1 -> +1 Good vs +2 Great: failure, margin -1")
    assert cli("read", "power: 4dF+2 take0").startswith("power: 4dF+2 take0 = 2 -> +2 Great")
    assert cli("read", "power: 4dF adv", "+", "+", "-", "-").startswith("power: 4dF adv = 1")


def test_cli_read_json() -> None:
    data = json.loads(cli("read", "--json", "Good opp Fair", *faces("+ 0 0 0 0 0 0 0")))
    assert data["total"] == 2
    assert (data["margin"], data["verdict"]) == (2, "success")
    assert [side["notation"] for side in data["sides"]] == ["Good", "Fair"]
    assert [side["total"] for side in data["sides"]] == [2, 0]


def test_cli_errors_are_clear() -> None:
    for args, message in [
        (["read", "4dF", "+", "+"], "not enough dice"),
        (["read", "4dF", "+", "+", "-", "0", "+"], "too many dice"),
        (["read", "4dF", "+", "+", "x", "0"], "not a face of dF"),
        (["roll", "Gud vs Great"], "did you mean 'Good'?"),
        (["roll", "power: 4dF adv take0"], "neither advantage nor disadvantage"),
        (["odds", "4dF", "--d100-table", "1-00=0"], "custom d% table"),
        (["odds", "4dF@d%", "--d100-table", "1=1"], "no result for roll 2, 3"),
    ]:
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_cli_roll_and_odds() -> None:
    out = cli("roll", "Good vs Great", "--seed", "1")
    assert out.startswith("Good vs Great = ")
    assert "margin" in out
    odds = cli("odds", "Good opp Fair")
    assert "success: 58.44% (142/243)" in odds
    assert "tie: 15.49% (1016/6561)" in odds
    coin = cli("odds", "4dF coin")
    assert "even: 50.62% (41/81)" in coin
    custom = cli("odds", "4dF@d%", "--d100-table", "1-50=-1, 51-00=+1")
    assert "1/2" in custom


def test_cli_custom_table_file(tmp_path: Path) -> None:
    path = tmp_path / "d100.txt"
    path.write_text("1-30=-1\n31-70=0\n71-00=+1\n", encoding="utf-8")
    out = cli("read", "--d100-table", str(path), "4dF@d%", "75")
    assert out.startswith("4dF@d% = 1 -> +1 Good")


def test_cli_tables_and_ladders() -> None:
    techniques = cli("table", "techniques")
    assert "+1 or better   38.27%   38.00%   37.50%   38.97%" in techniques
    exact = cli("table", "techniques", "--exact")
    assert "23/1296" in exact
    fudge = cli("ladder")
    assert "Superb+4" in fudge and "Terrible-4" in fudge
    power = cli("ladder", "power")
    assert "+7..+9    Superhuman" in power
    assert ">= +14        Cosmic" in power


# --- every combination either works or says why ------------------------------------

SIDES = ["Good", "4dF+1", "3dF@d6", "4dF@3d6", "4dF@d%", "4dF@4d6", "Superb-2", "2", "4dF.1"]
OPTIONS = ["", " adv", " dis2", " take0", " coin", " adv dis"]
CHECKS = ["", " vs Great", " opp Fair", " vs 3", " opp 4dF@4d6 dis"]


@settings(max_examples=150, deadline=None)
@given(
    system=st.sampled_from(["", "power: "]),
    side=st.sampled_from(SIDES),
    option=st.sampled_from(OPTIONS),
    check=st.sampled_from(CHECKS),
    seed=st.integers(0, 2**32),
)
def test_rolling_and_measuring_agree(
    system: str, side: str, option: str, check: str, seed: int
) -> None:
    text = system + side + option + check
    try:
        odds = fudgedice.odds(text)
    except fudgedice.DiceError:
        with pytest.raises(fudgedice.DiceError):
            fudgedice.roll(text, seed=seed)
        return
    assert sum(o.p for o in odds.outcomes) == 1
    rolled = fudgedice.roll(text, seed=seed)
    assert odds.probability(rolled.total) > 0, (text, rolled.total)
    assert rolled.result or type(compile_roll(text)) is Program  # a bare number
    if odds.events:
        assert sum(odds.events.values()) == 1
    # reading the very faces that were rolled gives the same roll back
    faces = [die.face.replace(" ", "0") for die in rolled.dice]
    again = fudgedice.read(text, faces)
    assert again.total == rolled.total
    assert again.text == rolled.text


@pytest.mark.parametrize(
    ("text", "even"),
    [("4dF coin", "41/81"), ("3dF coin", "13/27"), ("Good coin", "40/81")],
)
def test_the_coin_note_gives_the_chance_of_these_dice(text: str, even: str) -> None:
    assert f"even comes up with chance {even}" in fudgedice.roll(text, seed=1).text
    assert str(fudgedice.odds(text).events["even"]) == even


def test_the_coin_note_of_a_pool_with_thousands_of_digits_gives_the_percentage() -> None:
    """10000dF coin: the chance of even has some 4,800 digits, past the 4,300
    Python writes out unasked (a ValueError from roll); the note gives the
    percentage alone."""
    rolled = fudgedice.roll("fudge: 10000dF coin", seed=1517474451)
    assert "even/odd coin: even comes up with chance 50.0%" in rolled.text
    # taking zero beside 9100 dice: the same (the note's fraction, 4,343 digits)
    taken = fudgedice.roll("power: 9100dF+2 take0 vs 3", seed=1)
    assert "rolling would succeed with chance 49.7%" in taken.text
    small = fudgedice.roll("power: 4dF+2 take0 vs 3", seed=1)
    assert "rolling would succeed with chance 31/81 (38.3%)" in small.text
