"""Dist and its algebra against plain enumeration over ``{outcome: count}``.

The references below never build a dense table: they pair outcomes in
dictionaries, so they share no code and no shortcut with :mod:`.dist` or
:mod:`.kernels`. Large pools (60 to 200 dice) are checked against the same
dictionaries folded one die at a time.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fudgedice.errors import DiceValueError, LimitError
from fudgedice.exact import dist, kernels, pairs
from fudgedice.exact.dist import Dist
from fudgedice.limits import DEFAULT_LIMITS, Limits

Weights = dict[int, int]


def pair_up(x: Weights, y: Weights, function: Callable[[int, int], int]) -> Weights:
    out: Weights = {}
    for a, ca in x.items():
        for b, cb in y.items():
            out[function(a, b)] = out.get(function(a, b), 0) + ca * cb
    return {value: count for value, count in out.items() if count}


def sum_of_copies(die: Weights, n: int) -> Weights:
    out: Weights = {0: 1}
    for _ in range(n):
        out = pair_up(out, die, lambda a, b: a + b)
    return out


def outcomes(d: Dist) -> Weights:
    return dict(d.items())


def assert_well_formed(d: Dist) -> None:
    """Dense, with a possible outcome at each end, and no more mass than total."""
    assert d.counts and d.counts[0] and d.counts[-1]
    assert all(count >= 0 for count in d.counts)
    assert d.hi == d.lo + len(d.counts) - 1
    assert 0 < d.mass <= d.total


# Outcomes spread over a range with gaps; counts small or huge, zeros dropped.
weights_strategy = st.dictionaries(
    st.integers(min_value=-12, max_value=12),
    st.one_of(st.integers(min_value=0, max_value=6), st.integers(min_value=1, max_value=2**80)),
    min_size=1,
    max_size=8,
).filter(lambda weights: any(weights.values()))


@st.composite
def dists(draw: st.DrawFn, weights: st.SearchStrategy[Weights] = weights_strategy) -> Dist:
    """A Dist, sometimes with a total above its mass (a cut-off tail)."""
    chosen = draw(weights)
    extra = draw(st.sampled_from([0, 0, 1, 7, 2**70]))
    return Dist.from_weights(chosen, sum(chosen.values()) + extra)


small_dies = dists(
    st.dictionaries(
        st.integers(min_value=-5, max_value=5),
        st.integers(min_value=0, max_value=5),
        min_size=1,
        max_size=5,
    ).filter(lambda weights: any(weights.values()))
)


# -- Dist, from_weights, trimmed ---------------------------------------------


@settings(max_examples=100, deadline=None)
@given(weights_strategy, st.one_of(st.none(), st.integers(min_value=0, max_value=2**90)))
def test_from_weights_keeps_exactly_the_possible_outcomes(
    weights: Weights, total: int | None
) -> None:
    present = {value: count for value, count in weights.items() if count}
    made = Dist.from_weights(weights, total)
    assert outcomes(made) == present
    assert made.support() == sorted(present)
    assert (made.lo, made.hi) == (min(present), max(present))
    assert made.mass == sum(present.values())
    assert made.total == (sum(present.values()) if total is None else total)
    assert len(made.counts) == max(present) - min(present) + 1
    assert made.counts[0] and made.counts[-1]


@pytest.mark.parametrize("weights", [{}, {3: 0}, {-1: 0, 4: 0}])
def test_from_weights_refuses_nothing_possible(weights: Weights) -> None:
    with pytest.raises(DiceValueError, match="no outcome is possible"):
        Dist.from_weights(weights)


def test_constant() -> None:
    seven = Dist.constant(-7)
    assert (seven.lo, seven.counts, seven.total, seven.hi) == (-7, (1,), 1, -7)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(min_value=-50, max_value=50),
    st.lists(st.integers(min_value=0, max_value=3), max_size=12),
    st.integers(min_value=1, max_value=99),
)
def test_trimmed_strips_zeros_at_the_ends_only(lo: int, counts: list[int], total: int) -> None:
    nonzero = [i for i, count in enumerate(counts) if count]
    if not nonzero:
        with pytest.raises(DiceValueError, match="no outcome is possible"):
            dist.trimmed(lo, counts, total)
        return
    made = dist.trimmed(lo, counts, total)
    first, last = nonzero[0], nonzero[-1]
    assert made.lo == lo + first
    assert list(made.counts) == counts[first : last + 1]
    assert made.total == total


# -- the size checks -----------------------------------------------------------


def test_check_span_allows_max_span_minus_one_and_refuses_max_span() -> None:
    limit = DEFAULT_LIMITS.max_span
    dist.check_span(-10, limit - 11)
    with pytest.raises(
        LimitError, match=rf"from -10 to {limit - 10}, more than the limit of {limit}"
    ):
        dist.check_span(-10, limit - 10)


def test_from_weights_refuses_a_span_past_the_limit() -> None:
    limit = DEFAULT_LIMITS.max_span
    wide = Dist.from_weights({0: 1, limit - 1: 2})
    assert (wide.lo, wide.hi, wide.mass) == (0, limit - 1, 3)
    with pytest.raises(LimitError, match=rf"limit of {limit} values"):
        Dist.from_weights({-(limit // 2): 1, limit // 2: 1})


def test_check_size_is_inclusive_and_names_what_and_megabytes() -> None:
    limit = DEFAULT_LIMITS.max_measure_bits
    dist.check_size(1000, limit / 1000, "a pool")
    with pytest.raises(LimitError) as refused:
        dist.check_size(1001, limit / 1000, "12d6 and friends")
    message = str(refused.value)
    assert "12d6 and friends" in message and "1001 outcomes" in message
    assert f"limit of {limit // 8_000_000} MB" in message


# -- add, negate ---------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(dists(), dists())
def test_add_is_the_sum_over_every_pair(a: Dist, b: Dist) -> None:
    made = dist.add(a, b)
    assert outcomes(made) == pair_up(outcomes(a), outcomes(b), lambda x, y: x + y)
    assert made.total == a.total * b.total
    assert_well_formed(made)


@pytest.mark.parametrize("count", [1, 5])
def test_add_a_constant_on_either_side(count: int) -> None:
    die = Dist.from_weights({-2: 3, 0: 1, 4: 2}, 10)
    constant = Dist.from_weights({5: count})
    for made in (dist.add(die, constant), dist.add(constant, die)):
        assert outcomes(made) == {3: 3 * count, 5: count, 9: 2 * count}
        assert made.total == 10 * count


def test_add_of_wide_tables_packs_and_stays_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    a = Dist.from_weights({v: (v * v) % 7 for v in range(-40, 61)}, 10**6)
    b = Dist.from_weights({v: 2**64 + v for v in range(0, 60, 2)})
    assert len(a.counts) * len(b.counts) > kernels._NAIVE_WORK
    packed: list[int] = []
    original = kernels.pack

    def spy(coefficients: list[int] | tuple[int, ...], slot: int) -> int:
        packed.append(slot)
        return original(coefficients, slot)

    monkeypatch.setattr(kernels, "pack", spy)
    made = dist.add(a, b)
    assert packed  # the Kronecker branch ran
    assert outcomes(made) == pair_up(outcomes(a), outcomes(b), lambda x, y: x + y)
    assert made.total == 10**6 * b.total


def test_add_refuses_a_span_past_the_limit_before_multiplying(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def forbidden(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> list[int]:
        raise AssertionError("convolved although the span is refused")

    monkeypatch.setattr(dist, "convolve", forbidden)
    limit = DEFAULT_LIMITS.max_span
    a = Dist.from_weights({0: 1, limit - 1: 1})
    b = Dist.from_weights({0: 1, 1: 1})
    with pytest.raises(LimitError, match=rf"list every value from 0 to {limit}, more than"):
        dist.add(a, b)


@settings(max_examples=100, deadline=None)
@given(dists())
def test_negate_mirrors_every_outcome(a: Dist) -> None:
    made = dist.negate(a)
    assert outcomes(made) == {-value: count for value, count in outcomes(a).items()}
    assert made.total == a.total
    assert_well_formed(made)


# -- repeat ----------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(small_dies, st.integers(min_value=0, max_value=9))
def test_repeat_is_the_sum_of_n_copies(die: Dist, n: int) -> None:
    made = dist.repeat(die, n)
    assert outcomes(made) == sum_of_copies(outcomes(die), n)
    assert made.total == die.total**n
    assert_well_formed(made)


@pytest.mark.parametrize(
    ("weights", "total", "n"),
    [
        ({-1: 1, 0: 1, 1: 1}, 3, 150),  # 150dF: three faces past the unrolled 64
        ({-1: 1, 0: 4, 1: 1}, 6, 200),  # dF.2-like weighting, symmetric
        ({-1: 1, 0: 2, 1: 3}, 6, 120),  # asymmetric three faces
        ({face: 1 for face in range(1, 7)}, 6, 100),  # 100d6
        ({1: 2, 3: 1, 4: 5}, 9, 70),  # a gap inside, asymmetric, a cut-off tail
        ({face: face for face in range(1, 11)}, 55, 60),  # ten weighted faces
        ({0: 1, 7: 1}, 2, 180),  # a coin with a wide gap
    ],
)
def test_repeat_large_pools_against_folding_one_die_at_a_time(
    weights: Weights, total: int, n: int
) -> None:
    die = Dist.from_weights(weights, total)
    made = dist.repeat(die, n, f"{n} dice")
    assert outcomes(made) == sum_of_copies(weights, n)
    assert made.total == total**n
    assert (made.lo, made.hi) == (n * min(weights), n * max(weights))
    assert_well_formed(made)


def test_repeat_of_nothing_is_zero() -> None:
    made = dist.repeat(Dist.from_weights({3: 1, 4: 1}), 0)
    assert (made.lo, made.counts, made.total) == (0, (1,), 1)


def test_repeat_refuses_a_pool_past_the_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(base: list[int] | tuple[int, ...], n: int) -> list[int]:
        raise AssertionError("the power was computed although the pool is refused")

    monkeypatch.setattr(dist, "power", forbidden)
    fudge = Dist.from_weights({-1: 1, 0: 1, 1: 1})
    with pytest.raises(LimitError, match=r"exact odds of 12000dF would need 24001 outcomes"):
        dist.repeat(fudge, 12_000, "12000dF")
    with pytest.raises(LimitError, match=r"of the pool .* limit of 50 MB"):
        dist.repeat(fudge, 12_000)


def test_repeat_respects_the_span_limit_like_add(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dist, "DEFAULT_LIMITS", Limits(max_span=100))
    wide = Dist.from_weights({0: 1, 60: 1})
    with pytest.raises(LimitError, match="more than the limit of 100 values"):
        dist.add(wide, wide)
    with pytest.raises(LimitError, match="more than the limit of 100 values"):
        dist.repeat(wide, 2)


# -- apply, combine -----------------------------------------------------------------

FUNCTIONS: list[Callable[[int], int]] = [
    abs,
    lambda v: v // 3,
    lambda v: v * v - 5,
    lambda v: 4,
    lambda v: v % 4 - 2,
    lambda v: -2 * v,
]


@settings(max_examples=100, deadline=None)
@given(dists(), st.sampled_from(FUNCTIONS))
def test_apply_pools_outcomes_that_land_together(a: Dist, function: Callable[[int], int]) -> None:
    expected: Weights = {}
    for value, count in outcomes(a).items():
        expected[function(value)] = expected.get(function(value), 0) + count
    made = dist.apply(a, function)
    assert outcomes(made) == expected
    assert made.total == a.total
    assert_well_formed(made)


@settings(max_examples=100, deadline=None)
@given(
    dists(),
    dists(
        st.dictionaries(
            st.integers(min_value=1, max_value=9), st.integers(min_value=1, max_value=9), min_size=1
        )
    ),
    st.sampled_from([lambda x, y: x * y, lambda x, y: x // y, lambda x, y: x - 2 * y]),
)
def test_combine_is_the_function_over_every_pair(
    a: Dist, b: Dist, function: Callable[[int, int], int]
) -> None:
    made = pairs.combine(a, b, function, "a test")
    assert outcomes(made) == pair_up(outcomes(a), outcomes(b), function)
    assert made.total == a.total * b.total
    assert_well_formed(made)


def test_combine_counts_possible_outcomes_not_table_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pairs, "DEFAULT_LIMITS", Limits(max_pairs=4))
    gappy = Dist.from_weights({0: 1, 50: 1})  # 51 cells, two outcomes
    pair = Dist.from_weights({1: 1, 3: 2})
    made = pairs.combine(gappy, pair, lambda x, y: x * y, "a product")
    assert outcomes(made) == {0: 3, 50: 1, 150: 2}
    with pytest.raises(
        LimitError, match=r"exact odds of a product would pair 6 outcomes; the limit is 4"
    ):
        pairs.combine(gappy, Dist.from_weights({1: 1, 2: 1, 3: 1}), lambda x, y: x * y, "a product")


def test_combine_refuses_too_many_pairs_before_pairing() -> None:
    many = Dist.from_weights(dict.fromkeys(range(1500), 1))
    limit = DEFAULT_LIMITS.max_pairs

    def never(x: int, y: int) -> int:
        raise AssertionError("paired despite the limit")

    with pytest.raises(LimitError, match=rf"would pair 2250000 outcomes; the limit is {limit}"):
        pairs.combine(many, many, never, "a quotient of dice")
