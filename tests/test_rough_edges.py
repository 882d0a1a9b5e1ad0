"""Rough edges a player met, each reproduced and answered clearly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import fudgedice
from fudgedice.cli import main


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_ladder_of_a_prefix_suggests_the_system_and_that_works() -> None:
    code, output = cli("ladder", "3d6")
    assert code == 2
    assert "did you mean '3d6fudge'?" in output
    code, output = cli("ladder", "3d6fudge")
    assert code == 0
    assert "Legendary" in output


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (("roll", "4dF", "--sed", "3"), "--seed"),
        (("roll", "4dF", "--jsn"), "--json"),
        (("odds", "4dF", "--plott", "x.png"), "--plot"),
        (("read", "4dF", "+", "+", "-", "0", "--jsn"), "--json"),
    ],
)
def test_a_mistyped_option_is_no_such_option(args: tuple[str, ...], meant: str) -> None:
    code, output = cli(*args)
    assert code == 2
    assert (
        f"No such option '{args[-2] if meant == '--seed' or meant == '--plot' else args[-1]}'"
        in output
    )
    # the option meant is suggested (alone, or among other near names)
    suggested = re.search(r"Did you mean (?:one of: )?(.*)\?", output)
    assert suggested is not None and f"'{meant}'" in suggested.group(1).split(", ")


def test_a_roll_may_still_start_with_a_minus_sign() -> None:
    code, output = cli("roll", "-1+4dF", "--seed", "1")
    assert code == 0
    assert output.startswith("-1+4dF = ")
    code, output = cli("read", "4dF", "--", "-", "-", "+", "0")
    assert code == 0
    assert output.startswith("4dF = -1")


def test_a_negated_pool_reads_minus_in_brackets() -> None:
    rolled = fudgedice.read("-4dF", "- 0 0 0")
    assert rolled.total == 1
    assert "  -(-1) = 1" in rolled.text.splitlines()
    assert "--" not in rolled.text


def test_odds_of_degrees_keep_their_sign_when_none_is_negative() -> None:
    from fudgedice.render.odds_table import odds_text

    rows = odds_text(fudgedice.odds("2dF+3")).splitlines()[2:7]
    assert [row.split()[0] for row in rows] == ["+1", "+2", "+3", "+4", "+5"]
    plain = odds_text(fudgedice.odds("2d6")).splitlines()[2]
    assert plain.split()[0] == "2"  # plain totals stay unsigned


def test_an_unquoted_roll_read_by_hand_is_told_to_quote() -> None:
    code, output = cli("read", "d6:", "3D+1", "4", "2", "w6", "w3")
    assert code == 2
    assert "quote a roll that has spaces" in output
    assert "fudgedice read 'd6: 3D+1' 4 2 w6 w3" in output
    code, output = cli("read", "Good", "vs", "Great", "+", "0", "0", "-")
    assert "fudgedice read 'Good vs Great' + 0 0 -" in output
    # a bad face in a whole roll is still told as a bad face
    code, output = cli("read", "4dF", "+", "+", "x")
    assert "'x' is not a face of dF" in output


@pytest.mark.parametrize("text", ["4d6\u212ah3", "\uff16d6", "3d\u0666", "Go\u043ed"])
def test_look_alike_characters_are_refused_with_their_name(text: str) -> None:
    with pytest.raises(fudgedice.DiceSyntaxError) as caught:
        fudgedice.roll(text)
    assert "is not a character of the roll language" in caught.value.message
    assert caught.value.position == next(i for i, c in enumerate(text) if not c.isascii())


def test_a_label_may_be_any_text() -> None:
    assert fudgedice.read("4dF # Ashley\u2019s dodge \u2694", "+ 0 0 0").label == (
        "Ashley\u2019s dodge \u2694"
    )


def test_the_same_odds_are_equal() -> None:
    assert fudgedice.odds("4dF") == fudgedice.odds("4dF")
    assert fudgedice.odds("4dF") != fudgedice.odds("4dF+1")
    assert fudgedice.odds("d6: 3D vs 10") == fudgedice.odds("d6: 3D vs 10")


@pytest.mark.parametrize(
    ("text", "faces", "total"),
    [
        ("Good opp Fair", "+ + 0 0 opp - 0 0 0", 4),
        ("power: 4dF+1 opp 4dF", "+ 0 0 0 opp - 0 0 0", 3),
        ("3d6fudge: 6 opp 8", "5 2 1 opp 4 4 3", 2),
        ("d6: 3D opp 2D", "4 2 w5 opp 3 w6 w1", 1),
    ],
)
def test_opp_separates_the_sides_read_by_hand_in_every_system(
    text: str, faces: str, total: int
) -> None:
    assert fudgedice.read(text, faces).total == total
    # and the same dice without the word read the same (D6 needs it: marks sort its dice)
    if not text.startswith("d6:"):
        assert fudgedice.read(text, faces.replace(" opp", "")).total == total


@pytest.mark.parametrize(
    ("text", "faces", "message"),
    [
        ("Good opp Fair", "+ + 0 opp 0 - 0 0 0", "not enough dice before 'opp'"),
        ("Good opp Fair", "+ + 0 0 0 opp 0 0 0", "too many dice before 'opp'"),
        ("3d6fudge: 6 opp 8", "5 2 opp 1 4 4 3", "not enough dice before 'opp'"),
        ("4dF", "+ + 0 0 opp", "'opp' separates the two sides of an opposed roll only"),
    ],
)
def test_opp_in_the_wrong_place_is_named(text: str, faces: str, message: str) -> None:
    with pytest.raises(fudgedice.DiceValueError, match=message):
        fudgedice.read(text, faces)


def test_fudge_faces_as_seed_001_writes_them() -> None:
    assert fudgedice.read("4dF", "+1 +1 0 -1").total == 1
    assert [die.face for die in fudgedice.read("4dF", "+1 -1 0 +").dice] == ["+", "-", " ", "+"]


def test_over_long_or_look_alike_faces_are_no_faces() -> None:
    with pytest.raises(fudgedice.DiceValueError, match="a face of 5000 characters is no face"):
        fudgedice.read("3d6", ["6", "6", "9" * 5000])
    code, output = cli("read", "3d6", "6", "6", "9" * 5000)
    assert code == 2
    assert "'9999999999999999...' is not a face of d6" in output
    with pytest.raises(fudgedice.DiceValueError, match="is not a face of d6"):
        fudgedice.read("d6", ["\u0666"])


def test_d6_options_that_conflict_or_mean_nothing_are_named() -> None:
    with pytest.raises(fudgedice.DiceValueError, match="two dice reductions: a roll takes one"):
        fudgedice.roll("d6: 4D wildonly fast")
    with pytest.raises(fudgedice.DiceValueError, match="this roll has no Wild Die"):
        fudgedice.roll("d6: 4D nowild crit=cancel")
    with pytest.raises(fudgedice.DiceValueError, match="repeats an option"):
        fudgedice.roll("d6: 4D fast fast")


def test_d6_dice_read_without_the_wild_mark_ask_which_is_wild() -> None:
    with pytest.raises(fudgedice.DiceValueError, match=r"which die is the Wild Die\?") as caught:
        fudgedice.read("d6: 3D+1", "4 2 3")
    assert "such as 4 4 w3" in caught.value.message
    assert fudgedice.read("d6: 3D+1", "4 2 w3").total == 10


def test_a_situational_roll_against_a_difficulty() -> None:
    rolled = fudgedice.read("vs Good", "+ + 0 0")
    assert (rolled.total, rolled.verdict, rolled.margin) == (2, "success", 1)
    assert fudgedice.odds("vs Good").events == fudgedice.odds("4dF vs Good").events
    assert fudgedice.read("power: vs 3", "+ + 0 0").verdict == "failure"
    with pytest.raises(fudgedice.DiceValueError, match="names its die code before 'vs'"):
        fudgedice.roll("d6: vs 15")


def test_fixed_tables_refuse_to() -> None:
    with pytest.raises(fudgedice.DiceValueError, match="has a fixed length"):
        fudgedice.table("techniques", to=3)
    assert len(fudgedice.table("d6-reduction", to=3).rows) == 3


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("Incredible vs Good", "'Incredible' is a word of power rolls (written 'power: ...')"),
        ("4dF vs Abysmal", "'Abysmal' is a word of 3d6fudge rolls (written '3d6fudge: ...')"),
        ("Gud vs Great", "did you mean 'Good'?"),
    ],
)
def test_a_word_of_another_system_is_named_as_such(text: str, hint: str) -> None:
    with pytest.raises(fudgedice.DiceValueError) as caught:
        fudgedice.roll(text)
    assert (caught.value.hint or "").startswith(hint)


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        ("d6 2D+3", "'d6' names a system without its colon", "write 'd6: 2D+3'"),
        (
            "3d6 fudge: Good",
            "'3d6 fudge' names the 3d6fudge system as more than one word",
            "write '3d6fudge: Good'",
        ),
    ],
)
def test_a_system_written_wrong_is_told_plainly(text: str, message: str, hint: str) -> None:
    with pytest.raises(fudgedice.DiceSyntaxError) as caught:
        fudgedice.roll(text)
    assert (caught.value.message, caught.value.hint) == (message, hint)
    assert "expected" not in caught.value.message


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: fudgedice.roll(None), "a roll is text, such as '4dF+1', not None"),  # type: ignore[arg-type]
        (lambda: fudgedice.roll(5), "a roll is text, such as '4dF+1', not int"),  # type: ignore[arg-type]
        (lambda: fudgedice.odds(b"4dF"), "a roll is text, such as '4dF+1', not bytes"),  # type: ignore[call-overload]
        (lambda: fudgedice.sample(["4dF"], 3), "a roll is text, such as '4dF+1', not list"),  # type: ignore[call-overload]
        (lambda: fudgedice.roll("4dF", seed=[1]), "a seed is a whole number or a word, not list"),  # type: ignore[arg-type]
        (lambda: fudgedice.roll("4dF", seed=1.5), "a seed is a whole number or a word, not float"),  # type: ignore[arg-type]
        (lambda: fudgedice.sample("4dF", True), "the number of rolls is a whole number, not bool"),
        (lambda: fudgedice.read("4dF", 5), "the dice read by hand are one text or a list of faces"),  # type: ignore[arg-type]
        (lambda: fudgedice.read("4dF", [None, 1]), "a face is written as text or a whole number"),  # type: ignore[list-item]
        (lambda: fudgedice.table(3), "a table's name is text, such as 'techniques', not int"),  # type: ignore[arg-type]
        (lambda: fudgedice.table("techniques", exact=1), "exact is True or False, not int"),  # type: ignore[arg-type]
        (lambda: fudgedice.ladder(None), "a system's name is text, such as 'power', not None"),  # type: ignore[arg-type]
        (lambda: fudgedice.odds("4dF@d%", d100_table=5), "a d% table is inline text, a file path"),  # type: ignore[call-overload]
    ],
)
def test_the_api_names_a_value_of_the_wrong_kind(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(fudgedice.DiceTypeError) as caught:
        call()
    assert caught.value.message.startswith(message)
    assert isinstance(caught.value, TypeError)  # and Python code may catch it as one


def test_d100_table_files_are_read_no_further_than_64_kib(tmp_path: object) -> None:
    with pytest.raises(fudgedice.LimitError, match="larger than 64 KiB"):
        fudgedice.odds("4dF@d%", d100_table="/dev/zero")
    with pytest.raises(fudgedice.DiceValueError, match="can't read the d% table file"):
        fudgedice.odds("4dF@d%", d100_table="/no/such/table.txt")
    with pytest.raises(fudgedice.DiceValueError, match="not a whole number from -9999"):
        fudgedice.odds("4dF@d%", d100_table="1-99=0, 00=\u0664")


def test_a_plot_path_is_checked_before_any_work(tmp_path: object) -> None:
    code, output = cli("odds", "3d6", "--plot", "/no/such/folder/chart.png")
    assert code == 2
    assert "there is no folder '/no/such/folder'" in output
    assert "mean" not in output  # refused before the table was printed


def test_huge_values_print_in_scientific_form() -> None:
    import json

    big = "1" + "0" * 309
    code, output = cli("odds", big)
    assert code == 0
    assert "mean 1.000e+309, stdev 0" in output
    code, output = cli("odds", big, "--json")
    assert json.loads(output)["mean"] == "1.0000000000000000e+309"
    assert fudgedice.odds(f"d6+{big}").stdev == pytest.approx(1.707825127659933)
    code, output = cli("roll", big, "-n", "2")
    assert code == 0
    assert "(mean 1.000e+309" in output


@pytest.mark.parametrize(
    ("call", "message", "hint"),
    [
        (
            lambda: fudgedice.odds("4d12!p>3"),
            "exact odds here would multiply numbers of",
            "3 such dice is the most whose exact odds fit in about a second",
        ),
        (
            lambda: fudgedice.sample("100d6kh3", 10**6),
            "tosses about 100,000,000 dice",
            "at most 300,000 rolls of it can be sampled at once",
        ),
        (lambda: fudgedice.sample("4dF", 10**8), "more than the limit of 10000000", None),
        (
            lambda: fudgedice.odds("d6: 3D cp99"),
            "99 Character Points on one roll is more than the limit of 20",
            "each is an exploding die of its own; cp20 is the most one roll may spend",
        ),
        (
            lambda: fudgedice.odds("1000d20").to_dict(),
            "as JSON would take about 49 MB",
            None,
        ),
    ],
)
def test_work_past_the_budget_is_refused_naming_what_passes(
    call: object, message: str, hint: str | None
) -> None:
    assert callable(call)
    with pytest.raises(fudgedice.LimitError) as caught:
        call()
    assert message in caught.value.message
    assert caught.value.hint == hint


def test_a_run_of_rolls_has_one_budget() -> None:
    code, output = cli("roll", "10000d6", "-n", "1000")
    assert code == 2
    assert "would roll about 10,000,000 dice, more than the limit of 200,000" in output
    assert "at most -n 20 for this roll" in output
    code, _ = cli("roll", "10000d6", "-n", "20")
    assert code == 0


def test_an_exact_table_of_every_row_has_a_budget() -> None:
    code, output = cli("odds", "10000dF", "--exact", "--all")
    assert code == 2
    assert "more than the limit of 15 MB" in output
    code, output = cli("odds", "1000dF", "--exact", "--all")
    assert code == 0
    assert len(output.splitlines()) > 2000


@pytest.mark.parametrize(
    ("args", "starts"),
    [
        (("roll", "--seed", "1", "-(Legendary)"), "-(Legendary) = "),
        (("roll", "-4dF", "--seed", "1", "-n", "2"), "-4dF = "),
        (("roll", "-n3", "4dF", "--seed", "2"), "4dF = "),
        (("read", "--json", "-Good", "+", "-", "0", "0"), "{"),
        (("odds", "-4dF"), "-4dF"),
    ],
)
def test_a_roll_starting_with_a_minus_sign_is_never_read_as_options(
    args: tuple[str, ...], starts: str
) -> None:
    code, output = cli(*args)
    assert code == 0, output
    assert output.startswith(starts)
    assert "Usage:" not in output


def test_sampling_never_draws_from_a_table_with_a_cut_off_tail() -> None:
    import numpy as np

    from fudgedice.dice.sampling import sample_exactly
    from fudgedice.exact.dist import Dist

    # half the ways cut off: a draw from the table could land past its last row
    cut = Dist(0, (1,), 2)
    assert sample_exactly(lambda: cut, 5, np.random.default_rng(1)) is None
    whole = Dist(0, (1, 1), 2)
    drawn = sample_exactly(lambda: whole, 5, np.random.default_rng(1))
    assert drawn is not None and set(drawn.tolist()) <= {0, 1}
    assert set(fudgedice.sample("Good+4dF!", 2000, seed=1).tolist()) >= {1}


def test_a_product_of_big_pools_is_refused_by_the_memory_it_would_hold() -> None:
    with pytest.raises(fudgedice.LimitError, match="more than the limit of 50 MB"):
        fudgedice.odds("--4dF.2dh1*9996dF")  # 10,000 dice: as many as one roll tosses


@pytest.mark.parametrize("digits", [100, 400])  # 400: past what a float holds
def test_a_chart_of_values_past_what_an_axis_can_place_is_refused(
    digits: int, tmp_path: Path
) -> None:
    big = "9" * digits
    code, output = cli("odds", f"power: 6dF+{big}", "--plot", str(tmp_path / "big.svg"))
    assert code == 2
    assert f"values up to 1.000e+{digits} are too large to chart" in output


def test_a_chart_titled_with_a_character_its_font_lacks_is_drawn(tmp_path: Path) -> None:
    """A label may hold any character (a fullwidth '='): drawn as a box, with
    no warning (the tests turn warnings into errors)."""
    chart = tmp_path / "odds.png"
    code, output = cli("odds", "4dF # reroll2\uff1dtie", "--plot", str(chart))
    assert code == 0, output
    assert chart.stat().st_size
