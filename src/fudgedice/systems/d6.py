"""The D6 System (``d6:``): die codes, the Wild Die, Character and Fate
Points, dice reduction, difficulties and opposed rolls (RULES.md section 4,
seed 002).

A parsed roll is checked once into one :class:`SideRules` per side. The
roller (which also reads dice rolled by hand), the exact measurer
(:mod:`.d6_measure`) and the NumPy sampler all start from those rules and
from :meth:`SideRules.shape`, so they can't disagree about how many dice are
rolled, which one is wild, what a Fate Point doubles or what a critical
failure does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..dist import Dist
from ..engine import Program, register_system
from ..errors import DiceValueError, LimitError
from ..hand import HandRoller, numbered_face
from ..limits import DEFAULT_LIMITS
from ..odds import Odds
from ..parser import _suggest
from ..results import DieRoll, GroupRoll, NumberRoll, OpRoll, Part, PoolRoll
from ..roller import Roller, operate
from ..rolls import Roll
from ..tables import Table, TableOptions, register_table
from ..tree import (
    BinOp,
    Die,
    Expression,
    Group,
    Neg,
    Node,
    Number,
    Opposed,
    Option,
    Pool,
    Side,
    Versus,
    Word,
)
from ..vocabulary import register_words
from .d6_measure import (
    CRITICAL_CHANCE,
    CritRule,
    SideShape,
    depth_for,
    margin_dist,
    side_dist,
)

Reduction = Literal["fast", "wildonly"]

D6 = Die("D", (1, 2, 3, 4, 5, 6))

CRIT_RULES: tuple[CritRule, ...] = ("complication", "cancel", "ignore")

DIFFICULTIES: dict[str, int] = {
    "very easy": 5,
    "easy": 10,
    "moderate": 15,
    "difficult": 20,
    "very difficult": 25,
    "heroic": 30,
    "legendary": 31,
}
"""OpenD6 difficulty words; a word means the top of its range (Legendary is 31+)."""

OPTIONS = ("nowild", "crit", "cp", "fp", "fast", "wildonly", "allow")
ALLOW_BOTH = "cpfp"
"""``allow=cpfp``: the GM lets Character Points and a Fate Point share a roll."""

REDUCTION_CHART_ROWS = 50
"""The seed's chart stops at 50D; its formula goes on."""

register_words(
    *OPTIONS,
    *CRIT_RULES,
    ALLOW_BOTH,
    "faster",
    *{word for phrase in DIFFICULTIES for word in phrase.split()},
)


# --- die codes and the reduction chart ----------------------------------------------


def _ceil_half(sevenths: int) -> int:
    """ceil(3.5 * n) in integers: the chart's "multiply by 3.5, round up"."""
    return -(-7 * sevenths // 2)


def bonus_5d(dice: int) -> int:
    """The chart's "5D" column: the bonus for rolling five dice of ``dice``D."""
    return max(0, _ceil_half(dice - 5))


def bonus_wild(dice: int) -> int:
    """The chart's "Wild Die" column: the bonus for rolling the Wild Die alone."""
    return max(0, _ceil_half(dice - 1))


@dataclass(frozen=True, slots=True)
class Code:
    """A die code ``ND+P`` with 0 <= P < 3: three pips make a die."""

    dice: int
    pips: int

    @staticmethod
    def of(dice: int, pips: int) -> Code:
        # Pips below zero borrow a die, as on a character sheet: 4D-1 is 3D+2.
        whole, rest = divmod(3 * dice + pips, 3)
        return Code(whole, rest)

    def __str__(self) -> str:
        return f"{self.dice}D" + (f"+{self.pips}" if self.pips else "")


@register_table("d6-reduction", "D6 System dice reduction: the 5D and Wild Die bonuses")
def reduction_table(options: TableOptions) -> Table:
    last = options.to or REDUCTION_CHART_ROWS
    rows = tuple((f"{n}D", str(bonus_5d(n)), str(bonus_wild(n))) for n in range(1, last + 1))
    return Table(
        "D6 System dice reduction (seed 002)",
        ("Die Code", "5D", "Wild Die"),
        rows,
        (
            "5D: roll five dice (the Wild Die among them), add the pips and this bonus "
            "(d6: 30D fast).",
            "Wild Die: roll the Wild Die alone, add the pips and this bonus (d6: 10D wildonly).",
            "Beyond the chart: 5D = ceil((N - 5) x 3.5), Wild Die = ceil((N - 1) x 3.5).",
        ),
    )


@register_table("d6-difficulties", "D6 System difficulty words and the number each stands for")
def difficulty_table(options: TableOptions) -> Table:
    bottom = 1
    rows = []
    for phrase, top in DIFFICULTIES.items():
        span = f"{bottom}+" if phrase == "legendary" else f"{bottom}-{top}"
        rows.append((phrase.title(), span, str(top)))
        bottom = top + 1
    return Table(
        "D6 System difficulties (OpenD6)",
        ("Difficulty", "Range", "As a target"),
        tuple(rows),
        ("A word means the top of its range: d6: 4D+2 vs Moderate is vs 15.",),
    )


# --- checking a roll into rules -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SideRules:
    """One side of a D6 System roll, checked: everything the interpreters need."""

    written: Code
    """The die code as written, normalised."""
    raw: tuple[int, int]
    """Dice and pips as written, before normalising (to explain ``2D+3``)."""
    wild: bool
    crit: CritRule
    character_points: int
    fate_point: bool
    reduction: Reduction | None

    @property
    def code(self) -> Code:
        """The code rolled: doubled, pips included, by a Fate Point."""
        if self.fate_point:
            return Code.of(2 * self.written.dice, 2 * self.written.pips)
        return self.written

    @property
    def rolled(self) -> int:
        """Dice rolled for the code (the Wild Die included, CP dice not)."""
        dice = self.code.dice
        if self.reduction == "fast":
            return min(dice, 5)
        if self.reduction == "wildonly":
            return 1
        return dice

    @property
    def bonus(self) -> int:
        if self.reduction == "fast":
            return bonus_5d(self.code.dice)
        if self.reduction == "wildonly":
            return bonus_wild(self.code.dice)
        return 0

    @property
    def effective_crit(self) -> CritRule:
        # Seed 002: with only the Wild Die, a critical failure "only indicates
        # a complication ... it does not affect the total rolled".
        if self.reduction == "wildonly" and self.crit != "ignore":
            return "complication"
        return self.crit

    def shape(self) -> SideShape:
        return SideShape(
            plain=self.rolled - int(self.wild),
            wild=self.wild,
            character_points=self.character_points,
            modifier=self.code.pips + self.bonus,
            crit=self.effective_crit,
        )


def _fail(
    expression: Expression, message: str, position: int | None, hint: str | None = None
) -> DiceValueError:
    return DiceValueError(message, text=expression.text, position=position, hint=hint)


def _code_parts(expression: Expression, node: Node) -> tuple[int, int]:
    """(dice, pips) of an expression of die codes and pips: ``4D+2 +1D``."""
    if isinstance(node, Number):
        return 0, node.value
    if isinstance(node, Pool):
        if not node.die_code:
            raise _fail(
                expression,
                f"the D6 System rolls die codes, not {node.source}",
                node.position,
                f"write {node.count}D for {node.count} six-sided dice",
            )
        if node.reroll or node.explode or node.keep or node.counting or node.technique:
            raise _fail(
                expression,
                f"{node.source}: a die code takes no dice modifiers; the Wild Die, "
                "Character Points and Fate Points are options (nowild, cp2, fp)",
                node.position,
            )
        return node.count, 0
    if isinstance(node, Group):
        return _code_parts(expression, node.inner)
    if isinstance(node, Neg):
        dice, pips = _code_parts(expression, node.operand)
        return -dice, -pips
    if isinstance(node, Word):
        hint = "difficulty words go after 'vs': d6: 4D+2 vs Moderate"
        raise _fail(expression, f"'{node.text}' is not part of a die code", node.position, hint)
    if node.op in "+-":
        left = _code_parts(expression, node.left)
        right = _code_parts(expression, node.right)
        sign = 1 if node.op == "+" else -1
        return left[0] + sign * right[0], left[1] + sign * right[1]
    raise DiceValueError(
        f"die codes are added and subtracted, not {'multiplied' if node.op == '*' else 'divided'}",
        text=expression.text,
        hint="a Fate Point doubles a code: d6: 4D+2 fp",
    )


_CP = re.compile(r"cp([0-9]*)")


def _side_rules(expression: Expression, side: Side, inherited_crit: CritRule | None) -> SideRules:
    dice, pips = _code_parts(expression, side.expr)
    written = Code.of(dice, pips)
    if written.dice < 1:
        raise _fail(
            expression,
            f"a die code needs at least 1D ({dice}D{pips:+d} is {written})",
            None,
        )
    seen: dict[str, Option] = {}
    wild = True
    crit: CritRule | None = None
    character_points = 0
    fate_point = False
    reduction: Reduction | None = None
    allowed = False
    for option in side.options:
        name, value = option.name, option.value
        cp = _CP.fullmatch(name)
        key = "cp" if cp else "reduction" if name in ("fast", "wildonly", "faster") else name
        if key in seen:
            raise _fail(
                expression,
                f"'{option.name}' repeats an option already given on this side",
                option.position,
            )
        seen[key] = option
        if cp:
            count_text = cp.group(1) if value is None else value
            if (value is not None and cp.group(1)) or not (count_text or "1").isdigit():
                raise _fail(expression, "write Character Points as cp2 or cp=2", option.position)
            character_points = int(count_text or "1")
            if character_points > DEFAULT_LIMITS.max_dice:
                raise LimitError(
                    f"{character_points} Character Points is more than the limit of "
                    f"{DEFAULT_LIMITS.max_dice} dice",
                    text=expression.text,
                    position=option.position,
                )
        elif name == "crit":
            if value not in CRIT_RULES:
                raise _fail(
                    expression,
                    f"crit takes one of {', '.join(CRIT_RULES)}",
                    option.position,
                    _suggest(value or "", CRIT_RULES),
                )
            crit = value
        elif name == "allow":
            if value != ALLOW_BOTH:
                raise _fail(
                    expression,
                    f"allow={ALLOW_BOTH} is the only permission a roll can carry "
                    "(Character Points with a Fate Point)",
                    option.position,
                )
            allowed = True
        elif value is not None:
            raise _fail(expression, f"'{name}' takes no value", option.position)
        elif name == "nowild":
            wild = False
        elif name == "fp":
            fate_point = True
        elif name in ("fast", "wildonly", "faster"):
            reduction = "fast" if name == "fast" else "wildonly"
        else:
            raise _fail(
                expression,
                f"unknown D6 System option '{name}'",
                option.position,
                _suggest(name, [*OPTIONS, "cp2", "crit=cancel"])
                or f"options: nowild, crit=..., cpN, fp, fast, wildonly, allow={ALLOW_BOTH}",
            )
    if fate_point and character_points and not allowed:
        raise _fail(
            expression,
            "Character Points and a Fate Point on the same roll need the GM's permission",
            seen["fp"].position,
            f"if your GM allows it, add 'allow={ALLOW_BOTH}'",
        )
    if reduction == "wildonly" and not wild:
        raise _fail(
            expression,
            "wildonly rolls the Wild Die alone, so it can't go with nowild",
            seen["reduction"].position,
        )
    rules = SideRules(
        written,
        (dice, pips),
        wild,
        crit or inherited_crit or "complication",
        character_points,
        fate_point,
        reduction,
    )
    if rules.code.dice > DEFAULT_LIMITS.max_dice:
        raise LimitError(
            f"{rules.code} is more than the limit of {DEFAULT_LIMITS.max_dice} dice",
            text=expression.text,
        )
    return rules


def _difficulty_key(text: str) -> str:
    return "".join(char for char in text.lower() if char.isalpha())


_DIFFICULTY_KEYS = {_difficulty_key(phrase): value for phrase, value in DIFFICULTIES.items()}


def difficulty_of(expression: Expression, node: Node) -> int:
    """A difficulty: a number, a word (the top of its range) or arithmetic of them."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Word):
        value = _DIFFICULTY_KEYS.get(_difficulty_key(node.text))
        if value is None:
            names = [phrase.title() for phrase in DIFFICULTIES]
            raise _fail(
                expression,
                f"unknown difficulty '{node.text}'",
                node.position,
                _suggest(node.text, names) or f"difficulties: {', '.join(names)}",
            )
        return value
    if isinstance(node, Group):
        return difficulty_of(expression, node.inner)
    if isinstance(node, Neg):
        return -difficulty_of(expression, node.operand)
    if isinstance(node, Pool):
        raise _fail(
            expression,
            "a difficulty is a number or a word; to roll against another code use 'opp'",
            node.position,
            "d6: 4D+2 opp 3D+1",
        )
    left = difficulty_of(expression, node.left)
    right = difficulty_of(expression, node.right)
    return operate(node.op, left, right, what="the difficulty divides by 0")


# --- rolling (and reading by hand) ----------------------------------------------------

FaceKind = Literal["plain", "wild", "cp"]


class _Faces:
    """Where one side's tosses come from: the random roller, or faces read by
    hand and sorted by their marks (``w6`` Wild Die, ``c4`` Character Point)."""

    def __init__(self, roller: Roller, tokens: list[str] | None) -> None:
        self.roller = roller
        self.queues: dict[FaceKind, list[int]] | None = None
        if tokens is not None:
            self.queues = {"plain": [], "wild": [], "cp": []}
            for token in tokens:
                kind, face = _hand_face(token)
                self.queues[kind].append(face)

    def toss(self, kind: FaceKind, missing: Callable[[], str]) -> int:
        if self.queues is None:
            return self.roller.toss(D6)
        queue = self.queues[kind]
        if not queue:
            raise DiceValueError(f"not enough dice: {missing()}")
        return queue.pop(0)

    def check_used(self, rules: SideRules) -> None:
        """Dice read by hand: every marked face must have been needed."""
        if self.queues is None:
            return
        extra = self.queues
        if extra["plain"]:
            raise DiceValueError(
                f"too many dice: {rules.code} rolls {rules.shape().plain} besides the Wild Die "
                f"and Character Point dice (left over: {' '.join(map(str, extra['plain']))})"
            )
        if extra["wild"]:
            why = "it rolls again only after a 6" if rules.wild else "this roll has no Wild Die"
            raise DiceValueError(
                f"too many Wild Die tosses: {why} "
                f"(left over: {' '.join('w' + str(face) for face in extra['wild'])})"
            )
        if extra["cp"]:
            raise DiceValueError(
                f"too many Character Point dice: {rules.character_points} bought, each rolls "
                f"again only after a 6 (left over: {' '.join('c' + str(f) for f in extra['cp'])})"
            )


def _hand_face(token: str) -> tuple[FaceKind, int]:
    word = token.strip().lower()
    kind: FaceKind = "plain"
    for mark, marked in (("cp", "cp"), ("c", "cp"), ("w", "wild")):
        if word.startswith(mark):
            kind, word = marked, word[len(mark) :]  # type: ignore[assignment]
            break
    face = numbered_face(word, 6)
    if face is None or not 1 <= face <= 6:
        raise DiceValueError(
            f"'{token}' is not a face of a D6 System die (1..6)",
            hint="mark the Wild Die's tosses with w (w6 w3) and Character Point dice with c (c4)",
        )
    return kind, face


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _chain(faces: _Faces, kind: FaceKind, name: str, mark: str) -> list[int]:
    """An exploding die's tosses: on while 6s come up."""
    tosses = [
        faces.toss(kind, lambda: f"the {name} needs a toss (mark it {mark}, such as {mark}4)")
    ]
    while tosses[-1] == 6:
        if len(tosses) >= DEFAULT_LIMITS.max_chain:
            raise LimitError(f"the {name} exploded more than {DEFAULT_LIMITS.max_chain} times")
        tosses.append(
            faces.toss(
                kind,
                lambda: (
                    f"the {name} came up 6, so it rolls again: add its next toss as {mark}<face>"
                ),
            )
        )
    return tosses


def _chain_rolls(tosses: list[int], note: str) -> list[DieRoll]:
    out = []
    for index, face in enumerate(tosses):
        notes = [note]
        if index:
            notes.append("from explosion")
        if face == 6:
            notes.append("exploded")
        out.append(DieRoll(D6, face, str(face), notes=notes))
    return out


@dataclass(slots=True)
class SideRoll:
    total: int
    part: Part
    critical: bool
    events: list[str]
    details: list[str]
    data: dict[str, Any]


def _sum_parts(parts: list[tuple[Node, Part]]) -> Part:
    node, part = parts[0]
    for right_node, right in parts[1:]:
        node = BinOp("+", node, right_node)
        part = OpRoll(node, part, right, part.total + right.total)
    return part


def roll_side(rules: SideRules, faces: _Faces, prefix: str = "") -> SideRoll:
    """Roll one side: plain dice, the Wild Die's chain, Character Point dice."""
    shape = rules.shape()
    code = rules.code
    if faces.queues is not None and len(faces.queues["plain"]) < shape.plain:
        given = len(faces.queues["plain"])
        besides = " besides the Wild Die" if rules.wild else ""
        raise DiceValueError(
            f"not enough dice: {code} rolls {shape.plain} plain dice{besides}, {given} given",
            hint="mark the Wild Die's tosses with w (w6 w3)" if rules.wild else None,
        )
    plain = [
        DieRoll(D6, face, str(face))
        for face in (faces.toss("plain", lambda: "plain dice") for _ in range(shape.plain))
    ]
    wild = _chain_rolls(_chain(faces, "wild", "Wild Die", "w"), "wild") if rules.wild else []
    cp_chains = [
        _chain_rolls(
            _chain(faces, "cp", f"Character Point die {index + 1}", "c"), "character point"
        )
        for index in range(rules.character_points)
    ]
    faces.check_used(rules)

    details: list[str] = []
    events: list[str] = []
    if rules.raw != (rules.written.dice, rules.written.pips):
        dice, pips = rules.raw
        details.append(f"{dice}D{pips:+d} reads as {rules.written} (three pips make a die)")
    if rules.fate_point:
        doubled = str(Code(2 * rules.written.dice, 2 * rules.written.pips))
        same = "" if doubled == str(code) else f" = {code}"
        details.append(f"Fate Point: {rules.written} doubled to {doubled}{same}")
    if rules.reduction == "fast" and rules.bonus:
        details.append(
            f"fast: {rules.rolled} of {code.dice}D rolled, "
            f"+{rules.bonus} from the chart's 5D column"
        )
    elif rules.reduction == "wildonly":
        details.append(
            f"wildonly: the Wild Die alone for {code.dice}D, +{rules.bonus} from the chart's "
            "Wild Die column"
        )
    named: list[tuple[str, list[DieRoll]]] = [("wild die", wild)]
    named.extend(("character point die", chain) for chain in cp_chains)
    for name, tosses in named:
        if len(tosses) > 1:
            faces_text = "+".join(die.face for die in tosses)
            value = sum(die.value for die in tosses)
            details.append(f"{name} {faces_text} = {value} (exploded {_times(len(tosses) - 1)})")

    critical = bool(wild) and wild[0].value == 1 and shape.crit != "ignore"
    if critical:
        events.append("critical failure")
        if shape.crit == "cancel":
            wild[0].kept = False
            wild[0].notes.append("cancelled (critical failure)")
            if plain:
                highest = max(range(len(plain)), key=lambda i: plain[i].value)
                plain[highest].kept = False
                plain[highest].notes.append("cancelled (critical failure)")
                details.append(
                    f"cancelled: wild 1 and highest die {plain[highest].value} (critical failure)"
                )
            else:
                details.append("cancelled: wild 1, no other die to cancel (critical failure)")
        else:
            events.append("complication")
            if rules.reduction == "wildonly":
                details.append("critical failure with the Wild Die alone: the total stands")
            else:
                details.append("critical failure: the total counts, and a complication happens")
    elif wild and wild[0].value == 1:
        details.append("wild 1 ignored (crit=ignore)")

    def kept(dice: list[DieRoll]) -> int:
        return sum(die.value for die in dice if die.kept)

    parts: list[tuple[Node, Part]] = []
    if plain:
        pool = Pool(shape.plain, D6, f"{prefix}{shape.plain}D", die_code=True)
        parts.append((pool, PoolRoll(pool, plain, kept(plain))))
    if wild:
        pool = Pool(1, D6, f"{prefix}wild die", die_code=True)
        parts.append((pool, PoolRoll(pool, wild, kept(wild))))
    if cp_chains:
        cp_dice = [die for chain in cp_chains for die in chain]
        pool = Pool(
            rules.character_points, D6, f"{prefix}cp {rules.character_points}D", die_code=True
        )
        parts.append((pool, PoolRoll(pool, cp_dice, kept(cp_dice))))
    for number in (code.pips, rules.bonus):
        if number:
            parts.append((Number(number), NumberRoll(number)))
    part = _sum_parts(parts)
    data: dict[str, Any] = {
        "code": str(code),
        "critical_failure": critical,
        "complication": "complication" in events,
    }
    return SideRoll(part.total, part, critical, events, details, data)


# --- the program ------------------------------------------------------------------------

Array = npt.NDArray[np.int64]
_SAMPLE_CELLS = 1 << 22
"""Tosses held in memory at once while sampling."""


class D6Program(Program):
    """A checked ``d6:`` roll: rolled, read, measured and sampled from its rules."""

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
        roll = Roll(
            expression.text,
            "d6",
            left.total,
            left.part,
            seed=seed,
            label=expression.label,
            events=left.events,
            details=left.details,
            data=dict(left.data),
        )
        if self.difficulty is not None:
            margin = left.total - self.difficulty
            success = margin >= 0
            verdict = "success" if success else "failure"
            roll.result = f"{verdict} vs {self.difficulty} ({margin:+d})"
            roll.data.update(difficulty=self.difficulty, margin=margin, success=success)
        elif self.right is not None:
            right = roll_side(self.right, _Faces(roller, right_tokens), "opp ")
            margin = left.total - right.total
            node = BinOp("-", Group(Number(left.total)), Group(Number(right.total)))
            roll.parts = OpRoll(
                node,
                GroupRoll(left.part, left.total),
                GroupRoll(right.part, right.total),
                margin,
            )
            roll.total = margin
            if margin > 0:
                roll.result = f"initiator wins by {margin}"
            elif margin == 0:
                roll.result = "tie: the initiator wins"
            else:
                roll.result = f"opponent wins by {-margin}"
            roll.details = left.details + [f"opp: {detail}" for detail in right.details]
            roll.events = left.events + [f"opponent {event}" for event in right.events]
            roll.data.update(
                left_total=left.total,
                right_total=right.total,
                margin=margin,
                success=margin >= 0,
                opponent=right.data,
            )
        return roll

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
        return margin_dist(left, right, depth_for(left.exploding + right.exploding))

    def odds(self) -> Odds:
        combined = self.dist()
        text = self.expression.text
        events: dict[str, Fraction] = {}
        threshold = 0 if self.right is not None else self.difficulty
        if threshold is not None:
            plain_odds = Odds(text, "d6", combined)
            events["success"] = plain_odds.at_least(threshold)
            events["failure"] = plain_odds.at_most(threshold - 1)
        # A critical failure hangs on a Wild Die's first toss alone.
        sides = [("", self.left)] + ([("opponent ", self.right)] if self.right else [])
        for prefix, rules in sides:
            shape = rules.shape()
            if shape.wild and shape.crit != "ignore":
                events[f"{prefix}critical failure"] = CRITICAL_CHANCE
                if shape.crit == "complication":
                    events[f"{prefix}complication"] = CRITICAL_CHANCE
        title = "margin" if self.right is not None else "total"
        return Odds(text, "d6", combined, events, value_title=title)

    # sampling ---------------------------------------------------------------------------

    def sample(self, n: int, rng: np.random.Generator) -> Array:
        sides = [self.left] if self.right is None else [self.left, self.right]
        dice = sum(side.rolled + side.character_points for side in sides)
        per_chunk = max(1, _SAMPLE_CELLS // max(dice, 1))
        chunks = []
        for start in range(0, n, per_chunk):
            rows = min(per_chunk, n - start)
            totals = _sample_side(self.left.shape(), rng, rows)
            if self.right is not None:
                totals -= _sample_side(self.right.shape(), rng, rows)
            chunks.append(totals)
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)


def _explode(first: Array, rng: np.random.Generator) -> Array:
    """Exploding d6 totals from their first tosses: add tosses while 6s come up."""
    values = first.copy()
    live = np.flatnonzero(first == 6)
    while live.size:
        tosses = rng.integers(1, 7, size=live.size)
        values[live] += tosses
        live = live[tosses == 6]
    return values


def _sample_side(shape: SideShape, rng: np.random.Generator, rows: int) -> Array:
    totals = np.full(rows, shape.modifier, dtype=np.int64)
    highest = np.zeros(rows, dtype=np.int64)
    if shape.plain:
        faces = rng.integers(1, 7, size=(rows, shape.plain))
        totals += faces.sum(axis=1)
        highest = faces.max(axis=1)
    if shape.wild:
        first = rng.integers(1, 7, size=rows)
        wild = _explode(first, rng)
        if shape.crit == "cancel":
            cancelled = first == 1
            wild[cancelled] = 0
            totals[cancelled] -= highest[cancelled]
        totals += wild
    if shape.character_points:
        first = rng.integers(1, 7, size=rows * shape.character_points)
        totals += _explode(first, rng).reshape(rows, shape.character_points).sum(axis=1)
    return totals


register_system("d6", D6Program)
