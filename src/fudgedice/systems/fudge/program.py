"""Fudge and Power Fudge: ladders, checks, the dice techniques, advantage.

``fudge:`` is the default system. A roll that uses nothing of Fudge (no Fudge
dice, ladder word, check or option) compiles to a plain
:class:`~fudgedice.dice.program.Program`, so ``3d6`` behaves as without a system. Everything else
compiles to a :class:`FudgeProgram`, which walks the same parse tree to roll,
to read dice by hand and to measure, so the three can never disagree.

What a Fudge roll adds to the generic language:

* ladder words as levels (``Good`` is +1), read on the system's ladder;
* a trait with no dice rolls the default dice (``Good`` is ``4dF+1``);
* ``vs``: an unopposed action (or, in Power Fudge, a target number);
* ``opp``: an opposed action, read as the relative degree from the left;
* ``@d6``, ``@3d6``, ``@d%``, ``@4d6``: Fudge results from ordinary dice;
* ``adv``, ``adv2``, ``dis``, ``dis2``, ``take0`` (Power Fudge);
* ``coin``: seed 003's even/odd situational roll.

The roll is checked into one plan per side by :mod:`.checking`, each side
rolled (or read by hand) by :mod:`.rolling` and measured by :mod:`.measure`;
this module turns the sides into a result, odds or samples.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ... import budget
from ...dice.outcomes import NO_OUTCOMES, Band, Outcomes
from ...dice.program import Program
from ...dice.schedule import Schedule
from ...dice.words import LadderWords
from ...errors import DiceValueError, LimitError
from ...exact import dist
from ...exact.dist import Dist
from ...language.tree import Expression, Pool
from ...language.tree import walk as walk_tree
from ...language.words import Vocabulary
from ...render.numbers import chance_note
from .checking import CheckedRoll, SidePlan, check_roll, is_generic, side_texts
from .details import FudgeDetails as FudgeDetails
from .ladders import FUDGE, POWER, Ladder
from .measure import side_dist
from .notes import Bounds, measured_notes, reach_notes, side_bounds
from .techniques import SEED_D100, D100Table, load_d100_table, technique_name
from .tossing import side_schedule, side_tossed

if TYPE_CHECKING:  # NumPy is imported when a sample is asked for; float odds by floats.py
    from pathlib import Path

    import numpy as np
    import numpy.typing as npt

    from ...dice.roller import Roller
    from ...exact.odds import Odds
    from ...results.dice import Part
    from ...results.float_odds import FloatOdds
    from ...results.roll import Roll


class FudgeProgram(Program):
    """A checked Fudge or Power Fudge roll."""

    def __init__(self, expression: Expression, ladder: Ladder) -> None:
        # Program.__init__ would install the generic word rule; this system
        # reads words on its ladder, so it sets itself up instead.
        self.expression = expression
        self.ladder = ladder
        self.d100: D100Table = SEED_D100
        self.word_value = LadderWords(ladder, expression)
        self.right: SidePlan | None = None
        self.difficulty: int | None = None
        self._described: dict[int, str] = {}  # the ladder's words by degree, as rolled
        self._check()

    def _check(self) -> None:
        checked = check_roll(self.expression, self.ladder, self.word_value)
        self.left = checked.left
        self.right = checked.right
        self.difficulty = checked.difficulty
        # a side with no pool read its own way is the generic walk (asked once)
        sides = (checked.left, checked.right)
        self._special = {id(side): side.reads_own_way() for side in sides if side is not None}

    def describe(self, degree: int) -> str:
        """The ladder's ``+3 Superb`` for ``degree`` (remembered per program)."""
        said = self._described.get(degree)
        if said is None:
            said = self.ladder.describe(degree)
            if len(self._described) < 256:
                self._described[degree] = said
        return said

    # --------------------------------------------------------------- rolling

    def schedule(self) -> Schedule | None:
        return side_schedule(self.left, self.right)

    def tossed_pools(self) -> list[Pool]:
        return [pool for side in (self.left, self.right) if side for pool in side_tossed(side)]

    def _roll_side(self, side: SidePlan, roller: Roller, steps: list[str]) -> Part:
        # here and below: the modules a roll is rolled with, which odds never load
        from ...dice.roller import roll_node
        from .rolling import roll_side

        if not self._special.get(id(side), True):
            return roll_node(side.expr, roller, self.word_value)
        return roll_side(side, roller, self.word_value, self.d100, steps)

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        steps: list[str] = []
        part = self._roll_side(self.left, roller, steps)
        if self.right is not None:
            return self._opposed(roller, part, seed, steps)
        degree = part.total
        system = self.ladder.system
        if self.difficulty is not None:
            difficulty = self.difficulty
            margin = degree - difficulty
            verdict, events = self.outcomes.resolve(degree)
            steps.extend(self._difficulty_notes(difficulty))
            said = f"{self.describe(degree)} vs {self.describe(difficulty)}: {verdict}"
            details = FudgeDetails(system, degree, difficulty)
            fields = {"verdict": verdict, "margin": margin, "events": events}
            return self._made(
                part, seed, steps, degree, f"{said}, margin {margin:+d}", details, **fields
            )
        if self.left.coin:
            side = self.outcomes.resolve(degree)[1][0]
            even = self._even_chance
            if even is not None:
                steps.append(f"even/odd coin: even comes up with chance {chance_note(even)}")
            details = FudgeDetails(system, degree, coin=side)
            return self._made(part, seed, steps, degree, side, details, events=[side])
        # a plain Fudge roll, the commonest of all
        details = FudgeDetails(system, degree)
        return self._made(part, seed, steps, degree, self.describe(degree), details)

    def _made(
        self,
        part: Part,
        seed: int | str | None,
        steps: list[str],
        total: int,
        result: str,
        details: FudgeDetails,
        **fields: Any,
    ) -> Roll:
        from ...results.roll import Roll

        expression = self.expression
        return Roll(
            expression.text,
            expression.system,
            total,
            part,
            seed=seed,
            label=expression.label,
            result=result,
            steps=steps,
            details=details,
            quick_read=True,
            **fields,
        )

    def _opposed(
        self, roller: Roller, part: Part, seed: int | str | None, steps: list[str]
    ) -> Roll:
        """The right side rolled against the left's ``part``: the relative degree."""
        from .rolling import side_roll

        assert self.right is not None
        expression, ladder = self.expression, self.ladder
        degree = part.total
        left_steps = list(steps)
        right_steps: list[str] = []
        roller.between_sides()
        right_part = self._roll_side(self.right, roller, right_steps)
        other = right_part.total
        relative = degree - other
        left_text, right_text = side_texts(expression)
        if relative > 0:
            said = f"{left_text} wins by {relative}"
        elif relative < 0:
            said = f"{right_text} wins by {-relative}"
        else:
            said = "a tie: status quo"
        steps.insert(0, f"{left_text}: rolled degree {ladder.describe(degree)}")
        verdict, events = self.outcomes.resolve(relative)
        sides = [
            side_roll(expression.system, ladder, left_text, degree, part, left_steps),
            side_roll(expression.system, ladder, right_text, other, right_part, right_steps),
        ]
        return self._made(
            part,
            seed,
            steps,
            relative,
            f"relative degree {relative:+d}: {said}",
            FudgeDetails(ladder.system, None),
            verdict=verdict,
            margin=relative,
            events=events,
            sides=sides,
        )

    @cached_property
    def _even_chance(self) -> Fraction | None:
        """The chance of even for these dice (41/81 on 4dF, seed 003), once per
        text; None past the odds' limits (the coin still rolls)."""
        try:
            with budget.capped(NOTE_WORK):
                return _chance(self.dist(), _COIN.bands[0].holds)  # the declared "even"
        except LimitError:
            return None

    def _difficulty_notes(self, difficulty: int) -> list[str]:
        notes: list[str] = []
        if self.ladder is FUDGE and difficulty < FUDGE.bands[0][0]:
            notes.append(
                f"difficulty {FUDGE.describe(difficulty)} is below Terrible: "
                "automatic for most characters, no roll needed"
            )
        bounds = self._bounds
        if bounds is not None:  # read from the pools: no odds measured
            return notes + reach_notes(bounds, difficulty, bool(notes))
        try:
            with budget.capped(NOTE_WORK):
                return notes + _odds_notes(self, difficulty, bool(notes))
        except LimitError:
            return notes  # the roll stands without them

    def measured_notes(self, difficulty: int, below_terrible: bool) -> list[str]:
        return measured_notes(self.left, self._side_dist, difficulty, below_terrible)

    @cached_property
    def _bounds(self) -> Bounds | None:
        """The left side's least and greatest result, read from its tree."""
        return side_bounds(self.left, self.word_value)

    # ------------------------------------------------------------- measuring

    def _side_dist(self, side: SidePlan) -> Dist:
        return side_dist(side, self.word_value, self.d100)

    def dist(self) -> Dist:
        degrees = self._side_dist(self.left)
        if self.right is None:
            return degrees
        return dist.add(degrees, dist.negate(self._side_dist(self.right)))

    def declare(self) -> Outcomes:
        """An opposed action's relative degree: above 0 a success, 0 a tie;
        a check succeeds at the difficulty or above; the coin reads parity."""
        if self.right is not None:
            return _OPPOSED
        if self.difficulty is not None:
            success = Band("success", self.difficulty, None, verdict=True)
            return Outcomes((success, Band("failure", None, self.difficulty - 1, verdict=True)))
        return _COIN if self.left.coin else NO_OUTCOMES

    def odds(self) -> Odds:
        from ...exact.odds import Odds  # here: a roll measures no odds
        from ...exact.views import Check

        expression = self.expression
        exact = self.dist()
        title = "rolled degree" if self.ladder is FUDGE else "result"
        naming = self.ladder.name
        events: dict[str, Fraction] = {}
        uncertain: dict[str, Fraction] = {}
        if self.outcomes.bands:
            # a chance is exact unless a tail of exploding dice straddles it
            measured = Odds(expression.text, expression.system, exact)
            events, uncertain = self.declared_chances(measured)
        if self.right is not None:
            title = "relative degree"
            naming = _relative_name
        check = None
        if self.right is not None:
            check = Check(0, 1, "a tie")
        elif self.difficulty is not None:
            difficulty = self.difficulty
            check = Check(difficulty, difficulty, f"difficulty {self.ladder.describe(difficulty)}")
        return Odds(
            expression.text,
            expression.system,
            exact,
            events,
            value_name=naming,
            value_title=title,
            uncertain=uncertain,
        ).checked(check)

    def float_ready(self) -> bool:
        from .floats import fudge_float_ready  # NumPy, when asked for

        return fudge_float_ready(CheckedRoll(self.left, self.right, self.difficulty))

    def float_odds(self) -> FloatOdds:
        from .floats import fudge_float_odds  # NumPy, when asked for

        checked = CheckedRoll(self.left, self.right, self.difficulty)
        text, system = self.expression.text, self.expression.system
        return fudge_float_odds(text, system, checked, self.ladder, self.word_value)

    def sample(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        from ...dice.sampling import sample_exactly, sample_node  # NumPy, when asked for

        exact = sample_exactly(self.dist, n, rng)
        if exact is not None:
            return exact
        sides = [self.left] if self.right is None else [self.left, self.right]
        for side in sides:
            if any(isinstance(p, Pool) and side.special(p) for p in walk_tree(side.expr)):
                raise LimitError(
                    "too many dice to sample with advantage or a technique; "
                    "measure the roll with odds instead"
                )
        self.check_tosses(n)
        totals = sample_node(self.left.expr, rng, n, self.word_value)
        if self.right is not None:
            totals = totals - sample_node(self.right.expr, rng, n, self.word_value)
        return totals

    # ------------------------------------------------------- custom d% table

    def with_d100_table(self, table: D100Table) -> FudgeProgram:
        """The same roll, reading ``@d%`` with a game master's table."""
        sides = [self.left] if self.right is None else [self.left, self.right]
        if not any(
            isinstance(pool, Pool) and pool.technique and technique_name(pool.technique) == "d%"
            for side in sides
            for pool in walk_tree(side.expr)
        ):
            raise DiceValueError(
                "a custom d% table is for rolls read from d%, such as 4dF@d%",
                text=self.expression.text,
            )
        custom = copy.copy(self)
        custom.d100 = table
        custom.__dict__.pop("quick", None)  # outcomes read with the seed's table
        return custom


_OPPOSED = Outcomes(
    (Band("success", 1, None, True), Band("tie", 0, 0, True), Band("failure", None, -1, True))
)
_COIN = Outcomes((Band("even", parity=0), Band("odd", parity=1)))

NOTE_WORK = 100_000_000
"""Work a roll may spend measuring odds for its notes (the coin's chance, an
unreachable difficulty); past it the roll stands without them."""


def use_d100_table(program: Program, spec: str | Path | D100Table) -> Program:
    """``program`` with a custom d% table (inline text, a file, or a table)."""
    table = load_d100_table(spec)
    if not isinstance(program, FudgeProgram):
        raise DiceValueError(
            "a custom d% table is for rolls read from d%, such as 4dF@d%",
            text=program.expression.text,
        )
    return program.with_d100_table(table)


def _chance(exact: Dist, test: Callable[[int], bool]) -> Fraction:
    """The chance of a value passing ``test``, counting what surely does."""
    from ...exact.odds import Odds

    return Odds("", "", exact).chance_where(test).p


def _relative_name(value: int) -> str:
    return "left wins" if value > 0 else "right wins" if value < 0 else "tie"


def fudge_program(expression: Expression, vocabulary: Vocabulary) -> Program:
    if is_generic(expression):
        return Program(expression, vocabulary)
    return FudgeProgram(expression, FUDGE)


def power_program(expression: Expression, vocabulary: Vocabulary) -> Program:
    return FudgeProgram(expression, POWER)


@budget.costed_cache(4096, "fudge odds notes")
def _odds_notes(program: FudgeProgram, difficulty: int, below_terrible: bool) -> list[str]:
    """What the odds say of a difficulty, measured on the first roll against it
    only: a later roll charges the same work again, but measures nothing."""
    return program.measured_notes(difficulty, below_terrible)
