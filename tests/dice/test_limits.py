"""Every limit refuses at once with the project's own error, never hangs.

No test here times anything (machines are noisy); each request below would
take minutes or exhaust memory if its limit did not stop it first, so a
regression shows up as a failed assertion or a pytest-timeout.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import fudgedice
from fudgedice import DiceError, DiceSyntaxError, DiceValueError, LimitError, TooManyDice
from fudgedice.api import compile_roll
from fudgedice.dice.sampling import _sample_pool, expected_tosses
from fudgedice.language.tree import Pool
from fudgedice.limits import DEFAULT_LIMITS
from fudgedice.stream import Stream

LIMITS = DEFAULT_LIMITS


class Always(Stream):
    """A rigged dice stream: every draw is ``draw`` (for dice, face index ``draw``)."""

    def __init__(self, draw: int) -> None:
        super().__init__(b"rigged")
        self.draw = draw

    def below(self, n: int) -> int:
        return self.draw

    def draws(self, n: int, count: int) -> list[int]:
        return [self.draw] * count


def refused(text: str, error: type[DiceError] = LimitError) -> DiceError:
    """``text`` is refused by roll, odds and sample alike, with ``error``."""
    caught: list[DiceError] = []
    for attempt in (
        lambda: fudgedice.roll(text, seed=1),
        lambda: fudgedice.odds(text),
        lambda: fudgedice.sample(text, 10, seed=1),
    ):
        with pytest.raises(error) as info:
            attempt()
        caught.append(info.value)
    assert all(isinstance(e, DiceError) and e.exit_code == 2 for e in caught)
    return caught[0]


@pytest.mark.parametrize(
    "cls", [DiceError, DiceSyntaxError, DiceValueError, LimitError, TooManyDice]
)
def test_error_family(cls: type[DiceError]) -> None:
    assert issubclass(cls, DiceError)
    assert cls.exit_code == 2
    assert cls("x").exit_code == 2
    assert issubclass(TooManyDice, LimitError)


# --- dice in one pool, dice in one roll ---------------------------------------------


@pytest.mark.parametrize("text", ["1000000000d6", "1000000000000000000000000000dF", "10001d6"])
def test_huge_pool_is_refused_at_once(text: str) -> None:
    error = refused(text, TooManyDice)
    assert error.position == 0
    assert f"limit of {LIMITS.max_dice}" in str(error)


def test_the_largest_pool_is_allowed() -> None:
    assert fudgedice.roll("10000d6", seed=1).total >= 10000
    assert len(fudgedice.roll("10000dF", seed=1).dice) == 10000


@pytest.mark.parametrize(
    "text",
    [
        "20000d6 / 2",  # one pool over the limit
        "10000d6+d6",  # two pools that together are
        "5000d6+5000d6+5000d6",
        "10000d6!",  # an exploding pool whose explosions cross it
        "9999d6!",
        "9990d6r1",  # rerolls count too
        "5000d6!+5000d6",
    ],
)
def test_a_roll_tossing_too_many_dice_raises_too_many_dice(text: str) -> None:
    with pytest.raises(TooManyDice) as caught:
        fudgedice.roll(text, seed=1)
    assert caught.value.exit_code == 2
    assert str(LIMITS.max_dice) in str(caught.value)


def test_too_many_dice_whatever_the_seed() -> None:
    for seed in range(5):
        with pytest.raises(TooManyDice):
            fudgedice.roll("9999d6!", seed=seed)


@pytest.mark.parametrize("text", ["d10001", "3d100000", "d99999999999999999999"])
def test_too_many_sides(text: str) -> None:
    error = refused(text)
    assert f"limit of {LIMITS.max_sides}" in str(error)
    assert fudgedice.odds("d10000").probability(10000) == Fraction(1, 10000)


# --- dice that would never stop -----------------------------------------------------


@pytest.mark.parametrize("text", ["d1!", "3d1!!", "2d1!p", "d6!>=1", "d6!<7", "dF!>=-1", "2d4!<=4"])
def test_always_exploding_is_refused(text: str) -> None:
    error = refused(text, DiceValueError)
    assert "explodes on every face" in str(error)
    assert error.text == text  # the message quotes the roll with a ^
    assert error.position == 0


@pytest.mark.parametrize("text", ["d6r<=6", "d1r1", "3dFr>=-1"])
def test_always_rerolling_is_refused(text: str) -> None:
    error = refused(text, DiceValueError)
    assert "would never stop" in str(error)
    assert error.text == text


@pytest.mark.parametrize("text", ["d6!>=2", "d6!!>1", "d20!>=3", "d6r<=5", "d10r<10"])
def test_chains_too_likely_to_run_long_are_refused(text: str) -> None:
    error = refused(text)
    assert str(LIMITS.max_chain) in str(error)


def test_likely_but_bounded_chains_are_allowed() -> None:
    # 1/2 a toss: 2**-100 is far below the 1e-12 the measure may leave out
    assert 0 < fudgedice.odds("d2!").truncated <= LIMITS.chain_epsilon
    fudgedice.roll("d2!", seed=1)


def test_a_roll_stops_an_explosion_chain_at_the_limit() -> None:
    six = Always(5)  # d6 face index 5: every toss a 6
    with pytest.raises(LimitError, match=f"exploded more than {LIMITS.max_chain}"):
        compile_roll("d6!").roll(six, None)
    with pytest.raises(LimitError, match=f"exploded more than {LIMITS.max_chain}"):
        compile_roll("d6!!").roll(six, None)


def test_a_roll_stops_a_reroll_run_at_the_limit() -> None:
    one = Always(0)  # every toss a 1
    with pytest.raises(LimitError, match=f"rerolled more than {LIMITS.max_chain}"):
        compile_roll("d6r1").roll(one, None)
    # reroll once stops by itself
    assert compile_roll("d6ro1").roll(one, None).total == 1


# --- size of the text ---------------------------------------------------------------


def test_overlong_text_is_refused() -> None:
    for too_long in (" " * (LIMITS.max_text + 1) + "3d6", "3d6" + "#" * LIMITS.max_text):
        error = refused(too_long)
        assert str(LIMITS.max_text) in str(error)
    error = refused("x" * 1_000_000)
    assert "1000000 characters" in str(error)


def test_text_up_to_the_limit_is_allowed() -> None:
    text = "3d6+" + " " * (LIMITS.max_text - 5) + "1"
    assert len(text) == LIMITS.max_text
    assert fudgedice.odds(text).probability(4) == Fraction(1, 216)


def test_too_many_terms() -> None:
    fudgedice.roll("+".join(["d6"] * LIMITS.max_terms), seed=1)
    error = refused("+".join(["1"] * (LIMITS.max_terms + 1)))
    assert f"limit is {LIMITS.max_terms}" in str(error)


# --- nesting ------------------------------------------------------------------------

DEPTH = LIMITS.max_nesting


@pytest.mark.parametrize(
    "text",
    [
        "(" * (DEPTH + 1) + "1" + ")" * (DEPTH + 1),
        "(" * 400 + "1" + ")" * 400,
        "-" * (DEPTH + 1) + "1",
        "-" * (LIMITS.max_text - 10) + "d6",
        "-(" * 200 + "1" + ")" * 200,
        "(" * 300 + "1",  # unbalanced as well as deep
    ],
)
def test_deep_nesting_is_refused(text: str) -> None:
    error = refused(text)
    assert f"limit is {DEPTH}" in str(error)


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("(" * DEPTH + "1" + ")" * DEPTH, 1),
        ("-" * DEPTH + "1", 1),
        ("-" * (DEPTH - 1) + "1", -1),
        ("+" * 900 + "1", 1),  # a unary plus changes nothing and nests nothing
        ("-(" * (DEPTH // 2) + "2" + ")" * (DEPTH // 2), 2 * (-1) ** (DEPTH // 2)),
    ],
)
def test_nesting_up_to_the_limit_is_allowed(text: str, total: int) -> None:
    roll = fudgedice.roll(text, seed=1)
    assert roll.total == total
    assert roll.text
    assert fudgedice.odds(text).probability(total) == 1
    assert list(fudgedice.sample(text, 3, seed=1)) == [total] * 3


def test_deepest_allowed_expression_with_most_terms() -> None:
    # 50 levels of parentheses around a chain of 99 operations: every
    # interpreter recurses through it without hitting Python's recursion limit
    text = "(" * DEPTH + "-".join(["d4"] * LIMITS.max_terms) + ")" * DEPTH
    roll = fudgedice.roll(text, seed=2)
    odds = fudgedice.odds(text)
    assert odds.probability(roll.total) > 0
    assert fudgedice.sample(text, 5, seed=1).shape == (5,)


# --- measuring ----------------------------------------------------------------------


def test_ten_thousand_fudge_dice_are_measured_exactly() -> None:
    n = 10_000
    odds = fudgedice.odds(f"{n}dF")
    ways = 3**n
    assert odds.denominator == ways
    assert odds.truncated == 0
    # the counts, summed as integers, are every way the dice can fall
    assert sum(odds.dist.counts) == ways
    assert (odds.low, odds.high) == (-n, n)
    assert odds.mean == 0
    assert odds.variance == Fraction(2 * n, 3)
    assert odds.probability(n) == Fraction(1, ways)
    assert odds.probability(n - 1) == Fraction(n, ways)
    # n-2: one minus among pluses, or two blanks
    assert odds.probability(n - 2) == Fraction(n + n * (n - 1) // 2, ways)
    assert odds.dist.counts == odds.dist.counts[::-1]
    # the middle is the central trinomial coefficient, by its own recurrence
    previous, central = 1, 1
    for k in range(2, n + 1):
        previous, central = central, ((2 * k - 1) * central + 3 * (k - 1) * previous) // k
    assert odds.probability(0) == Fraction(central, ways)
    assert odds.at_least(1) + odds.probability(0) + odds.at_most(-1) == 1


def test_measure_size_is_refused_before_any_work() -> None:
    for text in ("10000d10000", "10000d6!", "5000d%!"):
        with pytest.raises(LimitError, match="limit of"):
            fudgedice.odds(text)
    # rolling it is fine: only the exact distribution would be too big
    assert fudgedice.roll("10000d10000", seed=1).total >= 10000


def test_products_of_dice_pair_too_many_outcomes() -> None:
    text = "*".join(["d%"] * 11)
    with pytest.raises(LimitError, match=f"the limit is {LIMITS.max_pairs}"):
        fudgedice.odds(text)


def test_too_many_samples() -> None:
    with pytest.raises(LimitError, match=str(LIMITS.max_samples)):
        fudgedice.sample("3d6", LIMITS.max_samples + 1)
    with pytest.raises(DiceValueError):
        fudgedice.sample("3d6", -1)


@pytest.mark.parametrize(
    "text",
    [
        "*".join(["d%"] * 11),  # no exact table: sampled die by die
        "99999999999999999999",
        "d6! + 99999999999999999999",
        "-9223372036854775808 / -1",
        "9223372036854775807 + 1",
    ],
)
def test_sampled_totals_never_wrap_around(text: str) -> None:
    """Sampling is vectorised in int64: totals it cannot hold are refused,
    never silently wrapped to wrong (negative) values."""
    with pytest.raises(LimitError, match="too large to sample"):
        fudgedice.sample(text, 10_000, seed=1)
    # rolling uses Python integers and has no such bound
    assert fudgedice.roll(text, seed=1).total > 0


def test_a_sample_counts_the_tosses_of_rerolls_and_explosions() -> None:
    """A sample is bounded by the tosses a roll makes on average, not by
    the dice of one trial roll: d4!>=2 tosses four dice a roll (its trial
    roll one), 1000dF RO=0 !! opp 3 some 2,440 (its trial 1,332 dice). Both
    were accepted, and took 1.2 s."""
    assert expected_tosses(compile_roll("d4!>=2").expression.side.expr) == 4
    with pytest.raises(LimitError, match="tosses about 32,000,000 dice"):
        fudgedice.sample("d4!>=2", 8_000_000)
    with pytest.raises(LimitError, match=r"more than the limit of 30,000,000") as caught:
        fudgedice.sample("fudge: 1000dF RO=0 !! opp (3)", 13955)
    assert (caught.value.hint or "").startswith("at most 12,")


def test_rerolls_draw_as_before_pass_by_pass() -> None:
    """Rerolling only the dice still to reroll, pass by pass, draws exactly
    what rerolling every die that matches again did (the same seed, the same
    sample), without a pass over every die for each reroll."""
    pool = compile_roll("1000d6r<=2").expression.side.expr
    assert isinstance(pool, Pool)

    def masked(rng: np.random.Generator, rows: int) -> list[int]:
        values = rng.integers(1, 7, size=(rows, 1000))
        again = values <= 2
        while again.any():
            values[again] = rng.integers(1, 7, size=(int(again.sum()),))
            again = values <= 2
        return [int(total) for total in values.sum(axis=1)]

    made = [int(total) for total in _sample_pool(pool, np.random.default_rng(7), 50)]
    assert made == masked(np.random.default_rng(7), 50)
    assert len(set(made)) > 10
    once = compile_roll("1000d6ro<=2").expression.side.expr
    assert isinstance(once, Pool)

    def masked_once(rng: np.random.Generator, rows: int) -> list[int]:
        values = rng.integers(1, 7, size=(rows, 1000))
        again = values <= 2
        values[again] = rng.integers(1, 7, size=(int(again.sum()),))
        return [int(total) for total in values.sum(axis=1)]

    made_once = [int(total) for total in _sample_pool(once, np.random.default_rng(3), 40)]
    assert made_once == masked_once(np.random.default_rng(3), 40)


def test_large_but_safe_samples_are_exact() -> None:
    values = fudgedice.sample("d6! * 1000000 + 3d6 * 1000", 1000, seed=1)
    assert values.min() >= 1_003_000
    assert all(value % 1000 == 0 for value in values)


# --- exact odds that would take minutes: refused, while rolling still works ---------------


@pytest.mark.parametrize(
    "text",
    [
        "30d10000",  # a wide die packed into one big integer, raised to the 30th
        "20d5000!",  # an exploded die's chain, then the pool
        "60d1000",  # Miller's recurrence with a thousand terms per step
        "d6*1000000000",  # six outcomes spread over five billion values
        "d6*d6*d6*d6*d6*d6*d6*d6*d6*d6",  # products spread ever wider
        "10000d%kh5000",  # keep half of a huge pool
        "1000d6!kh500",
        "d6: 2000D crit=cancel opp 2000D",  # two wide sides convolved
    ],
)
def test_measuring_too_much_is_refused_but_rolling_is_not(text: str) -> None:
    with pytest.raises(LimitError):
        fudgedice.odds(text)
    roll = fudgedice.roll(text, seed=3)
    assert isinstance(roll.total, int)


def test_dice_read_by_hand_may_be_numbers() -> None:
    assert fudgedice.read("3d6", [6, 2, 5]).total == 13
    assert fudgedice.read("4dF", "+ + - 0").total == 1


def test_the_widest_pool_prints_its_table_and_refuses_a_giant_json() -> None:
    from click.testing import CliRunner

    from fudgedice.cli import main

    runner = CliRunner()
    table = runner.invoke(main, ["odds", "10000dF"])
    assert table.exit_code == 0, table.output
    assert "rarer outcomes not shown" in table.output
    assert "--exact shows them" in table.output
    as_json = runner.invoke(main, ["odds", "10000dF", "--json"])
    assert as_json.exit_code == 2
    assert "MB" in as_json.output and "Traceback" not in as_json.output
    # a long exact fraction is still written out when asked for
    assert len(fudgedice.odds("2000dF").to_dict()["outcomes"][2000]["exact"]) > 1000
