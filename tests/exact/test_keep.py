"""keep_extreme against rolling every die.

Small pools: every roll is listed with :func:`itertools.product`, sorted, cut
and scored. Large pools (60 to 200 dice), where listing is impossible: a
dynamic program that rolls one die at a time and holds only the ``kept``
most favoured values seen so far (an order statistic is all keep/drop needs),
and for a single kept die the closed form ``P(max <= v) = F(v) ** n``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fudgedice import budget
from fudgedice.errors import LimitError
from fudgedice.exact import dist
from fudgedice.exact.dist import Dist
from fudgedice.exact.keep import face_work, faces_work, keep_extreme
from fudgedice.limits import DEFAULT_LIMITS

Weights = dict[int, int]
Score = Callable[[int], int]

SCORES: dict[str, Score] = {
    "face": lambda v: v,
    "negated": lambda v: -v,
    "mod 3": lambda v: v % 3,  # not monotonic: keep is by face, not by score
    "success on 3+": lambda v: 1 if v >= 3 else 0,
    "constant": lambda v: 5,
    "square": lambda v: v * v - 4 * v,
}


def enumerate_rolls(
    faces: Weights, n: int, choose: Callable[[list[int]], list[int]], score: Score
) -> Weights:
    """Every roll of ``n`` dice, weighted, with ``choose`` picking the dice that count."""
    out: Weights = {}
    for roll in itertools.product(faces.items(), repeat=n):
        ways = 1
        for _, weight in roll:
            ways *= weight
        key = sum(score(value) for value in choose([value for value, _ in roll]))
        out[key] = out.get(key, 0) + ways
    return {value: count for value, count in out.items() if count}


def keep_of(kept: int, highest: bool) -> Callable[[list[int]], list[int]]:
    return lambda values: sorted(values, reverse=highest)[:kept]


def drop_of(dropped: int, highest: bool) -> Callable[[list[int]], list[int]]:
    def choose(values: list[int]) -> list[int]:
        ordered = sorted(values)
        if not dropped:
            return ordered
        return ordered[:-dropped] if highest else ordered[dropped:]

    return choose


def order_statistics(faces: Weights, n: int, kept: int, highest: bool, score: Score) -> Weights:
    """Roll one die at a time, remembering only the ``kept`` most favoured
    faces so far (as a sorted tuple); score them at the end."""
    held: dict[tuple[int, ...], int] = {(): 1}
    for _ in range(n):
        following: dict[tuple[int, ...], int] = {}
        for best, ways in held.items():
            for value, weight in faces.items():
                key = tuple(sorted((*best, value), reverse=highest)[:kept])
                following[key] = following.get(key, 0) + ways * weight
        held = following
    out: Weights = {}
    for best, ways in held.items():
        total = sum(score(value) for value in best)
        out[total] = out.get(total, 0) + ways
    return {value: count for value, count in out.items() if count}


def outcomes(d: Dist) -> Weights:
    return dict(d.items())


@st.composite
def dies(draw: st.DrawFn) -> Dist:
    """Up to five faces with gaps and negative values, uneven weights and
    sometimes a total above the mass (a cut-off tail)."""
    values = draw(
        st.lists(st.integers(min_value=-4, max_value=8), min_size=1, max_size=5, unique=True)
    )
    weights = {value: draw(st.integers(min_value=1, max_value=7)) for value in values}
    extra = draw(st.sampled_from([0, 0, 1, 5]))
    return Dist.from_weights(weights, sum(weights.values()) + extra)


# -- small pools: every roll ---------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(dies(), st.integers(min_value=1, max_value=5), st.data())
def test_keep_matches_every_roll(die: Dist, n: int, data: st.DataObject) -> None:
    kept = data.draw(st.integers(min_value=0, max_value=n), label="kept")
    highest = data.draw(st.booleans(), label="highest")
    score = SCORES[data.draw(st.sampled_from(sorted(SCORES)), label="score")]
    made = keep_extreme(die, n, kept, highest, score)
    assert outcomes(made) == enumerate_rolls(outcomes(die), n, keep_of(kept, highest), score)
    assert made.total == die.total**n
    assert made.mass == die.mass**n
    assert made.counts[0] and made.counts[-1]


@settings(max_examples=100, deadline=None)
@given(dies(), st.integers(min_value=1, max_value=5), st.data())
def test_drop_is_keeping_the_others(die: Dist, n: int, data: st.DataObject) -> None:
    """Drop the ``d`` highest (lowest) is keep the ``n - d`` lowest (highest)."""
    dropped = data.draw(st.integers(min_value=0, max_value=n), label="dropped")
    drop_highest = data.draw(st.booleans(), label="drop highest")
    score = SCORES[data.draw(st.sampled_from(sorted(SCORES)), label="score")]
    made = keep_extreme(die, n, n - dropped, not drop_highest, score)
    expected = enumerate_rolls(outcomes(die), n, drop_of(dropped, drop_highest), score)
    assert outcomes(made) == expected
    assert made.total == die.total**n


@pytest.mark.parametrize(
    ("kept", "highest", "expected"),
    [
        # 3d6 keep highest 2: the textbook table (216 rolls)
        (2, True, {2: 1, 3: 3, 4: 7, 5: 12, 6: 19, 7: 27, 8: 34, 9: 36, 10: 34, 11: 27, 12: 16}),
        (1, False, {1: 91, 2: 61, 3: 37, 4: 19, 5: 7, 6: 1}),
        (0, True, {0: 216}),
    ],
)
def test_known_3d6_tables(kept: int, highest: bool, expected: Weights) -> None:
    d6 = Dist.from_weights(dict.fromkeys(range(1, 7), 1))
    made = keep_extreme(d6, 3, kept, highest, lambda v: v)
    assert outcomes(made) == expected
    assert made.total == 216


def test_keeping_none_of_a_cut_off_die_keeps_the_missing_mass() -> None:
    die = Dist.from_weights({1: 2, 4: 3}, 9)  # 4 of 9 ways cut off
    made = keep_extreme(die, 4, 0, True, lambda v: 100 * v)
    assert (made.lo, made.counts, made.total) == (0, (5**4,), 9**4)


# -- large pools: an order-statistics dynamic program ----------------------------


@pytest.mark.parametrize(
    ("weights", "total", "n", "kept", "highest", "score"),
    [
        (dict.fromkeys(range(1, 7), 1), 6, 100, 3, True, "face"),  # 100d6kh3
        (dict.fromkeys(range(1, 7), 1), 6, 150, 2, False, "face"),  # 150d6kl2
        ({-1: 1, 0: 1, 1: 1}, 3, 200, 4, True, "face"),  # 200dF kh4
        ({-1: 1, 0: 1, 1: 1}, 3, 200, 3, False, "negated"),
        ({-2: 1, 0: 4, 3: 2, 7: 1}, 11, 120, 5, True, "mod 3"),  # gaps, cut-off tail
        ({1: 5, 2: 1, 5: 3, 6: 2}, 11, 90, 4, False, "success on 3+"),
        (dict.fromkeys(range(1, 11), 1), 10, 60, 2, True, "square"),
    ],
)
def test_keep_on_large_pools_against_order_statistics(
    weights: Weights, total: int, n: int, kept: int, highest: bool, score: str
) -> None:
    die = Dist.from_weights(weights, total)
    made = keep_extreme(die, n, kept, highest, SCORES[score])
    assert outcomes(made) == order_statistics(weights, n, kept, highest, SCORES[score])
    assert made.total == total**n
    assert made.mass == sum(weights.values()) ** n


@pytest.mark.parametrize(
    ("weights", "total", "n", "highest"),
    [
        (dict.fromkeys(range(1, 21), 1), 20, 200, True),  # 200d20kh1
        ({1: 7, 2: 1, 4: 3, 9: 2, 10: 1}, 20, 150, True),  # gaps, 6 of 20 ways cut off
        ({1: 7, 2: 1, 4: 3, 9: 2, 10: 1}, 14, 180, False),
        ({-3: 2, 0: 1, 2: 5}, 8, 64, False),
    ],
)
def test_keep_one_of_a_large_pool_is_the_extreme_order_statistic(
    weights: Weights, total: int, n: int, highest: bool
) -> None:
    """P(max <= v) = F(v)**n and P(min >= v) = G(v)**n, in counts."""
    expected: Weights = {}
    for value in weights:
        if highest:
            at_most = sum(w for face, w in weights.items() if face <= value)
            expected[value] = at_most**n - (at_most - weights[value]) ** n
        else:
            at_least = sum(w for face, w in weights.items() if face >= value)
            expected[value] = at_least**n - (at_least - weights[value]) ** n
    made = keep_extreme(Dist.from_weights(weights, total), n, 1, highest, lambda v: v)
    assert outcomes(made) == expected
    assert made.total == total**n


def test_keep_all_of_a_large_pool_is_the_plain_sum() -> None:
    die = Dist.from_weights({-1: 2, 0: 1, 2: 3}, 7)
    square = SCORES["square"]
    made = keep_extreme(die, 80, 80, True, square)
    expected: Weights = {0: 1}
    for _ in range(80):
        step: Weights = {}
        for value, count in expected.items():
            for face, weight in outcomes(die).items():
                step[value + square(face)] = step.get(value + square(face), 0) + count * weight
        expected = step
    assert outcomes(made) == expected
    assert made.total == 7**80


def test_drop_lowest_from_a_large_pool() -> None:
    """60dF drop the lowest 2 (keep the highest 58): score everything, then
    take off the two lowest, carried as the two least values seen."""
    faces = {-1: 1, 0: 1, 1: 1}
    n = 60
    held: dict[tuple[tuple[int, ...], int], int] = {((), 0): 1}
    for _ in range(n):
        following: dict[tuple[tuple[int, ...], int], int] = {}
        for (lowest, running), ways in held.items():
            for value, weight in faces.items():
                key = (tuple(sorted((*lowest, value))[:2]), running + value)
                following[key] = following.get(key, 0) + ways * weight
        held = following
    expected: Weights = {}
    for (lowest, running), ways in held.items():
        expected[running - sum(lowest)] = expected.get(running - sum(lowest), 0) + ways
    made = keep_extreme(Dist.from_weights(faces), n, n - 2, True, lambda v: v)
    assert outcomes(made) == expected


# -- limits ----------------------------------------------------------------------


def test_keep_refuses_too_much_work_before_working(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(work: float, what: str, fits: object = None) -> None:
        raise AssertionError("work was charged (the binomials next) although it is refused")

    monkeypatch.setattr(budget, "charge", forbidden)
    d100 = Dist.from_weights(dict.fromkeys(range(1, 101), 1))
    with pytest.raises(LimitError) as refused:
        keep_extreme(d100, 1000, 500, True, lambda v: v)
    message = str(refused.value)
    assert "keeping 500 of 1000 dice with 100 faces would take too long" in message
    assert f"the limit is {DEFAULT_LIMITS.max_keep_work:.2g}" in message


def test_keep_refuses_a_score_span_past_the_limit() -> None:
    coin = Dist.from_weights({0: 1, 1: 1})
    with pytest.raises(
        LimitError, match=rf"more than the limit of {DEFAULT_LIMITS.max_span} values"
    ):
        keep_extreme(coin, 3, 2, True, lambda v: v * DEFAULT_LIMITS.max_span)


def test_keep_allows_the_same_span_as_apply() -> None:
    widest = DEFAULT_LIMITS.max_span - 1
    coin = Dist.from_weights({0: 1, 1: 1})
    applied = dist.apply(coin, lambda v: v * widest)  # the same single die, scored
    assert (applied.lo, applied.hi) == (0, widest)
    kept = keep_extreme(coin, 1, 1, True, lambda v: v * widest)
    assert (kept.lo, kept.hi, kept.total) == (0, widest, 2)
    assert outcomes(kept) == outcomes(applied)


@given(
    st.integers(min_value=1, max_value=3000),
    st.integers(min_value=1, max_value=60),
    st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=30),
    st.integers(min_value=8, max_value=4000),
)
def test_faces_work_is_the_sum_of_each_face_work(
    n: int, kept: int, weights: list[int], bits: int
) -> None:
    """The estimate written out charges exactly what face_work says, face by face."""
    faces = [(value, weight) for value, weight in enumerate(weights)]
    gains = [value % 7 for value, _ in faces]
    least = min(gains)
    expected = 12.5
    below, ahead = sum(weights), 0
    for (_, weight), gain in zip(faces, gains, strict=True):
        below -= weight
        expected += face_work(n, kept, ahead, weight, below, bits, gain - least)
        ahead += 1 if weight else 0
    assert faces_work(12.5, n, kept, faces, gains, least, bits) == expected


@given(
    st.integers(min_value=1, max_value=300),
    st.integers(min_value=1, max_value=20),
    st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=30),
    st.integers(min_value=8, max_value=4000),
)
def test_a_face_at_its_costliest_bounds_every_face(
    n: int, kept: int, weights: list[int], bits: int
) -> None:
    """What a small pool charges (each face as the last of the most ways and
    the widest gain) is at least the exact sum over its faces."""
    faces = [(value, weight) for value, weight in enumerate(weights)]
    gains = [value % 7 for value, _ in faces]
    least = min(gains)
    worst = len(faces) * face_work(
        n, kept, len(faces) - 1, sum(weights), 0, bits, max(gains) - least
    )
    assert worst >= faces_work(0.0, n, kept, faces, gains, least, bits)
