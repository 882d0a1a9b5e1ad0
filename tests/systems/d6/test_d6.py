"""The D6 System: die codes, the Wild Die, CP and FP, dice reduction,
difficulties, opposed rolls, dice read by hand, sampling and the CLI."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

import fudgedice
from fudgedice import Mark
from fudgedice.api import compile_roll
from fudgedice.cli import main
from fudgedice.dice.roller import Roller
from fudgedice.stream import seeded
from fudgedice.systems.d6.program import D6Program


def _rules(text: str) -> D6Program:
    program = compile_roll(text)
    assert isinstance(program, D6Program)
    return program


# --- die codes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("d6: 4D+2", "4D+2"),
        ("d6: 2D+3", "3D"),
        ("d6: 4D+2 +1D", "5D+2"),
        ("d6: 4D-1", "3D+2"),
        ("d6: 4d+5", "5D+2"),
        ("d6: (2D+1) + (1D+2) - 1", "3D+2"),
        ("d6: 4D+2 fp", "9D+1"),
    ],
)
def test_codes_are_normalised(text: str, code: str) -> None:
    assert str(_rules(text).left.code) == code


def test_normalised_code_is_explained() -> None:
    roll = fudgedice.read("d6: 2D+3", ["4", "5", "w2"])
    assert roll.total == 11
    assert "2D+3 reads as 3D (three pips make a die)" in roll.steps


def test_same_tree_rolls_and_measures() -> None:
    for text in ["d6: 3D+1", "d6: 4D crit=cancel cp1", "d6: 30D fast", "d6: 2D opp 1D+2"]:
        odds = fudgedice.odds(text)
        for seed in range(40):
            total = fudgedice.roll(text, seed=seed).total
            assert odds.probability(total) > 0, (text, seed)


# --- the Wild Die --------------------------------------------------------------------------


def test_wild_die_explodes_and_the_chain_is_shown() -> None:
    roll = fudgedice.read("d6: 3D+1", "4 2 w6 w6 w3")
    assert roll.total == 4 + 2 + 15 + 1
    assert "wild die 6+6+3 = 15 (exploded twice)" in roll.steps
    assert "wild die: 6! 6! 3 = 15" in roll.text
    assert roll.events == []


def test_a_one_after_a_six_is_just_one() -> None:
    roll = fudgedice.read("d6: 2D crit=cancel", "3 w6 w1")
    assert roll.total == 10
    assert roll.events == []


def test_complication_keeps_the_total() -> None:
    roll = fudgedice.read("d6: 3D+2", "5 4 w1")
    assert roll.total == 12
    assert roll.events == ["critical failure", "complication"]
    assert roll.to_dict()["details"]["complication"] is True


def test_cancel_removes_the_one_and_the_highest_other_die() -> None:
    roll = fudgedice.read("d6: 4D+1 crit=cancel", "2 6 3 w1")
    assert roll.total == 2 + 3 + 1
    assert roll.events == ["critical failure"]
    assert "cancelled: wild 1 and highest die 6 (critical failure)" in roll.steps
    assert "(6 cancelled)" in roll.text and "(1 cancelled)" in roll.text
    assert [die.kept for die in roll.dice] == [True, False, True, False]


def test_ignore_flags_nothing() -> None:
    roll = fudgedice.read("d6: 2D crit=ignore", "3 w1")
    assert (roll.total, roll.events) == (4, [])
    assert "critical failure" not in fudgedice.odds("d6: 2D crit=ignore").events


def test_nowild_never_explodes() -> None:
    odds = fudgedice.odds("d6: 2D nowild")
    assert (odds.low, odds.high, odds.truncated) == (2, 12, Fraction(0))
    assert odds.events == {}


# --- Character Points and Fate Points ------------------------------------------------------


def test_character_point_dice_explode_but_never_fail() -> None:
    roll = fudgedice.read("d6: 2D cp2", "3 w4 c1 c6 c2")
    assert roll.total == 3 + 4 + 1 + 8
    assert roll.events == []
    assert "character point die 6+2 = 8 (exploded once)" in roll.steps


def test_fate_point_doubles_dice_and_pips_with_one_wild_die() -> None:
    program = _rules("d6: 4D+2 fp")
    assert program.left.shape().plain == 8
    assert program.left.shape().wild
    roll = program.roll(seeded(3), 3)
    assert "Fate Point: 4D+2 doubled to 8D+4 = 9D+1" in roll.steps


def test_cp_and_fp_together_need_the_gm() -> None:
    with pytest.raises(fudgedice.DiceValueError) as caught:
        fudgedice.roll("d6: 4D cp2 fp")
    assert "GM" in caught.value.message
    assert caught.value.hint == "if your GM allows it, add 'allow=cpfp'"
    assert fudgedice.roll("d6: 4D cp2 fp allow=cpfp", seed=1).total > 0


# --- dice reduction ------------------------------------------------------------------------


def test_seed_example_30d_fast_rolls_five_dice_and_adds_88() -> None:
    roll = fudgedice.roll("d6: 30D fast", seed=5)
    plain = [die for die in roll.dice if Mark.WILD not in die.marks]
    wild = [die for die in roll.dice if Mark.WILD in die.marks]
    assert len(plain) == 4 and wild
    assert roll.total == sum(die.value for die in roll.dice) + 88
    odds = fudgedice.odds("d6: 30D fast crit=ignore")
    assert odds.low == 5 + 88


def test_seed_example_10d_wild_die_only_adds_32() -> None:
    roll = fudgedice.read("d6: 10D wildonly", ["w4"])
    assert roll.total == 36
    odds = fudgedice.odds("d6: 10D wildonly")
    assert odds.low == 33
    assert odds.probability(33) == Fraction(1, 6)


def test_wild_die_only_critical_failure_never_changes_the_total() -> None:
    for crit in ["complication", "cancel"]:
        roll = fudgedice.read(f"d6: 10D+1 wildonly crit={crit}", ["w1"])
        assert roll.total == 1 + 32 + 1
        assert roll.events == ["critical failure", "complication"]


def test_fate_point_looks_up_the_doubled_code() -> None:
    # 15D doubled is 30D: five dice and the 30D row's +88
    assert fudgedice.read("d6: 15D fast fp", "1 1 1 1 w2").total == 6 + 88


def test_fast_below_six_dice_is_the_plain_roll() -> None:
    assert fudgedice.odds("d6: 4D+1 fast").dist.counts == fudgedice.odds("d6: 4D+1").dist.counts


# --- difficulties and opposed rolls -----------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("Very Easy", 5),
        ("Easy", 10),
        ("moderate", 15),
        ("Difficult", 20),
        ("very difficult", 25),
        ("Heroic", 30),
        ("Legendary", 31),
    ],
)
def test_difficulty_words_are_the_top_of_their_range(word: str, value: int) -> None:
    assert _rules(f"d6: 3D vs {word}").difficulty == value


def test_success_is_total_at_least_the_difficulty() -> None:
    made = fudgedice.read("d6: 3D vs 12", "4 3 w5")
    assert made.result == "success vs 12 (+0): 0 result points, Minimal"
    assert made.verdict == "success"
    missed = fudgedice.read("d6: 3D vs Moderate+2", "4 3 w5")
    assert (missed.verdict, missed.margin) == ("failure", -5)
    assert missed.to_dict()["details"]["difficulty"] == 17
    odds = fudgedice.odds("d6: 3D vs 12")
    assert odds.events["success"] == odds.at_least(12)
    # the tail past the cut-off is all above 12: a success, counted in full
    assert odds.truncated > 0 and odds.uncertain == {}
    assert odds.events["success"] + odds.events["failure"] == 1


def test_opposed_ties_go_to_the_initiator() -> None:
    roll = fudgedice.read("d6: 2D opp 2D", "3 w4 opp 5 w2")
    assert roll.total == 0
    assert roll.result == "tie: the initiator wins, 0 result points, Minimal"
    assert roll.verdict == "success"
    lost = fudgedice.read("d6: 2D opp 2D+1", "3 w4 opp 5 w2")
    assert (lost.total, lost.result) == (-1, "opponent wins by 1, 1 result point, Solid")


def test_crit_rule_holds_for_both_sides_unless_restated() -> None:
    program = _rules("d6: 2D crit=cancel opp 3D")
    assert program.right is not None and program.right.crit == "cancel"
    program = _rules("d6: 2D crit=cancel opp 3D crit=ignore")
    assert program.right is not None and program.right.crit == "ignore"


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("d6: 3d6", "die codes"),
        ("d6: 3D!", "no dice modifiers"),
        ("d6: 2D*2", "added and subtracted"),
        ("d6: 1D-3", "at least 1D"),
        ("d6: Good", "not part of a die code"),
        ("d6: 3D crit=cancle", "crit takes one of"),
        ("d6: 3D nowidl", "unknown D6 System option"),
        ("d6: 3D fast wildonly", "two dice reductions: a roll takes one"),
        ("d6: 3D wildonly nowild", "can't go with nowild"),
        ("d6: 3D vs Moderat", "unknown difficulty"),
        ("d6: 3D vs 2D", "difficulty is a number"),
        ("d6: 3D cp2 cp1", "repeats an option"),
        ("d6: 3D allow=everything", "allow=cpfp"),
        ("d6: 3D fp=2", "takes no value"),
    ],
)
def test_clear_errors(text: str, words: str) -> None:
    with pytest.raises(fudgedice.DiceError) as caught:
        fudgedice.odds(text)
    assert words in str(caught.value)


def test_misspellings_get_a_hint() -> None:
    with pytest.raises(fudgedice.DiceError) as caught:
        fudgedice.roll("d6: 3D vs Moderat")
    assert caught.value.hint == "did you mean 'moderate'?"
    with pytest.raises(fudgedice.DiceError) as caught:
        fudgedice.roll("d6: 3D nowidl")
    assert caught.value.hint == "did you mean 'nowild'?"


@pytest.mark.parametrize(
    ("dice", "words"),
    [
        ("4 2 w6", "came up 6, so it rolls again"),
        ("4 w3", "rolls 2 plain dice besides the Wild Die, 1 given"),
        ("4 2 w3 w2", "too many Wild Die tosses"),
        ("4 2 3", "which die is the Wild Die"),
        ("4 2", "the Wild Die needs a toss (mark it w"),
        ("4 2 w7", "not a face"),
        ("4 2 w3 c4", "too many Character Point dice"),
        ("4 2 w3 opp 4", "separates the two sides"),
    ],
)
def test_reading_by_hand_is_checked(dice: str, words: str) -> None:
    with pytest.raises(fudgedice.DiceValueError) as caught:
        fudgedice.read("d6: 3D+1", dice.split())
    assert words in str(caught.value)


def test_opposed_reading_needs_the_separator() -> None:
    with pytest.raises(fudgedice.DiceValueError, match="then 'opp'"):
        fudgedice.read("d6: 2D opp 2D", "3 w4 5 w2")


# --- sampling ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["d6: 3D+1 crit=cancel", "d6: 2D cp1", "d6: 12D fast", "d6: 2D opp 1D+1 nowild"]
)
def test_samples_follow_the_exact_odds(text: str) -> None:
    rows = 20_000
    values = fudgedice.sample(text, rows, seed=7)
    assert values.shape == (rows,)
    odds = fudgedice.odds(text)
    # a mean within five standard errors; every sampled value is possible
    assert abs(values.mean() - float(odds.mean)) < 5 * odds.stdev / rows**0.5
    assert all(odds.probability(int(value)) > 0 for value in np.unique(values))


def test_rolls_are_reproducible() -> None:
    program = compile_roll("d6: 5D+2 cp1 crit=cancel")
    first = program.roll_with(Roller(seeded(9)), 9).total
    assert first == program.roll_with(Roller(seeded(9)), 9).total


# --- big codes measure (their speed is in benchmarks/cases_d6.py) --------------------------


def test_big_codes_measure() -> None:
    odds = fudgedice.odds("d6: 100D crit=cancel cp2")
    assert 0 < odds.truncated <= Fraction(1, 10**12)
    assert odds.events["critical failure"] == Fraction(1, 6)


# --- the CLI -------------------------------------------------------------------------------


def test_cli_roll_read_odds_and_table() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["read", "d6: 3D+1", "4", "2", "w6", "w3"])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "d6: 3D+1 = 16"
    result = runner.invoke(main, ["odds", "d6: 4D+2 vs Moderate"])
    assert result.exit_code == 0
    assert "success: " in result.output and "critical failure: 16.67% (1/6)" in result.output
    result = runner.invoke(main, ["roll", "d6: 3D", "--seed", "4", "--json"])
    assert json.loads(result.output)["system"] == "d6"
    result = runner.invoke(main, ["table", "d6-reduction", "--to", "52"])
    assert result.output.splitlines()[-4].split() == ["52D", "165", "179"]


def test_cli_errors_exit_2_without_traceback() -> None:
    result = CliRunner().invoke(main, ["roll", "d6: 4D cp1 fp"])
    assert result.exit_code == 2
    assert "allow=cpfp" in result.output
    assert "Traceback" not in result.output
