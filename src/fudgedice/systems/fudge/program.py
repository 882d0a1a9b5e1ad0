"""Fudge and Power Fudge: ladders, checks, the dice techniques, advantage.

``fudge:`` is the default system. A roll that uses nothing of Fudge (no
Fudge dice, no ladder word, no check, no option) is the generic dice language
and compiles to a plain :class:`~fudgedice.dice.program.Program`, so ``3d6`` or
``4d6kh3`` behave exactly as they do without any system. Everything else
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
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from ...dice.arithmetic import evaluate
from ...dice.hand import HandRoller
from ...dice.measure import exploding_dice, measure, measure_pool
from ...dice.pools import die_dist, plan
from ...dice.program import Program
from ...dice.roller import Roller, roll_node, roll_pool
from ...dice.sample import sample_exactly, sample_node
from ...errors import DiceValueError, LimitError
from ...exact import dist
from ...exact.dist import Dist
from ...exact.odds import Odds
from ...language.tree import (
    D6,
    D100,
    FUDGE_DIE,
    BinOp,
    Expression,
    Node,
    Opposed,
    Pool,
    Side,
    Versus,
    Word,
)
from ...language.tree import walk as walk_tree
from ...language.words import Vocabulary
from ...results.dice import DieRoll, Mark, Part, PoolRoll
from ...results.roll import Roll, Verdict
from . import power
from .ladders import FUDGE, POWER, Ladder
from .techniques import (
    SEED_D100,
    D100Table,
    four_d6_dist,
    fudge_from_3d6,
    fudge_from_d6,
    load_d100_table,
    read_4d6,
    technique_name,
    three_d6_dist,
    three_d6_range,
)

COIN = "coin"
"""The even/odd option: a 4dF roll used as a coin (seed 003)."""

DEFAULT_DICE = Pool(4, FUDGE_DIE, "4dF")
"""What a trait with no dice rolls in both systems."""


@dataclass(frozen=True, slots=True)
class FudgeDetails:
    """The figures behind a Fudge or Power Fudge result."""

    ladder: str
    """Which ladder names the values: ``fudge`` or ``power``."""
    rolled_degree: int | None
    """The side's rolled degree; None for an opposed roll (each side has its own)."""
    difficulty: int | None = None
    coin: str | None = None
    """``even`` or ``odd`` for the even/odd coin."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class SidePlan:
    """One side of a roll, checked: its expression (default dice added), its
    Power Fudge options and the one pool of Fudge dice they act on."""

    expr: Node
    options: power.PowerOptions
    coin: bool
    fudge_pool: Pool | None
    """The pool advantage or take zero acts on (None when neither is asked)."""
    exploding: int


_PLAIN = power.PowerOptions()


class FudgeProgram(Program):
    """A checked Fudge or Power Fudge roll."""

    def __init__(self, expression: Expression, ladder: Ladder) -> None:
        # Program.__init__ would install the generic word rule; this system
        # reads words on its ladder, so it sets itself up instead.
        self.expression = expression
        self.ladder = ladder
        self.d100: D100Table = SEED_D100
        self.word_value = self._word_value
        self.right: SidePlan | None = None
        self.difficulty: int | None = None
        self._check()

    # -------------------------------------------------------------- checking

    def _fail(self, message: str, position: int | None = None, hint: str | None = None) -> None:
        raise DiceValueError(message, text=self.expression.text, position=position, hint=hint)

    def _word_value(self, word: Word) -> int:
        value = self.ladder.value_of(word.text)
        if value is None:
            raise DiceValueError(
                f"'{word.text}' is not a word of the {self.ladder.system} ladder",
                text=self.expression.text,
                position=word.position,
                hint=self.ladder.suggest(word.text),
            )
        return value

    def _check(self) -> None:
        expression = self.expression
        check = expression.check
        self.left = self._side(expression.side, isinstance(check, Opposed))
        if isinstance(check, Opposed):
            self.right = self._side(check.other, True)
        elif isinstance(check, Versus):
            self.difficulty = self._target(check.target)
        if self.right is not None and self.right.coin:
            self._fail(
                "the even/odd coin is a roll of its own, not a side of an opposed action",
                _coin_position(check.other) if isinstance(check, Opposed) else None,
            )
        if self.left.coin and check is not None:
            self._fail(
                "the even/odd coin is a roll of its own: it takes no 'vs' or 'opp'",
                _coin_position(expression.side),
            )

    def _side(self, side: Side, opposed: bool) -> SidePlan:
        expr = side.expr
        nodes = walk_tree(expr)
        pools = [node for node in nodes if isinstance(node, Pool)]
        words = [node for node in nodes if isinstance(node, Word)]
        for pool in pools:
            self._check_pool(pool)
        for word in words:
            self._word_value(word)
        coin = False
        asked = []
        for option in side.options:
            if option.value is None and option.name == COIN:
                coin = True
            elif option.value is None and option.name in power.OPTIONS:
                if self.ladder is not POWER:
                    self._fail(
                        f"'{option.name}' is a Power Fudge option",
                        option.position,
                        "write the roll with the power: prefix, such as 'power: 4dF+2 adv'",
                    )
                asked.append(option)
            else:
                known = ", ".join((COIN, *power.OPTIONS) if self.ladder is POWER else (COIN,))
                written = option.name + (f"={option.value}" if option.value is not None else "")
                self._fail(
                    f"unknown option '{written}' for a {self.ladder.system} roll",
                    option.position,
                    f"{self.ladder.system} options: {known}",
                )
        options = power.power_options(asked, self.expression)
        if not pools and (words or opposed or self.ladder is POWER or coin):
            # A trait (or a bare modifier, in Power Fudge) rolls the default dice.
            expr = BinOp("+", expr, DEFAULT_DICE)
            pools = [DEFAULT_DICE]
        fudge_pool = None
        if options.asked or options.take_zero:
            fudge = [pool for pool in pools if pool.die.fudge]
            where = asked[0].position if asked else None
            if len(fudge) != 1:
                self._fail("advantage and take zero act on one pool of Fudge dice", where)
            fudge_pool = fudge[0]
            if fudge_pool.technique not in (None, "d6"):
                self._fail(
                    f"@{fudge_pool.technique} gives a result, not dice to ignore: "
                    "advantage and take zero need Fudge dice (or @d6)",
                    where,
                )
            if not plan(fudge_pool).plain:
                self._fail("advantage and take zero need Fudge dice without modifiers", where)
        if coin and not any(pool.die.fudge for pool in pools):
            self._fail(
                "the even/odd coin reads Fudge dice, such as '4dF coin'", _coin_position(side)
            )
        return SidePlan(expr, options, coin, fudge_pool, exploding_dice(expr))

    def _check_pool(self, pool: Pool) -> None:
        plan(pool)  # the generic modifier rules first
        if pool.die_code:
            self._fail(
                "die codes like 3D belong to the D6 System",
                pool.position,
                "write it with the d6: prefix, such as 'd6: 3D+1'",
            )
        if pool.technique is None:
            return
        name = technique_name(pool.technique)
        if name is None:
            self._fail(
                f"unknown dice technique '@{pool.technique}'",
                pool.position,
                "techniques: @d6, @3d6, @d%, @4d6",
            )
        if pool.die != FUDGE_DIE:
            self._fail(
                "a technique reads ordinary dice as Fudge dice: write it after dF, such as 4dF@3d6",
                pool.position,
            )
        if not plan(pool).plain:
            self._fail("a pool read by a technique takes no modifiers", pool.position)
        if name != "d6" and pool.count != 4:
            self._fail(
                f"@{name} stands for exactly four Fudge dice: write 4dF@{name}",
                pool.position,
                "@d6 reads any number of Fudge dice from d6",
            )

    def _target(self, node: Node) -> int:
        for sub in walk_tree(node):
            if isinstance(sub, Pool):
                self._not_a_level(sub)
        return evaluate(node, self._word_value, self._not_a_level)

    def _not_a_level(self, pool: Pool) -> NoReturn:
        raise DiceValueError(
            "a difficulty is a level, not a roll",
            text=self.expression.text,
            position=pool.position,
            hint="use 'opp' for a side that rolls, such as 'Good opp Fair'",
        )

    # --------------------------------------------------------------- rolling

    def _special(self, pool: Pool, side: SidePlan) -> bool:
        return pool.technique is not None or pool is side.fudge_pool

    def _roll_node(self, node: Node, roller: Roller, side: SidePlan, steps: list[str]) -> Part:
        def roll_one(pool: Pool, roller: Roller) -> PoolRoll:
            if self._special(pool, side):
                return self._roll_special(pool, roller, side, steps)
            return roll_pool(pool, roller)

        return roll_node(node, roller, self._word_value, roll_one)

    def _roll_special(
        self, pool: Pool, roller: Roller, side: SidePlan, steps: list[str]
    ) -> PoolRoll:
        options = side.options if pool is side.fudge_pool else _PLAIN
        if options.take_zero:
            steps.append(f"take zero: {pool.source} is not rolled, every die counts as blank")
            return PoolRoll(pool, [], 0)
        technique = technique_name(pool.technique) if pool.technique else None
        if technique == "3d6":
            faces = [roller.toss(D6) for _ in range(3)]
            rolled = sum(faces)
            result = fudge_from_3d6(rolled)
            steps.append(
                f"3d6: {'+'.join(map(str, faces))} = {rolled}, "
                f"{three_d6_range(rolled)} on the table -> {result:+d}"
            )
            return PoolRoll(pool, [DieRoll(D6, face, str(face)) for face in faces], result)
        if technique == "d%":
            rolled = roller.toss(D100)
            result = self.d100.read(rolled)
            shown = "00" if rolled == 100 else str(rolled)
            which = "the seed's table" if self.d100 == SEED_D100 else "the custom table"
            steps.append(f"d%: {shown} ({self.d100.range_of(rolled)} on {which}) -> {result:+d}")
            return PoolRoll(pool, [DieRoll(D100, rolled, shown)], result)
        if technique == "4d6":
            return self._roll_4d6(pool, roller, steps)
        if technique == "d6":
            faces = [roller.toss(D6) for _ in range(pool.count)]
            values = [fudge_from_d6(face) for face in faces]
            dice = [
                DieRoll(D6, value, str(face)) for face, value in zip(faces, values, strict=True)
            ]
            read = " ".join(
                f"{face}={FUDGE_DIE.face_label(v).strip() or 'blank'}"
                for face, v in zip(faces, values, strict=True)
            )
            steps.append(f"d6 as Fudge dice (1-2 -, 3-4 blank, 5-6 +): {read}")
        else:
            values = [roller.toss(pool.die) for _ in range(pool.count)]
            dice = [DieRoll(pool.die, value, pool.die.face_label(value)) for value in values]
        level = options.advantage
        ignored = power.ignored(values, level)
        for index in ignored:
            dice[index].set_aside(Mark.IGNORED, "advantage" if level > 0 else "disadvantage")
        if options.asked:
            steps.append(_advantage_note(level, ignored))
        total = sum(value for index, value in enumerate(values) if index not in ignored)
        return PoolRoll(pool, dice, total)

    def _roll_4d6(self, pool: Pool, roller: Roller, steps: list[str]) -> PoolRoll:
        if isinstance(roller, HandRoller):
            faces, positive = _read_4d6_by_hand(roller)
        else:
            faces = (roller.toss(D6), roller.toss(D6), roller.toss(D6), roller.toss(D6))
            positive = (True, True, False, False)  # the first two dice are declared positive
        reading = read_4d6(faces, positive)
        dice = []
        for index, face in enumerate(faces):
            colour = "p" if positive[index] else "n"
            die = DieRoll(
                D6, face, f"{colour}{face}", Mark.POSITIVE if positive[index] else Mark.NEGATIVE
            )
            if index in reading.removed:
                die.set_aside(Mark.REMOVED, "above the lowest")
            dice.append(die)
        steps.append(reading.explanation)
        return PoolRoll(pool, dice, reading.result)

    def _roll_side(self, side: SidePlan, roller: Roller, steps: list[str]) -> Part:
        return self._roll_node(side.expr, roller, side, steps)

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        expression = self.expression
        ladder = self.ladder
        steps: list[str] = []
        part = self._roll_side(self.left, roller, steps)
        degree = part.total

        def made(total: int, result: str, details: FudgeDetails, **fields: Any) -> Roll:
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

        if self.right is not None:
            left_steps = list(steps)
            right_steps: list[str] = []
            right_part = self._roll_side(self.right, roller, right_steps)
            other = right_part.total
            relative = degree - other
            left_text, right_text = _side_texts(expression)
            if relative > 0:
                said = f"{left_text} wins by {relative}"
            elif relative < 0:
                said = f"{right_text} wins by {-relative}"
            else:
                said = "a tie: status quo"
            steps.insert(0, f"{left_text}: rolled degree {ladder.describe(degree)}")
            verdict: Verdict = "success" if relative > 0 else "failure" if relative < 0 else "tie"
            sides = [
                self._side_roll(left_text, degree, part, left_steps),
                self._side_roll(right_text, other, right_part, right_steps),
            ]
            return made(
                relative,
                f"relative degree {relative:+d}: {said}",
                FudgeDetails(ladder.system, None),
                verdict=verdict,
                margin=relative,
                events=[verdict],
                sides=sides,
            )
        if self.difficulty is not None:
            difficulty = self.difficulty
            margin = degree - difficulty
            verdict = "success" if margin >= 0 else "failure"
            steps.extend(self._difficulty_notes(difficulty))
            return made(
                degree,
                f"{ladder.describe(degree)} vs {ladder.describe(difficulty)}: "
                f"{verdict}, margin {margin:+d}",
                FudgeDetails(ladder.system, degree, difficulty),
                verdict=verdict,
                margin=margin,
                events=[verdict],
            )
        if self.left.coin:
            side = "even" if degree % 2 == 0 else "odd"
            # the chance of even for these very dice (41/81 on 4dF, seed 003)
            exact = self.dist()
            even = _ratio_of(exact, lambda value: value % 2 == 0)
            steps.append(
                f"even/odd coin: even comes up with chance {even.numerator}/{even.denominator}"
                f" ({float(even):.1%})"
            )
            return made(degree, side, FudgeDetails(ladder.system, degree, coin=side), events=[side])
        return made(degree, ladder.describe(degree), FudgeDetails(ladder.system, degree))

    def _side_roll(self, title: str, degree: int, part: Part, steps: list[str]) -> Roll:
        """One side of an opposed action, as a roll of its own."""
        expression = self.expression
        return Roll(
            title,
            expression.system,
            degree,
            part,
            result=self.ladder.describe(degree),
            steps=steps,
            details=FudgeDetails(self.ladder.system, degree),
            title=title,
            quick_read=True,
        )

    def _difficulty_notes(self, difficulty: int) -> list[str]:
        notes = []
        if self.ladder is FUDGE and difficulty < FUDGE.bands[0][0]:
            notes.append(
                f"difficulty {FUDGE.describe(difficulty)} is below Terrible: "
                "automatic for most characters, no roll needed"
            )
        degrees = self._side_dist(self.left)
        if degrees.lo >= difficulty and not notes:
            notes.append("no roll needed: every result succeeds")
        elif degrees.hi < difficulty:
            notes.append("no roll can reach this difficulty: it simply can't be done")
        return notes

    # ------------------------------------------------------------- measuring

    def _special_dist(self, pool: Pool, side: SidePlan) -> Dist:
        options = side.options if pool is side.fudge_pool else _PLAIN
        if options.take_zero:
            return Dist.constant(0)
        technique = technique_name(pool.technique) if pool.technique else None
        if technique == "3d6":
            return three_d6_dist()
        if technique == "d%":
            return self.d100.dist()
        if technique == "4d6":
            return four_d6_dist()
        die = dist.apply(die_dist(D6), fudge_from_d6) if technique == "d6" else die_dist(pool.die)
        if options.advantage:
            return power.advantage_dist(die, pool.count, options.advantage)
        return dist.repeat(die, pool.count, pool.source)

    def _measure(self, node: Node, side: SidePlan) -> Dist:
        def measure_one(pool: Pool) -> Dist:
            if self._special(pool, side):
                return self._special_dist(pool, side)
            return measure_pool(pool, side.exploding)

        return measure(node, self._word_value, side.exploding, measure_one)

    def _side_dist(self, side: SidePlan) -> Dist:
        return self._measure(side.expr, side)

    def dist(self) -> Dist:
        degrees = self._side_dist(self.left)
        if self.right is None:
            return degrees
        return dist.add(degrees, dist.negate(self._side_dist(self.right)))

    def odds(self) -> Odds:
        expression = self.expression
        exact = self.dist()

        def chance(test: Callable[[int], bool]) -> Fraction:
            return _ratio_of(exact, test)

        events: dict[str, Fraction] = {}
        title = "rolled degree" if self.ladder is FUDGE else "result"
        naming = self.ladder.name
        if self.right is not None:
            events["success"] = chance(lambda value: value > 0)
            events["tie"] = chance(lambda value: value == 0)
            events["failure"] = chance(lambda value: value < 0)
            title = "relative degree"
            naming = _relative_name
        elif self.difficulty is not None:
            difficulty = self.difficulty
            events["success"] = chance(lambda value: value >= difficulty)
            events["failure"] = chance(lambda value: value < difficulty)
        elif self.left.coin:
            events["even"] = chance(lambda value: value % 2 == 0)
            events["odd"] = chance(lambda value: value % 2 == 1)
        return Odds(
            expression.text,
            expression.system,
            exact,
            events,
            value_name=naming,
            value_title=title,
        )

    def sample(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        exact = sample_exactly(self.dist, n, rng)
        if exact is not None:
            return exact
        sides = [self.left] if self.right is None else [self.left, self.right]
        for side in sides:
            if any(isinstance(p, Pool) and self._special(p, side) for p in walk_tree(side.expr)):
                raise LimitError(
                    "too many dice to sample with advantage or a technique; "
                    "measure the roll with odds instead"
                )
        totals = sample_node(self.left.expr, rng, n, self._word_value)
        if self.right is not None:
            totals = totals - sample_node(self.right.expr, rng, n, self._word_value)
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
        return custom


def use_d100_table(program: Program, spec: str | Path | D100Table) -> Program:
    """``program`` with a custom d% table (inline text, a file, or a table)."""
    table = load_d100_table(spec)
    if not isinstance(program, FudgeProgram):
        raise DiceValueError(
            "a custom d% table is for rolls read from d%, such as 4dF@d%",
            text=program.expression.text,
        )
    return program.with_d100_table(table)


def _coin_position(side: Side) -> int | None:
    return next((option.position for option in side.options if option.name == COIN), None)


def _ratio_of(exact: Dist, test: Callable[[int], bool]) -> Fraction:
    return Fraction(sum(count for value, count in exact.items() if test(value)), exact.total)


def _relative_name(value: int) -> str:
    return "left wins" if value > 0 else "right wins" if value < 0 else "tie"


def _advantage_note(level: int, ignored: list[int]) -> str:
    if level == 0:
        return "advantage and disadvantage cancel: the roll is made as normal"
    word = {1: "advantage", 2: "double advantage", -1: "disadvantage", -2: "double disadvantage"}
    face = "-" if level > 0 else "+"
    if not ignored:
        return f"{word[level]}: no {face} to ignore"
    which = ", ".join(str(index + 1) for index in ignored)
    count = "one" if len(ignored) == 1 else "two"
    dice = "die" if len(ignored) == 1 else "dice"
    return f"{word[level]}: ignored {count} {face} ({dice} {which})"


def _read_4d6_by_hand(roller: HandRoller) -> tuple[tuple[int, int, int, int], tuple[bool, ...]]:
    """Four d6 read from the table: ``p4 p3 n3 n3`` (colour and face), or four
    plain faces taken as two positive dice, then two negative."""
    faces: list[int] = []
    colours: list[str] = []
    for _ in range(4):
        token = roller.next_face("a d6 of 4d6, written p4 (positive) or n3 (negative)")
        match = re.fullmatch(r"([pn]?)([1-6])", token.strip().lower())
        if match is None:
            raise DiceValueError(
                f"die {roller.used}: '{token}' is not a face of a positive or negative d6",
                hint="write each die as p1..p6 (positive) or n1..n6 (negative)",
            )
        colours.append(match.group(1))
        faces.append(int(match.group(2)))
    if all(colours):
        positive = tuple(colour == "p" for colour in colours)
        if sum(positive) != 2:
            raise DiceValueError(
                f"4d6 reads two positive and two negative dice, not {sum(positive)} "
                f"positive and {4 - sum(positive)} negative"
            )
    elif not any(colours):
        positive = (True, True, False, False)
    else:
        raise DiceValueError(
            "mark every die of 4d6 p or n, or none (then the first two are positive)"
        )
    return (faces[0], faces[1], faces[2], faces[3]), positive


_OPP = re.compile(r"\bopp\b", re.IGNORECASE)
_PREFIX = re.compile(r"\s*[a-z0-9]+\s*:", re.IGNORECASE)


def _side_texts(expression: Expression) -> tuple[str, str]:
    """The two sides of an opposed roll as they were written."""
    body = expression.text.split("#", 1)[0]
    prefix = _PREFIX.match(body)
    if prefix:
        body = body[prefix.end() :]
    parts = _OPP.split(body, maxsplit=1)
    if len(parts) != 2:
        return "the left side", "the right side"
    left, right = (part.strip() for part in parts)
    if left == right:
        # "4dF opp 4dF wins by 1" would not say which
        return f"the left side ({left})", f"the right side ({right})"
    return left or "the left side", right or "the right side"


def _is_generic(expression: Expression) -> bool:
    """Nothing of Fudge in it: the generic dice language decides everything."""
    if expression.check is not None:
        return False
    # an option this system knows makes it a Fudge roll; any other is left to
    # the generic language, which says what is wrong with it
    ours = {COIN, *power.OPTIONS}
    if any(option.name in ours for option in expression.side.options):
        return False
    for node in walk_tree(expression.side.expr):
        if isinstance(node, Word):
            return False
        # a count of successes is a number of dice, not a degree on the ladder
        if isinstance(node, Pool) and (
            (node.die.fudge and node.counting is None) or node.technique
        ):
            return False
    return True


def fudge_program(expression: Expression, vocabulary: Vocabulary) -> Program:
    if _is_generic(expression):
        return Program(expression, vocabulary)
    return FudgeProgram(expression, FUDGE)


def power_program(expression: Expression, vocabulary: Vocabulary) -> Program:
    return FudgeProgram(expression, POWER)
