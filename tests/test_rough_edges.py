"""Rough edges a player met, each reproduced and answered clearly."""

from __future__ import annotations

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
    assert f"Did you mean '{meant}'?" in output


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
