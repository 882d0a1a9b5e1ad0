"""3d6 Fudge (seed 004): the read, opposed rounds, odds, tables and errors.

The oracle here is written from the rules text alone (docs/contracts/rules.md section 3 and
docs/3d6fudge.md), independently of :mod:`fudgedice.systems.fudge3d6`, and
walks every one of the 216 ordered rolls (216**2 for opposed rounds).
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest
from click.testing import CliRunner

import fudgedice
from fudgedice import Mark
from fudgedice.cli import main
from fudgedice.errors import DiceValueError
from fudgedice.systems.fudge3d6.counts import read_ways, round_counts
from fudgedice.systems.fudge3d6.rules import (
    ALL_ROLLS,
    READ_CLASSES,
    ROLL_CLASSES,
    Read,
    decide_round,
    level_name,
    read_3d6,
    resolve_round,
)

ROLLS: list[tuple[int, int, int]] = list(product(range(1, 7), range(1, 7), range(1, 7)))

SEED_CHANCES = [2, 19, 46, 79, 115, 148, 175, 193, 205, 211, 214]
"""The seed's "Chances of Success" for skills 1..11, exact over 216."""
SEED_PERCENT = ["0.9%", "8.8%", "21.3%", "36.6%", "53.2%", "68.5%"]
SEED_PERCENT += ["81.0%", "89.4%", "94.9%", "97.7%", "99.1%"]


# --- the oracle: the rules as written ------------------------------------------------


def oracle_read(dice: tuple[int, ...], skill: int) -> tuple[str, bool, int]:
    """(kind, success, margin) of one roll, straight from the rules text."""
    low, middle, _high = sorted(dice)
    kept = low + middle  # the highest die removed
    natural = skill - kept
    if len(set(dice)) == 1:
        face = dice[0]
        if face in (1, 2):
            return "critical success", True, max(natural, 0)
        if face in (5, 6):
            return "critical failure", False, min(natural, -1)
        if skill >= 2:
            return "critical mediocrity", True, 0
        return "critical mediocrity", False, -1
    success = kept <= skill
    return ("success" if success else "failure"), success, natural


def oracle_round(left: tuple[str, bool, int], right: tuple[str, bool, int]) -> tuple[str, int]:
    """(verdict, margin) of an opposed round from the left side, as documented."""
    (lk, ls, lm), (rk, rs, rm) = left, right
    if lk == rk == "critical success" or lk == rk == "critical mediocrity":
        return "stand-off", 0
    if lk == "critical success":
        return "win", max(lm - rm, 1)
    if rk == "critical success":
        return "loss", -max(rm - lm, 1)
    if "critical mediocrity" in (lk, rk):
        bland_left = lk == "critical mediocrity"
        bland_ok = ls if bland_left else rs
        other_ok = rs if bland_left else ls
        if bland_ok and not other_ok:
            return ("win", lm - rm) if bland_left else ("loss", lm - rm)
        return "stand-off", 0
    if not ls and not rs:
        return "stand-off", 0
    if ls and rs and lm == rm:
        return "stand-off", 0
    if ls and rs:
        return ("win" if lm > rm else "loss"), lm - rm
    return ("win" if ls else "loss"), lm - rm


# --- the seed's figures ---------------------------------------------------------------


@pytest.mark.parametrize("skill", range(1, 12))
def test_seed_chances_of_success(skill: int) -> None:
    odds = fudgedice.odds(f"3d6fudge: {skill}")
    assert odds.events["success"] == Fraction(SEED_CHANCES[skill - 1], 216)
    assert odds.at_least(0) == odds.events["success"]  # margin >= 0 is success


def test_skill_above_eleven_is_eleven_plus() -> None:
    for skill in (12, 20, 1000):
        assert fudgedice.odds(f"3d6fudge: {skill}").events["success"] == Fraction(214, 216)


def test_chances_table_as_the_seed_prints_it() -> None:
    table = fudgedice.table("3d6fudge")
    assert table.header == ("Roll needed", *map(str, range(1, 11)), "11+")
    assert table.rows == (("Success", *SEED_PERCENT),)
    exact = fudgedice.table("3d6fudge", exact=True)
    assert exact.rows == (("Success", *(f"{n}/216" for n in SEED_CHANCES)),)


def test_ladder_table() -> None:
    table = fudgedice.table("3d6fudge-ladder")
    assert table.rows[0] == ("9", "Legendary", "94.9%", "-")
    assert table.rows[3] == ("6", "Good", "68.5%", "2")
    assert table.rows[-1] == ("1", "Abysmal", "0.9%", "-")
    assert [row[3] for row in table.rows[1:-1]] == ["8", "4", "2", "1", "1", "1", "1"]


# --- brute force over every roll ------------------------------------------------------


def test_sample_space() -> None:
    assert sorted(ALL_ROLLS) == ROLLS
    assert sum(ways for _, ways in ROLL_CLASSES) == 216
    assert len(ROLL_CLASSES) == 56


@pytest.mark.parametrize("skill", range(1, 13))
def test_read_matches_the_oracle_for_every_roll(skill: int) -> None:
    for dice in ROLLS:
        kind, success, margin = oracle_read(dice, skill)
        read = read_3d6(dice, skill).read
        assert (read.name, read.success, read.margin) == (kind, success, margin), dice


@pytest.mark.parametrize("skill", range(1, 13))
def test_odds_match_the_oracle_over_all_216_rolls(skill: int) -> None:
    margins: dict[int, int] = {}
    events = dict.fromkeys(
        ["success", "failure", "critical success", "critical failure", "critical mediocrity"], 0
    )
    for dice in ROLLS:
        kind, success, margin = oracle_read(dice, skill)
        margins[margin] = margins.get(margin, 0) + 1
        events["success" if success else "failure"] += 1
        if kind.startswith("critical"):
            events[kind] += 1
    odds = fudgedice.odds(f"3d6fudge: {skill}")
    assert {o.value: o.p for o in odds.outcomes} == {
        m: Fraction(n, 216) for m, n in margins.items()
    }
    assert odds.events == {name: Fraction(n, 216) for name, n in events.items()}
    assert odds.denominator == 216


@pytest.mark.parametrize("skill", [1, 2, 6, 12])
def test_reading_by_hand_matches_the_oracle_for_every_roll(skill: int) -> None:
    for dice in ROLLS:
        roll = fudgedice.read(f"3d6fudge: {skill}", [str(d) for d in dice])
        kind, success, margin = oracle_read(dice, skill)
        assert roll.total == margin
        assert roll.to_dict()["details"]["outcome"] == kind
        assert (roll.verdict == "success") is success
        kept = [d.value for d in roll.dice if d.kept]
        assert sorted(kept) == sorted(dice)[:2]


@pytest.mark.parametrize(("mine", "theirs"), [(6, 8), (1, 12), (4, 4), (2, 9), (12, 12)])
def test_opposed_odds_match_the_oracle_over_all_216_squared(mine: int, theirs: int) -> None:
    left = [oracle_read(dice, mine) for dice in ROLLS]
    right = [oracle_read(dice, theirs) for dice in ROLLS]
    margins: dict[int, int] = {}
    verdicts = {"win": 0, "loss": 0, "stand-off": 0}
    for a in left:
        for b in right:
            verdict, margin = oracle_round(a, b)
            margins[margin] = margins.get(margin, 0) + 1
            verdicts[verdict] += 1
    odds = fudgedice.odds(f"3d6fudge: {mine} opp {theirs}")
    assert {o.value: o.p for o in odds.outcomes} == {
        m: Fraction(n, 216**2) for m, n in margins.items()
    }
    assert odds.events == {name: Fraction(n, 216**2) for name, n in verdicts.items()}
    assert odds.denominator == 216**2


def test_round_is_the_same_seen_from_either_side() -> None:
    reads = {read_3d6(dice, skill).read for dice in ROLLS for skill in range(1, 13)}
    flip = {"win": "loss", "loss": "win", "stand-off": "stand-off"}
    for a in reads:
        for b in reads:
            there, back = resolve_round(a, b), resolve_round(b, a)
            assert back.verdict == flip[there.verdict]
            assert back.margin == -there.margin
            assert (there.margin > 0) == (there.verdict == "win")
            assert (there.margin == 0) == (there.verdict == "stand-off")


# --- the seed's examples --------------------------------------------------------------


def test_reading_example_remove_the_five() -> None:
    roll = fudgedice.read("3d6fudge: Fair", ["5", "3", "2"])
    assert roll.total == 0
    assert roll.result == "success, made it by 0"
    assert "drop 5 -> 3+2 = 5 <= 5: success, made it by 0" in roll.steps
    assert fudgedice.read("3d6fudge: Mediocre", ["5", "3", "2"]).result == "failure, missed by 1"


def test_notation_example_line() -> None:
    roll = fudgedice.read("3d6fudge: Good", ["5", "2", "1"])
    assert "drop 5 -> 2+1 = 3 <= 6: success, made it by 3" in roll.steps
    assert roll.text.splitlines()[:2] == [
        "3d6fudge: Good = 3 -> success, made it by 3",
        "  3d6: (5 dropped) 2 1 = 3",
    ]
    dropped = [d for d in roll.dice if not d.kept]
    assert [(d.value, d.marks, d.reason) for d in dropped] == [(5, Mark.DROPPED, "highest")]


def test_ashley_beats_bert_by_two() -> None:
    # Ashley (6) rolls a total of 3; Bert (8) removes one of his 4s for 7.
    roll = fudgedice.read("3d6fudge: 6 opp 8", ["5", "2", "1", "4", "4", "3"])
    assert roll.total == 2
    assert roll.result == "wins by 2: made it by 3 against 1"
    assert roll.verdict == "win"
    assert [side.total for side in roll.sides] == [3, 1]
    assert [d.kept for d in roll.sides[1].dice] == [True, False, True]  # the later 4
    bert = fudgedice.read("3d6fudge: 8 opp 6", ["4", "4", "3", "5", "2", "1"])
    assert bert.total == -2
    assert bert.result == "loses by 2: made it by 1 against 3"


# --- every critical rule --------------------------------------------------------------


def test_critical_success_is_the_only_success_at_skill_one() -> None:
    for face in "12":
        roll = fudgedice.read("3d6fudge: Abysmal", [face] * 3)
        assert roll.to_dict()["details"]["outcome"] == "critical success"
        assert roll.events == ["success", "critical success"]
        assert roll.total == 0
    assert fudgedice.read("3d6fudge: Abysmal", ["1", "1", "2"]).result == "failure, missed by 1"
    assert fudgedice.read("3d6fudge: Good", ["1", "1", "1"]).total == 4


def test_critical_failure_even_when_the_sum_is_under_the_skill() -> None:
    for face in "56":
        roll = fudgedice.read("3d6fudge: 12", [face] * 3)
        assert roll.result == "critical failure, missed by 1"
        assert roll.verdict == "failure"
    assert fudgedice.read("3d6fudge: Good", ["6"] * 3).total == -6


@pytest.mark.parametrize("face", ["3", "4"])
def test_critical_mediocrity(face: str) -> None:
    for skill in (2, 6, 12):
        roll = fudgedice.read(f"3d6fudge: {skill}", [face] * 3)
        assert roll.result == "critical mediocrity: success, barely"
        assert roll.total == 0
        assert "in combat: takes no damage this round, deals at most a Scratch" in roll.steps
    at_one = fudgedice.read("3d6fudge: 1", [face] * 3)
    assert at_one.result == "critical mediocrity: failure (skill 1)"
    assert at_one.total == -1


def read_of(dice: str, skill: int) -> Read:
    first, second, third = (int(d) for d in dice)
    return read_3d6((first, second, third), skill).read


def test_critical_success_beats_any_non_critical_result() -> None:
    best_plain = read_of("112", 12)  # made it by 10
    contest = resolve_round(read_of("111", 1), best_plain)
    assert (contest.verdict, contest.margin) == ("win", 1)
    assert contest.reason == "critical success beats a success"
    assert resolve_round(read_of("222", 6), read_of("665", 6)).margin == 2 + 5


def test_critical_failure_loses_to_any_success() -> None:
    contest = resolve_round(read_of("555", 12), read_of("112", 2))
    assert (contest.verdict, contest.margin) == ("loss", -1)
    assert contest.reason == "critical failure against a success"
    both = resolve_round(read_of("666", 12), read_of("665", 6))
    assert (both.verdict, both.reason) == ("stand-off", "both failed")


def test_critical_mediocrity_takes_no_damage() -> None:
    contest = resolve_round(read_of("333", 6), read_of("112", 12))
    assert (contest.verdict, contest.margin) == ("stand-off", 0)
    assert contest.reason == "critical mediocrity takes no damage from a success"
    # even at skill 1, where it is a failure
    assert resolve_round(read_of("112", 12), read_of("444", 1)).verdict == "stand-off"


def test_critical_mediocrity_deals_at_most_a_scratch() -> None:
    contest = resolve_round(read_of("333", 6), read_of("665", 6))
    assert (contest.verdict, contest.margin, contest.scratch_only) == ("win", 5, True)
    assert contest.reason == "critical mediocrity against a failure: at most a Scratch"
    against_critical = resolve_round(read_of("555", 6), read_of("444", 6))
    assert (against_critical.verdict, against_critical.scratch_only) == ("loss", True)
    assert against_critical.reason == (
        "critical failure against critical mediocrity: at most a Scratch"
    )
    roll = fudgedice.read("3d6fudge: 6 opp 6", ["3", "3", "3", "6", "6", "5"])
    assert roll.to_dict()["details"]["scratch_only"] is True
    assert roll.sides[0].to_dict()["details"]["outcome"] == "critical mediocrity"
    assert roll.events == ["win"]
    # the left side's critical is told in its read line, not below the other side
    assert "critical mediocrity" not in roll.text.splitlines()[-1]
    swapped = fudgedice.read("3d6fudge: 6 opp 6", ["6", "6", "5", "3", "3", "3"])
    assert swapped.sides[1].events == ["success", "critical mediocrity"]
    assert roll.result == "wins by 5: critical mediocrity against a failure: at most a Scratch"


def test_choices_where_the_seed_is_silent() -> None:
    both_best = resolve_round(read_of("111", 6), read_of("222", 9))
    assert (both_best.verdict, both_best.reason) == ("stand-off", "critical success on both sides")
    both_bland = resolve_round(read_of("333", 6), read_of("444", 9))
    assert (both_bland.verdict, both_bland.reason) == (
        "stand-off",
        "critical mediocrity on both sides",
    )
    best_over_bland = resolve_round(read_of("444", 12), read_of("111", 1))
    assert (best_over_bland.verdict, best_over_bland.margin) == ("loss", -1)
    assert best_over_bland.reason == "critical mediocrity loses to critical success"


def test_ordinary_rounds() -> None:
    assert resolve_round(read_of("653", 6), read_of("654", 6)).reason == "both failed"
    equal = resolve_round(read_of("124", 6), read_of("216", 6))
    assert (equal.verdict, equal.reason) == ("stand-off", "both made it by 3")
    hit = resolve_round(read_of("662", 6), read_of("126", 6))
    assert (hit.verdict, hit.margin, hit.reason) == ("loss", -5, "a failure against a success")


# --- levels and the skill -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("Abysmal", 1),
        ("terrible", 2),
        ("POOR", 3),
        ("Mediocre", 4),
        ("Fair", 5),
        ("Good", 6),
        ("Great", 7),
        ("Superb", 8),
        ("Legendary", 9),
        ("Good-2", 4),
        ("Good+1", 7),
        ("Legendary+2", 11),
        ("7", 7),
        ("Abysmal-3", 1),
        ("0", 1),
        ("(Good+Fair)/2", 5),
    ],
)
def test_levels_and_modifiers(text: str, skill: int) -> None:
    assert (
        fudgedice.read(f"3d6fudge: {text}", ["6", "6", "5"]).to_dict()["details"]["skill"] == skill
    )


def test_skill_shown_with_its_word() -> None:
    assert level_name(6) == "6 Good"
    assert level_name(10) == "10"
    assert fudgedice.read("3d6fudge: Good-2", ["6", "6", "5"]).steps[0] == (
        "skill Good-2 = 4 Mediocre"
    )
    assert fudgedice.read("3d6fudge: Legendary+1", ["6", "6", "5"]).steps[0] == (
        "skill Legendary+1 = 10"
    )
    assert fudgedice.read("3d6fudge: Poor-5", ["6", "6", "5"]).steps[0] == (
        "skill Poor-5 = -2, raised to 1 Abysmal: never modified below Abysmal"
    )


# --- rolling, sampling, output --------------------------------------------------------


def test_rolls_are_reproducible_and_possible() -> None:
    for text in ("3d6fudge: Good", "3d6fudge: Good opp Great-1"):
        odds = fudgedice.odds(text)
        for seed in range(50):
            roll = fudgedice.roll(text, seed=seed)
            assert roll.total == fudgedice.roll(text, seed=seed).total
            assert odds.probability(roll.total) > 0
        values = fudgedice.sample(text, 2000, seed=1)
        assert {int(v) for v in values} <= {o.value for o in odds.outcomes}


def test_random_rolls_agree_with_reading_the_same_dice() -> None:
    rng = random.Random(4)
    for _ in range(100):
        roll = fudgedice.roll("3d6fudge: Fair opp Good", seed=rng.randrange(10**6))
        faces = [die.face for die in roll.dice]
        again = fudgedice.read("3d6fudge: Fair opp Good", faces)
        assert (again.total, again.result, again.text) == (roll.total, roll.result, roll.text)


def test_json_figures() -> None:
    data = fudgedice.read("3d6fudge: 6 opp 8 # Ashley", ["5", "2", "1", "4", "4", "3"]).to_dict()
    assert data["label"] == "Ashley"
    assert data["margin"] == 2
    assert data["verdict"] == "win"
    assert data["details"] == {"scratch_only": False}
    left, right = data["sides"]
    assert (left["notation"], left["margin"], left["verdict"]) == ("6", 3, "success")
    assert left["details"] == {"skill": 6, "sum": 3, "outcome": "success"}
    assert right["notation"] == "opp 8"
    assert right["margin"] == 1
    assert len(data["dice"]) == 6


def test_opposed_text() -> None:
    roll = fudgedice.read("3d6fudge: 6 opp 8", ["5", "2", "1", "4", "4", "3"])
    assert roll.text.splitlines() == [
        "3d6fudge: 6 opp 8 = 2 -> wins by 2: made it by 3 against 1",
        "  3d6: (5 dropped) 2 1 = 3",
        "  skill 6 Good",
        "  drop 5 -> 2+1 = 3 <= 6: success, made it by 3",
        "  opp 8 = 1 -> success, made it by 1",
        "    3d6: 4 (4 dropped) 3 = 7",
        "    skill 8 Superb",
        "    drop 4 -> 4+3 = 7 <= 8: success, made it by 1",
    ]


# --- errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("3d6fudge: Gud", "'Gud' is not a 3d6 Fudge level", 10),
        ("3d6fudge: Good opp Grat", "'Grat' is not a 3d6 Fudge level", 19),
        ("3d6fudge: Good vs 5", "3d6 Fudge has no difficulty levels", 15),
        ("3d6fudge: 3d6", "a 3d6 Fudge skill is a level, not dice", 10),
        ("3d6fudge: Good+d6", "a 3d6 Fudge skill is a level, not dice", 15),
        ("3d6fudge: Good adv", "3d6 Fudge has no option 'adv'", 15),
        ("3d6fudge: 2000", "a skill of 2000 is more than 1000", None),
        ("3d6fudge: Good/0", "division by zero: the skill divides by 0", None),
    ],
)
def test_errors(text: str, message: str, position: int | None) -> None:
    with pytest.raises(DiceValueError) as caught:
        fudgedice.odds(text)
    assert message in caught.value.message
    assert caught.value.position == position


def test_did_you_mean() -> None:
    with pytest.raises(DiceValueError) as caught:
        fudgedice.roll("3d6fudge: Grate")
    assert caught.value.hint == "did you mean 'great'?"


@pytest.mark.parametrize(
    ("text", "faces", "message"),
    [
        ("3d6fudge: Good", "5 2", "'3d6fudge: Good' is read from 3 d6; 2 given"),
        ("3d6fudge: 6 opp 8", "5 2 1", "is read from 6 d6, 3 for each side; 3 given"),
        ("3d6fudge: Good", "5 2 7", "die 3: '7' is not a face of d6"),
        ("3d6fudge: Good", "5 2 +", "die 3: '+' is not a face of d6"),
    ],
)
def test_reading_errors(text: str, faces: str, message: str) -> None:
    with pytest.raises(DiceValueError, match=message.replace("+", r"\+")):
        fudgedice.read(text, faces.split())


def test_cli() -> None:
    runner = CliRunner()
    read = runner.invoke(main, ["read", "3d6fudge: Good", "5", "2", "1"])
    assert read.exit_code == 0
    assert "drop 5 -> 2+1 = 3 <= 6: success, made it by 3" in read.output
    odds = runner.invoke(main, ["odds", "3d6fudge: 6 opp 8"])
    assert odds.exit_code == 0
    assert "win: 20.87% (3245/15552)" in odds.output
    table = runner.invoke(main, ["table", "3d6fudge", "--exact"])
    assert "214/216" in table.output
    ladder = runner.invoke(main, ["ladder", "3d6fudge"])
    assert "Legendary" in ladder.output
    bad = runner.invoke(main, ["roll", "3d6fudge: Good vs Fair"])
    assert bad.exit_code == 2
    assert "Traceback" not in bad.output


@pytest.mark.parametrize("mine", range(1, 15))
def test_round_counts_are_every_round_decided_one_by_one(mine: int) -> None:
    """The measurer adds up plain pairs a side at a time: the same counts as
    deciding every pair of outcomes with decide_round."""
    for theirs in range(1, 15):
        left, right = read_ways(mine), read_ways(theirs)
        margins: dict[int, int] = {}
        verdicts = {"win": 0, "loss": 0, "stand-off": 0}
        for a, ways in left.items():
            for b, other in right.items():
                verdict, margin, _ = decide_round(a, b)
                margins[margin] = margins.get(margin, 0) + ways * other
                verdicts[verdict] += ways * other
        counted, counted_verdicts = round_counts(left, right)
        assert {m: n for m, n in counted.items() if n} == margins
        assert counted_verdicts == verdicts


def test_the_read_classes_are_read_alike_at_every_skill() -> None:
    """16 sets of faces stand for the 56: every set of faces reads at every
    skill as the one that stands for it, and together they count all 216."""
    assert sum(ways for _, ways in READ_CLASSES) == 216
    for skill in range(1, 15):
        reads: dict[Read, int] = {}
        for dice, ways in ROLL_CLASSES:
            read = read_3d6(dice, skill).read
            reads[read] = reads.get(read, 0) + ways
        assert read_ways(skill) == reads
