"""3d6 Fudge (seed 004), the rules as pure functions: roll 3d6 under the
skill, triples first.

Everything a 3d6 Fudge roll means is decided by two small evaluators:

* :func:`read_3d6` reads three dice against a skill (triples first, then drop
  the highest die and compare the sum of the other two with the skill);
* :func:`resolve_round` decides an opposed round from the two sides' reads.

The roller (:meth:`.program.Fudge3d6Program.roll_with`, which also reads dice
rolled by hand) and the measurer (``dist``, ``odds``) both call them, so a
roll and its odds can never disagree. docs/3d6fudge.md is the rules
reference, including the choices made where the seed is silent.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Literal

from ...language.tree import D6, Pool

SYSTEM = "3d6fudge"

LEVELS: dict[str, int] = {
    "abysmal": 1,
    "terrible": 2,
    "poor": 3,
    "mediocre": 4,
    "fair": 5,
    "good": 6,
    "great": 7,
    "superb": 8,
    "legendary": 9,
}
"""The seed's levels; modified skills above 9 are numbers without a word."""

WORDS = {value: word.capitalize() for word, value in LEVELS.items()}

LOWEST_SKILL = 1
"""A skill is never modified below Abysmal (1)."""
HIGHEST_SKILL = 1000
"""Beyond 12 a higher skill changes only the margin; this bound keeps the margin
table small (it is dense from the worst margin to the best)."""

EP_COST = {8: 8, 7: 4, 6: 2, 5: 1, 4: 1, 3: 1, 2: 1}
"""Experience Points to raise a skill to a level, as printed on the seed's sheet."""

THREE_D6 = Pool(3, D6, "3d6")

Critical = Literal["critical success", "critical failure", "critical mediocrity"]
CRITICAL_SUCCESS: Critical = "critical success"
CRITICAL_FAILURE: Critical = "critical failure"
CRITICAL_MEDIOCRITY: Critical = "critical mediocrity"
CRITICALS: tuple[Critical, ...] = (CRITICAL_SUCCESS, CRITICAL_FAILURE, CRITICAL_MEDIOCRITY)
"""Every critical, in the order the odds name them."""

TRIPLES: dict[int, Critical] = {
    1: CRITICAL_SUCCESS,
    2: CRITICAL_SUCCESS,
    3: CRITICAL_MEDIOCRITY,
    4: CRITICAL_MEDIOCRITY,
    5: CRITICAL_FAILURE,
    6: CRITICAL_FAILURE,
}
"""The seed's pictures of the triples were lost; its chances table fixes them."""

ALL_ROLLS: tuple[tuple[int, int, int], ...] = tuple(product(range(1, 7), range(1, 7), range(1, 7)))
"""The 216 equally likely ordered rolls of 3d6."""


def _by_multiset() -> tuple[tuple[tuple[int, int, int], int], ...]:
    ways: dict[tuple[int, int, int], int] = {}
    for dice in ALL_ROLLS:
        key = (min(dice), sorted(dice)[1], max(dice))
        ways[key] = ways.get(key, 0) + 1
    return tuple(ways.items())


ROLL_CLASSES = _by_multiset()
"""The 56 different sets of three faces, each with how many of the 216 ordered
rolls show it: a read depends only on the faces, not their order, so measuring
reads these 56 instead of all 216 (the sample space itself, not a memo)."""


def _by_read() -> tuple[tuple[tuple[int, int, int], int], ...]:
    ways: dict[tuple[int, int], int] = {}
    shown: dict[tuple[int, int], tuple[int, int, int]] = {}
    for dice, count in ROLL_CLASSES:
        low, _, high = dice
        key = (low if low == high else 0, sum(dice) - high)
        ways[key] = ways.get(key, 0) + count
        shown.setdefault(key, dice)
    return tuple((shown[key], count) for key, count in ways.items())


READ_CLASSES = _by_read()
"""The rolls that every skill reads alike, one set of faces standing for each
with how many of the 216 rolls it stands for: a triple is read by its face,
any other roll by the sum of its two lowest dice (:func:`read_3d6` looks at
nothing else), so 16 reads give what 56 would."""


def level_name(skill: int) -> str:
    """``6 Good``; above Legendary (or below Abysmal) the number alone."""
    word = WORDS.get(skill)
    return f"{skill} {word}" if word else str(skill)


# --- the read: one small evaluator for rolling and measuring ---------------------------


@dataclass(frozen=True, slots=True)
class Read:
    """A roll's read: what it means, without the dice (its critical, if any,
    and its margin), all an opposed round looks at."""

    critical: Critical | None
    margin: int
    """Skill minus the sum of the two dice kept; pinned for triples so that
    success is always ``margin >= 0`` (see :func:`read_3d6`)."""

    @property
    def success(self) -> bool:
        return self.margin >= 0

    @property
    def name(self) -> str:
        """``success``, ``critical failure``, ... (the odds' event names)."""
        if self.critical is not None:
            return self.critical
        return "success" if self.success else "failure"


@dataclass(frozen=True, slots=True)
class Reading:
    """One roll read against one skill."""

    dice: tuple[int, int, int]
    skill: int
    dropped: int
    """Index of the die removed: the highest, the later one of a tied pair."""
    kept_sum: int
    read: Read


def read_3d6(dice: tuple[int, int, int], skill: int) -> Reading:
    """Read three d6 against a modified skill, the seed's way.

    Triples come first and decide the verdict. Every roll, triples included,
    also gets the ordinary read (drop the highest die, add the other two) and
    its margin, skill - sum, is what the roll made it (or missed) by. A
    triple's margin is pinned to agree with its verdict, so that "margin >= 0"
    and "success" always mean the same thing: a critical success made it by
    at least 0, a critical failure missed by at least 1, and critical
    mediocrity made it by exactly 0 ("just barely"), or at skill 1, where it
    fails, missed by exactly 1.
    """
    first, second, third = dice
    highest = max(dice)
    # A player removes one of a tied pair; the later one, as the keep rules do.
    dropped = 2 if third == highest else 1 if second == highest else 0
    kept_sum = first + second + third - highest
    return Reading(dice, skill, dropped, kept_sum, read_dice(dice, skill))


def read_dice(dice: tuple[int, int, int], skill: int) -> Read:
    """What :func:`read_3d6` makes of three dice, without the dice: the
    verdict of the triples first, the margin of the two lowest dice."""
    return Read(*read_pair(dice, skill))


def read_pair(dice: tuple[int, int, int], skill: int) -> tuple[Critical | None, int]:
    """:func:`read_dice` as a plain pair (measuring counts them before
    making a :class:`Read` of each)."""
    first, second, third = dice
    margin = skill - (first + second + third - max(dice))
    if first == second == third:
        critical = TRIPLES[first]
        if critical == CRITICAL_SUCCESS:
            margin = max(margin, 0)
        elif critical == CRITICAL_FAILURE:
            margin = min(margin, -1)
        else:
            margin = 0 if skill >= 2 else -1
        return critical, margin
    return None, margin


# --- opposed rounds -------------------------------------------------------------------

RoundVerdict = Literal["win", "loss", "stand-off"]
"""An opposed round's verdict, from the left side's point of view."""
RoundRule = Literal[
    "critical success",
    "both critical",
    "scratch",
    "no damage",
    "both failed",
    "margins",
    "success against failure",
]
"""Which rule of :func:`decide_round` decided a round."""


def _article(read: Read) -> str:
    name = read.name
    return name if read.critical is not None else f"a {name}"


@dataclass(frozen=True, slots=True)
class Round:
    """An opposed round from the left (first) side's point of view."""

    verdict: RoundVerdict
    margin: int
    """The winner's margin over the loser, negative when the left side loses, 0
    for a stand-off."""
    rule: RoundRule
    """Which rule decided it; :attr:`reason` says it in words (only when shown,
    so measuring never builds the text)."""
    left: Read
    right: Read

    @property
    def scratch_only(self) -> bool:
        """The winner rolled critical mediocrity: it deals at most a Scratch."""
        return self.rule == "scratch"

    @property
    def reason(self) -> str:
        """Why, told from the left side: it follows "wins by 2:" or "loses by 2:"."""
        left, right = self.left, self.right
        mine, theirs = _article(left), _article(right)
        if self.rule == "both critical":
            return f"{left.critical} on both sides"
        if self.rule == "critical success":
            if self.verdict == "win":
                return f"critical success beats {theirs}"
            return f"{mine} loses to critical success"
        if self.rule == "scratch":
            return f"{mine} against {theirs}: at most a Scratch"
        if self.rule == "no damage":
            other = theirs if left.critical == CRITICAL_MEDIOCRITY else mine
            return f"critical mediocrity takes no damage from {other}"
        if self.rule == "both failed":
            return "both failed"
        if self.rule == "margins":
            if left.margin == right.margin:
                return f"both made it by {left.margin}"
            return f"made it by {left.margin} against {right.margin}"
        return f"{mine} against {theirs}"


def resolve_round(left: Read, right: Read) -> Round:
    """Who wins an opposed round, and by how much (:func:`decide_round`, told
    with the reads it was decided from)."""
    verdict, margin, rule = decide_round(left, right)
    return Round(verdict, margin, rule, left, right)


def decide_round(left: Read, right: Read) -> tuple[RoundVerdict, int, RoundRule]:
    """Who wins an opposed round, by how much, and by which rule.

    The seed: one success against a failure hits; two failures are a
    stand-off; two successes: the larger margin wins, equal margins are a
    stand-off. The issue adds: a critical success beats any non-critical
    result, a critical failure loses to any success (it is a failure), and
    critical mediocrity takes no damage and deals at most a Scratch. Where
    both are silent (docs/3d6fudge.md lists these choices): two critical
    successes, or two critical mediocrities, are a stand-off; a critical
    success beats critical mediocrity (the best that could happen outranks a
    bland result). The margin is the winner's margin less the loser's, and a
    win is always by at least 1: a critical success that made it by less than
    the loser still wins, by 1.
    """
    left_critical, right_critical = left.critical, right.critical
    left_margin, right_margin = left.margin, right.margin
    difference = left_margin - right_margin
    if left_critical is not None or right_critical is not None:
        if left_critical == right_critical and left_critical != CRITICAL_FAILURE:
            return "stand-off", 0, "both critical"
        if left_critical == CRITICAL_SUCCESS:
            return "win", max(difference, 1), "critical success"
        if right_critical == CRITICAL_SUCCESS:
            return "loss", min(difference, -1), "critical success"
        if CRITICAL_MEDIOCRITY in (left_critical, right_critical):
            bland_left = left_critical == CRITICAL_MEDIOCRITY
            bland = left_margin if bland_left else right_margin
            other = right_margin if bland_left else left_margin
            if bland >= 0 > other:
                verdict: RoundVerdict = "win" if bland_left else "loss"
                return verdict, difference, "scratch"
            if bland < 0 and other < 0:
                return "stand-off", 0, "both failed"
            # It takes no damage, so the other side's success hits nothing.
            return "stand-off", 0, "no damage"
        # Only critical failures left: they are failures, read as usual below.
    if left_margin < 0 and right_margin < 0:
        return "stand-off", 0, "both failed"
    both_made = left_margin >= 0 and right_margin >= 0
    rule: RoundRule = "margins" if both_made else "success against failure"
    if difference == 0:
        return "stand-off", 0, rule
    return "win" if difference > 0 else "loss", difference, rule
