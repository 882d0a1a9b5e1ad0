"""roll, read, odds, sample and a table's roll accept and refuse the same texts,
with the same message (docs/notation.md, "What roll, odds and sample agree on").

A text is judged once, when it compiles; after that only the documented
reasons of each request remain (fuzz/agreement.py): the exact engine's cost,
a sample's own bounds, a divisor that can come up 0. The dice a roll tosses
are told from the text (dice/tosses.py): refused when every roll passes the
limit, or one does with a chance above 1e-12, a bound checked here against
the exact chance.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fudgedice
from fudgedice import DiceError, Odds, Roll, TooManyDice
from fudgedice.api import compile_roll
from fudgedice.dice.pools import die_dist
from fudgedice.dice.tosses import law, tail_bound
from fudgedice.language.tree import Pool
from fudgedice.limits import DEFAULT_LIMITS
from fudgedice.server import rolling
from fudgedice.server.problems import Problem
from fuzz.agreement import disagreement, odds_only, sample_only
from fuzz.grammar import RollGrammar

EXAMPLES = {
    # the opposing side's default 4dF count: 10,004 dice
    "fudge: 10000d%k<=1+20 +6 opp -2": "this roll tosses at least 10004 dice",
    # d1 rerolled once on every face: 20,000 dice
    "power: 10000d1ro<=4": "this roll tosses at least 20000 dice",
}


def answer(call: object) -> object:
    try:
        return call()  # type: ignore[operator]
    except DiceError as error:
        return error


@pytest.mark.parametrize(("text", "said"), EXAMPLES.items())
def test_the_texts_measured_but_not_rolled_are_refused_alike(text: str, said: str) -> None:
    answers = [
        answer(lambda: compile_roll(text)),
        answer(lambda: fudgedice.roll(text, seed=1)),
        answer(lambda: fudgedice.odds(text)),
        answer(lambda: fudgedice.sample(text, 10, seed=1)),
        answer(lambda: fudgedice.read(text, ["1"] * 4)),
    ]
    assert all(isinstance(each, TooManyDice) for each in answers), answers
    assert len({str(each) for each in answers}) == 1
    assert said in str(answers[0])
    assert f"limit of {DEFAULT_LIMITS.max_dice} in one roll" in str(answers[0])


@pytest.mark.parametrize(
    ("fits", "over"),
    [
        ("power: 5000d1ro<=4", "power: 5001d1ro<=4"),  # 10,000 and 10,002 tosses
        ("fudge: 9996d%k<=1 opp -2", "fudge: 9997d%k<=1 opp -2"),
        ("5000d6+5000d6", "5000d6+5001d6"),
        ("9996dF@d6 + 4dF@4d6", "9997dF@d6 + 4dF@4d6"),  # a technique tosses its own dice
        ("power: 10000dF+3d6 take0", "power: 9998dF+3d6"),  # taking zero tosses none
        ("d6: 10D opp 9900D", "d6: 10D opp 10000D"),  # a Wild Die a side
    ],
)
def test_the_bound_is_the_dice_every_roll_tosses(fits: str, over: str) -> None:
    assert len(fudgedice.roll(fits, seed=3).tosses) <= DEFAULT_LIMITS.max_dice
    odds = answer(lambda: fudgedice.odds(fits))
    assert isinstance(odds, Odds) or (isinstance(odds, DiceError) and odds_only(odds)), odds
    refused = [answer(lambda: fudgedice.roll(over, seed=3)), answer(lambda: fudgedice.odds(over))]
    assert all(isinstance(each, TooManyDice) for each in refused)
    assert str(refused[0]) == str(refused[1])


@pytest.mark.parametrize(
    ("fits", "over"),
    [("8000d6!", "9000d6!"), ("6000dFr-1", "6600dFr-1"), ("d6: 9980D", "d6: 9995D")],
)
def test_a_roll_likely_to_pass_the_bound_is_refused_before_drawing(fits: str, over: str) -> None:
    """9000d6! tosses 10,800 dice on average: before this rule nearly every
    roll of it was refused after its dice were drawn, while its text compiled."""
    compile_roll(fits)
    for seed in range(3):
        assert len(fudgedice.roll(fits, seed=seed).tosses) <= DEFAULT_LIMITS.max_dice
    with pytest.raises(TooManyDice, match="with a chance above 1e-12") as caught:
        fudgedice.roll(over, seed=1)
    with pytest.raises(TooManyDice) as measured:
        fudgedice.odds(over)
    assert str(measured.value) == str(caught.value)


def test_a_divisor_that_is_always_zero_is_refused_before_drawing() -> None:
    for text in ("4/0", "4dF/0", "4dF/(Good-1)", "3d6/0d6", "1/(0*4dF)", "4dF opp 3/0"):
        rolled = answer(lambda t=text: fudgedice.roll(t, seed=1))
        measured = answer(lambda t=text: fudgedice.odds(t))
        said = [str(rolled), str(measured)]
        assert said == ["division by zero: the divisor is 0"] * 2, text


def test_a_divisor_zero_on_some_draws_is_the_dice_doing() -> None:
    """1/(4dF-4dF) has no odds (19% of draws have no total); a roll of it
    fails on those draws only, after drawing them."""
    text = "1/(4dF-4dF)"
    odds = answer(lambda: fudgedice.odds(text))
    rolls = [answer(lambda s=seed: fudgedice.roll(text, seed=s)) for seed in range(40)]
    assert isinstance(odds, DiceError) and "can come up 0" in str(odds)
    assert any(isinstance(each, Roll) for each in rolls)
    failed = [each for each in rolls if isinstance(each, DiceError)]
    assert failed and all(str(each).endswith("the divisor came up 0") for each in failed)
    assert all(disagreement(each, odds) is None for each in failed)


def table_answer(text: str) -> str | None:
    """The table's roll route's checks of a text: None if it would roll."""
    try:
        rolling.roll_size(rolling.program(text, "fudge"))
    except Problem as problem:
        return f"{problem.status} {problem.error}"
    return None


def test_the_table_bounds_its_rolls_by_the_same_rule() -> None:
    assert table_answer("500d6") is None
    assert table_answer("250d6ro<=6") is None  # 500 tosses on every roll
    said = "tosses at least 502 dice, more than the limit of 500 in one roll"
    assert table_answer("251d6ro<=6") == f"413 at the table, this roll {said}"
    assert table_answer("300d6!") is None  # 360 tosses on average: over 500 far too rarely
    over = table_answer("400d6!")  # 480 on average
    assert over is not None and over.startswith("413") and "chance above 1e-12" in over
    # a text refused by the language is refused at the table with its message
    for text in EXAMPLES:
        refused = answer(lambda t=text: compile_roll(t))
        assert isinstance(refused, DiceError)
        assert table_answer(text) == f"400 {refused.message}"


# --- the bound on the chance, against the exact chance ------------------------------------


def exact_tail(pools: list[Pool], limit: int) -> Fraction:
    """P(a roll of ``pools`` tosses more than ``limit`` dice), worked out
    toss by toss as the roller tosses (independently of dice.tosses)."""
    total = [Fraction(1)]
    for pool in pools:
        one = die_tosses(pool, limit + 1)
        for _ in range(pool.count):
            total = convolve(total, one, limit + 1)
    return 1 - sum(total, Fraction(0))


def convolve(a: list[Fraction], b: list[Fraction], size: int) -> list[Fraction]:
    out = [Fraction(0)] * min(size, len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            if i + j < len(out):
                out[i + j] += x * y
    return out


def die_tosses(pool: Pool, size: int) -> list[Fraction]:
    """Chance that one die of ``pool`` tosses exactly k dice, k < ``size``."""
    faces = die_dist(pool.die)
    chance = {value: Fraction(count, faces.total) for value, count in faces.items()}
    kept: dict[tuple[int, bool], Fraction] = {}  # (tosses, explodes) of one kept toss
    reroll, explode = pool.reroll, pool.explode

    def explodes(value: int) -> bool:
        return explode is not None and explode.on.matches(value)

    for value, p in chance.items():
        if reroll is None or not reroll.on.matches(value):
            key = (1, explodes(value))
            kept[key] = kept.get(key, Fraction(0)) + p
        elif reroll.once:
            for again, q in chance.items():
                key = (2, explodes(again))
                kept[key] = kept.get(key, Fraction(0)) + p * q
        else:
            matched = sum((q for v, q in chance.items() if reroll.on.matches(v)), Fraction(0))
            for runs in range(1, size):  # `runs` rerolls, then a face that stands
                for stands, q in chance.items():
                    if not reroll.on.matches(stands):
                        key = (runs + 1, explodes(stands))
                        kept[key] = kept.get(key, Fraction(0)) + p * matched ** (runs - 1) * q
    die = [Fraction(0)] * size
    for k in range(1, size):
        for (tosses, goes), p in kept.items():
            if tosses > k:
                continue
            die[k] += p * (die[k - tosses] if goes else (1 if tosses == k else 0))
    return die


@pytest.mark.parametrize(
    ("text", "limits"),
    [
        ("12d6!", (14, 16, 20, 26)),
        ("10d4r1", (11, 13, 16, 22)),
        ("15d6ro<=3", (16, 20, 25, 29)),
        ("8d2!", (10, 14, 20, 30)),
        ("6d6ro1!", (7, 9, 12, 16)),
        ("5d6!+6dFr-1+3d4", (15, 18, 22, 28)),
    ],
)
def test_the_bound_on_the_chance_is_never_below_it(text: str, limits: tuple[int, ...]) -> None:
    pools = compile_roll(text).tossed_pools()
    for limit in limits:
        exact = exact_tail(pools, limit)
        bound = tail_bound(pools, limit)
        assert bound >= float(exact) * (1 - 1e-9), (text, limit, bound, float(exact))
        assert bound <= 1
    # and it is a bound that tightens: far from the mean it is small
    assert tail_bound(pools, 20 * sum(pool.count for pool in pools)) < 1e-12


@pytest.mark.parametrize("text", ["d6!", "d6r1", "d6ro<=3", "d6ro<=3!", "dFr-1!", "d2!!"])
def test_the_mean_tosses_of_a_die(text: str) -> None:
    (pool,) = compile_roll(text).tossed_pools()
    tosses = die_tosses(pool, 80)
    mean = sum(k * p for k, p in enumerate(tosses))
    assert math.isclose(law(pool).mean, float(mean), rel_tol=1e-9)


# --- every text, generated -----------------------------------------------------------------


def agree(text: str, seeds: range) -> None:
    """roll (on each seed), odds and sample of ``text`` keep the rule."""
    compiled = answer(lambda: compile_roll(text))
    odds = answer(lambda: fudgedice.odds(text))
    sampled = answer(lambda: fudgedice.sample(text, 5, seed=1))
    for seed in seeds:
        roll = answer(lambda s=seed: fudgedice.roll(text, seed=s))
        refused = roll if isinstance(roll, DiceError) else None
        wrong = disagreement(refused, odds if isinstance(odds, DiceError) else None)
        assert wrong is None, f"{text!r}, seed {seed}: {wrong}"
    if isinstance(compiled, DiceError):
        assert str(sampled) == str(compiled) == str(odds), text
    elif isinstance(sampled, DiceError):
        assert sample_only(sampled), f"{text!r}: {sampled}"


def test_generated_texts_are_accepted_and_refused_alike() -> None:
    """Texts of the fuzzer's grammar (fuzz/grammar.py): of every system, with
    near misses and sizes past the limits."""
    grammar = RollGrammar(random.Random(22))
    for _ in range(300):
        agree(grammar.text(), range(2))


SIZES = [1, 3, 100, 2500, 4999, 5000, 9000, 9996, 9999, 10000, 10001]
MODIFIERS = ["", "", "!", "!!", "ro1", "ro<=6", "r1", "kh1", ">=4", "!p", "r<=2"]


@st.composite
def big_rolls(draw: st.DrawFn) -> str:
    """Rolls whose dice come near the limit: large pools, more than one, both
    sides, a system that adds its own dice."""

    def pool() -> str:
        die = draw(st.sampled_from(["d6", "d1", "dF", "d%", "dF@d6", "dF@3d6"]))
        count = draw(st.sampled_from(SIZES))
        if "@3d6" in die:
            return "4dF@3d6"
        return f"{count}{die}" + ("" if "@" in die else draw(st.sampled_from(MODIFIERS)))

    left = "+".join(pool() for _ in range(draw(st.integers(1, 3))))
    shape = draw(st.sampled_from(["", "opp", "vs", "power", "d6", "d6 opp"]))
    if shape == "opp":
        return f"{left} opp {draw(st.sampled_from(['-2', 'Good', pool()]))}"
    if shape == "vs":
        return f"{left} vs Good"
    if shape == "power":
        return f"power: {left} {draw(st.sampled_from(['', 'take0', 'adv']))}"
    code = f"d6: {draw(st.sampled_from(SIZES))}D {draw(st.sampled_from(['', 'cp2', 'fp']))}"
    return code + (f" opp {draw(st.sampled_from(SIZES))}D" if shape == "d6 opp" else "")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=big_rolls())
def test_rolls_near_the_dice_limit_are_accepted_and_refused_alike(text: str) -> None:
    agree(text, range(2))
