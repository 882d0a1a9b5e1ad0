"""Whose dice a D6 System side rolls, and the result point bonus (docs/contracts/rules.md
sections 6 and 7, OpenD6).

A Fate Point doubles the character's own dice, never a weapon's or armor's.
So a damage roll says which dice are whose: ``3D+1 weapon 2D`` is the
character's own 3D+1 (Strength Damage) and a weapon's 2D; a damage code
alone (``5D+1 dmg ...``) is all the weapon's, and ``unarmed`` says it is all
the character's own. A resistance code is the character's own (Strength or
Physique), and ``armor 1D`` adds the armor's.

A success's result points, halved and rounded up, may be added to the
damage or effect of the action (an option, off by default): ``rpb`` shows
that bonus on a check, ``rp=N`` adds the bonus of N result points to a
damage or effect roll.
"""

from __future__ import annotations

from typing import Literal

from ...errors import ChangedRule, DiceValueError
from ...language.tree import Expression, Part, Side
from .codes import NO_CODE, Code, code_parts
from .options import SideOptions

Role = Literal["skill", "damage", "resistance"]
"""What a side rolls: a skill or attribute (a check, either side of ``opp``),
or the damage and the resistance of ``dmg``, which multiple actions never reduce."""

PART_ROLES: dict[str, Role] = {"weapon": "damage", "armor": "resistance"}
"""Where each part belongs: a weapon's dice in the damage, armor's in the resistance."""
_WHERE = {"damage": "the damage, left of dmg", "resistance": "the resistance, right of dmg"}
EXAMPLE = "d6: 3D+1 weapon 2D dmg 3D+2 armor 1D"


def _fail(
    expression: Expression, message: str, position: int | None, hint: str | None = None
) -> DiceValueError:
    return DiceValueError(message, text=expression.text, position=position, hint=hint)


def result_point_bonus(result_points: int) -> int:
    """What a success of ``result_points`` adds to its damage or effect:
    half of them, rounded up."""
    return -(-result_points // 2)


def added_part(expression: Expression, side: Side, role: Role) -> Part | None:
    """The side's one part that is not the character's own, checked to stand
    where it belongs (a weapon in the damage, armor in the resistance)."""
    found: Part | None = None
    for part in side.parts:
        belongs = PART_ROLES[part.name]
        if belongs != role:
            raise _fail(
                expression,
                f"'{part.name}' adds {_whose(part.name)} dice to {_WHERE[belongs]}",
                part.position,
                f"such as '{EXAMPLE}'",
            )
        if found is not None:
            raise _fail(
                expression,
                f"a second '{part.name}': write all of {_whose(part.name)} dice in one code",
                part.position,
                f"such as '{part.name} 2D+1'",
            )
        found = part
    return found


def _whose(name: str) -> str:
    return "a weapon's" if name == "weapon" else "armor's"


def part_code(expression: Expression, part: Part | None) -> Code:
    """The part's code, at least a pip: none when the side has no part."""
    if part is None:
        return NO_CODE
    dice, pips = code_parts(expression, part.expr)
    if 3 * dice + pips < 1:
        hint = "for no armor, leave out 'armor'"
        if part.name == "weapon":
            hint = "unarmed, leave out 'weapon' (and write unarmed to spend a Fate Point on it)"
        raise _fail(
            expression,
            f"'{part.name}' adds dice or pips, and {dice}D{pips:+d} adds none",
            part.position,
            hint,
        )
    return Code.of(dice, pips)


def check_owner(
    expression: Expression, read: SideOptions, role: Role, part: Part | None, written: Code
) -> None:
    """``unarmed`` on damage alone, without a weapon; a Fate Point with dice of
    the character's own to double."""
    seen = read.seen
    if read.unarmed and role != "damage":
        raise _fail(
            expression,
            "unarmed says a damage code is all the character's own, and "
            + (
                "this side is the resistance"
                if role == "resistance"
                else "this roll deals no damage"
            ),
            seen["unarmed"].position,
            "write it left of dmg: d6: 3D+1 unarmed fp dmg 3D+2",
        )
    if read.unarmed and part is not None:
        raise _fail(
            expression,
            "unarmed says there is no weapon, and this damage adds a weapon's dice",
            seen["unarmed"].position,
            "drop unarmed, or drop the weapon",
        )
    if read.fate_point and role == "damage" and part is None and not read.unarmed:
        at = seen["fp"].position
        # rolls logged before weapons were told apart doubled the whole code,
        # as unarmed does now: a verifier rolls them so (errors.ChangedRule)
        formerly = None if at is None else f"{expression.text[:at]}unarmed {expression.text[at:]}"
        raise ChangedRule(
            "a Fate Point doubles only the character's own dice, and the damage code "
            f"{written} is all the weapon's",
            formerly=expression.text if formerly is None else formerly,
            text=expression.text,
            position=at,
            hint="write the character's own dice first and the weapon's after 'weapon' "
            f"(d6: 3D+1 weapon 2D fp dmg ...); if {written} is all the character's own "
            "(Strength Damage, unarmed), add unarmed",
        )


def check_bonus(
    expression: Expression, left: SideOptions, right: SideOptions | None, kind: str
) -> None:
    """``rp=N`` on a damage or effect roll (the left side of ``dmg``, or a code
    alone), ``rpb`` on the left side of a check or an opposed roll.

    ``kind`` is what the roll is: ``code``, ``vs``, ``opp`` or ``dmg``."""
    if right is not None:
        for key in ("rp", "rpb"):
            option = right.seen.get(key)
            if option is not None:
                whose = "resistance" if kind == "dmg" else "opponent"
                written = option.name + ("" if option.value is None else f"={option.value}")
                raise _fail(
                    expression,
                    f"{written} is the acting character's, on the left side: the "
                    f"{whose} takes no result point bonus",
                    option.position,
                )
    given = left.seen.get("rp")
    if given is not None and kind in ("vs", "opp"):
        raise _fail(
            expression,
            "rp=N adds an earlier success's result point bonus to a damage or effect roll, "
            "and this roll is a check",
            given.position,
            "a check shows its own bonus with rpb: d6: 4D+1 rpb vs 15; the damage then "
            "takes it: d6: 3D+1 weapon 2D rp=7 dmg 3D+2",
        )
    shown = left.seen.get("rpb")
    if shown is not None and kind not in ("vs", "opp"):
        raise _fail(
            expression,
            "rpb shows a success's result point bonus, and this roll has no difficulty "
            "(vs) or opponent (opp)",
            shown.position,
            "d6: 4D+1 rpb vs 15; to add a bonus to damage, write rp=N with the check's "
            "result points",
        )


def bonus_text(result_points: int) -> str:
    """``result point bonus +4``."""
    return f"result point bonus +{result_point_bonus(result_points)}"


BONUS_EVENTS = 9
"""A check with ``rpb`` has an event for each bonus up to ``bonus +9 or more``:
9 is the bonus of 17 result points, where the degrees end at Incredible."""


def bonus_bands(threshold: int) -> list[tuple[str, int, int | None]]:
    """Each bonus's event and the totals (margins) that earn it, against
    ``threshold``: +0 at the threshold, +b from ``2b - 1`` to ``2b`` above it."""
    bands: list[tuple[str, int, int | None]] = [("bonus +0", threshold, threshold)]
    for bonus in range(1, BONUS_EVENTS):
        bands.append((f"bonus +{bonus}", threshold + 2 * bonus - 1, threshold + 2 * bonus))
    top = BONUS_EVENTS
    bands.append((f"bonus +{top} or more", threshold + 2 * top - 1, None))
    return bands
