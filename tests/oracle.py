"""A brute-force oracle: enumerate every way the dice can fall.

Deliberately naive and independent of the fast code: it walks the rules as a
player would (toss, reroll, explode, sort, keep, count, add) over every
combination, with Fractions. Only the truncation depth of explosion chains
is shared with the fast path, so that the two truncate alike.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

from fudgedice.measure import exploding_dice
from fudgedice.pools import chain_depth, plan
from fudgedice.tree import BinOp, Group, Neg, Node, Number, Pool

Dist = dict[int, Fraction]


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


def _pool(pool: Pool, exploding: int, depth: int | None = None) -> Dist:
    pool_plan = plan(pool)
    if depth is None:
        depth = chain_depth(pool_plan.explode_chance, exploding)
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


def brute_force(node: Node, exploding: int | None = None) -> Dist:
    """Exact chances of every total of ``node``, by enumeration."""
    if exploding is None:
        exploding = exploding_dice(node)
    if isinstance(node, Number):
        return {node.value: Fraction(1)}
    if isinstance(node, Pool):
        return _pool(node, exploding)
    if isinstance(node, Group):
        return brute_force(node.inner, exploding)
    if isinstance(node, Neg):
        return {-value: p for value, p in brute_force(node.operand, exploding).items()}
    assert isinstance(node, BinOp)
    return _pairwise(brute_force(node.left, exploding), brute_force(node.right, exploding), node.op)
