"""Rolling a D6 System side, and reading one rolled by hand: plain dice, the
Wild Die's chain and Character Point dice, with the crit rule applied."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from ...dice.hand import numbered_face
from ...dice.roller import Roller
from ...errors import DiceValueError, LimitError
from ...language.tree import D6, BinOp, Node, Number, Pool
from ...limits import DEFAULT_LIMITS
from ...results.dice import DieRoll, Mark, NumberRoll, OpRoll, Part, PoolRoll
from .rules import Code, SideRules

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


def _chain_rolls(tosses: list[int], kind: Mark) -> list[DieRoll]:
    out = []
    for index, face in enumerate(tosses):
        marks = kind
        if index:
            marks |= Mark.FROM_EXPLOSION
        if face == 6:
            marks |= Mark.EXPLODED
        out.append(DieRoll(D6, face, str(face), marks))
    return out


@dataclass(frozen=True, slots=True)
class D6Details:
    """One side's figures: the die code rolled and what its Wild Die did."""

    code: str
    critical_failure: bool
    complication: bool
    difficulty: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class SideRoll:
    total: int
    part: Part
    events: list[str]
    """The odds' event names: ``critical failure``, ``complication``."""
    steps: list[str]
    details: D6Details


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
    wild = _chain_rolls(_chain(faces, "wild", "Wild Die", "w"), Mark.WILD) if rules.wild else []
    cp_chains = [
        _chain_rolls(
            _chain(faces, "cp", f"Character Point die {index + 1}", "c"), Mark.CHARACTER_POINT
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
            wild[0].set_aside(Mark.CANCELLED, "critical failure")
            if plain:
                highest = max(range(len(plain)), key=lambda i: plain[i].value)
                plain[highest].set_aside(Mark.CANCELLED, "critical failure")
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
    figures = D6Details(str(code), critical, "complication" in events)
    return SideRoll(part.total, part, events, details, figures)
