"""The D6 System's exact odds against brute-force enumeration.

The enumerator reads the rules (docs/contracts/rules.md section 4, seed 002) afresh: it
tosses every plain die, follows every story of the Wild Die and of each
Character Point die, applies the crit rule to each combination and adds the
pips and the seed's bonus. It shares only the truncation depth of explosion
chains with the fast path (``pools.chain_depth``), so that both cut alike;
then it follows every chain one toss deeper, to show that the outcomes the
fast path cut off lie inside its tail and that every chance it calls exact is.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import pytest

import fudgedice
from fudgedice.dice.measure import pool_dist
from fudgedice.dice.pools import chain_depth
from fudgedice.exact import dist
from fudgedice.language.tree import Compare, Die, Explode, Keep, Pool
from fudgedice.systems.d6 import measure as d6_measure

Chances = dict[int, Fraction]
Options = dict[str, Any]
SIDES = 6
TailCheck = Callable[[fudgedice.Odds, Chances, Chances], None]
"""The ``check_tails`` fixture (tests/conftest.py)."""
SIXTH = Fraction(1, 6)


def _stories(depth: int) -> list[tuple[Fraction, list[int]]]:
    """Every toss sequence of one exploding d6, cut after ``depth`` tosses."""
    out: list[tuple[Fraction, list[int]]] = []

    def grow(chance: Fraction, tosses: list[int]) -> None:
        if tosses[-1] != 6:
            out.append((chance, tosses))
        elif len(tosses) < depth:
            for face in range(1, 7):
                grow(chance * SIXTH, [*tosses, face])

    for face in range(1, 7):
        grow(SIXTH, [face])
    return out


def _bonus(dice: int, column: int) -> int:
    # the seed's chart rule for 1D..50D (tests/data checks the formula row by row)
    return max(0, -(-(dice - (5 if column == 0 else 1)) * 7 // 2))


def brute(
    dice: int,
    pips: int = 0,
    *,
    wild: bool = True,
    crit: str = "complication",
    cp: int = 0,
    fp: bool = False,
    reduction: str | None = None,
    exploding_elsewhere: int = 0,
    deeper: int = 0,
) -> tuple[Chances, Fraction, Fraction]:
    """(chances of each total, chance of a critical failure, of a complication);
    chains followed ``deeper`` tosses further than the fast path does."""
    if fp:
        dice, pips = 2 * dice, 2 * pips
    dice, pips = divmod(3 * dice + pips, 3)
    rolled, bonus = dice, 0
    if reduction == "fast":
        rolled, bonus = min(dice, 5), _bonus(dice, 0)
    elif reduction == "wildonly":
        rolled, bonus = 1, _bonus(dice, 1)
    depth = chain_depth(SIXTH, int(wild) + cp + exploding_elsewhere) + deeper
    wild_stories = _stories(depth) if wild else [(Fraction(1), [])]
    totals: Chances = defaultdict(Fraction)
    critical = complication = Fraction(0)
    for plain in itertools.product(range(1, 7), repeat=rolled - int(wild)):
        p_plain = SIXTH ** len(plain)
        for p_wild, tosses in wild_stories:
            p = p_plain * p_wild
            total = sum(plain) + sum(tosses)
            if tosses and tosses[0] == 1 and crit != "ignore":
                critical += p
                if crit == "cancel" and reduction != "wildonly":
                    total = sum(plain) - max(plain, default=0)
                else:
                    complication += p
            totals[total + pips + bonus] += p
    for _ in range(cp):
        widened: Chances = defaultdict(Fraction)
        for total, p in totals.items():
            for p_die, tosses in _stories(depth):
                widened[total + sum(tosses)] += p * p_die
        totals = widened
    return dict(totals), critical, complication


def _exact(odds: fudgedice.Odds) -> Chances:
    return {outcome.value: outcome.p for outcome in odds.outcomes}


CASES = [
    ("1D", (1, 0), {}),
    ("2D+1", (2, 1), {}),
    ("3D", (3, 0), {}),
    ("4D+2", (4, 2), {}),
    ("2D+3", (2, 3), {}),
    ("4D-1", (4, -1), {}),
    ("3D+1 nowild", (3, 1), {"wild": False}),
    ("2D cp1", (2, 0), {"cp": 1}),
    ("1D+2 cp2", (1, 2), {"cp": 2}),
    ("1D+1 fp", (1, 1), {"fp": True}),
    ("2D fp", (2, 0), {"fp": True}),
    ("1D fp cp1 allow=cpfp", (1, 0), {"fp": True, "cp": 1}),
    ("6D+1 fast", (6, 1), {"reduction": "fast"}),
    ("3D fast", (3, 0), {"reduction": "fast"}),
    ("10D+2 wildonly", (10, 2), {"reduction": "wildonly"}),
    ("60D wildonly", (60, 0), {"reduction": "wildonly"}),
    ("3D wildonly fp", (3, 0), {"reduction": "wildonly", "fp": True}),
    ("3D nowild fast cp1", (3, 0), {"wild": False, "reduction": "fast", "cp": 1}),
]


@pytest.mark.parametrize("crit", ["complication", "cancel", "ignore"])
@pytest.mark.parametrize(("form", "code", "options"), CASES, ids=[case[0] for case in CASES])
def test_every_crit_rule_matches_brute_force(
    form: str, code: tuple[int, int], options: Options, crit: str, check_tails: TailCheck
) -> None:
    expected, critical, complication = brute(*code, crit=crit, **options)
    if options.get("wild", True):
        odds = fudgedice.odds(f"d6: {form} crit={crit}")
    else:
        # without a Wild Die a crit rule means nothing, and is refused
        with pytest.raises(fudgedice.DiceValueError, match="no Wild Die"):
            fudgedice.odds(f"d6: {form} crit={crit}")
        odds = fudgedice.odds(f"d6: {form}")
    assert _exact(odds) == {value: p for value, p in expected.items() if p}
    assert odds.events.get("critical failure", Fraction(0)) == critical
    assert odds.events.get("complication", Fraction(0)) == complication
    assert odds.truncated == 1 - sum(expected.values())
    assert odds.truncated <= Fraction(1, 10**12)
    if odds.truncated:
        deeper, _, _ = brute(*code, crit=crit, **options, deeper=1)
        check_tails(odds, expected, deeper)
        # a side's tail is "N or more", far past every difficulty a player sets
        (tail,) = odds.tails
        assert tail.high is None and tail.low is not None and tail.low > 60


@pytest.mark.parametrize(
    ("form", "code", "options", "difficulty"),
    [
        ("2D+1 crit=cancel vs 9", (2, 1), {"crit": "cancel"}, 9),
        ("3D cp1 vs Easy", (3, 0), {"cp": 1}, 10),
        ("1D fp vs Very Easy", (1, 0), {"fp": True}, 5),
        ("3D vs 11", (3, 0), {}, 11),
        ("4D+2 vs 15", (4, 2), {}, 15),
        ("2D cp2 vs 12", (2, 0), {"cp": 2}, 12),
        ("3D crit=cancel vs 10", (3, 0), {"crit": "cancel"}, 10),
    ],
)
def test_difficulty_success_matches_brute_force(
    form: str, code: tuple[int, int], options: Options, difficulty: int
) -> None:
    expected, _, _ = brute(*code, **options)
    odds = fudgedice.odds(f"d6: {form}")
    # the tail lies above the difficulty: it is a success, and both are exact
    tail = odds.truncated
    assert tail > 0 and odds.uncertain == {}
    assert odds.events["success"] == tail + sum(
        p for total, p in expected.items() if total >= difficulty
    )
    assert odds.events["failure"] == sum(p for total, p in expected.items() if total < difficulty)
    assert odds.events["success"] + odds.events["failure"] == 1


OPPOSED = [
    ("2D+1 crit=cancel opp 1D+2 cp1", ((2, 1), {"crit": "cancel"}), ((1, 2), {"cp": 1})),
    ("2D cp1 opp 2D+1", ((2, 0), {"cp": 1}), ((2, 1), {})),
    ("1D+2 nowild opp 2D crit=cancel", ((1, 2), {"wild": False}), ((2, 0), {"crit": "cancel"})),
    ("2D crit=ignore opp 1D fp", ((2, 0), {"crit": "ignore"}), ((1, 0), {"fp": True})),
    ("3D opp 2D", ((3, 0), {}), ((2, 0), {})),
    ("3D crit=cancel opp 2D", ((3, 0), {"crit": "cancel"}), ((2, 0), {})),
    ("2D cp2 opp 2D cp1 crit=cancel", ((2, 0), {"cp": 2}), ((2, 0), {"cp": 1, "crit": "cancel"})),
    ("3D opp 3D nowild", ((3, 0), {}), ((3, 0), {"wild": False})),
    ("2D nowild cp1 opp 1D+1", ((2, 0), {"wild": False, "cp": 1}), ((1, 1), {})),
    ("2D nowild opp 1D nowild", ((2, 0), {"wild": False}), ((1, 0), {"wild": False})),
]

Branches = dict[tuple[int, int], Fraction]
"""(what a side adds up to, less its sixes; how many of its dice exploded and
go on exploding) -> chance."""

STOP, GO = Fraction(5, 6), SIXTH


def branches(
    dice: int,
    pips: int = 0,
    *,
    wild: bool = True,
    crit: str = "complication",
    cp: int = 0,
    fp: bool = False,
    reduction: str | None = None,
) -> Branches:
    """A side read afresh, without cutting any chain: an exploding d6 is
    ``6 N + R``, ``N`` sixes (``P(N = k) = 5/6 6**-k``) and a last face ``R``
    1..5, so a side is what its faces add (enumerated) plus six times the sum
    of ``N`` over its exploding dice. The Wild Die's first toss is read as a
    face: a 1 is the critical failure, a 6 is 6 and then an exploding d6."""
    if fp:
        dice, pips = 2 * dice, 2 * pips
    dice, pips = divmod(3 * dice + pips, 3)
    rolled, bonus = dice, 0
    if reduction == "fast":
        rolled, bonus = min(dice, 5), _bonus(dice, 0)
    elif reduction == "wildonly":
        rolled, bonus = 1, _bonus(dice, 1)
    # the Wild Die: (what it adds, exploding dice it brings, chance)
    firsts = [(face, 0, SIXTH) for face in range(1, 6)]
    firsts += [(6 + last, 1, SIXTH / 5) for last in range(1, 6)]
    out: Branches = defaultdict(Fraction)
    for plain in itertools.product(range(1, 7), repeat=rolled - int(wild)):
        p_plain = SIXTH ** len(plain)
        for added, going, p_wild in firsts if wild else [(0, 0, Fraction(1))]:
            total = sum(plain) + added
            if wild and added == 1 and crit == "cancel" and reduction != "wildonly":
                total = sum(plain) - max(plain, default=0)
            for lasts in itertools.product(range(1, 6), repeat=cp):
                key = (total + sum(lasts) + pips + bonus, going + cp)
                out[key] += p_plain * p_wild * Fraction(1, 5**cp)
    return dict(out)


def _binomial(n: int, k: int) -> int:
    return 0 if k < 0 or n < k else comb(n, k)


@cache
def more_sixes(left: int, right: int, at_least: int) -> Fraction:
    """P(the sixes of ``left`` exploding dice less those of ``right`` >= ``at_least``),
    tossing a die of each side together: two sixes change nothing and leave
    the state as it was, so that step is divided out (no series to sum)."""
    if left == 0 and right == 0:
        return Fraction(int(at_least <= 0))
    if right == 0:  # P(NB(left) >= t): fewer than ``left`` stops in t + left - 1 tosses
        if at_least <= 0:
            return Fraction(1)
        tosses = at_least + left - 1
        return sum(
            (
                _binomial(tosses, stops) * STOP**stops * GO ** (tosses - stops)
                for stops in range(left)
            ),
            Fraction(0),
        )
    if left == 0:
        return 1 - more_sixes(right, 0, 1 - at_least)
    step = (
        GO * STOP * more_sixes(left, right - 1, at_least - 1)
        + STOP * GO * more_sixes(left - 1, right, at_least + 1)
        + STOP * STOP * more_sixes(left - 1, right - 1, at_least)
    )
    return step / (1 - GO * GO)


def exact_margins(left: Branches, right: Branches, low: int, high: int) -> tuple[Chances, Fraction]:
    """The margin's chances from ``low`` to ``high``, and of more than ``high``:
    what the faces leave, ``x - y``, plus six times the sixes' difference."""
    grouped: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    for (x, left_going), px in left.items():
        for (y, right_going), py in right.items():
            grouped[x - y, left_going, right_going] += px * py
    chances: Chances = defaultdict(Fraction)
    above = Fraction(0)
    for (base, left_going, right_going), p in grouped.items():
        for value in range(low + (base - low) % SIDES, high + 1, SIDES):
            sixes = (value - base) // SIDES
            exactly = more_sixes(left_going, right_going, sixes) - more_sixes(
                left_going, right_going, sixes + 1
            )
            chances[value] += p * exactly
        above += p * more_sixes(left_going, right_going, -((base - high - 1) // SIDES))
    return {value: p for value, p in chances.items() if p}, above


@pytest.mark.parametrize(("form", "left", "right"), OPPOSED, ids=[case[0] for case in OPPOSED])
def test_opposed_margin_matches_brute_force(
    form: str,
    left: tuple[tuple[int, int], Options],
    right: tuple[tuple[int, int], Options],
) -> None:
    """Every margin listed, and both tails, against the sides read afresh:
    exact (no chain is cut off), and within what cutting every chain, as the
    brute force of a single side does, leaves unknown."""

    # both sides' exploding dice share the 1e-12 budget, as in the fast path
    def exploding(options: Options) -> int:
        return int(options.get("wild", True) is True) + int(options.get("cp", 0))

    crit = left[1].get("crit", "complication")
    right_options = {"crit": crit, **right[1]}
    odds = fudgedice.odds(f"d6: {form}")
    assert odds.value_title == "margin"
    exact, above = exact_margins(
        branches(*left[0], **left[1]), branches(*right[0], **right_options), odds.low, odds.high
    )
    assert _exact(odds) == exact
    tails = {(tail.low is None, tail.high is None): tail for tail in odds.tails}
    assert set(tails) <= {(True, False), (False, True)}  # one above, one below, no other
    high = tails.get((False, True))
    assert (high.p if high else 0) == above
    if high:
        assert high.low == odds.high + 1
    low = tails.get((True, False))
    assert low is None or low.high == odds.low - 1
    assert sum(tail.p for tail in odds.tails) == odds.truncated <= Fraction(1, 10**12)
    assert odds.uncertain == {}
    assert odds.events["success"] == sum(p for m, p in exact.items() if m >= 0) + above
    assert odds.events["success"] + odds.events["failure"] == 1
    # cutting every chain instead (the sides' own brute force) gives less,
    # by no more than what it cut off
    left_totals, _, _ = brute(*left[0], exploding_elsewhere=exploding(right[1]), **left[1])
    right_totals, _, _ = brute(*right[0], exploding_elsewhere=exploding(left[1]), **right_options)
    margins: Chances = defaultdict(Fraction)
    for x, px in left_totals.items():
        for y, py in right_totals.items():
            margins[x - y] += px * py
    cut = 1 - sum(margins.values())
    for value, p in margins.items():
        assert p <= odds.probability(value) <= p + cut


@pytest.mark.parametrize("depth", [1, 2, 5, 17])
def test_exploding_die_is_the_engines_chain(depth: int) -> None:
    pool = Pool(1, Die("d6", (1, 2, 3, 4, 5, 6)), "d6!", explode=Explode("!", Compare("=", 6)))
    engine = pool_dist(pool, depth)
    ours = d6_measure.exploding_die(depth)
    assert (ours.lo, ours.counts, ours.total) == (engine.lo, engine.counts, engine.total)


@pytest.mark.parametrize(
    ("base_dice", "dice", "depth"), [(0, 1, 1), (0, 1, 3), (3, 2, 4), (1, 3, 2)]
)
def test_linear_passes_equal_convolution(base_dice: int, dice: int, depth: int) -> None:
    base = d6_measure.plain_dice(base_dice)
    fast = d6_measure.with_exploding(base, dice, depth)
    slow = dist.add(base, dist.repeat(d6_measure.exploding_die(depth), dice))
    assert (fast.lo, fast.counts, fast.total) == (slow.lo, slow.counts, slow.total)


@pytest.mark.parametrize("count", range(1, 9))
def test_all_but_highest_equals_keep_lowest(count: int) -> None:
    pool = Pool(count, Die("d6", (1, 2, 3, 4, 5, 6)), f"{count}d6dh1", keep=Keep("dh", 1))
    engine = pool_dist(pool, 1)
    ours = d6_measure.all_but_highest(count)
    assert (ours.lo, ours.counts, ours.total) == (engine.lo, engine.counts, engine.total)
