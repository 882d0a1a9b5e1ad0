"""The ``fudgedice`` command, run in-process through click's CliRunner."""

from __future__ import annotations

import itertools
import json
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

import fudgedice
from fudgedice.cli import main

ROLL_KEYS = {
    "notation",
    "system",
    "total",
    "verdict",
    "margin",
    "result",
    "events",
    "dice",
    "steps",
    "details",
    "sides",
    "seed",
    "label",
    "text",
}
DIE_KEYS = {"sides", "value", "face", "kept", "marks", "reason"}
ODDS_KEYS = {
    "notation",
    "system",
    "value_title",
    "mean",
    "stdev",
    "truncated",
    "outcomes",
    "tails",
    "events",
}
OUTCOME_KEYS = {"value", "name", "p", "exact", "at_least", "at_most"}

# 4dF: ways to roll -4..+4 out of 81
FOUR_DF = [1, 4, 10, 16, 19, 16, 10, 4, 1]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.exception is None, result.output
    assert result.exit_code == 0, result.output
    return result


# --- help ----------------------------------------------------------------------------


def test_help_lists_every_command() -> None:
    result = ok("--help")
    assert isinstance(main, click.Group)
    assert set(main.commands) >= {"roll", "odds"}
    for name in main.commands:
        assert re.search(rf"^\s+{name}\s", result.output, re.MULTILINE), name
    assert "Examples:" in result.output


@pytest.mark.parametrize("command", main.list_commands(click.Context(main)))
def test_each_command_help_has_examples(command: str) -> None:
    # every command, those built only when named (sheet, session, ...) included
    for flag in ("--help", "-h"):
        result = ok(command, flag)
        assert "Examples:" in result.output
        examples = result.output.split("Examples:", 1)[1]
        assert re.search(rf"^\s+fudgedice {command}\b", examples, re.MULTILINE), result.output


@pytest.mark.parametrize(
    ("typed", "meant"), [("shet", "sheet"), ("verfy", "verify"), ("rol", "roll")]
)
def test_a_mistyped_command_is_suggested_loaded_or_not(typed: str, meant: str) -> None:
    result = CliRunner().invoke(main, [typed])
    assert result.exit_code == 2
    assert f"Did you mean '{meant}'?" in result.output


# --- roll ----------------------------------------------------------------------------


def test_roll_prints_each_die_and_the_total() -> None:
    output = ok("roll", "4d6kh3", "--seed", "1").output
    data = json.loads(ok("roll", "4d6kh3", "--seed", "1", "--json").output)
    dice = data["dice"]
    assert len(dice) == 4
    kept = [die["value"] for die in dice if die["kept"]]
    dropped = [die["value"] for die in dice if not die["kept"]]
    assert len(kept) == 3 and len(dropped) == 1
    assert min(kept) >= dropped[0]
    assert data["total"] == sum(kept)
    lines = output.splitlines()
    assert lines[0] == f"4d6kh3 = {data['total']}"
    # the pool line shows every die, in order, the dropped one marked
    pool = re.fullmatch(r"\s+4d6kh3: (.*) = (\d+)", lines[1])
    assert pool is not None, output
    assert int(pool.group(2)) == data["total"]
    faces = re.findall(r"\(?(\d+)( dropped)?", pool.group(1))
    assert [int(face) for face, _ in faces] == [die["value"] for die in dice]
    assert [bool(mark) for _, mark in faces] == [not die["kept"] for die in dice]


def test_roll_matches_the_api_for_the_same_seed() -> None:
    output = ok("roll", "4d6kh3", "--seed", "1").output
    assert output == fudgedice.roll("4d6kh3", seed=1).text + "\n"


def test_roll_is_deterministic_for_a_seed() -> None:
    first = ok("roll", "4d6kh3", "--seed", "1").output
    assert ok("roll", "4d6kh3", "--seed", "1").output == first
    word = ok("roll", "3d6!+2", "--seed", "dragon").output
    assert ok("roll", "3d6!+2", "--seed", "dragon").output == word
    # and the seed matters: some other seed rolls differently
    others = {ok("roll", "4d6kh3", "--seed", str(seed)).output for seed in range(2, 12)}
    assert others - {first}


def test_roll_expression_may_be_split_into_words() -> None:
    assert ok("roll", "3d6", "+", "2", "--seed", "5").output.startswith("3d6 + 2 = ")


def test_roll_n_gives_that_many_rolls() -> None:
    output = ok("roll", "4d6kh3", "-n", "3", "--seed", "1").output
    heads = [line for line in output.splitlines() if line.startswith("4d6kh3 = ")]
    assert len(heads) == 3
    # each of the rolls can be replayed alone with its own seed, S#1, S#2, ...
    *blocks, summary = output.rstrip("\n").split("\n\n")
    assert len(blocks) == 3
    totals = []
    for index, block in enumerate(blocks):
        replayed = fudgedice.roll("4d6kh3", seed=f"1#{index + 1}")
        assert block == replayed.text
        totals.append(replayed.total)
    mean = sum(totals) / 3
    assert summary == (
        f"3 rolls: {', '.join(map(str, totals))} "
        f"(mean {mean:.4g}, lowest {min(totals)}, highest {max(totals)})"
    )


def test_runs_with_neighbouring_seeds_share_no_roll() -> None:
    first = [fudgedice.roll("3d6", seed=f"1#{index}").dice for index in range(1, 6)]
    second = [fudgedice.roll("3d6", seed=f"2#{index}").dice for index in range(1, 6)]
    faces = [[die.value for die in dice] for dice in first]
    assert all([die.value for die in dice] not in faces for dice in second)


def test_roll_n_json_is_a_list() -> None:
    data = json.loads(ok("roll", "3d6", "-n", "3", "--seed", "4", "--json").output)
    assert isinstance(data, list) and len(data) == 3
    assert [roll["seed"] for roll in data] == ["4#1", "4#2", "4#3"]
    for roll in data:
        assert set(roll) == ROLL_KEYS


def test_roll_n_must_be_positive() -> None:
    result = run("roll", "3d6", "-n", "0")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_roll_json_has_exactly_the_documented_keys() -> None:
    output = ok("roll", "4d6kh3", "--seed", "1", "--json").output
    data: dict[str, Any] = json.loads(output)
    assert set(data) == ROLL_KEYS
    assert data["notation"] == "4d6kh3"
    assert data["system"] == "fudge"
    assert data["seed"] == 1
    assert data["events"] == []
    assert data["text"] == ok("roll", "4d6kh3", "--seed", "1").output.rstrip("\n")
    assert len(data["dice"]) == 4
    for die in data["dice"]:
        assert set(die) == DIE_KEYS
        assert die["sides"] == 6
        assert 1 <= die["value"] <= 6
        assert die["face"] == str(die["value"])
        assert isinstance(die["kept"], bool)
        assert isinstance(die["marks"], list)
    [dropped] = [die for die in data["dice"] if not die["kept"]]
    assert (dropped["marks"], dropped["reason"]) == (["dropped"], "lowest")
    assert all(die["marks"] == [] and die["reason"] is None for die in data["dice"] if die["kept"])


def test_roll_json_fudge_dice() -> None:
    data = json.loads(ok("roll", "4dF+1", "--seed", "3", "--json").output)
    # the Fudge system may add its verdict (the ladder word) to the documented keys
    assert set(data) >= ROLL_KEYS
    assert [die["sides"] for die in data["dice"]] == ["F"] * 4
    faces = {-1: "-", 0: " ", 1: "+"}
    for die in data["dice"]:
        assert die["face"] == faces[die["value"]]
    assert data["total"] == sum(die["value"] for die in data["dice"]) + 1


def test_roll_json_carries_a_label() -> None:
    data = json.loads(ok("roll", "3d6 # attack", "--seed", "1", "--json").output)
    assert data["label"] == "attack"
    assert set(data) == ROLL_KEYS
    assert data["text"].startswith("attack: ")


# --- odds ----------------------------------------------------------------------------

_ROW = re.compile(
    r"\s*(?P<value>[+-]\d+)(?: (?P<name>[A-Za-z][\w+-]*))?\s+(?P<percent>[\d.]+)%"
    r"\s+(?P<exact>\d+/\d+)\s+(?P<at_least>[\d.]+)%\s+(?P<at_most>[\d.]+)%\s+(?P<bar>█+)"
)


def test_odds_table() -> None:
    output = ok("odds", "4dF+1").output
    lines = output.splitlines()
    assert lines[0] == "4dF+1"
    header = lines[1]
    # the first column is titled by the system ("value", "rolled degree")
    assert re.fullmatch(r"\s*[a-z ]+\s+chance\s+exact\s+at least\s+at most", header), header
    rows = [match for line in lines if (match := _ROW.fullmatch(line))]
    assert len(rows) == len(lines) - 3, output  # title, header, mean line
    assert [int(row["value"]) for row in rows] == list(range(-3, 6))
    for row, ways in zip(rows, FOUR_DF, strict=True):
        p = Fraction(ways, 81)
        assert Fraction(row["exact"]) == p
        assert float(row["percent"]) == pytest.approx(float(p) * 100, abs=0.006)
        value = int(row["value"])
        at_least = Fraction(sum(FOUR_DF[value + 3 :]), 81)
        at_most = Fraction(sum(FOUR_DF[: value + 4]), 81)
        assert float(row["at_least"]) == pytest.approx(float(at_least) * 100, abs=0.006)
        assert float(row["at_most"]) == pytest.approx(float(at_most) * 100, abs=0.006)
    # the bars grow with the chance, the most likely value has the longest
    bars = [len(row["bar"]) for row in rows]
    assert bars.index(max(bars)) == 4  # +1
    assert bars == bars[::-1]
    assert bars[0] < bars[1] < bars[2] < bars[3] < bars[4]
    assert f"mean 1, stdev {math.sqrt(8 / 3):.4g}" in lines


def test_odds_plain_dice_show_unsigned_values() -> None:
    lines = ok("odds", "2d6").output.splitlines()
    assert lines[2].split()[:3] == ["2", "2.78%", "1/36"]
    assert lines[-1] == f"mean 7, stdev {math.sqrt(35 / 6):.4g}"


def test_odds_json_shape() -> None:
    data: dict[str, Any] = json.loads(ok("odds", "2d6+1", "--json").output)
    assert set(data) == ODDS_KEYS
    assert data["notation"] == "2d6+1"
    assert data["system"] == "fudge"
    assert data["mean"] == 8.0
    assert data["events"] == {}
    assert data["truncated"] == 0.0
    outcomes = data["outcomes"]
    assert [outcome["value"] for outcome in outcomes] == list(range(3, 14))
    for outcome in outcomes:
        assert set(outcome) == OUTCOME_KEYS
        assert outcome["name"] is None  # plain dice have no ladder
        ways = 6 - abs(outcome["value"] - 8)
        assert Fraction(outcome["exact"]) == Fraction(ways, 36)
        assert outcome["p"] == pytest.approx(ways / 36)


def test_odds_json_of_fudge_dice() -> None:
    data: dict[str, Any] = json.loads(ok("odds", "4dF+1", "--json").output)
    assert set(data) == ODDS_KEYS
    assert data["notation"] == "4dF+1"
    assert data["system"] == "fudge"
    assert data["mean"] == 1.0
    assert data["stdev"] == pytest.approx(math.sqrt(8 / 3))
    assert data["truncated"] == 0.0
    assert data["events"] == {}
    outcomes = data["outcomes"]
    values = [outcome["value"] for outcome in outcomes]
    assert values == sorted(values) == list(range(-3, 6))
    for outcome, ways in zip(outcomes, FOUR_DF, strict=True):
        assert set(outcome) == OUTCOME_KEYS
        p = Fraction(ways, 81)
        assert outcome["exact"] == f"{p.numerator}/{p.denominator}"
        assert outcome["p"] == pytest.approx(ways / 81)
    assert outcomes[0]["at_least"] == 1.0
    assert [outcome["name"] for outcome in outcomes[:2]] == ["Terrible", "Poor"]
    assert data["value_title"] == "rolled degree"
    assert outcomes[-1]["at_most"] == 1.0
    assert math.fsum(outcome["p"] for outcome in outcomes) == pytest.approx(1.0)
    for before, after in itertools.pairwise(outcomes):
        assert after["at_least"] == pytest.approx(before["at_least"] - before["p"])
        assert after["at_most"] == pytest.approx(before["at_most"] + after["p"])


def test_odds_json_of_exploding_dice_reports_truncation() -> None:
    data = json.loads(ok("odds", "3d6!", "--json").output)
    assert 0 < data["truncated"] <= 1e-12
    values = [outcome["value"] for outcome in data["outcomes"]]
    assert values == sorted(values)
    assert values[0] == 3


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_odds_plot_png(tmp_path: Path) -> None:
    target = tmp_path / "out.png"
    result = ok("odds", "3d6!", "--plot", str(target))
    assert target.read_bytes()[:8] == PNG_MAGIC
    assert target.stat().st_size > 1000
    assert str(target) in result.output
    assert result.output.startswith("3d6!\n")


def test_odds_plot_svg(tmp_path: Path) -> None:
    target = tmp_path / "out.svg"
    ok("odds", "3d6!", "--plot", str(target))
    text = target.read_text("utf-8")
    assert text.lstrip().startswith("<?xml")
    assert "<svg" in text and text.rstrip().endswith("</svg>")


def test_odds_plot_with_json_keeps_stdout_json(tmp_path: Path) -> None:
    target = tmp_path / "out.png"
    result = ok("odds", "2d6", "--json", "--plot", str(target))
    assert json.loads(result.stdout)["notation"] == "2d6"
    assert str(target) in result.stderr
    assert target.read_bytes()[:8] == PNG_MAGIC


def test_a_chart_leaves_off_a_difficulty_past_its_axis(tmp_path: Path) -> None:
    """'vs 1' followed by 309 zeros: the difficulty is past what a float
    holds (an OverflowError drawing its line); the chart of the roll is
    written without it, the table gives the check's chances."""
    target = tmp_path / "out.svg"
    result = ok("odds", "vs 1" + "0" * 309, "--plot", str(target))
    assert "success: 0% (0/1)" in result.output
    assert "<svg" in target.read_text("utf-8")


def test_odds_plot_refuses_other_formats(tmp_path: Path) -> None:
    result = run("odds", "2d6", "--plot", str(tmp_path / "out.pdf"))
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert ".png or .svg" in result.stderr
    assert not (tmp_path / "out.pdf").exists()


# --- bad input -----------------------------------------------------------------------


def caret_column(stderr: str, text: str) -> int:
    """The column the ``^`` points at under the quoted input."""
    lines = stderr.splitlines()
    quoted = lines.index(f"  {text}")
    caret = lines[quoted + 1]
    assert caret.strip() == "^", stderr
    return len(caret) - len(caret.lstrip(" ")) - 2


BAD = [
    # text, column of the ^, what the message must say
    ("3d6+", 4, ["expected", "a number", "dice such as 3d6"]),
    ("4d6kx3", 4, ["expected a modifier", "kh/kl/dh/dl", "did you mean 'kh3'?"]),
    ("1000000000d6", 0, ["1000000000 dice", "limit of 10000"]),
    ("d1!", 0, ["d1!", "explodes on every face"]),
    ("(3d6", 4, ["expected", "')'"]),
    ("3d6kh4", 3, ["can't keep 4 of 3 dice"]),
    ("fudgee: 4dF", 0, ["unknown system 'fudgee'", "did you mean 'fudge'?"]),
    ("4dF vss 3", 8, ["expected", "did you mean 'vs'?"]),
]


@pytest.mark.parametrize(("text", "column", "says"), BAD)
@pytest.mark.parametrize("command", ["roll", "odds"])
def test_bad_input_is_explained(command: str, text: str, column: int, says: list[str]) -> None:
    result = run(command, text)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert caret_column(result.stderr, text) == column
    for phrase in says:
        assert phrase in result.stderr, result.stderr


def test_missing_expression_is_a_usage_error() -> None:
    for args in (["roll"], ["odds"], ["roll", "  "]):
        result = run(*args)
        assert result.exit_code == 2
        assert "Traceback" not in result.output
        assert "Usage:" in result.output


def test_hints_for_a_die_without_sides_and_a_code_without_its_system() -> None:
    runner = CliRunner()
    bare = runner.invoke(main, ["odds", "4d"])
    assert bare.exit_code == 2 and "'4d6' or '4dF'" in bare.output
    code = runner.invoke(main, ["roll", "4D+2"])
    assert code.exit_code == 2 and "d6: 4D+2" in code.output
    same = fudgedice.roll("4dF opp 4dF", seed=3).text.splitlines()[0]
    assert "side (4dF) wins" in same or "tie" in same


def test_a_roll_may_start_with_a_minus_sign() -> None:
    result = CliRunner().invoke(main, ["roll", "-1+4dF", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("-1+4dF = ")


def test_coin_misuse_points_at_the_coin() -> None:
    result = CliRunner().invoke(main, ["odds", "3d6 coin"])
    assert result.exit_code == 2
    assert "  3d6 coin\n      ^" in result.output
