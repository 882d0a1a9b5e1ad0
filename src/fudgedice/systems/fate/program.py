"""The Fate program: a ``fate:`` (or ``fatecondensed:``) roll checked into a
:class:`~.checking.FatePlan`, rolled or read by hand through :mod:`.rolling`,
and measured exactly by :mod:`.measure`.

A roll alone names its result on the ladder; ``vs`` sets a passive
opposition, ``opp`` an active one (both sides roll), and either gives the
shifts and one of the four outcomes. Which ladder named the numbers is part
of every result: ``Good`` is +3 here and +1 in Fudge.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ... import budget
from ...dice.hand import HandRoller
from ...dice.outcomes import NO_OUTCOMES, Band, Fact, Outcomes
from ...dice.program import Program
from ...dice.roller import Roller
from ...dice.words import LadderWords
from ...errors import DiceValueError
from ...exact.dist import Dist
from ...exact.odds import Odds
from ...exact.views import Check
from ...language.tree import Expression, Opposed, Pool
from ...language.words import Vocabulary
from ...render.ladder import Ladder
from ...results.dice import Part
from ...results.roll import Roll
from .checking import FatePlan, check_fate
from .ladders import FATE_CONDENSED, FATE_CORE, LADDER_TITLES, STYLE, outcome, shifts_text
from .measure import REROLL, REROLL_EVENT, opposed_dist, reroll_chance, side_dist
from .rolling import reroll_side, roll_side

if TYPE_CHECKING:  # NumPy is imported when a sample is asked for; float odds by floats.py
    import numpy as np
    import numpy.typing as npt

    from ...results.float_odds import FloatOdds


@dataclass(slots=True)
class FateDetails:
    """The figures behind a Fate result."""

    ladder: str
    """The ladder that named the numbers: ``Fate Core`` or ``Fate Condensed``."""
    result: int | None
    """The side's result; None for an opposed roll (each side has its own)."""
    opposition: int | None = None
    shifts: int | None = None
    outcome: str | None = None
    rerolls: int = 0
    """Reroll invokes spent."""
    policy: str | None = None
    """The reroll invoke's policy, in words (None: no reroll invoke)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class FateProgram(Program):
    """A checked Fate roll."""

    plan: FatePlan

    def __init__(self, expression: Expression, vocabulary: Vocabulary, ladder: Ladder) -> None:
        self.ladder = ladder
        self.title = LADDER_TITLES[ladder.system]
        super().__init__(expression, vocabulary)
        self.word_value = LadderWords(ladder, expression, LADDER_TITLES[ladder.system])

    def _check(self) -> None:
        self.plan = check_fate(self.expression, self.ladder)

    def tossed_pools(self) -> list[Pool]:
        """Each side's 4dF (written or not); a reroll invoke's few more are
        tossed as the dice fall."""
        sides = (self.plan.left, self.plan.right)
        return [side.pool for side in sides if side is not None]

    # --------------------------------------------------------------- rolling

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        plan = self.plan
        expression = self.expression
        steps: list[str] = []
        left_roller, right_roller = roller, roller
        apart = False
        if isinstance(roller, HandRoller) and plan.right is not None and plan.left.policy.times:
            apart = True
            left_roller, right_roller = self._split_hand(roller)
        part = roll_side(plan.left, left_roller, self.word_value)
        right: Roll | None = None
        against = plan.opposition
        if plan.right is not None:
            if not apart:
                roller.between_sides()
            right_part = roll_side(plan.right, right_roller, self.word_value)
            right = self._side_roll(_side_texts(expression)[1], right_part)
            against = right_part.total
        if against is not None:
            # rolled after the other side, whose result the policy looks at
            part = reroll_side(part, plan.left, against, left_roller, steps)
        spent = len(steps)
        self._no_faces_left(left_roller, part, against)
        if apart:
            assert isinstance(right_roller, HandRoller)
            right_roller.finish()
        details = FateDetails(self.title, part.total)
        if plan.left.policy.times:
            details.policy, details.rerolls = plan.left.policy.describe(), spent
            steps.insert(0, f"policy: {details.policy}")
            if not spent:
                assert against is not None
                shifts = part.total - against
                steps.append(f"reroll invoke not spent: {shifts_text(shifts)} ({outcome(shifts)})")
        rolled = Roll(
            expression.text,
            expression.system,
            part.total,
            part,
            seed=seed,
            label=expression.label,
            result=f"{self.ladder.describe(part.total)} ({self.title})",
            steps=steps,
            details=details,
            quick_read=True,
        )
        if against is None:
            return rolled
        shifts = part.total - against
        said = outcome(shifts)
        details.opposition, details.shifts, details.outcome = against, shifts, said
        # the opposed roll's total is its shifts; the declaration reads that total
        total = part.total if right is None else shifts
        verdict, events = self.outcomes.resolve(total, [REROLL] if spent else [])
        rolled.verdict, rolled.margin, rolled.events = verdict, shifts, events
        if right is None:
            rolled.result = (
                f"{self.ladder.describe(part.total)} vs {self.ladder.describe(against)} "
                f"({self.title}): {said}, {shifts_text(shifts)}"
            )
            return rolled
        left_text = _side_texts(expression)[0]
        steps.insert(0, f"{left_text}: result {self.ladder.describe(part.total)}")
        rolled.total, rolled.sides = shifts, [self._side_roll(left_text, part), right]
        rolled.result = f"{shifts_text(shifts)}: {said} ({self.title})"
        details.result = None
        return rolled

    def _side_roll(self, title: str, part: Part) -> Roll:
        """One side of an opposed roll, as a roll of its own: its result names
        no ladder, which the whole roll's result names once."""
        return Roll(
            title,
            self.expression.system,
            part.total,
            part,
            result=self.ladder.describe(part.total),
            details=FateDetails(self.title, part.total),
            title=title,
            quick_read=True,
        )

    def _split_hand(self, roller: HandRoller) -> tuple[HandRoller, HandRoller]:
        """Dice read by hand for an opposed roll whose left side may reroll:
        each side's dice together, the left side's rerolls after its first
        four, then the right side's four (after the word ``opp``, or the last
        four given)."""
        faces = roller.take_rest()
        marks = [index for index, face in enumerate(faces) if face.strip().lower() == "opp"]
        if len(marks) > 1:
            raise DiceValueError("'opp' separates the two sides of an opposed roll only once")
        cut = marks[0] if marks else max(0, len(faces) - self.plan.left.pool.count)
        rest = faces[cut + 1 :] if marks else faces[cut:]
        return HandRoller(faces[:cut]), HandRoller(rest)

    def _no_faces_left(self, roller: Roller, part: Part, against: int | None) -> None:
        """Dice read by hand beyond those the policy rerolled: say why they
        were not needed (the generic check would only count them)."""
        if not isinstance(roller, HandRoller) or roller.used >= len(roller.faces):
            return
        if not self.plan.left.policy.times or against is None:
            return
        shifts = part.total - against
        rest = " ".join(roller.faces[roller.used :])
        raise DiceValueError(
            f"too many dice: the roll comes to {shifts_text(shifts)} ({outcome(shifts)}), "
            f"so no further reroll invoke is spent (left over: {rest})",
            hint=f"the policy: {self.plan.left.policy.describe()}",
        )

    # ------------------------------------------------------------- measuring

    def dist(self) -> Dist:
        plan = self.plan
        if plan.right is not None:
            return opposed_dist(plan.left, plan.right)
        return side_dist(plan.left, plan.opposition)

    def sample(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        return self.sample_facts(n, rng)[0]

    def sample_facts(
        self, n: int, rng: np.random.Generator
    ) -> tuple[npt.NDArray[np.int64], dict[str, npt.NDArray[np.bool_]]]:
        from ...dice.sampling import DRAW_WORK  # NumPy, when asked for
        from .sampling import sample_fate

        # a few integer draws a roll; the budget as for any toss of dice
        budget.charge(n * 3 * DRAW_WORK, f"sampling {n:,} rolls of {self.expression.text}")
        return sample_fate(self.plan, n, rng)

    def declare(self) -> Outcomes:
        """Shifts (result less opposition) below 0 fail, 0 tie, 1 or 2
        succeed, 3 or more succeed with style; a success is either of the two
        (the verdict every system's checks share). A spent reroll invoke is told."""
        plan = self.plan
        if plan.right is None and plan.opposition is None:
            return NO_OUTCOMES
        against = 0 if plan.right is not None else plan.opposition
        assert against is not None
        bands = (
            Band("fail", None, against - 1),
            Band("tie", against, against, verdict=True),
            Band("succeed", against + 1, against + STYLE - 1),
            Band("succeed with style", against + STYLE, None),
            Band("success", against + 1, None, verdict=True),
            Band("failure", None, against - 1, verdict=True),
        )
        # a roll tells its reroll invokes in its details and steps, not its events
        facts = (Fact(REROLL, (REROLL_EVENT,), told=False),) if plan.left.policy.times else ()
        return Outcomes(bands, facts)

    def fact_chances(self) -> dict[str, Fraction]:
        plan = self.plan
        return {REROLL: reroll_chance(plan.left, plan.opposition, plan.right)}

    def float_ready(self) -> bool:
        return False

    def float_odds(self) -> FloatOdds:
        raise DiceValueError(
            "float odds are for sums of many dice; a Fate roll is 4dF a side: its exact "
            "odds are immediate (ask without exact=False or --float)"
        )

    def odds(self) -> Odds:
        plan = self.plan
        exact = self.dist()
        text, system = self.expression.text, self.expression.system
        title = f"result ({self.title})"
        if plan.right is None and plan.opposition is None:
            return Odds(text, system, exact, value_name=self.ladder.name, value_title=title)
        against = 0 if plan.right is not None else plan.opposition
        assert against is not None
        events = self.declared_chances(Odds(text, system, exact))[0]  # 4dF a side: exact
        policy = ""
        if plan.left.policy.times:
            policy = f"; {plan.left.policy.short()}"  # the odds say which policy they follow
            title = f"result ({self.title}{policy})"
        naming: Callable[[int], str] = outcome
        if plan.right is not None:
            title = f"shifts ({self.title}{policy})"
        else:
            name = self.ladder.name
            naming = lambda value: f"{name(value)}: {outcome(value - against)}"  # noqa: E731
        # meeting the opposition is a tie: success starts one shift above it
        label = "a tie" if plan.right is not None else f"opposition {self.ladder.describe(against)}"
        measured = Odds(text, system, exact, events, value_name=naming, value_title=title)
        return measured.checked(Check(against, against + 1, label))


_OPP = re.compile(r"\bopp\b", re.IGNORECASE)


def _side_texts(expression: Expression) -> tuple[str, str]:
    """The two sides of an opposed roll as they were written, options left out."""
    text = expression.text.split("#", 1)[0]
    start = text.find(":") + 1
    found = _OPP.search(text, start)
    if found is None or not isinstance(expression.check, Opposed):
        return "the left side", "the right side"
    left_end = min((option.position for option in expression.side.options), default=found.start())
    right_options = expression.check.other.options
    right_end = min((option.position for option in right_options), default=len(text))
    left, right = text[start:left_end].strip(), text[found.end() : right_end].strip()
    if left == right or not left or not right:
        return f"the left side ({left or '4dF'})", f"the right side ({right or '4dF'})"
    return left, right


def fate_program(expression: Expression, vocabulary: Vocabulary) -> Program:
    return FateProgram(expression, vocabulary, FATE_CORE)


def fate_condensed_program(expression: Expression, vocabulary: Vocabulary) -> Program:
    return FateProgram(expression, vocabulary, FATE_CONDENSED)
