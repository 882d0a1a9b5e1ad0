"""3d6 Fudge measured: how many of the 216 rolls give each read, and of
the 216**2 opposed rounds end at each margin, read by the rules of
:mod:`.rules` (the roller's own evaluators)."""

from __future__ import annotations

from fractions import Fraction

from .rules import (
    ALL_ROLLS,
    CRITICAL_MEDIOCRITY,
    CRITICAL_SUCCESS,
    READ_CLASSES,
    Critical,
    Read,
    RoundVerdict,
    decide_round,
    read_pair,
)


def read_ways(skill: int) -> dict[Read, int]:
    """How many of the 216 rolls give each read at this skill."""
    return {Read(*read): ways for read, ways in pair_counts(skill).items()}


ReadPair = tuple[Critical | None, int]
"""A read as a plain pair, (critical, margin): measuring counts these."""


def pair_counts(skill: int) -> dict[ReadPair, int]:
    """:func:`read_ways` as plain pairs."""
    counts: dict[ReadPair, int] = {}
    for dice, ways in READ_CLASSES:
        read = read_pair(dice, skill)
        counts[read] = counts.get(read, 0) + ways
    return counts


def success_chance(skill: int) -> Fraction:
    """The seed's "Chances of Success" for a modified skill."""
    counts = read_ways(skill)
    return Fraction(sum(n for read, n in counts.items() if read.success), len(ALL_ROLLS))


_SPECIAL = (CRITICAL_SUCCESS, CRITICAL_MEDIOCRITY)
"""The criticals that change how a round is decided (a critical failure is
read as any failure)."""


def round_counts(
    left: dict[Read, int], right: dict[Read, int]
) -> tuple[dict[int, int], dict[RoundVerdict, int]]:
    """How many of the rounds between two sides' reads (with how many rolls
    give each) end at each margin, and in each verdict (:func:`read_round_counts`)."""
    return read_round_counts(
        {(o.critical, o.margin): ways for o, ways in left.items()},
        {(o.critical, o.margin): ways for o, ways in right.items()},
    )


def read_round_counts(
    left: dict[ReadPair, int], right: dict[ReadPair, int]
) -> tuple[dict[int, int], dict[RoundVerdict, int]]:
    """How many of the rounds between two sides' reads (with how many rolls
    give each) end at each margin, and in each verdict.

    Only a pair with critical mediocrity on a side, and no critical success,
    is decided by :func:`decide_round` itself. The others are added up as it
    decides them (tests/systems/fudge3d6 checks every pair at every skill): a
    critical success beats anything but another (a stand-off) by at least 1;
    any other pair (a critical failure is a failure, and :func:`decide_round`
    reads it as one) is a stand-off when both failed and otherwise goes by
    the difference of the margins, added up a side at a time, the failures of
    the other side in one sum.
    """
    margins: dict[int, int] = {0: 0}
    plain_left = [
        (margin, ways) for (critical, margin), ways in left.items() if critical not in _SPECIAL
    ]
    plain_right = [
        (margin, ways) for (critical, margin), ways in right.items() if critical not in _SPECIAL
    ]
    made_right = [(margin, ways) for margin, ways in plain_right if margin >= 0]
    failed_right = sum(ways for margin, ways in plain_right if margin < 0)
    if plain_left and plain_right:
        # the plain pairs by the difference of their margins, in a list from
        # the least (a list's slots are cheaper than a dict's keys); a read's
        # margin may appear twice (a critical failure beside a plain one)
        least = min(plain_left)[0] - max(plain_right)[0]
        most = max(plain_left)[0] - min(plain_right)[0]
        differences = [0] * (most - least + 1)
        for own, ways in plain_left:
            if own < 0:
                margins[0] += ways * failed_right
                others = made_right
            else:
                others = plain_right
            start = own - least
            for margin, other_ways in others:
                differences[start - margin] += ways * other_ways
        for index, ways in enumerate(differences, least):
            if ways:
                margins[index] = margins.get(index, 0) + ways
    # a critical success against anything but another: won (or lost) by at least 1
    best_right = [(m, ways) for (c, m), ways in right.items() if c == CRITICAL_SUCCESS]
    bland_right = [(Read(c, m), ways) for (c, m), ways in right.items() if c == CRITICAL_MEDIOCRITY]
    rest_right = [((c, m), ways) for (c, m), ways in right.items() if c != CRITICAL_SUCCESS]
    for (critical, own), ways in left.items():
        if critical == CRITICAL_SUCCESS:
            margins[0] += ways * sum(other for _, other in best_right)
            for (_, theirs), other_ways in rest_right:
                margin = max(own - theirs, 1)
                margins[margin] = margins.get(margin, 0) + ways * other_ways
            continue
        for theirs, other_ways in best_right:
            margin = min(own - theirs, -1)
            margins[margin] = margins.get(margin, 0) + ways * other_ways
        # critical mediocrity on a side: decide_round's own rules
        if critical == CRITICAL_MEDIOCRITY:
            against = [(Read(*read), other_ways) for read, other_ways in rest_right]
        else:
            against = bland_right
        if not against:
            continue
        mine = Read(critical, own)
        for other, other_ways in against:
            margin = decide_round(mine, other)[1]
            margins[margin] = margins.get(margin, 0) + ways * other_ways
    if not margins[0]:
        del margins[0]  # as when only pairs that end elsewhere were counted
    # a round's margin is above 0 exactly when the left side wins, and 0 for a
    # stand-off (Round.margin)
    verdicts: dict[RoundVerdict, int] = {"win": 0, "loss": 0, "stand-off": 0}
    for margin, ways in margins.items():
        verdicts["win" if margin > 0 else "loss" if margin < 0 else "stand-off"] += ways
    return margins, verdicts
