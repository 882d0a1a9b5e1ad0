"""Properties over expressions generated from the grammar's generic forms.

Every generated expression either rolls to a total its exact odds allow, or
is refused with the project's own :class:`~fudgedice.DiceError`; nothing else
may ever escape. Sizes are kept small so that the exact measure stays fast.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fudgedice
from fudgedice import DiceError, Mark, Odds, OverBudget, Roll
from fudgedice.api import compile_roll
from fudgedice.dice.measure import exploding_dice
from fudgedice.dice.pools import chain_depth, plan
from fudgedice.results.dice import DieRoll, pools_of

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

SIDES = ["1", "2", "3", "4", "6", "8", "10", "12", "20", "%", "F", "f", "F.1", "F.2"]
COMPARES = [">=", "<=", ">", "<", "="]


@st.composite
def compare(draw: st.DrawFn, *, bare: bool) -> str:
    """A compare point such as ``>=5``; ``bare`` allows a lone number (``r2``)."""
    ops = [*COMPARES, ""] if bare else COMPARES
    op = draw(st.sampled_from(ops))
    value = draw(st.integers(-2, 21))
    if op == "" and value < 0:
        value = -value
    space = draw(st.sampled_from(["", " "])) if op else ""
    return f"{op}{space}{value}"


@st.composite
def pool(draw: st.DrawFn) -> str:
    """``NdX`` with random modifiers in a random order."""
    count = draw(st.integers(0, 3))
    written_count = "" if count == 1 and draw(st.booleans()) else str(count)
    d = draw(st.sampled_from(["d", "D"]))
    text = f"{written_count}{d}{draw(st.sampled_from(SIDES))}"
    modifiers = []
    if draw(st.booleans()):
        mode = draw(st.sampled_from(["kh", "kl", "dh", "dl", "k", "KH"]))
        keep = draw(st.integers(0, count + 1))  # one too many is refused
        modifiers.append(f"{mode}{keep}")
    if draw(st.booleans()):
        mode = draw(st.sampled_from(["!", "!!", "!p"]))
        on = draw(st.one_of(st.just(""), compare(bare=False)))
        modifiers.append(mode + on.replace(" ", ""))
    if draw(st.booleans()):
        mode = draw(st.sampled_from(["r", "ro"]))
        modifiers.append(mode + draw(compare(bare=True)))
    if draw(st.booleans()):
        success = draw(compare(bare=False))
        if draw(st.booleans()):
            success += "f" + draw(compare(bare=True))
        modifiers.append(success)
    order = draw(st.permutations(modifiers))
    return text + "".join(order)


numbers = st.integers(0, 20).map(str)
words = st.sampled_from(["Good", "fair", "Superb"])
leaves = st.one_of(pool(), pool(), numbers, words)


def extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    operator = st.sampled_from(["+", "-", "*", "/", " + ", " - ", " * ", " / "])
    return st.one_of(
        st.tuples(children, operator, children).map("".join),
        children.map(lambda inner: f"({inner})"),
        children.map(lambda inner: f"-{inner}"),
    )


expressions = st.recursive(leaves, extend, max_leaves=4)


@st.composite
def rolls(draw: st.DrawFn) -> str:
    """A whole roll: an optional system prefix and label around an expression."""
    prefix = draw(st.sampled_from(["", "", "fudge: "]))
    label = draw(st.sampled_from(["", "", " # test"]))
    return prefix + draw(expressions) + label


def _longest_chain(dice: list[DieRoll]) -> int:
    """Most tosses in one die's explosion chain, rerolled tosses not counted."""
    longest = chain = 0
    for die in dice:
        if Mark.REROLLED in die.marks:
            continue
        if Mark.COMPOUNDED in die.marks:
            # one entry for the whole chain: its faces joined by '+'
            tosses = (len(die.face) + 1) // 2 if die.die.fudge else die.face.count("+") + 1
            longest = max(longest, tosses)
            chain = 0
            continue
        following = Mark.FROM_EXPLOSION in die.marks
        chain = chain + 1 if following else 1
        longest = max(longest, chain)
    return longest


def past_the_horizon(roll: Roll, odds: Odds) -> bool:
    """Did the roll follow an explosion chain further than the exact measure,
    into the tail it leaves out (``odds.truncated``)?"""
    if odds.truncated == 0:
        return False
    expr = compile_roll(roll.notation).expression.side.expr
    exploding = exploding_dice(expr)
    for rolled in pools_of(roll.parts):
        pool_plan = plan(rolled.pool)
        if rolled.pool.explode is None:
            continue
        if _longest_chain(rolled.dice) > chain_depth(pool_plan.explode_chance, exploding):
            return True
    return False


def attempt_roll(text: str, seed: int) -> Roll | DiceError:
    try:
        return fudgedice.roll(text, seed=seed)
    except DiceError as error:
        return error


def attempt_odds(text: str) -> Odds | DiceError:
    try:
        return fudgedice.odds(text)
    except DiceError as error:
        return error


def compiles(text: str) -> bool:
    try:
        compile_roll(text)
    except DiceError:
        return False
    return True


@SETTINGS
@given(text=rolls(), seed=st.integers(0, 2**32))
def test_rolls_to_a_possible_total_or_raises_dice_error(text: str, seed: int) -> None:
    roll = attempt_roll(text, seed)
    odds = attempt_odds(text)
    if not compiles(text):
        # refused before any die is tossed: by every interpreter alike, in the same words
        assert isinstance(roll, DiceError) and isinstance(odds, DiceError)
        assert str(roll) == str(odds)
        return
    if isinstance(roll, Roll) and isinstance(odds, Odds):
        assert odds.probability(roll.total) > 0 or past_the_horizon(roll, odds), (
            f"{text} rolled {roll.total} with seed {seed}, which its odds call impossible"
        )
        assert odds.low <= roll.total <= odds.high or past_the_horizon(roll, odds)
    if isinstance(odds, Odds):
        # every possible outcome can be rolled: a roll that fails (dividing by a
        # zero the dice showed) means the odds should have refused too
        assert isinstance(roll, Roll), f"{text}: {roll}"
        try:
            outcomes = odds.outcomes
        except OverBudget:
            # a view is a request of its own: the 57,600 reduced chances of
            # 3d3!*3d3! are refused by its budget, clearly, as any request may be
            return
        assert sum(outcome.p for outcome in outcomes) + odds.truncated == 1
        assert outcomes == sorted(outcomes, key=lambda outcome: outcome.value)


@SETTINGS
@given(text=rolls(), seed=st.one_of(st.integers(0, 2**64), st.text(max_size=8)))
def test_same_seed_same_roll(text: str, seed: int | str) -> None:
    try:
        first = fudgedice.roll(text, seed=seed)
    except DiceError as error:
        again = attempt_roll(text, seed)  # type: ignore[arg-type]
        assert isinstance(again, DiceError) and str(again) == str(error)
        return
    second = fudgedice.roll(text, seed=seed)
    assert second.to_dict() == first.to_dict()
    assert second.text == first.text


@SETTINGS
@given(text=rolls(), seed=st.integers(0, 2**32))
def test_samples_have_non_zero_odds(text: str, seed: int) -> None:
    if not compiles(text):
        return
    expr = compile_roll(text).expression.side.expr
    odds = attempt_odds(text)
    try:
        values = fudgedice.sample(text, 50, seed=seed)
    except DiceError:
        return
    assert values.shape == (50,)
    if not isinstance(odds, Odds):
        return
    if exploding_dice(expr) == 0:
        for value in set(values.tolist()):
            assert odds.probability(value) > 0, f"{text} sampled {value}"


@SETTINGS
@given(text=expressions)
def test_parse_is_cached_and_stable(text: str) -> None:
    try:
        first = fudgedice.parse(text)
    except DiceError:
        return
    assert fudgedice.parse(text) is first
    assert fudgedice.parse(" " + text + " ") == first
