"""The 3d6 Fudge program: rolls, reads by hand, measures and samples a
``3d6fudge:`` roll through the rules of :mod:`.rules`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...dice.outcomes import Band, Fact, Outcomes
from ...dice.program import Program
from ...dice.roller import Roller
from ...dice.schedule import Schedule
from ...errors import DiceValueError
from ...exact.dist import Dist
from ...exact.odds import Odds
from ...exact.views import Check
from ...language.tree import D6, Expression, Opposed, Pool, Versus
from ...language.words import Vocabulary
from ...memory import reserve
from ...results.dice import DieRoll, Mark, PoolRoll
from ...results.roll import Roll
from .counts import pair_counts, read_round_counts, read_ways
from .rules import (
    ALL_ROLLS,
    CRITICAL_MEDIOCRITY,
    CRITICALS,
    SYSTEM,
    THREE_D6,
    Read,
    Reading,
    RoundVerdict,
    read_3d6,
    resolve_round,
)
from .skill import Skill

if TYPE_CHECKING:  # NumPy is imported when a sample is asked for; float odds by floats.py
    import numpy as np
    import numpy.typing as npt

    from ...results.float_odds import FloatOdds


@dataclass(slots=True)
class Fudge3d6Details:
    """One side's read: the modified skill, the sum of the two dice kept, and
    the outcome by name (``success``, ``critical mediocrity``, ...)."""

    skill: int
    sum: int
    outcome: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class RoundDetails:
    """An opposed round: whether the winner deals at most a Scratch."""

    scratch_only: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _verdict_text(reading: Reading) -> str:
    read = reading.read
    margin = read.margin
    how = f"made it by {margin}" if read.success else f"missed by {-margin}"
    if read.critical == CRITICAL_MEDIOCRITY:
        if read.success:
            return "critical mediocrity: success, barely"
        return "critical mediocrity: failure (skill 1)"
    return f"{read.name}, {how}"


def _read_lines(reading: Reading) -> list[str]:
    """The steps a player would check: the drop, the sum against the skill."""
    dice, skill = reading.dice, reading.skill
    read = reading.read
    kept = [die for index, die in enumerate(dice) if index != reading.dropped]
    drop = f"drop {dice[reading.dropped]} -> {kept[0]}+{kept[1]} = {reading.kept_sum}"
    compare = "<=" if reading.kept_sum <= skill else ">"
    if read.critical is None:
        return [f"{drop} {compare} {skill}: {_verdict_text(reading)}"]
    face = dice[0]
    triple = f"triples {face}-{face}-{face}: {read.critical}"
    if read.critical == CRITICAL_MEDIOCRITY:
        if read.success:
            return [
                f"{triple}: a bare success (skill {skill} >= 2), made it by 0",
                "in combat: takes no damage this round, deals at most a Scratch",
            ]
        return [
            f"{triple}: a failure at skill 1",
            "in combat: takes no damage this round",
        ]
    margin = read.margin
    how = f"made it by {margin}" if read.success else f"missed by {-margin}"
    natural = reading.skill - reading.kept_sum
    note = "" if natural == margin else f" (the read alone gives {natural}; the triple decides)"
    return [f"{triple}, {how}; {drop} {compare} {skill}{note}"]


SIDE_OUTCOMES = Outcomes(
    (Band("success", 0, None, verdict=True), Band("failure", None, -1, verdict=True)),
    tuple(Fact(critical, (critical,)) for critical in CRITICALS),
)
"""One side's read, by its margin (made it by 0 or more: a success) and the
critical its triple showed: a lone roll's events, and each side's."""
ROUND_OUTCOMES = Outcomes(
    (
        Band("win", 1, None, verdict=True),
        Band("loss", None, -1, verdict=True),
        Band("stand-off", 0, 0, verdict=True),
    )
)
"""An opposed round, by its round margin."""


def _events(read: Read) -> list[str]:
    """The odds' event names this read makes happen."""
    facts = () if read.critical is None else (read.critical,)
    return SIDE_OUTCOMES.resolve(read.margin, facts)[1]


@dataclass(frozen=True, slots=True)
class _Said:
    """Three dice read against a skill, and that read in words: 216 rolls a
    skill, so a program's rolls soon find every one written."""

    reading: Reading
    verdict: str
    lines: tuple[str, ...]
    """The read's lines, then a critical's name."""
    events: tuple[str, ...]


@lru_cache(maxsize=4096)
def _read(dice: tuple[int, int, int], skill: int) -> _Said:
    reading = read_3d6(dice, skill)
    read = reading.read
    critical = (read.critical,) if read.critical is not None else ()
    lines = (*_read_lines(reading), *critical)
    return _Said(reading, _verdict_text(reading), lines, tuple(_events(read)))


reserve("3d6 Fudge readings", 4096, 1000)  # a reading and its few lines (about 850 bytes)


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

    def tossed_pools(self) -> list[Pool]:
        """Three d6 a side."""
        return [THREE_D6] * (1 if self.right is None else 2)

    def schedule(self) -> Schedule:
        """Three d6 a side, the left side first."""
        sides = 1 if self.right is None else 2
        return ((len(D6.tossed), D6.tossed, 3, None, None),) * sides

    def _roll_side(self, skill: Skill, roller: Roller) -> tuple[Reading, PoolRoll]:
        dice = (roller.toss(D6), roller.toss(D6), roller.toss(D6))
        reading = _read(dice, skill.value).reading
        rolled = []
        for index, face in enumerate(dice):
            die = DieRoll(D6, face, str(face))
            if index == reading.dropped:
                die.set_aside(Mark.DROPPED, "highest")
            rolled.append(die)
        return reading, PoolRoll(THREE_D6, rolled, reading.kept_sum)

    def _side_roll(self, title: str, skill: Skill, reading: Reading, pool: PoolRoll) -> Roll:
        """One side's read as a roll of its own; a critical is told last."""
        read = reading.read
        said = _read(reading.dice, reading.skill)
        return Roll(
            self.expression.text,
            SYSTEM,
            read.margin,
            pool,
            verdict="success" if read.success else "failure",
            margin=read.margin,
            events=list(said.events),
            result=said.verdict,
            steps=[*skill.steps, *said.lines],
            details=Fudge3d6Details(reading.skill, reading.kept_sum, read.name),
            title=title,
        )

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        expression = self.expression
        reading, pool = self._roll_side(self.left, roller)
        left = self._side_roll(self.left.written, self.left, reading, pool)
        if self.right is None:
            left.title = None
            left.seed = seed
            left.label = expression.label
            return left
        roller.between_sides()
        other, other_pool = self._roll_side(self.right, roller)
        right = self._side_roll(f"opp {self.right.written}", self.right, other, other_pool)
        contest = resolve_round(reading.read, other.read)
        verdict, events = self.outcomes.resolve(contest.margin)
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
            verdict=verdict,
            margin=contest.margin,
            events=events,
            result=result,
            # The left side's critical is in its read line: a line of its own
            # would print below the other side's dice.
            steps=[*self.left.steps, *_read_lines(reading)],
            sides=[left, right],
            details=RoundDetails(contest.scratch_only),
        )

    def read(self, faces: Sequence[str]) -> Roll:
        # Count first: "needs 6 dice, 3 a side" says more than "not enough dice".
        needed = 3 if self.right is None else 6
        # 'opp' may separate the sides' dice; it is no die
        dice = [face for face in faces if face.strip().lower() != "opp"]
        if len(dice) != needed:
            each = "" if self.right is None else ", 3 for each side"
            raise DiceValueError(
                f"'{self.expression.text}' is read from {needed} d6{each}; {len(dice)} given"
            )
        return super().read(faces)

    # measuring: the same read over all 216 rolls of each side

    def _round_counts(self) -> tuple[dict[int, int], dict[RoundVerdict, int]]:
        assert self.right is not None
        return read_round_counts(pair_counts(self.left.value), pair_counts(self.right.value))

    def dist(self) -> Dist:
        if self.right is not None:
            return Dist.from_weights(self._round_counts()[0])
        return _margin_dist(read_ways(self.left.value))

    def float_ready(self) -> bool:
        return False

    def float_odds(self) -> FloatOdds:
        raise DiceValueError(
            "float odds are for sums of many dice; a 3d6 Fudge roll has 216 ways "
            "(or 216**2 opposed): its exact odds are immediate (ask without exact=False "
            "or --float)"
        )

    def declare(self) -> Outcomes:
        return SIDE_OUTCOMES if self.right is None else ROUND_OUTCOMES

    def fact_chances(self) -> dict[str, Fraction]:
        """Each critical's chance: the rolls of 216 whose triple shows it."""
        ways = dict.fromkeys(CRITICALS, 0)
        for read, count in read_ways(self.left.value).items():
            if read.critical is not None:
                ways[read.critical] += count
        return {name: Fraction(count, len(ALL_ROLLS)) for name, count in ways.items()}

    def odds(self) -> Odds:
        measured = Odds(self.expression.text, SYSTEM, self.dist())
        events = self.declared_chances(measured)[0]  # 216 ways a side: exact
        if self.right is not None:
            return Odds(
                measured.notation,
                SYSTEM,
                measured.dist,
                events,
                value_name=_round_name,
                value_title="round margin",
            ).checked(Check(0, 1, "a stand-off"))
        return Odds(
            measured.notation,
            SYSTEM,
            measured.dist,
            events,
            value_name=_margin_name,
            value_title="margin",
        ).checked(Check(0, 0, "the skill"))

    def sample(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        return self.sample_facts(n, rng)[0]

    def sample_facts(
        self, n: int, rng: np.random.Generator
    ) -> tuple[npt.NDArray[np.int64], dict[str, npt.NDArray[np.bool_]]]:
        from .sampling import sample_3d6  # NumPy, when asked for

        right = None if self.right is None else self.right.value
        return sample_3d6(self.left.value, right, n, rng)


def fudge3d6_program(expression: Expression, vocabulary: Vocabulary) -> Program:
    return Fudge3d6Program(expression, vocabulary)


def _margin_dist(counts: dict[Read, int]) -> Dist:
    """The margins of one side's reads, from how many rolls give each."""
    weights: dict[int, int] = {}
    for read, ways in counts.items():
        weights[read.margin] = weights.get(read.margin, 0) + ways
    return Dist.from_weights(weights)


def _margin_name(margin: int) -> str:
    return "success" if margin >= 0 else "failure"


def _round_name(margin: int) -> str:
    return "win" if margin > 0 else "loss" if margin < 0 else "stand-off"
