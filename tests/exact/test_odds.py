"""The Fractions that odds hand out behave exactly like any other Fraction."""

from __future__ import annotations

from fractions import Fraction
from math import gcd

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fudgedice
from fudgedice import budget
from fudgedice.exact.figures import ratio
from fudgedice.exact.ratios import Reducer, complement
from fudgedice.exact.rows import exact_rows


@given(st.integers(min_value=0, max_value=10**30), st.integers(min_value=1, max_value=10**30))
def test_ratio_is_the_reduced_fraction(numerator: int, denominator: int) -> None:
    made = ratio(numerator, denominator)
    expected = Fraction(numerator, denominator)
    assert type(made) is Fraction
    assert (made.numerator, made.denominator) == (expected.numerator, expected.denominator)
    assert made == expected and hash(made) == hash(expected)
    assert made + 1 == expected + 1 and float(made) == float(expected)


@given(
    st.lists(st.sampled_from([2, 3, 5, 7, 6, 10, 20, 97, 100, 9973]), min_size=1, max_size=40),
    st.integers(min_value=0),
)
def test_the_reducer_gives_the_reduced_fraction(sizes: list[int], seed: int) -> None:
    """Over a denominator that is a product of dice sizes (powers of small
    primes included), every count reduces as Fraction would reduce it."""
    denominator = 1
    for size in sizes:
        denominator *= size
    reducer = Reducer(denominator)
    assert reducer.factors is not None
    for numerator in (0, 1, denominator, seed % (denominator + 1), denominator // sizes[0]):
        made = reducer(numerator)
        expected = Fraction(numerator, denominator)
        assert (made.numerator, made.denominator) == (expected.numerator, expected.denominator)
        left = complement(made)
        assert left == 1 - expected and left.denominator == (1 - expected).denominator


def test_a_reducer_over_a_large_prime_falls_back_to_gcd() -> None:
    big_prime = 2**61 - 1
    reducer = Reducer(6 * big_prime)
    assert reducer.factors is None
    assert reducer(3 * big_prime) == Fraction(1, 2)


def test_ten_thousand_fudge_dice_chances_are_reduced_exactly() -> None:
    odds = fudgedice.odds("10000dF")
    rows = odds.outcomes
    assert len(rows) == 20001
    middle = rows[10000]
    assert middle.p == Fraction(odds.dist.counts[10000], 3**10000)
    assert rows[0].p == rows[-1].p == Fraction(1, 3**10000)
    assert rows[5].at_most + rows[6].at_least == 1
    assert rows[-1].at_most == 1


def test_odds_columns_are_consistent() -> None:
    odds = fudgedice.odds("3d6kh2+d4")
    running = Fraction(0)
    for outcome in odds.outcomes:
        running += outcome.p
        assert outcome.at_most == running
        assert outcome.at_least == 1 - running + outcome.p
    assert running == 1
    assert odds.at_least_table() == {o.value: o.at_least for o in odds.outcomes}


@pytest.mark.parametrize(
    "text",
    [
        *("4dF", "3d6", "5dF+2", "4d6kh3", "3dF.1", "d%", "400dF"),
        # lopsided, nothing cut off: Fractions made in lists (and a long total)
        *("3d6fudge: 6 opp 8", "d6*d6", "3d6kl2+d4", "120d6kh100"),
    ],
)
def test_every_row_is_its_own_fraction(text: str) -> None:
    """Rows built by symmetry and by complement equal each count over the total."""
    odds = fudgedice.odds(text)
    dist = odds.dist
    assert dist.mass == dist.total
    for row in odds.outcomes:
        offset = row.value - dist.lo
        assert row.p == Fraction(dist.counts[offset], dist.total)
        assert row.at_least == Fraction(sum(dist.counts[offset:]), dist.total)
        assert row.at_most == Fraction(sum(dist.counts[: offset + 1]), dist.total)


@pytest.mark.parametrize("text", ["d6!", "2d6!", "3d6!p"])
def test_rows_with_a_tail_agree_with_the_columns(text: str) -> None:
    odds = fudgedice.odds(text)
    assert odds.dist.mass < odds.dist.total
    for row in odds.outcomes:
        assert row.at_least == odds.at_least(row.value)
        assert row.at_most == odds.at_most(row.value)


@given(
    st.lists(st.sampled_from([3, 5, 7, 11, 6, 9973]), min_size=1, max_size=4),
    st.integers(min_value=40, max_value=400),
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=450), st.integers(min_value=1)),
        min_size=1,
        max_size=12,
    ),
)
def test_counts_that_hold_a_prime_many_times_reduce_exactly(
    sizes: list[int], power: int, counts: list[tuple[int, int]]
) -> None:
    """The guess from the count before (one long division, then a remainder
    by the chunk) gives the reduced fraction whether it was too few, too many
    or past what the denominator holds: counts in any order, each p**k * m."""
    denominator = 1
    for size in sizes:
        denominator *= size**power
    reducer = Reducer(denominator)
    prime = next(p for p in (3, 5, 7, 11, 9973) if denominator % p == 0)
    with budget.paid():
        for held, cofactor in counts:
            numerator = prime**held * cofactor
            made = reducer(numerator)
            expected = Fraction(numerator, denominator)
            assert (made.numerator, made.denominator) == (expected.numerator, expected.denominator)


def test_a_guess_is_learnt_within_one_request_only() -> None:
    """Counts side by side that hold 3 hundreds of times are reduced by one
    long division each (or, after a guess of too many, from the remainder);
    a request charges the same whatever ran before it."""
    denominator = 6**1000
    helds = [*range(300, 330), 100, 999, 1000, 1200, 5, 329]
    counts = [3**held * (2 * held + 1) for held in helds]

    def charged() -> float:
        @budget.within_budget
        def request() -> float:
            for count in counts:
                assert reducer(count) == Fraction(count, denominator)
            spent = budget.current()
            assert spent is not None
            return spent.spent

        return request()

    reducer = Reducer(denominator)
    first = charged()
    assert reducer.hints == {3: 329}
    assert charged() == first


@pytest.mark.parametrize("text", ["3d6fudge: 6 opp 8", "d6*d6", "4d6kh3", "120d6kh100"])
def test_rows_made_in_lists_are_the_rows_made_one_by_one(text: str) -> None:
    odds = fudgedice.odds(text)
    one_by_one = exact_rows(odds.dist, odds._fraction, odds.at_least_counts(), [], None)
    assert odds.outcomes == one_by_one


@pytest.mark.parametrize("text", ["4dF", "3d6kl2", "2d6-2", "4d6 * 2", "300dF", "30d100"])
def test_at_least_table_is_each_value_or_more_counted_by_brute_force(text: str) -> None:
    # short totals (a gcd a row, in one loop) and long ones (by primes) alike
    odds = fudgedice.odds(text)
    counts, total, lo = odds.dist.counts, odds.dist.total, odds.dist.lo
    expected = {
        lo + index: Fraction(sum(counts[index:]), total)
        for index, count in enumerate(counts)
        if count
    }
    table = odds.at_least_table()
    assert table == expected
    assert list(table) == list(expected)  # lowest value first
    assert all(gcd(p.numerator, p.denominator) == 1 for p in table.values())


def test_at_least_table_with_tails_counts_what_surely_belongs() -> None:
    odds = fudgedice.odds("3d6!")
    assert odds.tails
    assert odds.at_least_table() == {value: odds.at_least(value) for value in odds.dist.support()}


def test_at_least_table_charges_its_sums_once_with_its_rows() -> None:
    # one charge for both (the sums were a charge of their own): the same
    # work in all, and none again for sums another view already built
    @budget.within_budget
    def spent(first: bool) -> tuple[float, int]:
        odds = fudgedice.odds("5dF")
        if first:
            odds.at_least(0)
        with budget.recorded() as charges:
            odds.at_least_table()
        return sum(work for work, _, _ in charges), len(charges)

    (rows_only, charged_once), (both, charged_together) = spent(True), spent(False)
    assert 0 < rows_only < both
    assert charged_once == charged_together == 1
