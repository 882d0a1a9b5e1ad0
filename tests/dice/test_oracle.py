"""Every operator of the language against a brute-force oracle, exactly.

The oracle enumerates every way the dice can fall. It is deliberately naive
and independent of the fast code: it walks the rules as a player would (toss,
reroll, explode, sort, keep, count, add) over every combination, with
Fractions. Only the truncation depth of explosion chains is shared with the
fast path, so that the two truncate alike; then the same enumeration one toss
deeper shows where the outcomes the fast path cut off really lie, and checks
every chance the fast path calls exact against them.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction

import pytest

import fudgedice
from fudgedice import parse
from fudgedice.dice.measure import exploding_dice
from fudgedice.dice.pools import chain_depth, plan
from fudgedice.language.tree import BinOp, Group, Neg, Node, Number, Pool

Dist = dict[int, Fraction]
TailCheck = Callable[[fudgedice.Odds, Dist, Dist], None]
"""The ``check_tails`` fixture (tests/conftest.py)."""


def _toss(pool: Pool) -> list[tuple[Fraction, int]]:
    """One kept toss: the face, after the pool's reroll rule."""
    faces = pool.die.faces
    one = Fraction(1, len(faces))
    reroll = pool.reroll
    if reroll is None:
        return [(one, face) for face in faces]
    if reroll.once:
        # Equal faces reached by different paths are merged, so explosion
        # chains branch once per face, not once per path.
        merged: dict[int, Fraction] = defaultdict(Fraction)
        for first in faces:
            if reroll.on.matches(first):
                for second in faces:
                    merged[second] += one * one
            else:
                merged[first] += one
        return [(p, face) for face, p in merged.items()]
    # Rerolling until a face does not match: every non-matching face is
    # equally likely.
    keep = [face for face in faces if not reroll.on.matches(face)]
    return [(Fraction(1, len(keep)), face) for face in keep]


def _die(pool: Pool, depth: int) -> list[tuple[Fraction, list[int]]]:
    """Every story of one die: (chance, faces tossed), chains cut at ``depth``."""
    stories: list[tuple[Fraction, list[int]]] = []
    explode = pool.explode

    def grow(chance: Fraction, faces: list[int]) -> None:
        if explode is None or not explode.on.matches(faces[-1]):
            stories.append((chance, faces))
            return
        if len(faces) == depth:
            return  # the cut-off tail
        for p, face in _toss(pool):
            grow(chance * p, [*faces, face])

    for p, face in _toss(pool):
        grow(p, [face])
    return stories


def brute_force_shallow(pool: Pool, tosses: int) -> Dist:
    """A pool's chances with chains cut at ``tosses`` tosses (exact below the
    smallest total a longer chain can reach)."""
    return _pool(pool, 0, tosses)


def _pool(pool: Pool, exploding: int, depth: int | None = None, deeper: int = 0) -> Dist:
    pool_plan = plan(pool)
    if depth is None:
        depth = chain_depth(pool_plan.explode_chance, exploding) + deeper
    stories = _die(pool, depth)
    penetrate = pool.explode is not None and pool.explode.mode == "!p"
    counting = pool.counting
    out: Dist = defaultdict(Fraction)
    for combo in itertools.product(stories, repeat=pool.count):
        chance = Fraction(1)
        units: list[tuple[int, list[int]]] = []
        for p, faces in combo:
            chance *= p
            values = [face - 1 if penetrate and i else face for i, face in enumerate(faces)]
            units.append((sum(values), values))
        if pool.keep is not None:
            highest, kept = pool.keep.kept(pool.count)
            units = sorted(units, key=lambda unit: unit[0], reverse=highest)[:kept]
        if counting is None:
            total = sum(value for value, _ in units)
        elif pool_plan.counts_tosses:
            total = sum(counting.score(v) for _, values in units for v in values)
        else:
            total = sum(counting.score(value) for value, _ in units)
        out[total] += chance
    return dict(out)


def _pairwise(left: Dist, right: Dist, op: str) -> Dist:
    out: Dist = defaultdict(Fraction)
    for x, px in left.items():
        for y, py in right.items():
            if op == "+":
                value = x + y
            elif op == "-":
                value = x - y
            elif op == "*":
                value = x * y
            else:
                value = x // y
            out[value] += px * py
    return dict(out)


def brute_force(node: Node, exploding: int | None = None, deeper: int = 0) -> Dist:
    """Exact chances of every total of ``node``, by enumeration; explosion
    chains followed ``deeper`` tosses further than the fast path follows them."""
    if exploding is None:
        exploding = exploding_dice(node)
    if isinstance(node, Number):
        return {node.value: Fraction(1)}
    if isinstance(node, Pool):
        return _pool(node, exploding, deeper=deeper)
    if isinstance(node, Group):
        return brute_force(node.inner, exploding, deeper)
    if isinstance(node, Neg):
        return {-value: p for value, p in brute_force(node.operand, exploding, deeper).items()}
    assert isinstance(node, BinOp)
    return _pairwise(
        brute_force(node.left, exploding, deeper),
        brute_force(node.right, exploding, deeper),
        node.op,
    )


FORMS = [
    "2",
    "-3",
    "d6",
    "3d6",
    "d%",
    "4dF",
    "3dF.1",
    "2dF.2",
    "4d6kh3",
    "3d6kl2",
    "4d6dh1",
    "4d6dl1",
    "5d4kh2",
    "3dFkl1",
    "2d6!",
    "2d6!!",
    "2d6!p",
    "2d4!>=4",
    "d6!<2",
    "2d6!kh1",
    "2d6!!kl1",
    "3d6r<=2",
    "3d6ro<=2",
    "2d6ro1!",
    "2d8r1!!",
    "5d6>=5",
    "4d10>=8f1",
    "4d6>4f<2",
    "3d4ro1",
    "2d3!>=3",
    "2d6!!>=7",
    "4d6kh2>=4",
    "2d6!p>5",
    "2d6+3",
    "2d6-d4",
    "d6*d4",
    "2d6/d3",
    "(d6+2)*3",
    "-(d4-d6)",
    "d20+d12-2d4",
    "7/2",
    "-7/2",
    # where the tails of exploding dice go: turned over, scaled, kept, counted
    "-d4!+1",
    "d4!*-2",
    "d4!/3",
    "d4!-d4!",
    "d4!*d3",
    "3d4!kl2",
    "2d4!! >=4",
    "2dF!p",
]


@pytest.mark.parametrize("form", FORMS)
def test_matches_brute_force(form: str, check_tails: TailCheck) -> None:
    fudgedice.clear_caches()
    odds = fudgedice.odds(form)
    expected = brute_force(parse(form).side.expr)
    got = {outcome.value: outcome.p for outcome in odds.outcomes}
    expected = {value: p for value, p in expected.items() if p}
    assert got == expected
    assert odds.truncated == 1 - sum(expected.values())
    if odds.truncated:
        check_tails(odds, expected, brute_force(parse(form).side.expr, deeper=1))


def test_truncation_is_reported_and_tiny() -> None:
    odds = fudgedice.odds("3d6!")
    assert 0 < odds.truncated <= Fraction(1, 10**12)
    assert fudgedice.odds("3d6").truncated == 0


def test_floor_division_rounds_down() -> None:
    assert fudgedice.odds("7/2").probability(3) == 1
    assert fudgedice.odds("-7/2").probability(-4) == 1


@pytest.mark.parametrize("form", ["d6!>=5", "2d4!>=3", "d6!p>=5", "d6!!>=4"])
def test_many_exploding_faces_below_the_horizon(form: str) -> None:
    """Where several faces explode the oracle cannot follow every chain to the
    cut-off; chains of up to four tosses settle every total below a horizon."""
    node = parse(form).side.expr
    assert isinstance(node, Pool)
    odds = fudgedice.odds(form)
    expected = brute_force_shallow(node, tosses=4)
    assert node.explode is not None
    horizon = node.explode.on.value * 4 - (4 if node.explode.mode == "!p" else 0)
    for value, p in expected.items():
        if value < horizon:
            assert odds.probability(value) == p, value
