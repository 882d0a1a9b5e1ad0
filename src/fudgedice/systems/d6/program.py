"""The D6 System program: a ``d6:`` roll checked into :class:`.rules.SideRules`,
then rolled (or read by hand) by :mod:`.rolling`, measured by :mod:`.measure`
and sampled by :mod:`.sample`."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np

from ...dice.hand import HandRoller
from ...dice.program import Program
from ...dice.roller import Roller
from ...errors import DiceValueError
from ...exact.dist import Dist
from ...exact.odds import Odds
from ...language.tree import BinOp, Expression, Group, Number, Opposed, Versus
from ...language.words import Vocabulary
from ...results.dice import GroupRoll, OpRoll
from ...results.roll import Roll, Verdict
from .margin import opposed_dist
from .measure import CRITICAL_CHANCE, depth_for, side_dist
from .rolling import SideRoll, _Faces, roll_side
from .rules import SideRules, _side_rules, difficulty_of
from .sample import Array, sample_sides

SYSTEM = "d6"


class D6Program(Program):
    """A checked ``d6:`` roll: rolled, read, measured and sampled from its rules."""

    toss_work = 25.0
    """The Wild Die and every Character Point die explode: more passes a toss
    (10D with five Character Points, two million times: 0.77 s)."""

    left: SideRules
    right: SideRules | None
    difficulty: int | None

    def _check(self) -> None:
        expression = self.expression
        self.left = _side_rules(expression, expression.side, None)
        self.right = None
        self.difficulty = None
        check = expression.check
        if isinstance(check, Opposed):
            # The crit rule is the GM's: stated on the left, it holds for both sides.
            self.right = _side_rules(expression, check.other, self.left.crit)
        elif isinstance(check, Versus):
            self.difficulty = difficulty_of(expression, check.target)

    # rolling ----------------------------------------------------------------------------

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        expression = self.expression
        left_tokens: list[str] | None = None
        right_tokens: list[str] | None = None
        if roller.by_hand:
            assert isinstance(roller, HandRoller)
            left_tokens, right_tokens = self._split_hand(roller.take_rest())
        left = roll_side(self.left, _Faces(roller, left_tokens))
        if self.right is None:
            return self._single(left, seed)
        right = roll_side(self.right, _Faces(roller, right_tokens), "opp ")
        margin = left.total - right.total
        node = BinOp("-", Group(Number(left.total)), Group(Number(right.total)))
        parts = OpRoll(
            node, GroupRoll(left.part, left.total), GroupRoll(right.part, right.total), margin
        )
        if margin > 0:
            result = f"initiator wins by {margin}"
        elif margin == 0:
            result = "tie: the initiator wins"
        else:
            result = f"opponent wins by {-margin}"
        verdict: Verdict = "success" if margin >= 0 else "failure"
        happened = left.events + [f"opponent {event}" for event in right.events]
        return Roll(
            expression.text,
            SYSTEM,
            margin,
            parts,
            seed=seed,
            label=expression.label,
            verdict=verdict,
            margin=margin,
            events=[verdict, *happened],
            result=result,
            steps=left.steps + [f"opp: {step}" for step in right.steps] + happened,
            sides=[self._side(left, self.left), self._side(right, self.right)],
        )

    def _single(self, side: SideRoll, seed: int | str | None) -> Roll:
        expression = self.expression
        roll = Roll(
            expression.text,
            SYSTEM,
            side.total,
            side.part,
            seed=seed,
            label=expression.label,
            events=list(side.events),
            steps=side.steps + side.events,
            details=side.details,
        )
        if self.difficulty is not None:
            margin = side.total - self.difficulty
            verdict: Verdict = "success" if margin >= 0 else "failure"
            roll.verdict, roll.margin = verdict, margin
            roll.events.insert(0, verdict)
            roll.result = f"{verdict} vs {self.difficulty} ({margin:+d})"
            roll.details = replace(side.details, difficulty=self.difficulty)
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

    def _split_hand(self, tokens: list[str]) -> tuple[list[str], list[str] | None]:
        """Dice read by hand: the opposing side's faces follow the word ``opp``."""
        marks = [i for i, token in enumerate(tokens) if token.strip().lower() == "opp"]
        if self.right is None:
            if marks:
                raise DiceValueError("'opp' separates the two sides of an opposed roll only")
            return tokens, None
        if len(marks) != 1:
            raise DiceValueError(
                "an opposed roll read by hand gives the initiator's dice, then 'opp', "
                "then the opponent's",
                hint="fudgedice read 'd6: 3D opp 2D' 4 2 w5 opp 3 w6 w1",
            )
        return tokens[: marks[0]], tokens[marks[0] + 1 :]

    # measuring --------------------------------------------------------------------------

    def dist(self) -> Dist:
        """The distribution of the total (of the margin, for ``opp``)."""
        left = self.left.shape()
        if self.right is None:
            # Every exploding die of the roll shares the engine's 1e-12 budget.
            return side_dist(left, depth_for(left.exploding)).combined()
        right = self.right.shape()
        return opposed_dist(left, right)

    def odds(self) -> Odds:
        combined = self.dist()
        text = self.expression.text
        events: dict[str, Fraction] = {}
        uncertain: dict[str, Fraction] = {}
        threshold = 0 if self.right is not None else self.difficulty
        if threshold is not None:
            # exact when no tail straddles the threshold; else what surely counts
            plain_odds = Odds(text, SYSTEM, combined)
            success = plain_odds.chance_between(threshold, None)
            failure = plain_odds.chance_between(None, threshold - 1)
            events["success"], uncertain["success"] = success
            events["failure"], uncertain["failure"] = failure
        # A critical failure hangs on a Wild Die's first toss alone.
        sides = [("", self.left)] + ([("opponent ", self.right)] if self.right else [])
        for prefix, rules in sides:
            shape = rules.shape()
            if shape.wild and shape.crit != "ignore":
                events[f"{prefix}critical failure"] = CRITICAL_CHANCE
                if shape.crit == "complication":
                    events[f"{prefix}complication"] = CRITICAL_CHANCE
        title = "margin" if self.right is not None else "total"
        return Odds(text, SYSTEM, combined, events, value_title=title, uncertain=uncertain)

    # sampling ---------------------------------------------------------------------------

    def sample(self, n: int, rng: np.random.Generator) -> Array:
        self.check_tosses(n)
        right = None if self.right is None else self.right.shape()
        return sample_sides(self.left.shape(), right, n, rng)


def d6_program(expression: Expression, vocabulary: Vocabulary) -> Program:
    return D6Program(expression, vocabulary)
