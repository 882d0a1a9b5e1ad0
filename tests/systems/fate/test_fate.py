"""Fate (docs/contracts/rules.md section 5): the two ladders, never confused with Fudge's,
the four outcomes, passive and active opposition, invokes, dice read by
hand, the tables and the CLI."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from click.testing import CliRunner

import fudgedice
from fudgedice import DiceError, DiceValueError, LimitError
from fudgedice.cli import main
from fudgedice.systems.fate.ladders import FATE_CONDENSED, FATE_CORE, outcome


def read(text: str, dice: str) -> fudgedice.Roll:
    return fudgedice.read(text, dice.split())


def refused(text: str) -> DiceError:
    with pytest.raises(DiceError) as caught:
        fudgedice.odds(text)
    return caught.value


# --- the ladders ---------------------------------------------------------------------

CORE = {
    "Legendary": 8,
    "Epic": 7,
    "Fantastic": 6,
    "Superb": 5,
    "Great": 4,
    "Good": 3,
    "Fair": 2,
    "Average": 1,
    "Mediocre": 0,
    "Poor": -1,
    "Terrible": -2,
}


@pytest.mark.parametrize(("word", "level"), CORE.items())
def test_the_fate_core_ladder(word: str, level: int) -> None:
    assert FATE_CORE.value_of(word) == FATE_CONDENSED.value_of(word) == level
    assert FATE_CORE.name(level) == word
    # a word alone rolls 4dF on its level: the lowest result is the level - 4
    assert fudgedice.odds(f"fate: {word}").low == level - 4


def test_fate_condensed_adds_two_rungs_below_terrible() -> None:
    assert FATE_CONDENSED.value_of("Catastrophic") == -3
    assert FATE_CONDENSED.value_of("Horrifying") == -4
    assert FATE_CONDENSED.name(-5) == "Horrifying-1"
    assert FATE_CORE.name(-3) == "Terrible-1"
    assert FATE_CORE.name(9) == FATE_CONDENSED.name(9) == "Legendary+1"
    assert read("fatecondensed: Catastrophic", "- - - -").result == (
        "-7 Horrifying-3 (Fate Condensed)"
    )
    error = refused("fate: Catastrophic vs Good")
    assert error.message == "'Catastrophic' is not a word of the Fate Core ladder"
    assert (
        error.hint
        == "'Catastrophic' is a word of fatecondensed rolls (written 'fatecondensed: ...')"
    )


@pytest.mark.parametrize(
    ("word", "fudge", "fate"),
    [("Good", 1, 3), ("Fair", 0, 2), ("Great", 2, 4), ("Superb", 3, 5), ("Legendary", 4, 8)],
)
def test_the_fudge_and_fate_ladders_are_never_confused(word: str, fudge: int, fate: int) -> None:
    """The same word, another number: the prefix decides which ladder reads it."""
    plain = "+ 0 0 -"  # the dice show 0: the result is the word's level
    assert read(word, plain).total == fudge
    assert read(f"fudge: {word}", plain).total == fudge
    assert read(f"fate: {word}", plain).total == fate
    assert read(f"fatecondensed: {word}", plain).total == fate
    assert read(f"fate: {word}", plain).result == f"{fate:+d} {word} (Fate Core)"
    assert read(word, plain).result == f"{fudge:+d} {fudge_name(fudge)}"


def fudge_name(level: int) -> str:
    return {1: "Good", 0: "Fair", 2: "Great", 3: "Superb", 4: "Superb+1"}[level]


def test_a_difference_of_levels_is_read_on_the_right_ladder() -> None:
    # Mediocre to Fair is one level in Fudge, two in Fate (Average lies between)
    assert fudgedice.odds("Mediocre vs Fair").events["success"] == Fraction(31, 81)
    fate = fudgedice.odds("fate: Mediocre vs Fair").events
    assert fate["tie"] + fate["succeed"] + fate["succeed with style"] == Fraction(15, 81)
    hint = refused("fudge: Average").hint
    assert hint is not None
    assert hint.startswith("'Average' is a word of fate rolls (written 'fate: ...')")
    assert (
        refused("fate: Incredible").hint
        == "'Incredible' is a word of power rolls (written 'power: ...')"
    )


def test_fate_dice_are_fudge_dice() -> None:
    assert fudgedice.odds("fate: 4dF").dist == fudgedice.odds("4dF").dist
    assert fudgedice.odds("fate: Mediocre").dist == fudgedice.odds("4dF").dist
    assert fudgedice.odds("fate: 4dF+3").dist == fudgedice.odds("fate: Good").dist


# --- the four outcomes -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("shifts", "name"),
    [
        (-5, "fail"),
        (-1, "fail"),
        (0, "tie"),
        (1, "succeed"),
        (2, "succeed"),
        (3, "succeed with style"),
        (7, "succeed with style"),
    ],
)
def test_outcome_by_shifts(shifts: int, name: str) -> None:
    assert outcome(shifts) == name
    # Good (+3) against an opposition `shifts` below a roll of 0 dice
    rolled = read(f"fate: Good vs {3 - shifts}", "+ - 0 0")
    assert (rolled.margin, rolled.events) == (shifts, events_of(name))
    assert rolled.details is not None and rolled.details.to_dict()["outcome"] == name


def events_of(outcome_name: str) -> list[str]:
    """A roll's events: its verdict (as every system's), then its outcome."""
    verdict = {"fail": "failure", "tie": "tie"}.get(outcome_name, "success")
    return [outcome_name] if verdict == outcome_name else [verdict, outcome_name]


def test_a_check_names_result_opposition_outcome_and_ladder() -> None:
    rolled = read("fate: Good vs Great", "+ 0 - +")
    assert rolled.text == (
        "fate: Good vs Great = 4 -> +4 Great vs +4 Great (Fate Core): tie, 0 shifts\n"
        "  4dF: [+] [ ] [-] [+] = +1\n"
        "  Good (+3) + 1 = 4\n"
        "  4dF: cancel 1 +/- pair, set aside 1 blank -> + left = +1"
    )
    assert (rolled.verdict, rolled.margin, rolled.events) == ("tie", 0, ["tie"])
    assert rolled.to_dict()["details"] == {
        "ladder": "Fate Core",
        "result": 4,
        "opposition": 4,
        "shifts": 0,
        "outcome": "tie",
        "rerolls": 0,
        "policy": None,
    }


def test_plus_two_invokes_are_written_as_they_are_taken() -> None:
    rolled = read("fate: Good+2 vs Great", "0 0 0 -")
    assert (rolled.total, rolled.margin, rolled.events) == (4, 0, ["tie"])
    stacked = fudgedice.odds("fate: Good+2+2 vs Great").events
    assert stacked == fudgedice.odds("fate: Good+4 vs Great").events
    # +2 twice from Good against Great: 3 shifts from a roll of 0 = with style
    assert stacked["succeed with style"] == fudgedice.odds("4dF").at_least(0)


def test_numbers_words_and_situational_rolls() -> None:
    assert fudgedice.odds("fate: +3 vs 4").events == fudgedice.odds("fate: Good vs Great").events
    situational = read("fate: vs Fair", "+ + 0 0")
    assert (situational.total, situational.events) == (2, ["tie"])
    assert fudgedice.odds("fate: Good vs Great").events == {
        "fail": Fraction(50, 81),
        "tie": Fraction(16, 81),
        "succeed": Fraction(14, 81),
        "succeed with style": Fraction(1, 81),
        "success": Fraction(15, 81),
        "failure": Fraction(50, 81),
    }


def test_active_opposition_both_sides_roll() -> None:
    rolled = read("fate: Good opp Fair", "+ + 0 0 opp - 0 0 0")
    assert (rolled.total, rolled.margin, rolled.events) == (4, 4, events_of("succeed with style"))
    assert rolled.result == "+4 shifts: succeed with style (Fate Core)"
    assert [side.total for side in rolled.sides] == [5, 1]
    # the same dice without the word opp between the sides
    assert read("fate: Good opp Fair", "+ + 0 0 - 0 0 0").total == 4
    odds = fudgedice.odds("fate: Good opp Fair")
    assert odds.value_title == "shifts (Fate Core)"
    assert odds.events == {
        "fail": Fraction(1711, 6561),
        "tie": Fraction(1016, 6561),
        "succeed": Fraction(2123, 6561),
        "succeed with style": Fraction(1711, 6561),
        "success": Fraction(2123 + 1711, 6561),
        "failure": Fraction(1711, 6561),
    }


# --- the reroll invoke ----------------------------------------------------------------


def test_reroll_policy_is_stated_and_followed() -> None:
    rolled = read("fate: Good reroll vs Great", "- - 0 0 + 0 0 +")
    assert rolled.total == 5 and rolled.events == ["success", "succeed"]
    assert rolled.steps[:2] == [
        "policy: reroll invoke: all four dice are rerolled once when the roll fails; "
        "the new roll stands",
        "reroll invoke: -3 shifts (fail), all four dice rerolled",
    ]
    assert [die.kept for die in rolled.dice] == [False] * 4 + [True] * 4
    assert "([-] rerolled)" in rolled.text
    assert rolled.to_dict()["details"]["rerolls"] == 1
    # a roll that does not fail keeps its dice, and says so
    kept = read("fate: Good reroll vs Great", "+ 0 0 0")
    assert kept.steps[-1] == "reroll invoke not spent: 0 shifts (tie)"
    assert kept.to_dict()["details"]["rerolls"] == 0


def test_the_new_roll_stands_even_when_worse() -> None:
    rolled = read("fate: Good reroll vs Great", "0 0 0 - - - - -")
    assert (rolled.total, rolled.events) == (-1, ["failure", "fail"])


@pytest.mark.parametrize(
    ("policy", "first", "rerolled"),
    [
        ("reroll=fail", "0 0 0 0", False),  # a tie is not a failure
        ("reroll=tie", "0 0 0 0", True),
        ("reroll=tie", "+ 0 0 0", False),
        ("reroll=style", "+ + 0 0", True),  # succeed, short of style
        ("reroll=style", "+ + + +", False),
    ],
)
def test_each_policy_rerolls_what_it_says(policy: str, first: str, rerolled: bool) -> None:
    # Good against Good: the shifts are what the dice show
    dice = f"{first} 0 0 0 0" if rerolled else first
    rolled = read(f"fate: Good {policy} vs Good", dice)
    assert rolled.to_dict()["details"]["rerolls"] == int(rerolled)


def test_several_reroll_invokes_stop_once_the_policy_is_met() -> None:
    rolled = read("fate: Fair reroll3 vs Great", "- - - - - 0 0 0 + + 0 0")
    assert (rolled.total, rolled.events) == (4, ["tie"])
    assert rolled.steps[1:3] == [
        "reroll invoke 1 of 3: -6 shifts (fail), all four dice rerolled",
        "reroll invoke 2 of 3: -3 shifts (fail), all four dice rerolled",
    ]


def test_hand_reading_says_what_the_policy_needs() -> None:
    with pytest.raises(DiceValueError) as short:
        read("fate: Good reroll vs Great", "- - 0 0")
    assert short.value.message == (
        "not enough dice: the roll comes to -3 shifts (fail), so the reroll invoke rerolls "
        "all four dice: add their four new faces"
    )
    with pytest.raises(DiceValueError) as long:
        read("fate: Good reroll vs Great", "+ + 0 0 - - - -")
    assert long.value.message == (
        "too many dice: the roll comes to +1 shift (succeed), so no further reroll invoke "
        "is spent (left over: - - - -)"
    )
    assert long.value.hint is not None and "when the roll fails" in long.value.hint


def test_an_opposed_reroll_acts_against_what_the_other_side_rolled() -> None:
    # Good (+3) rolls -1 = 2; Fair (+2) rolls +1 = 3: a failure, rerolled to 3 + 2 = 5;
    # each side's dice are written together, the reroll's after the left side's first four
    rolled = read("fate: Good reroll opp Fair", "- 0 0 0 + + 0 0 opp + 0 0 0")
    assert (rolled.total, rolled.events) == (2, ["success", "succeed"])
    assert rolled.sides[0].total == 5
    assert read("fate: Good reroll opp Fair", "- 0 0 0 + + 0 0 + 0 0 0").total == 2
    # a left side that wins needs no reroll: the last four are the right side's
    assert read("fate: Good reroll opp Fair", "+ 0 0 0 + 0 0 0").total == 1
    with pytest.raises(DiceValueError, match="not enough dice"):
        read("fate: Good reroll opp Fair", "- 0 0 0 opp + 0 0 0")


def test_reroll_odds_name_the_chance_of_spending_it() -> None:
    odds = fudgedice.odds("fate: Good reroll vs Great")
    fail = Fraction(50, 81)
    assert odds.events == {
        "fail": fail * fail,
        "tie": Fraction(16, 81) * (1 + fail),
        "succeed": Fraction(14, 81) * (1 + fail),
        "succeed with style": Fraction(1, 81) * (1 + fail),
        "success": Fraction(15, 81) * (1 + fail),
        "failure": fail * fail,
        "reroll invoke spent": fail,
    }


# --- what is refused --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fate: 3d6", "a Fate roll rolls 4dF, not 3d6"),
        ("fate: 4dF.1", "a Fate roll rolls 4dF, not 4dF.1"),
        ("fate: 3dF+2", "a Fate roll rolls 4dF, not 3dF"),
        ("fate: 4dF! vs 2", "a Fate roll rolls 4dF, not 4dF!"),
        ("fate: 4dF@d6", "a Fate roll rolls 4dF, not 4dF@d6"),
        ("fate: 4dF+4dF", "a Fate roll rolls one set of 4dF"),
        ("fate: -4dF", "a Fate roll adds 4dF to the skill and its modifiers"),
        ("fate: 4dF*2 vs 1", "a Fate roll adds 4dF to the skill and its modifiers"),
        (
            "fate: Good/(4dF)",
            "a Fate roll adds 4dF to the skill and its modifiers, never divides by it",
        ),
        ("fate: 3D+1", "die codes like 3D belong to the D6 System"),
        ("fate: Good reroll", "a reroll invoke needs something to beat"),
        (
            "fate: Good opp Fair reroll",
            "the reroll invoke is the left side's: the side written first acts, the other opposes",
        ),
        (
            "fate: Good vs Great reroll",
            "'reroll' is an option of the side that rolls, written before 'vs'",
        ),
        ("fate: Good reroll=often vs 3", "a reroll policy is one of fail, tie, style, not 'often'"),
        ("fate: Good reroll reroll2 vs 3", "a side takes one reroll option"),
        ("fate: Good vs 4dF", "the opposition after 'vs' is a level, not a roll"),
        ("fate: Good condensed", "unknown option 'condensed' for a Fate roll"),
        ("fate: Goood", "'Goood' is not a word of the Fate Core ladder"),
        ("fate: Good vs 1/0", "division by zero: the opposition divides by 0"),
    ],
)
def test_refused_with_the_projects_own_error(text: str, message: str) -> None:
    error = refused(text)
    assert isinstance(error, DiceValueError)
    assert error.message == message


def test_too_many_reroll_invokes_is_a_limit() -> None:
    error = refused("fate: Good reroll11 vs 3")
    assert isinstance(error, LimitError)
    assert error.message == "a roll spends at most 10 reroll invokes, not 11"
    assert fudgedice.odds("fate: Good reroll10 vs 3").events["fail"] == Fraction(31, 81) ** 11


def test_hints_point_to_the_right_form() -> None:
    assert refused("fate: Good condensed").hint == (
        "Fate Condensed's ladder is its own prefix: 'fatecondensed: ...'"
    )
    assert refused("fate: Good vs Great reroll").hint == "such as 'fate: Good reroll vs Great'"
    assert refused("fate: Goood").hint == "did you mean 'Good'?"


# --- tables and the command line ----------------------------------------------------------


def test_the_outcome_table_is_the_odds_of_each_skill_against_each_opposition() -> None:
    table = fudgedice.table("fate", exact=True)
    assert table.header == ("skill", "opposition", "fail", "tie", "succeed", "succeed with style")
    assert len(table.rows) == 11 * 11
    for row in table.rows:
        skill, opposition = (int(cell.split()[0]) for cell in row[:2])
        events = fudgedice.odds(f"fate: {skill} vs {opposition}").events
        assert row[2:] == tuple(str(events[name]) for name in table.header[2:])
    assert ("+3 Good", "+4 Great", "50/81", "16/81", "14/81", "1/81") in table.rows
    condensed = fudgedice.table("fatecondensed")
    assert len(condensed.rows) == 13 * 13
    assert condensed.rows[-1][:2] == ("-4 Horrifying", "-4 Horrifying")


def test_cli_ladder_table_roll_and_read() -> None:
    runner = CliRunner()
    ladder = runner.invoke(main, ["ladder", "fate"])
    assert ladder.exit_code == 0
    assert re.search(r"^\+3 +Good$", ladder.output, re.MULTILINE)
    assert re.search(r"^\+1 +Average$", ladder.output, re.MULTILINE)
    assert "Horrifying" in runner.invoke(main, ["ladder", "fatecondensed"]).output
    read_out = runner.invoke(main, ["read", "fate: Good vs Great", "+", "0", "-", "+"])
    assert read_out.exit_code == 0
    assert read_out.output.startswith("fate: Good vs Great = 4 -> +4 Great vs +4 Great")
    as_json = json.loads(runner.invoke(main, ["odds", "fate: Good vs Great", "--json"]).output)
    assert as_json["events"]["tie"]["exact"] == "16/81"
    rolled = runner.invoke(main, ["roll", "fate: Good reroll vs Great", "--seed", "3"])
    assert rolled.exit_code == 0 and "policy: reroll invoke" in rolled.output
    bad = runner.invoke(main, ["roll", "fate: 3d6"])
    assert bad.exit_code == 2 and "a Fate roll rolls 4dF" in bad.output


def test_sampling_draws_from_the_exact_odds() -> None:
    totals = fudgedice.sample("fate: Good reroll vs Great", 2000, seed=1)
    odds = fudgedice.odds("fate: Good reroll vs Great")
    assert set(totals.tolist()) <= set(odds.dist.support())
    assert abs(float((totals >= 4).mean()) - float(odds.at_least(4))) < 0.05
