"""Rolling a D6 System side, and reading one rolled by hand: plain dice, the
Wild Die's chain and Character Point dice, with the crit rule applied."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from ...errors import DiceValueError
from ...language.tree import D6, BinOp, Node, Number, Pool
from ...memory import USED, VALUE, SizedCache, estimate
from ...results.dice import DieRoll, Mark, NumberRoll, OpRoll, Part, PoolRoll
from .codes import Code
from .faces import TossSources
from .measure import SideShape
from .options import wound_name
from .outcomes import critical_events
from .rules import SideRules

FaceKind = Literal["plain", "wild", "cp"]


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
    result_point_bonus: int | None = None
    """The result point bonus a check's success shows (``rpb``), or a damage or
    effect roll adds (``rp=N``)."""

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
    details += _owner_notes(rules)
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
    if rules.result_points is not None:
        points = rules.result_points
        details.append(
            f"result point bonus: +{rules.rp_bonus} (rp={points}: {points} result "
            f"point{'' if points == 1 else 's'} halved, rounded up)"
        )
    return details


def _owner_notes(rules: SideRules) -> list[str]:
    """What a Fate Point doubled, and the weapon's or armor's dice that stayed."""
    code, added = rules.code, rules.added
    whose = f"the {rules.added_name}'s {added}"
    if rules.fate_point:
        acting = rules.acting
        doubled = str(Code(2 * acting.dice, 2 * acting.pips))
        if rules.added_name is not None:
            return [f"Fate Point: {acting} doubled to {doubled}; {whose} stays, {code} in all"]
        same = "" if doubled == str(code) else f" = {code}"
        return [f"Fate Point: {acting} doubled to {doubled}{same}"]
    if rules.added_name is not None:
        return [f"{rules.acting} and {whose}: {code}"]
    return []


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
    numbers = tuple(number for number in (code.pips, rules.bonus, rules.rp_bonus) if number)
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
    if rules.result_points is not None:
        figures.result_point_bonus = rules.rp_bonus
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
