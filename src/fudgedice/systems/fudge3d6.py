"""3d6 Fudge (seed 004): roll 3d6 under the skill, triples first.

Everything a 3d6 Fudge roll means is decided by two small evaluators:

* :func:`read_3d6` reads three dice against a skill (triples first, then drop
  the highest die and compare the sum of the other two with the skill);
* :func:`resolve_round` decides an opposed round from the two sides' reads.

The roller (:meth:`Fudge3d6Program.roll_with`, which also reads dice rolled by
hand) and the measurer (:meth:`Fudge3d6Program.dist`, ``odds``) both call them,
so a roll and its odds can never disagree. docs/3d6fudge.md is the rules
reference, including the choices made where the seed is silent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..dist import Dist
from ..engine import Program, register_system
from ..errors import DiceValueError
from ..odds import Odds
from ..parser import _suggest
from ..results import DieRoll, PoolRoll
from ..roller import Roller, operate
from ..rolls import Roll
from ..sampling import sample_dist
from ..tables import Table, TableOptions, register_table
from ..tree import BinOp, Die, Group, Neg, Node, Number, Opposed, Pool, Side, Versus, Word
from ..vocabulary import register_words

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

_WORDS = {value: word.capitalize() for word, value in LEVELS.items()}

LOWEST_SKILL = 1
"""A skill is never modified below Abysmal (1)."""
HIGHEST_SKILL = 1000
"""Beyond 12 a higher skill changes only the margin; this bound keeps the margin
table small (it is dense from the worst margin to the best)."""

EP_COST = {8: 8, 7: 4, 6: 2, 5: 1, 4: 1, 3: 1, 2: 1}
"""Experience Points to raise a skill to a level, as printed on the seed's sheet."""

D6 = Die("d6", (1, 2, 3, 4, 5, 6))
THREE_D6 = Pool(3, D6, "3d6")

Critical = Literal["critical success", "critical failure", "critical mediocrity"]
CRITICAL_SUCCESS: Critical = "critical success"
CRITICAL_FAILURE: Critical = "critical failure"
CRITICAL_MEDIOCRITY: Critical = "critical mediocrity"

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


def level_name(skill: int) -> str:
    """``6 Good``; above Legendary (or below Abysmal) the number alone."""
    word = _WORDS.get(skill)
    return f"{skill} {word}" if word else str(skill)


# --- the read: one small evaluator for rolling and measuring ---------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a roll means, without the dice: all an opposed round looks at."""

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
    outcome: Outcome


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
    margin = skill - kept_sum
    critical: Critical | None = None
    if first == second == third:
        critical = TRIPLES[first]
        if critical == CRITICAL_SUCCESS:
            margin = max(margin, 0)
        elif critical == CRITICAL_FAILURE:
            margin = min(margin, -1)
        else:
            margin = 0 if skill >= 2 else -1
    return Reading(dice, skill, dropped, kept_sum, Outcome(critical, margin))


# --- opposed rounds -------------------------------------------------------------------

Verdict = Literal["win", "loss", "stand-off"]
Rule = Literal[
    "critical success",
    "both critical",
    "scratch",
    "no damage",
    "both failed",
    "margins",
    "success against failure",
]


def _article(outcome: Outcome) -> str:
    name = outcome.name
    return name if outcome.critical is not None else f"a {name}"


@dataclass(frozen=True, slots=True)
class Round:
    """An opposed round from the left (first) side's point of view."""

    verdict: Verdict
    margin: int
    """The winner's margin over the loser, negative when the left side loses, 0
    for a stand-off."""
    rule: Rule
    """Which rule decided it; :attr:`reason` says it in words (only when shown,
    so measuring never builds the text)."""
    left: Outcome
    right: Outcome

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


def resolve_round(left: Outcome, right: Outcome) -> Round:
    """Who wins an opposed round, and by how much.

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
            return Round("stand-off", 0, "both critical", left, right)
        if left_critical == CRITICAL_SUCCESS:
            return Round("win", max(difference, 1), "critical success", left, right)
        if right_critical == CRITICAL_SUCCESS:
            return Round("loss", min(difference, -1), "critical success", left, right)
        if CRITICAL_MEDIOCRITY in (left_critical, right_critical):
            bland_left = left_critical == CRITICAL_MEDIOCRITY
            bland = left_margin if bland_left else right_margin
            other = right_margin if bland_left else left_margin
            if bland >= 0 > other:
                verdict: Verdict = "win" if bland_left else "loss"
                return Round(verdict, difference, "scratch", left, right)
            if bland < 0 and other < 0:
                return Round("stand-off", 0, "both failed", left, right)
            # It takes no damage, so the other side's success hits nothing.
            return Round("stand-off", 0, "no damage", left, right)
        # Only critical failures left: they are failures, read as usual below.
    if left_margin < 0 and right_margin < 0:
        return Round("stand-off", 0, "both failed", left, right)
    rule: Rule = "margins" if left_margin >= 0 and right_margin >= 0 else "success against failure"
    if difference == 0:
        return Round("stand-off", 0, rule, left, right)
    return Round("win" if difference > 0 else "loss", difference, rule, left, right)


# --- measuring ------------------------------------------------------------------------


def outcome_counts(skill: int) -> dict[Outcome, int]:
    """How many of the 216 rolls give each outcome at this skill."""
    counts: dict[Outcome, int] = {}
    for dice, ways in ROLL_CLASSES:
        outcome = read_3d6(dice, skill).outcome
        counts[outcome] = counts.get(outcome, 0) + ways
    return counts


def success_chance(skill: int) -> Fraction:
    """The seed's "Chances of Success" for a modified skill."""
    counts = outcome_counts(skill)
    return Fraction(sum(n for outcome, n in counts.items() if outcome.success), len(ALL_ROLLS))


# --- the skill expression -------------------------------------------------------------


def _skill_value(node: Node, text: str) -> int:
    """A skill is arithmetic on levels and numbers: no dice."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Word):
        value = LEVELS.get(node.text.lower())
        if value is None:
            raise DiceValueError(
                f"'{node.text}' is not a 3d6 Fudge level",
                text=text,
                position=node.position,
                hint=_suggest(node.text, list(LEVELS))
                or "levels: " + ", ".join(_WORDS[n] for n in sorted(_WORDS)),
            )
        return value
    if isinstance(node, Group):
        return _skill_value(node.inner, text)
    if isinstance(node, Neg):
        return -_skill_value(node.operand, text)
    if isinstance(node, Pool):
        raise DiceValueError(
            f"'{node.source}': a 3d6 Fudge skill is a level, not dice "
            "(the system rolls 3d6 itself)",
            text=text,
            position=node.position,
            hint="write the skill and its modifiers, such as '3d6fudge: Good-1'",
        )
    assert isinstance(node, BinOp)
    left, right = _skill_value(node.left, text), _skill_value(node.right, text)
    return operate(node.op, left, right, what="the skill divides by 0")


def _skill_text(node: Node) -> str:
    """The skill as written, compactly: ``Good-2``."""
    if isinstance(node, Number):
        return str(node.value)
    if isinstance(node, Word):
        return node.text
    if isinstance(node, Group):
        return f"({_skill_text(node.inner)})"
    if isinstance(node, Neg):
        return f"-{_skill_text(node.operand)}"
    if isinstance(node, Pool):
        return node.source
    return f"{_skill_text(node.left)}{node.op}{_skill_text(node.right)}"


@dataclass(frozen=True, slots=True)
class Skill:
    """One side's modified skill, checked once when the roll is compiled."""

    written: str
    raw: int
    value: int
    steps: list[str] = field(default_factory=list, compare=False)

    @staticmethod
    def of(side: Side, text: str) -> Skill:
        for option in side.options:
            raise DiceValueError(
                f"3d6 Fudge has no option '{option.name}'",
                text=text,
                position=option.position,
                hint="modifiers move the skill: '3d6fudge: Good+1'",
            )
        raw = _skill_value(side.expr, text)
        if raw > HIGHEST_SKILL:
            raise DiceValueError(
                f"a skill of {raw} is more than {HIGHEST_SKILL}; from 11 up every roll "
                "but a critical failure succeeds",
                text=text,
            )
        written = _skill_text(side.expr)
        value = max(raw, LOWEST_SKILL)
        steps = []
        if isinstance(side.expr, Number) and raw == value:
            steps.append(f"skill {level_name(value)}")
        elif isinstance(side.expr, Word):
            steps.append(f"skill {written} = {value}")
        elif raw == value:
            steps.append(f"skill {written} = {level_name(value)}")
        else:
            steps.append(
                f"skill {written} = {raw}, raised to {level_name(value)}: "
                "never modified below Abysmal"
            )
        return Skill(written, raw, value, steps)


# --- the program ----------------------------------------------------------------------


def _verdict_text(reading: Reading) -> str:
    outcome = reading.outcome
    margin = outcome.margin
    how = f"made it by {margin}" if outcome.success else f"missed by {-margin}"
    if outcome.critical == CRITICAL_MEDIOCRITY:
        if outcome.success:
            return "critical mediocrity: success, barely"
        return "critical mediocrity: failure (skill 1)"
    return f"{outcome.name}, {how}"


def _read_lines(reading: Reading) -> list[str]:
    """The steps a player would check: the drop, the sum against the skill."""
    dice, skill = reading.dice, reading.skill
    outcome = reading.outcome
    kept = [die for index, die in enumerate(dice) if index != reading.dropped]
    drop = f"drop {dice[reading.dropped]} -> {kept[0]}+{kept[1]} = {reading.kept_sum}"
    compare = "<=" if reading.kept_sum <= skill else ">"
    if outcome.critical is None:
        return [f"{drop} {compare} {skill}: {_verdict_text(reading)}"]
    face = dice[0]
    triple = f"triples {face}-{face}-{face}: {outcome.critical}"
    if outcome.critical == CRITICAL_MEDIOCRITY:
        if outcome.success:
            return [
                f"{triple}: a bare success (skill {skill} >= 2), made it by 0",
                "in combat: takes no damage this round, deals at most a Scratch",
            ]
        return [
            f"{triple}: a failure at skill 1",
            "in combat: takes no damage this round",
        ]
    margin = outcome.margin
    how = f"made it by {margin}" if outcome.success else f"missed by {-margin}"
    natural = reading.skill - reading.kept_sum
    note = "" if natural == margin else f" (the read alone gives {natural}; the triple decides)"
    return [f"{triple}, {how}; {drop} {compare} {skill}{note}"]


def _events(outcome: Outcome) -> list[str]:
    return [outcome.critical] if outcome.critical is not None else []


class Fudge3d6Program(Program):
    """``3d6fudge: SKILL`` and ``3d6fudge: SKILL opp SKILL``."""

    left: Skill
    right: Skill | None

    def _check(self) -> None:
        expression = self.expression
        text = expression.text
        if isinstance(expression.check, Versus):
            match = re.search(r"\bvs\b", text, re.IGNORECASE)
            raise DiceValueError(
                "3d6 Fudge has no difficulty levels: a roll is compared to the skill itself",
                text=text,
                position=match.start() if match else None,
                hint="apply the difficulty as a modifier to the skill: '3d6fudge: Good-1'",
            )
        self.left = Skill.of(expression.side, text)
        self.right = None
        if isinstance(expression.check, Opposed):
            self.right = Skill.of(expression.check.other, text)

    # rolling (and reading by hand: the hand roller hands out the faces)

    def _roll_side(self, skill: Skill, roller: Roller) -> tuple[Reading, PoolRoll]:
        dice = (roller.toss(D6), roller.toss(D6), roller.toss(D6))
        reading = read_3d6(dice, skill.value)
        rolled = []
        for index, face in enumerate(dice):
            die = DieRoll(D6, face, str(face))
            if index == reading.dropped:
                die.kept = False
                die.notes.append("dropped (highest)")
            rolled.append(die)
        return reading, PoolRoll(THREE_D6, rolled, reading.kept_sum)

    def _side_data(self, reading: Reading) -> dict[str, Any]:
        outcome = reading.outcome
        return {
            "skill": reading.skill,
            "sum": reading.kept_sum,
            "margin": outcome.margin,
            "outcome": outcome.name,
            "success": outcome.success,
        }

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        expression = self.expression
        reading, pool = self._roll_side(self.left, roller)
        details = [*self.left.steps, *_read_lines(reading)]
        if self.right is None:
            return Roll(
                expression.text,
                SYSTEM,
                reading.outcome.margin,
                pool,
                seed=seed,
                label=expression.label,
                events=_events(reading.outcome),
                result=_verdict_text(reading),
                details=details,
                data=self._side_data(reading),
            )
        other, other_pool = self._roll_side(self.right, roller)
        other_roll = Roll(
            expression.text,
            SYSTEM,
            other.outcome.margin,
            other_pool,
            events=_events(other.outcome),
            result=_verdict_text(other),
            details=[*self.right.steps, *_read_lines(other)],
            data=self._side_data(other),
            title=f"opp {self.right.written}",
        )
        contest = resolve_round(reading.outcome, other.outcome)
        if contest.verdict == "stand-off":
            result = f"stand-off: {contest.reason}"
        else:
            verb = "wins" if contest.verdict == "win" else "loses"
            result = f"{verb} by {abs(contest.margin)}: {contest.reason}"
        return Roll(
            expression.text,
            SYSTEM,
            contest.margin,
            pool,
            seed=seed,
            label=expression.label,
            # No events: the left side's critical is in its read line and in
            # data["left"]; an event line would print below the other side's dice.
            result=result,
            details=details,
            sides=[other_roll],
            data={
                "margin": contest.margin,
                "round": contest.verdict,
                "scratch_only": contest.scratch_only,
                "left": self._side_data(reading),
            },
        )

    def read(self, faces: Sequence[str]) -> Roll:
        # Count first: "needs 6 dice, 3 a side" says more than "not enough dice".
        needed = 3 if self.right is None else 6
        if len(faces) != needed:
            each = "" if self.right is None else ", 3 for each side"
            raise DiceValueError(
                f"'{self.expression.text}' is read from {needed} d6{each}; {len(faces)} given"
            )
        return super().read(faces)

    # measuring: the same read over all 216 rolls of each side

    def _round_counts(self) -> tuple[dict[int, int], dict[Verdict, int]]:
        assert self.right is not None
        left = outcome_counts(self.left.value)
        right = outcome_counts(self.right.value)
        margins: dict[int, int] = {}
        verdicts: dict[Verdict, int] = {"win": 0, "loss": 0, "stand-off": 0}
        # At most a few dozen distinct outcomes a side, so this is ~10**3 rounds
        # in place of 216**2.
        for mine, ways in left.items():
            for theirs, other_ways in right.items():
                contest = resolve_round(mine, theirs)
                weight = ways * other_ways
                margins[contest.margin] = margins.get(contest.margin, 0) + weight
                verdicts[contest.verdict] += weight
        return margins, verdicts

    def dist(self) -> Dist:
        if self.right is not None:
            return Dist.from_weights(self._round_counts()[0])
        return _margin_dist(outcome_counts(self.left.value))

    def odds(self) -> Odds:
        text = self.expression.text
        if self.right is not None:
            margins, verdicts = self._round_counts()
            total = len(ALL_ROLLS) ** 2
            return Odds(
                text,
                SYSTEM,
                Dist.from_weights(margins),
                {name: Fraction(ways, total) for name, ways in verdicts.items()},
                value_name=_round_name,
                value_title="round margin",
            )
        counts = outcome_counts(self.left.value)
        events = dict.fromkeys(_SINGLE_EVENTS, 0)
        for outcome, ways in counts.items():
            events["success" if outcome.success else "failure"] += ways
            if outcome.critical is not None:
                events[outcome.critical] += ways
        total = len(ALL_ROLLS)
        return Odds(
            text,
            SYSTEM,
            _margin_dist(counts),
            {name: Fraction(ways, total) for name, ways in events.items()},
            value_name=_margin_name,
            value_title="margin",
        )

    def sample(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        # Margins drawn from the exact distribution (216 or 216**2 ways).
        return sample_dist(self.dist(), n, rng)


def _margin_dist(counts: dict[Outcome, int]) -> Dist:
    """The margins of one side's outcomes, from how many rolls give each."""
    weights: dict[int, int] = {}
    for outcome, ways in counts.items():
        weights[outcome.margin] = weights.get(outcome.margin, 0) + ways
    return Dist.from_weights(weights)


_SINGLE_EVENTS = (
    "success",
    "failure",
    CRITICAL_SUCCESS,
    CRITICAL_FAILURE,
    CRITICAL_MEDIOCRITY,
)


def _margin_name(margin: int) -> str:
    return "success" if margin >= 0 else "failure"


def _round_name(margin: int) -> str:
    return "win" if margin > 0 else "loss" if margin < 0 else "stand-off"


# --- tables ---------------------------------------------------------------------------


def _chance_text(chance: Fraction, options: TableOptions) -> str:
    if options.exact:
        # Over 216, as the seed's rules digest writes them (not in lowest terms).
        return f"{chance * 216}/216"
    return f"{float(chance) * 100:.1f}%"


@register_table(SYSTEM, "3d6 Fudge chances of success by modified skill (seed 004)")
def chances_table(options: TableOptions) -> Table:
    needed = list(range(1, 12))
    labels = [str(skill) for skill in needed[:-1]] + ["11+"]
    chances = [_chance_text(success_chance(skill), options) for skill in needed]
    return Table(
        "3d6 Fudge: chances of success",
        ("Roll needed", *labels),
        (("Success", *chances),),
        ("Exact over all 216 rolls of 3d6; 11 and up are the same: only 5-5-5 and 6-6-6 fail.",),
    )


@register_table(f"{SYSTEM}-ladder", "3d6 Fudge levels, chances of success and EP costs")
def ladder_table(options: TableOptions) -> Table:
    rows = []
    for skill in range(9, 0, -1):
        cost = EP_COST.get(skill)
        rows.append(
            (
                str(skill),
                _WORDS[skill],
                _chance_text(success_chance(skill), options),
                "-" if cost is None else str(cost),
            )
        )
    return Table(
        "3d6 Fudge levels",
        ("level", "word", "success", "EP"),
        tuple(rows),
        (
            "Modifiers move the skill, never below 1 (Abysmal); above 9 the number alone.",
            "EP: Experience Points to raise a skill to that level (the seed's sheet).",
        ),
    )


register_system(SYSTEM, Fudge3d6Program)
register_words(*LEVELS)
