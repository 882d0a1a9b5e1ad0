"""The sheet commands through click's runner: new, show, roll and odds by
trait name, raise, hit, heal, spend, and --spend on a roll; every mistake a
message and exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import fudgedice
from fudgedice import sheets
from fudgedice.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def ashley(tmp_path: Path) -> Path:
    path = tmp_path / "ashley.toml"
    result = run("sheet", "new", "3d6fudge", "Ashley the Alert", str(path))
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def jax(tmp_path: Path) -> Path:
    path = tmp_path / "jax.toml"
    assert run("sheet", "new", "d6", "Jax", str(path)).exit_code == 0
    return path


def test_new_writes_the_defaults_and_never_overwrites(ashley: Path) -> None:
    sheet = sheets.load_file(str(ashley))
    assert sheet.system == "3d6fudge" and sheet.name == "Ashley the Alert"
    again = run("sheet", "new", "fudge", "Other", str(ashley))
    assert again.exit_code == 2 and "the file is already there" in again.output
    assert run("sheet", "new", "fudge", "Other", str(ashley), "--force").exit_code == 0
    wrong = run("sheet", "new", "fudj", "X", str(ashley.parent / "x.toml"))
    assert wrong.exit_code == 2 and "unknown system 'fudj'" in wrong.output


def test_show_gives_each_trait_its_chance(ashley: Path) -> None:
    result = run("sheet", "show", str(ashley))
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "Ashley the Alert (3d6fudge sheet)"
    # seed 004's chances: Fair (5) 53.2%, Poor (3) 21.3%
    assert "  Strength    5 Fair  53.24%" in lines
    assert "  Melee       3 Poor  21.30%" in lines


def test_roll_and_odds_by_trait_name(ashley: Path) -> None:
    rolled = run("roll", "--sheet", str(ashley), "Melee-1", "--seed", "4")
    assert rolled.exit_code == 0, rolled.output
    expected = fudgedice.roll("3d6fudge: Poor-1 # Ashley the Alert, Melee-1", seed=4)
    assert rolled.output.splitlines() == [
        "Ashley the Alert's Melee is 3 Poor",
        "",
        *expected.text.splitlines(),
    ]
    odds = run("odds", "--sheet", str(ashley), "Melee")
    assert odds.exit_code == 0 and "success: 21.30% (23/108)" in odds.output


def test_a_hit_changes_the_dice_and_says_why(jax: Path) -> None:
    hit = run("sheet", "hit", str(jax), "5")
    assert hit.output == "Jax took a hit of 5 over resistance: none -> wounded\n"
    odds = run("odds", "--sheet", str(jax), "Dodge vs Moderate")
    assert "Jax is Wounded: wound=wounded" in odds.output.splitlines()
    plain = run("odds", "d6: 3D vs Moderate")  # Dodge 4D, less the wound's 1D
    assert odds.output.splitlines()[-12:] == plain.output.splitlines()[-12:]
    rolled = run("roll", "--sheet", str(jax), "Dodge", "--seed", "1")
    assert "wound=wounded: -1D (Wounded), 4D rolls as 3D" in rolled.output
    healed = run("sheet", "heal", str(jax))
    assert healed.output == "Jax healed: wounded -> none\n"


def test_spending_on_a_roll_takes_the_points_after_it(jax: Path) -> None:
    result = run("roll", "--sheet", str(jax), "--spend", "cp2", "Dodge vs 15", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "Jax spent 2 Character Points on the roll (3 left)"
    assert " cp 2D: " in result.output
    assert sheets.load_file(str(jax)).count("character_points") == 3
    short = run("roll", "--sheet", str(jax), "--spend", "cp4", "Dodge")
    assert short.exit_code == 2 and "has 3 Character Points, and the roll spends 4" in short.output
    many = run("roll", "--sheet", str(jax), "--spend", "cp1", "Dodge", "-n", "3")
    assert many.exit_code == 2 and "one roll at a time" in many.output
    odds = run("odds", "--sheet", str(jax), "--spend", "cp1", "Dodge")
    assert odds.exit_code == 0 and sheets.load_file(str(jax)).count("character_points") == 3


def test_an_opposed_roll_of_two_sheets(ashley: Path, tmp_path: Path) -> None:
    bert = tmp_path / "bert.toml"
    run("sheet", "new", "3d6fudge", "Bert the Bruiser", str(bert))
    result = run(
        "roll",
        "--sheet",
        str(ashley),
        "--sheet",
        str(bert),
        "Ashley.Melee opp Bert.Melee",
        "--seed",
        "1",
    )
    assert result.exit_code == 0, result.output
    assert "3d6fudge: Poor opp Poor = " in result.output


def test_raise_spend_and_heal_keep_the_file_a_sheet(ashley: Path) -> None:
    text = ashley.read_text("utf-8").replace("ep = 0 ", "ep = 3 ")
    ashley.write_text(text, "utf-8")
    assert run("sheet", "raise", str(ashley), "Melee").output == (
        "Ashley the Alert raised Melee from 3 Poor to 4 Mediocre for 1 EP (2 left)\n"
    )
    assert run("sheet", "spend", str(ashley), "fudge", "2").output == (
        "Ashley the Alert spent 2 Fudge Points (1 left)\n"
    )
    assert (
        run("sheet", "hit", str(ashley), "6").output
        == "Ashley the Alert took 6 damage: Very Hurt\n"
    )
    assert run("sheet", "heal", str(ashley), "very hurt").exit_code == 0
    after = ashley.read_text("utf-8")
    assert after.count("#") == text.count("#")
    assert 'Melee = "Mediocre"' in after and "fudge_points = 1" in after


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("roll", "--sheet", "{a}", "Mele"), "has no trait 'Mele'"),
        (("roll", "--spend", "cp2", "4dF"), "--spend takes points from a sheet"),
        (("roll", "--sheet", "{a}", "--spend", "invoke", "Melee"), "is spent on a fate roll"),
        (("sheet", "show", "{missing}"), "can't read the sheet"),
        (("sheet", "raise", "{a}", "Melee"), "has 0 Experience Points"),
        (("sheet", "spend", "{a}", "cp"), "a 3d6fudge sheet has no 'cp' points"),
        (("sheet", "heal", "{a}", "Bruised"), "'Bruised' is no level of the wound track"),
        (("roll", "--sheet", "{bad}", "Melee"), "bad.toml:1:10: unknown system"),
    ],
)
def test_every_mistake_is_a_message(ashley: Path, args: tuple[str, ...], message: str) -> None:
    bad = ashley.parent / "bad.toml"
    bad.write_text('system = "gurps"\nname = "X"\n', "utf-8")
    filled = [arg.format(a=ashley, missing=ashley.parent / "none.toml", bad=bad) for arg in args]
    result = run(*filled)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_fate_condensed_and_accelerated_sheets_from_the_command_line(tmp_path: Path) -> None:
    zird, abigail = tmp_path / "zird.toml", tmp_path / "abigail.toml"
    made = run("sheet", "new", "fatecondensed", "Zird", str(zird))
    assert made.exit_code == 0, made.output
    assert run("sheet", "new", "fae", "Abigail", str(abigail)).exit_code == 0
    hit = run("sheet", "hit", str(zird), "3", "--track", "mental")
    assert hit.output.strip() == "Zird took a 3-shift mental hit: checked 3 mental stress boxes"
    shown = run("sheet", "show", str(zird)).output.splitlines()
    assert "Mental stress: [x1] [x2] [x3] [ 4]" in shown
    assert "Physical stress: [ 1] [ 2] [ 3] [ 4] [ 5] [ 6]" in shown
    hit = run("sheet", "hit", str(abigail), "2", "--track", "stress")
    assert hit.output.strip() == "Abigail took a 2-shift stress hit: checked the 2 stress box"
    assert "Stress: [ 1] [x2] [ 3]" in run("sheet", "show", str(abigail)).output
    rolled = run("roll", "--sheet", str(abigail), "Sneaky vs Fair", "--seed", "2")
    assert rolled.exit_code == 0, rolled.output
    expected = fudgedice.roll("fae: Average vs Fair # Abigail, Sneaky vs Fair", seed=2)
    assert expected.text in rolled.output
