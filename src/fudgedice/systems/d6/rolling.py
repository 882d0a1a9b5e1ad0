"""Rolling a D6 System side, and reading one rolled by hand: plain dice, the
Wild Die's chain and Character Point dice, with the crit rule applied."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from typing import Any, Literal

from ...dice.hand import HandRoller, numbered_face, written
from ...dice.roller import Roller, roll_die
from ...errors import DiceValueError
from ...language.tree import D6, BinOp, Node, Number, Pool
from ...memory import USED, VALUE, SizedCache, estimate
from ...results.dice import DieRoll, Mark, NumberRoll, OpRoll, Part, PoolRoll
from .measure import EXPLODES, SideShape
from .options import wound_name
from .outcomes import critical_events
from .rules import Code, SideRules

FaceKind = Literal["plain", "wild", "cp"]


class _ChainFaces(HandRoller):
    """The tosses of one kind of exploding die read by hand (the Wild Die's
    ``w6 w3``, every Character Point die's ``c4``), handed to the dice layer's
    walk one die at a time, and missed in the D6 System's own words."""

    __slots__ = ("mark", "name", "start")

    def __init__(self, faces: list[str], mark: str) -> None:
        super().__init__(faces)
        self.mark = mark
        self.name = ""
        self.start = 0

    def chain(self, name: str) -> None:
        """The next die's tosses follow: ``name`` is that die's, in errors."""
        self.name = name
        self.start = self.used

    def next_face(self, what: str) -> str:
        if self.used >= len(self.faces):
            mark = self.mark
            if self.used == self.start:
                need = f"needs a toss (mark it {mark}, such as {mark}4)"
            else:
                need = f"came up 6, so it rolls again: add its next toss as {mark}<face>"
            raise DiceValueError(f"not enough dice: the {self.name} {need}")
        return super().next_face(what)


class TossSources:
    """Where one side's tosses come from, a source for each kind of die: the
    random roller for all three, or faces read by hand and sorted by their
    marks (``w6`` Wild Die, ``c4`` Character Point), each kind a
    :class:`~fudgedice.dice.hand.HandRoller` of its own."""

    def __init__(self, roller: Roller, tokens: list[str] | None) -> None:
        self.plain: Roller = roller
        self.wild: Roller = roller
        self.cp: Roller = roller
        self.by_hand = tokens is not None
        if tokens is not None:
            queues: dict[FaceKind, list[str]] = {"plain": [], "wild": [], "cp": []}
            for token in tokens:
                kind, face = _hand_face(token)
                queues[kind].append(str(face))
            self.plain = HandRoller(queues["plain"])
            self.wild = _ChainFaces(queues["wild"], "w")
            self.cp = _ChainFaces(queues["cp"], "c")

    def given(self) -> int:
        """Plain dice read by hand."""
        assert isinstance(self.plain, HandRoller)
        return len(self.plain.faces)

    def wild_given(self) -> int:
        """Wild Die tosses read by hand (marked ``w``)."""
        assert isinstance(self.wild, HandRoller)
        return len(self.wild.faces)

    def wild_die(self) -> list[DieRoll]:
        return self._exploding(self.wild, "Wild Die", Mark.WILD)

    def cp_die(self, number: int) -> list[DieRoll]:
        return self._exploding(self.cp, f"Character Point die {number}", Mark.CHARACTER_POINT)

    def _exploding(self, source: Roller, name: str, kind: Mark) -> list[DieRoll]:
        """One exploding die's tosses: in the language's terms a one-die pool
        exploding on 6, walked by the dice layer, each toss marked ``kind``."""
        if isinstance(source, _ChainFaces):
            source.chain(name)
        _, tosses = roll_die(_exploding_pool(name), source)
        for toss in tosses:
            toss.mark(kind)
        return tosses

    def check_used(self, rules: SideRules) -> None:
        """Dice read by hand: every marked face must have been needed."""
        if not self.by_hand:
            return
        assert isinstance(self.plain, HandRoller)
        assert isinstance(self.wild, HandRoller) and isinstance(self.cp, HandRoller)
        plain, wild, cp = self.plain.take_rest(), self.wild.take_rest(), self.cp.take_rest()
        if plain:
            raise DiceValueError(
                f"too many dice: {rules.code} rolls {rules.shape().plain} besides the Wild Die "
                f"and Character Point dice (left over: {' '.join(plain)})"
            )
        if wild:
            why = "it rolls again only after a 6" if rules.wild else "this roll has no Wild Die"
            raise DiceValueError(
                f"too many Wild Die tosses: {why} "
                f"(left over: {' '.join('w' + face for face in wild)})"
            )
        if cp:
            raise DiceValueError(
                f"too many Character Point dice: {rules.character_points} bought, each rolls "
                f"again only after a 6 (left over: {' '.join('c' + face for face in cp)})"
            )


@cache
def _exploding_pool(name: str) -> Pool:
    """The Wild Die or a Character Point die as the dice layer rolls it; its
    source names it in the walk's errors (``the Wild Die exploded more than ...``)."""
    return Pool(1, D6, f"the {name}", explode=EXPLODES)


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
            f"{written(token)} is not a face of a D6 System die (1..6)",
            hint="mark the Wild Die's tosses with w (w6 w3) and Character Point dice with c (c4)",
        )
    return kind, face


_LABELS = {face: str(face) for face in D6.faces}
"""A d6's faces as the explanation writes them."""


def _actions(count: int) -> str:
    return "1 action" if count == 1 else f"{count} actions"


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


@dataclass(slots=True)
class D6Details:
    """One side's figures: the die code rolled and what its Wild Die did."""

    code: str
    critical_failure: bool
    complication: bool
    difficulty: int | None = None
    result_points: int | None = None
    """Total less difficulty, for a success (OpenD6); None otherwise."""
    degree: str | None = None
    """The success's degree by its result points: Minimal .. Incredible."""
    wound: str | None = None
    """For damage rolled against resistance (``dmg``): the wound it deals."""
    actions: int = 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class SideRoll:
    """One rolled side of a D6 roll: its total, its dice, the events and the steps shown."""

    total: int
    part: Part
    events: list[str]
    """The odds' event names: ``critical failure``, ``complication``."""
    steps: list[str]
    details: D6Details


@dataclass(frozen=True, slots=True)
class _Layout:
    """What one side rolls, worked out once per side: the same on every roll
    (the notes that read its code, the pools and numbers its sum shows)."""

    shape: SideShape
    notes: tuple[str, ...]
    plain: Pool | None
    wild: Pool | None
    cp: Pool | None
    numbers: tuple[int, ...]
    sums: tuple[BinOp, ...]
    """The sum's nodes, left to right: ``4D + wild die``, then ``... + 2``."""


_LAYOUTS: SizedCache[tuple[int, str], tuple[SideRules, _Layout]] = SizedCache(
    "D6 layouts", 4096, lambda found: estimate(found[1])
)
"""Layouts by side (by identity: a program keeps its sides), at most a few thousand."""
_FIND_LAYOUT = _LAYOUTS.find


def _cached_layout(rules: SideRules, prefix: str) -> _Layout:
    """The side's layout, worked out on its first roll and kept."""
    entry = _FIND_LAYOUT((id(rules), prefix))
    if entry is not None and entry[VALUE][0] is rules:
        entry[USED] = True
        layout: _Layout = entry[VALUE][1]
        return layout
    layout = _work_out_layout(rules, prefix)
    _LAYOUTS.put((id(rules), prefix), (rules, layout))
    return layout


def _layout_notes(rules: SideRules) -> list[str]:
    """How the side's code was read: pips made dice, actions' and wounds'
    costs, a Fate Point's doubling, a reduced roll."""
    code = rules.code
    details: list[str] = []
    if rules.raw != (rules.written.dice, rules.written.pips):
        dice, pips = rules.raw
        details.append(f"{dice}D{pips:+d} reads as {rules.written} (three pips make a die)")
    costs = []
    if rules.actions > 1:
        beyond = rules.actions - 1
        costs.append(f"actions={rules.actions}: -{beyond}D for {_actions(beyond)} beyond the first")
    if rules.wound:
        taken = rules.penalty - (rules.actions - 1)
        costs.append(f"wound={rules.wound}: -{taken}D ({wound_name(rules.wound)})")
    if costs:
        details.append(f"{'; '.join(costs)}, {rules.written} rolls as {rules.acting}")
    if rules.fate_point:
        acting = rules.acting
        doubled = str(Code(2 * acting.dice, 2 * acting.pips))
        same = "" if doubled == str(code) else f" = {code}"
        details.append(f"Fate Point: {acting} doubled to {doubled}{same}")
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
    return details


def _work_out_layout(rules: SideRules, prefix: str) -> _Layout:
    shape = rules.shape()
    code = rules.code
    details = _layout_notes(rules)
    plain = Pool(shape.plain, D6, f"{prefix}{shape.plain}D", die_code=True) if shape.plain else None
    wild = Pool(1, D6, f"{prefix}wild die", die_code=True) if rules.wild else None
    cp = None
    if rules.character_points:
        count = rules.character_points
        cp = Pool(count, D6, f"{prefix}cp {count}D", die_code=True)
    numbers = tuple(number for number in (code.pips, rules.bonus) if number)
    nodes: list[Node] = [pool for pool in (plain, wild, cp) if pool is not None]
    nodes += [Number(number) for number in numbers]
    sums: list[BinOp] = []
    if nodes:
        node = nodes[0]
        for right in nodes[1:]:
            node = BinOp("+", node, right)
            sums.append(node)
    return _Layout(shape, tuple(details), plain, wild, cp, numbers, tuple(sums))


def _check_plain_given(rules: SideRules, shape: SideShape, faces: TossSources) -> None:
    """Dice read by hand: as many plain dice as the code rolls, and the Wild
    Die's tosses marked."""
    code = rules.code
    if faces.given() < shape.plain:
        given = faces.given()
        besides = " besides the Wild Die" if rules.wild else ""
        raise DiceValueError(
            f"not enough dice: {code} rolls {shape.plain} plain dice{besides}, {given} given",
            hint="mark the Wild Die's tosses with w (w6 w3)" if rules.wild else None,
        )
    if rules.wild and not faces.wild_given() and faces.given() > shape.plain:
        # every die given, none marked: say which mark is missing
        example = " ".join(["4"] * shape.plain + ["w3"])
        raise DiceValueError(
            f"which die is the Wild Die? {code} rolls {shape.plain} plain dice and the Wild "
            f"Die: mark the Wild Die's toss with w (such as {example})"
        )


def _plain_dice(faces: TossSources, count: int) -> list[DieRoll]:
    """The side's plain dice, by hand or from the roller's stream."""
    if faces.by_hand:
        plain_faces = [faces.plain.toss(D6) for _ in range(count)]
    else:  # the same draws as one toss at a time, in one loop
        roller = faces.plain
        roller.take(count)
        plain_faces = [D6.tossed[index] for index in roller.stream.draws(6, count)]
        roller.drawn += plain_faces
    return [DieRoll(D6, face, _LABELS[face]) for face in plain_faces]


def roll_side(rules: SideRules, faces: TossSources, prefix: str = "") -> SideRoll:
    """Roll one side: plain dice, the Wild Die's chain, Character Point dice."""
    layout = _cached_layout(rules, prefix)
    shape = layout.shape
    if faces.by_hand:
        _check_plain_given(rules, shape, faces)
    plain = _plain_dice(faces, shape.plain)
    wild = faces.wild_die() if rules.wild else []
    cp_chains = [faces.cp_die(index + 1) for index in range(rules.character_points)]
    faces.check_used(rules)

    details = list(layout.notes)
    named: list[tuple[str, list[DieRoll]]] = [("wild die", wild)]
    named.extend(("character point die", chain) for chain in cp_chains)
    for name, tosses in named:
        if len(tosses) > 1:
            faces_text = "+".join(die.face for die in tosses)
            value = sum(die.value for die in tosses)
            details.append(f"{name} {faces_text} = {value} (exploded {_times(len(tosses) - 1)})")

    critical = _read_wild_one(rules, shape, plain, wild, details)
    events = list(critical_events(shape.crit)) if critical else []
    part = _summed(layout, plain, wild, cp_chains)
    figures = D6Details(str(rules.code), critical, "complication" in events, actions=rules.actions)
    return SideRoll(part.total, part, events, details, figures)


def _read_wild_one(
    rules: SideRules,
    shape: SideShape,
    plain: list[DieRoll],
    wild: list[DieRoll],
    details: list[str],
) -> bool:
    """The crit rule applied to a Wild Die's first 1 (dice set aside, the
    steps told in ``details``): whether it is a critical failure."""
    critical = bool(wild) and wild[0].value == 1 and shape.crit != "ignore"
    if critical:
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
            if rules.reduction == "wildonly":
                details.append("critical failure with the Wild Die alone: the total stands")
            else:
                details.append("critical failure: the total counts, and a complication happens")
    elif wild and wild[0].value == 1:
        details.append("wild 1 ignored (crit=ignore)")
    return critical


def _summed(
    layout: _Layout, plain: list[DieRoll], wild: list[DieRoll], cp_chains: list[list[DieRoll]]
) -> Part:
    """The side's dice and numbers as one sum, left to right."""

    def kept(dice: list[DieRoll]) -> int:
        return sum(die.value for die in dice if die.kept)

    parts: list[Part] = []
    if plain:
        assert layout.plain is not None
        parts.append(PoolRoll(layout.plain, plain, kept(plain)))
    if wild:
        assert layout.wild is not None
        parts.append(PoolRoll(layout.wild, wild, kept(wild)))
    if cp_chains:
        assert layout.cp is not None
        cp_dice = [die for chain in cp_chains for die in chain]
        parts.append(PoolRoll(layout.cp, cp_dice, kept(cp_dice)))
    parts += [NumberRoll(number) for number in layout.numbers]
    part = parts[0]
    for node, right in zip(layout.sums, parts[1:], strict=True):
        part = OpRoll(node, part, right, part.total + right.total)
    return part
