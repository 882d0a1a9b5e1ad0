"""The D6 System program: a ``d6:`` roll checked into :class:`.rules.SideRules`,
then rolled (or read by hand) by :mod:`.rolling`, measured by :mod:`.measure`
and sampled by :mod:`.sampling`.

Four shapes of roll: a code alone, a check (``vs``: success, result points
and their degree), an opposed roll (``opp``: the margin, ties by the
``ties`` setting) and damage against resistance (``dmg``: the margin and the
wound it deals). Opposed and damage rolls are both a margin of two sides.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from ...dice.hand import HandRoller
from ...dice.outcomes import Band, Fact, Outcomes
from ...dice.program import Program
from ...dice.roller import Roller
from ...dice.schedule import Schedule, Toss
from ...errors import DiceValueError
from ...exact.dist import Dist
from ...exact.odds import Odds
from ...exact.views import Check
from ...language.tree import (
    D6,
    BinOp,
    Damage,
    Expression,
    Group,
    Number,
    Opposed,
    Pool,
    Versus,
)
from ...language.words import Vocabulary
from ...results.dice import GroupRoll, OpRoll
from ...results.roll import Roll
from .faces import TossSources, split_hand
from .margin import opposed_dist
from .measure import CRITICAL_CHANCE, EXPLODES, SIDES, depth_for, side_dist
from .options import Ties
from .outcomes import (
    CRITICAL,
    DEGREES,
    NO_WOUND,
    WOUNDS,
    critical_events,
    degree,
    event,
    ranges,
    result_points_text,
    wound,
)
from .parts import Role, bonus_bands, bonus_text, check_bonus, result_point_bonus
from .rolling import SideRoll, roll_side
from .rules import Inherited, SideRules, difficulty_of, side_rules

if TYPE_CHECKING:  # NumPy is imported when a sample is asked for; float odds by floats.py
    import numpy as np

    from ...dice.sampling import Array, Flags
    from ...results.float_odds import FloatOdds

SYSTEM = "d6"


class D6Program(Program):
    """A checked ``d6:`` roll: rolled, read, measured and sampled from its rules."""

    toss_work = 25.0
    """The Wild Die and every Character Point die explode: more passes a toss
    (10D with five Character Points, two million times: 0.77 s)."""

    left: SideRules
    right: SideRules | None
    difficulty: int | None
    damage: bool
    """``dmg``: the left side is damage, the right side resistance."""
    ties: Ties
    shows_bonus: bool
    """``rpb``: a success shows its result point bonus (an event of each bonus)."""

    def _check(self) -> None:
        expression = self.expression
        check = expression.check
        self.damage = isinstance(check, Damage)
        self.left, left = side_rules(
            expression, expression.side, Inherited(), "damage" if self.damage else "skill"
        )
        self.right = None
        self.difficulty = None
        asked = [(left.ties, left.seen.get("ties"))]
        right = None
        if isinstance(check, Opposed | Damage):
            # The GM's rules, stated on the left, hold for both sides.
            inherited = Inherited(self.left.crit, left.cp_cap, left.cp_cap_given)
            role: Role = "resistance" if self.damage else "skill"
            self.right, right = side_rules(expression, check.other, inherited, role)
            asked.append((right.ties, right.seen.get("ties")))
        elif isinstance(check, Versus):
            self.difficulty = difficulty_of(expression, check.target)
        given = [(ties, option) for ties, option in asked if ties is not None]
        if given and not isinstance(check, Opposed):
            raise DiceValueError(
                "ties=... settles who wins a tied opposed roll, and this roll has no 'opp'",
                text=expression.text,
                position=given[0][1].position if given[0][1] else None,
                hint="a check succeeds on a tie (total >= difficulty); damage that ties the "
                "resistance deals no wound",
            )
        if len({ties for ties, _ in given}) > 1:
            raise DiceValueError(
                "the two sides state different ties=... rules: it is one rule for the roll",
                text=expression.text,
                position=given[1][1].position if given[1][1] else None,
            )
        self.ties = given[0][0] if given else "initiator"
        kind = {Versus: "vs", Opposed: "opp", Damage: "dmg"}.get(type(check), "code")
        check_bonus(expression, left, right, kind)
        self.shows_bonus = left.shows_bonus

    @property
    def _others(self) -> str:
        """How the right side's events and steps are named."""
        return "resistance" if self.damage else "opponent"

    # rolling ----------------------------------------------------------------------------

    def schedule(self) -> Schedule:
        """Each side's plain dice, then its Wild Die and each Character Point
        die, each a chain that rolls again on a 6 (the left side first).

        The plain dice count by their sum alone, shown in their own line,
        unless a critical failure cancels the highest of them: outcomes are
        then kept by that sum (tests/test_quick_rolls.py holds this to
        the general path)."""
        tosses: list[Toss] = []
        for rules, prefix in ((self.left, ""), (self.right, self._prefix)):
            if rules is None:
                continue
            shape = rules.shape()
            six = len(D6.tossed)
            line = f"{prefix}{shape.plain}D" if shape.crit != "cancel" else None
            tosses.append((six, D6.tossed, shape.plain, None, line))
            chains = int(rules.wild) + rules.character_points
            tosses.append((six, D6.tossed, chains, SIDES, None))
        return tuple(tosses)

    def tossed_pools(self) -> list[Pool]:
        """Each side's plain dice, and its Wild Die and Character Point dice,
        each a die exploding on 6 (:meth:`schedule`'s tosses)."""
        pools = []
        for _, _, count, again, _ in self.schedule():
            explode = None if again is None else EXPLODES
            pools.append(Pool(count, D6, f"{count}D", explode=explode))
        return pools

    @property
    def _prefix(self) -> str:
        """How the right side's pools are named: ``opp 3D``, ``resist 3D``."""
        return "resist " if self.damage else "opp "

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        expression = self.expression
        left_tokens: list[str] | None = None
        right_tokens: list[str] | None = None
        if roller.by_hand:
            assert isinstance(roller, HandRoller)
            left_tokens, right_tokens = split_hand(
                roller.take_rest(), self.right is not None, self.damage
            )
        left = roll_side(self.left, TossSources(roller, left_tokens))
        if self.right is None:
            return self._single(left, seed)
        prefix = self._prefix
        right = roll_side(self.right, TossSources(roller, right_tokens), prefix)
        margin = left.total - right.total
        node = BinOp("-", Group(Number(left.total)), Group(Number(right.total)))
        parts = OpRoll(
            node, GroupRoll(left.part, left.total), GroupRoll(right.part, right.total), margin
        )
        others = self._others
        happened = left.events + [f"{others} {event}" for event in right.events]
        facts = self._facts(left) + [f"{others} {fact}" for fact in self._facts(right)]
        verdict, events = self.outcomes.resolve(margin, facts)
        details = None
        if self.damage:
            level = wound(margin)
            result = f"{level}: damage {left.total} against resistance {right.total} ({margin:+d})"
            details = replace(left.details, wound=level)
            effect = next(tier.effect for tier in (NO_WOUND, *WOUNDS) if tier.name == level)
            left.steps.append(f"{level}: {effect}")
        else:
            result = self._opposed(margin, verdict == "success")
            if self.shows_bonus and verdict == "success":
                result += f", {bonus_text(margin)}"
                bonus = result_point_bonus(margin)
                details = replace(left.details, result_point_bonus=bonus)
        return Roll(
            expression.text,
            SYSTEM,
            margin,
            parts,
            seed=seed,
            label=expression.label,
            verdict=verdict,
            margin=margin,
            events=events,
            result=result,
            steps=left.steps + [f"{prefix.strip()}: {step}" for step in right.steps] + happened,
            sides=[self._side(left, self.left), self._side(right, self.right)],
            details=details,
        )

    @staticmethod
    def _opposed(margin: int, won: bool) -> str:
        """The result of an opposed margin in words: the winner's result
        points and degree (who won, and so how a tie went, is declared)."""
        if margin == 0:
            said = "tie: the initiator wins" if won else "tie: the opponent wins (ties=meet)"
        else:
            said = f"{'initiator' if won else 'opponent'} wins by {abs(margin)}"
        return f"{said}, {result_points_text(abs(margin))}"

    @staticmethod
    def _facts(side: SideRoll) -> list[str]:
        """What a side shows beyond its total: a critical failure flagged."""
        return [CRITICAL] if side.details.critical_failure else []

    def _single(self, side: SideRoll, seed: int | str | None) -> Roll:
        expression = self.expression
        roll = Roll(
            expression.text,
            SYSTEM,
            side.total,
            side.part,
            seed=seed,
            label=expression.label,
            steps=side.steps + side.events,
            details=side.details,
        )
        verdict, roll.events = self.outcomes.resolve(side.total, self._facts(side))
        if self.difficulty is not None:
            margin = side.total - self.difficulty
            roll.verdict, roll.margin = verdict, margin
            roll.result = f"{verdict} vs {self.difficulty} ({margin:+d})"
            roll.details = replace(side.details, difficulty=self.difficulty)
            if margin >= 0:
                roll.result += f": {result_points_text(margin)}"
                roll.details = replace(roll.details, result_points=margin, degree=degree(margin))
                if self.shows_bonus:
                    roll.result += f", {bonus_text(margin)}"
                    bonus = result_point_bonus(margin)
                    roll.details = replace(roll.details, result_point_bonus=bonus)
        return roll

    def _side(self, side: SideRoll, rules: SideRules) -> Roll:
        """One side of an opposed roll, as a roll of its own."""
        return Roll(
            str(rules.code),
            SYSTEM,
            side.total,
            side.part,
            events=list(side.events),
            steps=list(side.steps),
            details=side.details,
            title=str(rules.code),
        )

    # measuring --------------------------------------------------------------------------

    def dist(self) -> Dist:
        """The distribution of the total (of the margin, for ``opp`` and ``dmg``)."""
        left = self.left.shape()
        if self.right is None:
            # Every exploding die of the roll shares the engine's 1e-12 budget.
            return side_dist(left, depth_for(left.exploding)).combined()
        right = self.right.shape()
        return opposed_dist(left, right)

    def odds(self) -> Odds:
        combined = self.dist()
        text = self.expression.text
        # exact when no tail straddles a band; else what surely counts, and how much more may
        measured = Odds(text, SYSTEM, combined)
        events, uncertain = self.declared_chances(measured)
        title = "total"
        if self.right is not None:
            title = "damage - resistance" if self.damage else "margin"
        return Odds(
            text,
            SYSTEM,
            combined,
            events,
            value_title=title,
            uncertain=uncertain,
            value_name=wound if self.damage else None,
        ).checked(self._check_line())

    def _check_line(self) -> Check | None:
        """Where a chart of these odds draws the difficulty, if any."""
        if self.damage:
            return None
        if self.difficulty is not None:
            return Check(self.difficulty, self.difficulty, f"difficulty {self.difficulty}")
        if self.right is not None:
            return Check(0, int(self.ties == "meet"), "a margin of 0")
        return None

    def float_ready(self) -> bool:
        return self.right is None

    def float_odds(self) -> FloatOdds:
        from ...dice.floats import NOT_A_SUM  # NumPy, when asked for
        from .floats import d6_float_odds

        if self.right is not None:
            raise DiceValueError(
                f"{NOT_A_SUM}; D6 System float odds are of one side, with or without 'vs' "
                "(not 'opp' or 'dmg')"
            )
        return d6_float_odds(self.expression.text, self.left.shape(), self.difficulty)

    # sampling ---------------------------------------------------------------------------

    def sample(self, n: int, rng: np.random.Generator) -> Array:
        return self.sample_facts(n, rng)[0]

    def declare(self) -> Outcomes:
        """A check succeeds at the difficulty, an opposed roll above a margin of
        0 (at 0 too, when ties go to the initiator), each success with its
        degree by result points; damage deals the wound of its margin; a Wild
        Die's first 1 is a critical failure, on either side."""
        bands: list[Band] = []
        if self.damage:
            bands.append(Band(event(NO_WOUND.name), None, WOUNDS[0].lowest - 1))
            bands += [Band(event(tier.name), low, high) for tier, low, high in ranges(WOUNDS)]
        elif self.right is not None or self.difficulty is not None:
            threshold = self.difficulty if self.difficulty is not None else 0
            # ties=meet: a margin of 0 is the opponent's, so no Minimal win
            floor = threshold + int(self.right is not None and self.ties == "meet")
            bands += [Band("success", floor, None, True), Band("failure", None, floor - 1, True)]
            for tier, lowest, highest in ranges(DEGREES):
                top = None if highest is None else threshold + highest
                bands.append(Band(event(tier.name), max(floor, threshold + lowest), top))
            if self.shows_bonus:
                bands += [
                    Band(name, max(floor, low), high) for name, low, high in bonus_bands(threshold)
                ]
        facts: list[Fact] = []
        sides = [("", self.left)] + ([(f"{self._others} ", self.right)] if self.right else [])
        for prefix, rules in sides:
            shape = rules.shape()
            if shape.wild and shape.crit != "ignore":
                named = tuple(prefix + name for name in critical_events(shape.crit))
                facts.append(Fact(prefix + CRITICAL, named))
        return Outcomes(tuple(bands), tuple(facts))

    def fact_chances(self) -> dict[str, Fraction]:
        # A critical failure hangs on a Wild Die's first toss alone.
        return {fact.name: CRITICAL_CHANCE for fact in self.outcomes.facts}

    def sample_facts(self, n: int, rng: np.random.Generator) -> tuple[Array, dict[str, Flags]]:
        from .sampling import sample_sides  # NumPy, when asked for

        self.check_tosses(n)
        right = None if self.right is None else self.right.shape()
        totals, critical, other = sample_sides(self.left.shape(), right, n, rng)
        facts = {CRITICAL: critical}
        if other is not None:
            facts[f"{self._others} {CRITICAL}"] = other
        return totals, facts


def d6_program(expression: Expression, vocabulary: Vocabulary) -> Program:
    return D6Program(expression, vocabulary)
