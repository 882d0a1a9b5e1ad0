"""The D6 System's rules (docs/contracts/rules.md section 4, seed 002), checked once per
roll into one :class:`SideRules` per side.

The roller (which also reads dice rolled by hand), the exact measurer
(:mod:`.measure`) and the NumPy sampler (:mod:`.sampling`) all start from those
rules and from :meth:`SideRules.shape`, so they can't disagree about how many
dice are rolled, which one is wild, what a Fate Point doubles or what a
critical failure does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from ...dice.arithmetic import evaluate
from ...errors import DiceValueError, LimitError
from ...language.diagnostics import suggest
from ...language.tree import Expression, Node, Pool, Side, Word
from .codes import NO_CODE, Code, code_parts
from .measure import CritRule, SideShape
from .options import (
    ALLOW_BOTH,
    WOUND_PENALTIES,
    Reduction,
    SideOptions,
    read_options,
    wound_name,
)
from .parts import Role, added_part, check_owner, part_code, result_point_bonus

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

REDUCTION_CHART_ROWS = 50
"""The seed's chart stops at 50D; its formula goes on."""


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
    actions: int = 1
    """Actions this round: each beyond the first costs 1D (OpenD6), taken
    before a Fate Point doubles the code and before dice reduction."""
    wound: str | None = None
    """A wound the character carries, whose penalty is taken with the actions'."""
    added: Code = NO_CODE
    """A weapon's dice in the damage, armor's in the resistance (``weapon 2D``):
    not the character's own, so a Fate Point leaves them as written."""
    added_name: str | None = None
    """``weapon`` or ``armor``: whose ``added`` is."""
    result_points: int | None = None
    """``rp=N``: the result points of the success whose bonus this roll adds."""

    @property
    def penalty(self) -> int:
        """Dice taken from the code: 1D per action beyond the first, and the wound's."""
        return self.actions - 1 + WOUND_PENALTIES.get(self.wound or "", 0)

    @property
    def acting(self) -> Code:
        """The code as written, less the penalty's dice."""
        return Code(self.written.dice - self.penalty, self.written.pips)

    @property
    def own(self) -> Code:
        """The acting code, doubled (pips included) by a Fate Point."""
        acting = self.acting
        if self.fate_point:
            return Code.of(2 * acting.dice, 2 * acting.pips)
        return acting

    @property
    def code(self) -> Code:
        """The code rolled: the character's own dice (:attr:`own`) and the
        weapon's or armor's, as written."""
        own, added = self.own, self.added
        if added == NO_CODE:
            return own
        return Code.of(own.dice + added.dice, own.pips + added.pips)

    @property
    def rp_bonus(self) -> int:
        """The result point bonus this damage or effect adds (``rp=N``)."""
        return 0 if self.result_points is None else result_point_bonus(self.result_points)

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
            modifier=self.code.pips + self.bonus + self.rp_bonus,
            crit=self.effective_crit,
        )


def _fail(
    expression: Expression, message: str, position: int | None, hint: str | None = None
) -> DiceValueError:
    return DiceValueError(message, text=expression.text, position=position, hint=hint)


@dataclass(frozen=True, slots=True)
class Inherited:
    """The GM's rules stated on the left side, which hold for the right side
    unless it states its own: the crit rule and the Character Point cap."""

    crit: CritRule | None = None
    cp_cap: int | None = None
    cp_cap_given: bool = False


def side_rules(
    expression: Expression, side: Side, inherited: Inherited, role: Role = "skill"
) -> tuple[SideRules, SideOptions]:
    """One side's rules, and its options as written (for the checks that
    look at both sides: the ties setting, the cap stated on the left)."""
    if not side.written:
        raise _fail(
            expression,
            "a D6 System roll names its die code before 'vs'",
            None,
            f"such as 'd6: 4D+2 {expression.text.split(':', 1)[-1].strip()}'",
        )
    dice, pips = code_parts(expression, side.expr)
    written = Code.of(dice, pips)
    if written.dice < 1:
        raise _fail(
            expression,
            f"a die code needs at least 1D ({dice}D{pips:+d} is {written})",
            None,
        )
    read = read_options(expression, side.options)
    seen = read.seen
    _check_together(expression, read)
    part = added_part(expression, side, role)
    added = part_code(expression, part)
    check_owner(expression, read, role, part, written)
    _check_actions(expression, written, read, role)
    cap, given = (read.cp_cap, True) if read.cp_cap_given else (inherited.cp_cap, False)
    if cap is not None and read.character_points > cap:
        where = "" if given else ", set on the left side"
        raise _fail(
            expression,
            f"cp{read.character_points} is more than this game's cap of {cap} Character "
            f"Point{'' if cap == 1 else 's'} per roll (cpcap={cap}{where})",
            seen["cp"].position,
            f"if the GM allows more, raise the cap: cpcap={read.character_points}, "
            "or cpcap=none for no cap",
        )
    rules = SideRules(
        written,
        (dice, pips),
        read.wild,
        read.crit or inherited.crit or "complication",
        read.character_points,
        read.fate_point,
        read.reduction,
        read.actions,
        read.wound,
        added,
        part.name if part is not None else None,
        read.result_points,
    )
    if rules.code.dice > expression.max_dice:
        raise LimitError(
            f"{rules.code} is more than the limit of {expression.max_dice} dice",
            text=expression.text,
        )
    return rules, read


def _check_together(expression: Expression, read: SideOptions) -> None:
    """Options that exclude each other: Character Points with a Fate Point
    (unless the GM allows it), a crit rule or ``wildonly`` without a Wild Die."""
    seen = read.seen
    if read.fate_point and read.character_points and not read.allowed:
        raise _fail(
            expression,
            "Character Points and a Fate Point on the same roll need the GM's permission",
            seen["fp"].position,
            f"if your GM allows it, add 'allow={ALLOW_BOTH}'",
        )
    if read.crit is not None and not read.wild:
        raise _fail(
            expression,
            "crit sets what a Wild Die 1 does, and this roll has no Wild Die (nowild)",
            seen["crit"].position,
            "drop crit=..., or drop nowild to roll the Wild Die",
        )
    if read.reduction == "wildonly" and not read.wild:
        raise _fail(
            expression,
            "wildonly rolls the Wild Die alone, so it can't go with nowild",
            seen["reduction"].position,
        )


def _check_actions(expression: Expression, written: Code, read: SideOptions, role: Role) -> None:
    """Each action beyond the first costs 1D of a skill or attribute roll, and
    a wound its penalty of any later roll."""
    wound = WOUND_PENALTIES.get(read.wound or "", 0)
    if read.actions == 1 and not wound:
        return
    option = read.seen["actions" if read.actions > 1 else "wound"]
    if read.actions > 1 and role != "skill":
        raise _fail(
            expression,
            f"multiple actions cost dice of skill and attribute rolls, not of {role}",
            option.position,
            "write actions=N on the attack or skill roll; damage and resistance roll in full",
        )
    left = written.dice - (read.actions - 1) - wound
    if left >= 1:
        return
    if not wound:
        raise _fail(
            expression,
            f"{written} with actions={read.actions} leaves no die: each action beyond the "
            f"first costs 1D, and {written} has {written.dice}",
            option.position,
            f"{written} can take at most actions={written.dice}",
        )
    assert read.wound is not None
    asked = [f"actions={read.actions}"] if read.actions > 1 else []
    raise _fail(
        expression,
        f"{written} with {' and '.join([*asked, f'wound={read.wound}'])} leaves no die: "
        f"{wound_name(read.wound)} costs {wound}D"
        + (f" and the actions {read.actions - 1}D" if asked else "")
        + f", and {written} has {written.dice}",
        option.position,
        f"wounded so, {written} can take at most actions={written.dice - wound}"
        if written.dice > wound
        else f"{wound_name(read.wound)} leaves {written} no die to roll",
    )


def _difficulty_key(text: str) -> str:
    return "".join(char for char in text.lower() if char.isalpha())


_DIFFICULTY_KEYS = {_difficulty_key(phrase): value for phrase, value in DIFFICULTIES.items()}


def difficulty_of(expression: Expression, node: Node) -> int:
    """A difficulty: a number, a word (the top of its range) or arithmetic of them."""

    def word_value(word: Word) -> int:
        value = _DIFFICULTY_KEYS.get(_difficulty_key(word.text))
        if value is None:
            names = [phrase.title() for phrase in DIFFICULTIES]
            raise _fail(
                expression,
                f"unknown difficulty '{word.text}'",
                word.position,
                suggest(word.text, names) or f"difficulties: {', '.join(names)}",
            )
        return value

    def no_dice(pool: Pool) -> NoReturn:
        raise _fail(
            expression,
            "a difficulty is a number or a word; to roll against another code use 'opp'",
            pool.position,
            "d6: 4D+2 opp 3D+1",
        )

    return evaluate(node, word_value, no_dice, what="the difficulty divides by 0")
