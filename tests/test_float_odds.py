"""Float odds (``odds(text, exact=False)``, ``odds --float``): every chance
within the bound the result states, against the exact Fractions wherever both
can be computed; rolls that are no sum refused; bounded work; the CLI's hint."""

from __future__ import annotations

import json
import math
import time

import pytest
from click.testing import CliRunner

import fudgedice
from fudgedice.cli import main
from fudgedice.dice.spectral import Part, Term, float_sum
from fudgedice.results.float_odds import FloatOdds

SUMS = [
    "4dF",
    "100dF",
    "1000dF",
    "50d6",
    "300d6",
    "3d6!",
    "20d6!",
    "10d6!p",
    "5d10!>=8",
    "10d10>=7",
    "10d10>=7f1",
    "100d6r1",
    "30d6ro<3",
    "3d6+2d4-3",
    "100dF-50dF",
    "-(10d6)+2",
    "2d20!!",
    "7d12!p+1",
    "40d3!!",
    "1d6",
    "d%+d6",
    "0d6+5",
    "Good vs Great",
    "10dF+1 vs 3",
    "20dF opp 10dF+1",
    "power: 8dF+2 vs Superb",
    "d6: 10D",
    "d6: 10D+2 vs 30",
    "d6: 8D crit=cancel",
    "d6: 12D+1 crit=cancel cp2",
    "d6: 5D crit=ignore",
    "d6: 1D",
    "d6: 2D crit=cancel vs 5",
]


@pytest.mark.parametrize("text", SUMS)
def test_every_chance_within_the_stated_bound(text: str) -> None:
    exact = fudgedice.odds(text)
    floats = fudgedice.odds(text, exact=False)
    assert floats.exact is False
    below = min(exact.low, floats.lo) - 3
    above = max(exact.high, floats.hi) + 3
    for value in range(below, above + 1):
        # the exact odds list no chance past a cut-off chain: those ways are the tail
        truth = exact.probability(value) if exact.dist.lo <= value <= exact.dist.hi else 0
        assert abs(floats.probability(value) - float(truth)) <= floats.error + floats.truncated
    for value in range(floats.lo, floats.hi + 2):
        for float_chance, exact_chance in (
            (floats.at_least(value), exact.at_least(value)),
            (floats.at_most(value), exact.at_most(value)),
        ):
            assert abs(float_chance - float(exact_chance)) <= floats.sum_error
    assert set(floats.events) == set(exact.events)
    for name, chance in exact.events.items():
        assert abs(floats.events[name] - float(chance)) <= floats.sum_error
    assert abs(floats.mean - float(exact.mean)) <= 1e-6 * max(1.0, abs(float(exact.mean)))


def test_the_bound_is_meaningful() -> None:
    """Not a bound so loose it says nothing: far below the chances it covers."""
    floats = fudgedice.odds("1000dF", exact=False)
    assert floats.error < 1e-9 * max(floats.chances)
    assert floats.sum_error < 1e-6


@pytest.mark.parametrize(
    ("text", "mean", "stdev"),
    [
        ("100000dF", 0.0, math.sqrt(100000 * 2 / 3)),
        ("1000000d6", 3_500_000.0, math.sqrt(1000000 * 35 / 12)),
        ("d6: 100000D", 99999 * 3.5 + 4.2, None),
    ],
)
def test_pools_past_exact(text: str, mean: float, stdev: float | None) -> None:
    with pytest.raises(fudgedice.LimitError):
        fudgedice.odds(text)
    floats = fudgedice.odds(text, exact=False)
    assert abs(sum(floats.chances) - 1) <= floats.sum_error
    assert floats.mean == pytest.approx(mean, abs=1e-6 * floats.stdev)
    if stdev is not None:
        assert floats.stdev == pytest.approx(stdev, rel=1e-7)
    assert floats.error < 1e-6 * max(floats.chances)


def test_a_central_limit_check_past_exact() -> None:
    """100000dF is all but normal: its peak is 1/sqrt(2 pi var) to 1e-5."""
    floats = fudgedice.odds("100000dF", exact=False)
    peak = 1 / math.sqrt(2 * math.pi * 100000 * 2 / 3)
    assert floats.probability(0) == pytest.approx(peak, rel=1e-4)
    assert floats.at_least(1) == pytest.approx(floats.at_most(-1), abs=2 * floats.sum_error)


def test_mixture_terms_against_brute_force() -> None:
    """A mixture with a negative term: 2d3 minus its highest die, from the
    float kernel, against an enumeration."""
    uniform = [Part(1, (1,) * sides, sides, 2) for sides in (1, 2, 3)]
    terms = [Term((uniform[0],), -1, (1 / 3) ** 2)]
    terms += [Term((uniform[m - 1],), -m, (m / 3) ** 2) for m in (2, 3)]
    terms += [Term((uniform[m - 2],), -m, -(((m - 1) / 3) ** 2)) for m in (2, 3)]
    measured = float_sum(terms, "2d3 less its highest")
    brute = {1: 5 / 9, 2: 3 / 9, 3: 1 / 9}
    for value in range(measured.lo, measured.lo + len(measured.chances)):
        got = measured.chances[value - measured.lo]
        assert abs(got - brute.get(value, 0)) <= measured.error


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("4d6kh3", "keeps or drops"),
        ("2d6*3", "multiplies or divides"),
        ("4dF@3d6", "technique"),
        ("power: 4dF adv", "advantage"),
        ("4dF coin", "coin"),
        ("d6: 3D opp 2D", "one side"),
        ("3d6fudge: Good", "216 ways"),
        ("fate: Good vs Fair", "4dF a side"),
    ],
)
def test_what_is_no_sum_is_refused(text: str, words: str) -> None:
    with pytest.raises(fudgedice.DiceValueError, match=words):
        fudgedice.odds(text, exact=False)


@pytest.mark.parametrize("text", ["1000000000d10000", "10000000000d6", "999999999d10000!"])
def test_too_large_refused_at_once(text: str) -> None:
    started = time.process_time()
    with pytest.raises(fudgedice.LimitError):
        fudgedice.odds(text, exact=False)
    assert time.process_time() - started < 5  # generous: a refusal, not the work


def test_float_odds_type_checked() -> None:
    with pytest.raises(fudgedice.DiceTypeError, match="exact is True or False"):
        fudgedice.odds("4dF", exact=0)  # type: ignore[call-overload]


def test_json_and_repr() -> None:
    floats = fudgedice.odds("3d6", exact=False)
    assert isinstance(floats, FloatOdds)
    data = floats.to_dict()
    assert data["exact"] is False and data["lo"] == 3 and data["hi"] == 18
    assert abs(data["chances"][0] - 1 / 216) <= data["error"]
    assert "error=" in repr(floats)


def test_cli_float_table_and_json() -> None:
    runner = CliRunner()
    shown = runner.invoke(main, ["odds", "100000dF", "--float"])
    assert shown.exit_code == 0, shown.output
    assert "each chance within ±" in shown.output
    assert "mean " in shown.output
    as_json = runner.invoke(main, ["odds", "d6: 1000D vs 3500", "--float", "--json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    assert data["exact"] is False and "success" in data["events"]


def test_cli_suggests_float_when_exact_is_too_large() -> None:
    runner = CliRunner()
    refused = runner.invoke(main, ["odds", "100000dF"])
    assert refused.exit_code == 2
    assert "--float" in refused.output
    # a roll the float odds cannot read gets no such hint
    keep = runner.invoke(main, ["odds", "10000d6kh5000"])
    assert keep.exit_code == 2 and "--float" not in keep.output


def test_cli_float_refuses_exact_only_options() -> None:
    refused = CliRunner().invoke(main, ["odds", "3d6", "--float", "--exact"])
    assert refused.exit_code == 2 and "leave out --float" in refused.output
