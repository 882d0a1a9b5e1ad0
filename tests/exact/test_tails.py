"""The tails' algebra against the truth it bounds.

Each test draws a whole distribution, hides part of it the way exploding
dice are cut off (everything from some value up, or down, or both: only a
sound bound on where it lies is kept), runs the operation on the cut
distributions, and compares with the same operation on the whole ones: every
chance the result calls exact must be the true one, and any other must be
short of it by no more than its ``uncertain``. The references pair outcomes in
dictionaries and share no code with :mod:`fudgedice.exact`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from fudgedice.dice.measure import count_image
from fudgedice.exact import dist, pairs
from fudgedice.exact.dist import Bound, Cut, Dist
from fudgedice.exact.keep import keep_extreme
from fudgedice.exact.odds import Odds
from fudgedice.language.tree import Compare, Count

Weights = dict[int, int]


def pair_up(x: Weights, y: Weights, function: Callable[[int, int], int]) -> Weights:
    out: Weights = {}
    for a, ca in x.items():
        for b, cb in y.items():
            out[function(a, b)] = out.get(function(a, b), 0) + ca * cb
    return out


@st.composite
def cut_off(draw: st.DrawFn) -> tuple[Weights, Dist]:
    """(the whole distribution, the same with a part cut off and bounded)."""
    whole = draw(
        st.dictionaries(
            st.integers(min_value=-8, max_value=8),
            st.integers(min_value=1, max_value=5),
            min_size=2,
            max_size=7,
        )
    )
    values = sorted(whole)
    how = draw(st.sampled_from(["up", "down", "both", "point", "none"]))
    start = draw(st.integers(min_value=1, max_value=len(values) - 1))
    hidden = values[start:] if how in ("up", "both") else values[:start]
    if how == "point":
        hidden = [values[start]]
    if how == "none":
        hidden = []
    listed = {value: count for value, count in whole.items() if value not in hidden}
    if not listed or not hidden:
        return whole, Dist.from_weights(whole)
    slack = draw(st.integers(min_value=0, max_value=2))
    low: Bound = min(hidden) - slack if how in ("up", "both", "point") else None
    high: Bound = max(hidden) + slack if how in ("down", "both", "point") else None
    if how == "both":
        high = None if draw(st.booleans()) else high
        low = None if high is None and draw(st.booleans()) else low
    count = sum(whole[value] for value in hidden)
    cuts = dist.normal([Cut(count, low, high)])
    return whole, Dist.from_weights(listed, sum(whole.values()), cuts)


def assert_bounded(result: Dist, truth: Weights) -> None:
    """Every chance ``result`` gives is the truth, or short of it by at most
    what it calls uncertain (and then never called exact)."""
    total = sum(truth.values())
    assert result.total == total
    assert sum(cut.count for cut in result.cuts) <= result.total - result.mass
    odds = Odds("", "", result)
    values = sorted(truth)
    edges: list[Bound] = [None, *range(values[0] - 2, values[-1] + 3)]
    for low in edges:
        for high in edges:
            true = Fraction(
                sum(
                    count
                    for value, count in truth.items()
                    if (low is None or value >= low) and (high is None or value <= high)
                ),
                total,
            )
            chance = odds.chance_between(low, high)
            assert chance.p <= true <= chance.p + chance.uncertain, (low, high)
            if chance.uncertain == 0:
                assert chance.p == true


@settings(max_examples=200, deadline=None)
@given(cut_off(), cut_off())
def test_sum_and_difference(a: tuple[Weights, Dist], b: tuple[Weights, Dist]) -> None:
    assert_bounded(dist.add(a[1], b[1]), pair_up(a[0], b[0], lambda x, y: x + y))
    difference = dist.add(a[1], dist.negate(b[1]))
    assert_bounded(difference, pair_up(a[0], b[0], lambda x, y: x - y))


@settings(max_examples=100, deadline=None)
@given(cut_off(), st.integers(min_value=1, max_value=4))
def test_repeat(a: tuple[Weights, Dist], n: int) -> None:
    truth: Weights = {0: 1}
    for _ in range(n):
        truth = pair_up(truth, a[0], lambda x, y: x + y)
    assert_bounded(dist.repeat(a[1], n), truth)


@settings(max_examples=100, deadline=None)
@given(cut_off(), st.integers(min_value=-3, max_value=3))
def test_times_and_over_a_constant(a: tuple[Weights, Dist], factor: int) -> None:
    from fudgedice.dice.measure import _over, _times

    times = dist.apply(a[1], lambda value: value * factor, _times(factor))
    assert_bounded(times, pair_up(a[0], {factor: 1}, lambda x, y: x * y))
    if factor:
        over = dist.apply(a[1], lambda value: value // factor, _over(factor))
        assert_bounded(over, pair_up(a[0], {factor: 1}, lambda x, y: x // y))


COUNTS = [
    Count(Compare(">=", 2)),
    Count(Compare(">", -1), Compare("<", -4)),
    Count(Compare("=", 3), Compare("<=", 0)),
]


@settings(max_examples=100, deadline=None)
@given(cut_off(), st.sampled_from(COUNTS))
def test_counting_successes(a: tuple[Weights, Dist], counting: Count) -> None:
    counted = dist.apply(a[1], counting.score, count_image(counting))
    assert_bounded(counted, pair_up(a[0], {0: 1}, lambda x, _: counting.score(x)))


@settings(max_examples=150, deadline=None)
@given(
    cut_off(),
    st.integers(min_value=1, max_value=3),
    st.data(),
    st.booleans(),
    st.one_of(st.none(), st.sampled_from(COUNTS)),
)
def test_keep_highest_or_lowest(
    a: tuple[Weights, Dist], n: int, data: st.DataObject, highest: bool, counting: Count | None
) -> None:
    kept = data.draw(st.integers(min_value=0, max_value=n))
    score = counting.score if counting is not None else (lambda value: value)
    truth: dict[tuple[int, ...], int] = {(): 1}
    for _ in range(n):
        truth = {
            (*dice, value): ways * count
            for dice, ways in truth.items()
            for value, count in a[0].items()
        }
    totals: Weights = {}
    for dice, ways in truth.items():
        chosen = sorted(dice, reverse=highest)[:kept]
        total = sum(score(value) for value in chosen)
        totals[total] = totals.get(total, 0) + ways
    if counting is None:
        made = keep_extreme(a[1], n, kept, highest, score)
    else:
        made = keep_extreme(a[1], n, kept, highest, score, count_image(counting))
    assert_bounded(made, totals)


def test_a_cut_that_never_moves_is_kept_and_one_that_can_go_anywhere_is_not() -> None:
    chain = Dist(1, (5, 5), 12, (Cut(2, 9, None),))
    assert dist.negate(chain).cuts == (Cut(2, None, -9),)
    assert dist.add(chain, Dist(0, (1, 1), 2)).cuts == (Cut(4, 9, None),)
    both = dist.add(chain, dist.negate(chain))
    assert both.cuts == (Cut(20, None, -7), Cut(20, 7, None))
    assert both.total - both.mass - 40 == 4  # both cut off: no known side
    product = pairs.combine(chain, chain, lambda x, y: x * y, "a product")
    assert product.cuts == () and product.total - product.mass == 44
