"""The pool of alike exploding dice (exact/exploding.py) is the same Dist,
count for count and cut for cut, as the power of one die's chain: the slow
path it replaced (``repeat`` of ``measure._chain``), which the brute-force
tests (tests/dice/test_oracle.py) check against enumeration."""

from __future__ import annotations

import random

import pytest

from fudgedice import parse
from fudgedice.dice import measure
from fudgedice.dice.pools import chain_depth, plan
from fudgedice.exact import dist, exploding
from fudgedice.exact.kernels import pack, unpack
from fudgedice.language.tree import Pool

FORMS = [
    "1d6!",
    "2d6!",
    "3d6!",
    "10d6!",
    "7d4!",
    "5d10!",
    "3d20!",
    "4d8!!",
    "4d6!!",
    "2d20!",
    "20d6!",
    "4d6r1!",
    "4d6ro1!",
    "3d6!>=5",
    "6d10!>=8",
    "6d6!>=4",
    "4d6!<=2",
    "5d6!=3",
    "5d6!p",
    "3d6!p",
    "4dF!",
    "3dF!",
    "8d10!>=7>=9",
    "5d10!>=8>=8f1",
    "12d3!",
    "2d2!",
]


def _pool(form: str) -> Pool:
    node = parse(form).side.expr
    assert isinstance(node, Pool)
    return node


def _slow(pool: Pool, depth: int, contribution: measure.Contribution) -> dist.Dist:
    return dist.repeat(measure._chain(pool, depth, contribution), pool.count, pool.source)


def _contribution(pool: Pool) -> measure.Contribution:
    counting, penetrate = pool.counting, pool.explode is not None and pool.explode.mode == "!p"

    def value(face: int, first: bool) -> int:
        return face - 1 if penetrate and not first else face

    if counting is not None and plan(pool).counts_tosses:
        score = counting.score
        return lambda face, first: score(value(face, first))
    return value


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("extra", [0, 3])
def test_the_fast_pool_is_the_power_of_the_chain(form: str, extra: int) -> None:
    pool = _pool(form)
    contribution = _contribution(pool)
    depth = chain_depth(plan(pool).explode_chance, pool.count) + extra
    fast = measure._exploding_pool(pool, depth, contribution)
    slow = _slow(pool, depth, contribution)
    assert fast is None or fast == slow


def test_the_fast_pool_takes_the_alike_explosions() -> None:
    taken = []
    for form in FORMS:
        pool = _pool(form)
        depth = chain_depth(plan(pool).explode_chance, pool.count)
        if measure._exploding_pool(pool, depth, _contribution(pool)) is not None:
            taken.append(form)
    assert set(taken) == set(FORMS) - {
        "3d6!>=5",  # explosions that add different amounts (5 or 6)
        "6d10!>=8",
        "6d6!>=4",
        "4d6!<=2",
        "8d10!>=7>=9",  # an exploding toss may count a success or not
        "5d6!p",  # the first toss adds its face, the later ones a face less one
        "3d6!p",
    }


@pytest.mark.parametrize(
    ("stop", "step", "ways", "total", "depth", "n"),
    [
        ({1: 1, 2: 1, 3: 1, 4: 1, 5: 1}, 6, 1, 6, 5, 4),
        ({0: 3, 1: 2}, 1, 2, 7, 6, 5),  # explosions add 1, as the stops may
        ({2: 1, 5: 4}, 2, 3, 8, 4, 6),  # stops with gaps, steps smaller than them
        ({-2: 1, 0: 2}, 3, 1, 4, 7, 3),  # stops below 0
    ],
)
def test_the_pool_is_the_power_of_its_chain(
    stop: dict[int, int], step: int, ways: int, total: int, depth: int, n: int
) -> None:
    die = exploding.chain_dist(stop, step, ways, total, depth)
    assert die.total - die.mass == ways**depth
    fast = exploding.exploding_pool(stop, step, ways, total, depth, n, "the pool")
    assert fast == dist.repeat(die, n)


@pytest.mark.parametrize("slot", [8, 9, 10, 12, 16, 24])
def test_the_flat_read_matches_unpacking(slot: int) -> None:
    """The flat read (a word, a short part added after for the few that have
    one) gives every coefficient, as unpacking one by one would: numbers
    filling the slot, numbers of one word, of a word and a bit, zeros."""
    rng = random.Random(slot)
    bits = [min(b, slot * 8) for b in (1, 30, 64, 65, slot * 8)]
    values = [rng.getrandbits(rng.choice(bits)) for _ in range(40)]
    values[3] = 0
    values[-1] = (1 << slot * 8) - 1
    assert exploding._read(pack(values, slot), slot, len(values)) == values
    assert exploding._read(pack(values, slot), slot, len(values) + 3) == values + [0] * 3


@pytest.mark.parametrize(("bits", "slot"), [(1, 8), (64, 8), (65, 9), (72, 9), (73, 10), (81, 12)])
def test_a_slot_holds_its_bound(bits: int, slot: int) -> None:
    bound = (1 << bits) - 1
    assert exploding._slot(bound) == slot
    assert bound < 1 << 8 * slot


@pytest.mark.parametrize(
    ("base", "n"), [([1] * 17, 10), ([1, 3, 9, 27], 6), ([5], 3), ([2, 1], 40), ([7], 1)]
)
def test_a_narrow_power_is_the_power(base: list[int], n: int) -> None:
    number, slot = exploding._power_packed(base, n)
    length = n * (len(base) - 1) + 1
    assert unpack(number, slot, length) == dist_power(base, n)


@pytest.mark.parametrize(("narrow", "wide"), [(6, 10), (8, 8), (3, 16), (9, 24)])
def test_a_power_widened_is_packed_in_the_wide_slots(narrow: int, wide: int) -> None:
    rng = random.Random(narrow)
    values = [rng.getrandbits(narrow * 8) for _ in range(17)]
    assert exploding._widened((pack(values, narrow), narrow), wide, 17) == pack(values, wide)


def dist_power(base: list[int], n: int) -> list[int]:
    """``base`` to the n-th power by schoolbook products."""
    out = [1]
    for _ in range(n):
        step = [0] * (len(out) + len(base) - 1)
        for i, x in enumerate(out):
            for j, y in enumerate(base):
                step[i + j] += x * y
        out = step
    return out
