"""Rolling by trait name: ``Melee vs Great``, ``Melee-1``, ``Climbing``,
``Ashley.Melee opp Bert.Melee``, turned into the text the roll language
already speaks. ``roll`` and ``odds`` take that one text, so they agree by
construction, and the explanation shows it.

A wound changes the dice by the system's rules: Fudge's Hurt is -1 on the
level (3d6 Fudge: on the skill level), Very Hurt -2; a D6 wound is the
engine's own ``wound=`` option (-1D, Severely Wounded -2D). Points spent on
the roll (``cp2``, ``fp``, a Fate ``invoke`` or ``reroll``) are written into
the text too, and taken from the sheet only once the roll is made.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import DiceError, DiceValueError
from .document import SheetError
from .levels import level_name, level_text, rules_of
from .model import SYSTEMS, Sheet, Trait, points
from .rules import D6_OPTION, OUT_OF_ACTION, WOUND_PENALTY, worst_wound

_CHECK = re.compile(r"(?<![\w.])(vs|opp|dmg)(?![\w.])", re.IGNORECASE)
_PREFIX = re.compile(r"^\s*([A-Za-z0-9]+)\s*:")
_SPEND = re.compile(r"^(cp|invoke|reroll)(\d*)(?:=(\w+))?$|^(fp)$")
MAX_SPEND = 20
"""Points one roll may spend of one kind (the engine caps Character Point dice at 20)."""


@dataclass(frozen=True)
class Spend:
    """Points spent on a roll: ``cp`` (D6 Character Points, one die each),
    ``fp`` (a D6 Fate Point), ``invoke`` (Fate: +2 each) or ``reroll``
    (Fate: the reroll invoke, up to ``count`` times by the engine's policy)."""

    point: str
    count: int
    policy: str | None = None

    @property
    def key(self) -> str:
        """The sheet's key the points come from."""
        return "character_points" if self.point == "cp" else "fate_points"


@dataclass(frozen=True)
class Plan:
    """A request read against the sheets: the roll text and why it says what it says."""

    request: str
    text: str
    """The roll, in the roll language: what ``roll`` and ``odds`` are given."""
    notes: tuple[str, ...]
    """What the sheets changed: each trait's level, wounds, points spent."""
    actor: Sheet
    """The sheet of the left side: the one whose points are spent."""
    spends: tuple[Spend, ...] = ()


def read_spends(words: Sequence[str], system: str) -> tuple[Spend, ...]:
    """``cp2``, ``fp``, ``invoke``, ``invoke2``, ``reroll``, ``reroll2=tie``."""
    spends: dict[str, Spend] = {}
    for word in words:
        found = _SPEND.match(word.strip().lower())
        if found is None:
            raise DiceValueError(
                f"'{word}' is no point to spend on a roll",
                hint="D6: cp, cp2, fp; Fate: invoke (+2), invoke2, reroll, reroll=tie",
            )
        point = found.group(1) or found.group(4)
        count = int(found.group(2) or 1)
        # D6 points on a sheet of the D6 System's wounds, invokes on one of Fate's stress
        wanted = "d6" if point in ("cp", "fp") else "fate"
        if rules_of(system).state != ("wound level" if wanted == "d6" else "stress"):
            raise DiceValueError(
                f"'{word}' is spent on a {wanted} roll, not a {system} one",
                hint="a Fudge Point is spent off the roll: fudgedice sheet spend FILE fudge",
            )
        if found.group(3) and point != "reroll":
            raise DiceValueError(f"only a reroll takes a policy, not '{word}'")
        if not 1 <= count <= MAX_SPEND or point in spends:
            raise DiceValueError(
                f"'{word}': spend 1 to {MAX_SPEND} of each kind of point, once per roll"
            )
        spends[point] = Spend(point, count, found.group(3))
    return tuple(spends.values())


def _qualifiers(sheet: Sheet) -> set[str]:
    """How a request may name a sheet: its character's name, that name's
    first word, or the file's name without ``.toml``."""
    names = {sheet.name.lower(), sheet.name.split()[0].lower()}
    if sheet.source != "sheet":
        names.add(Path(sheet.source).stem.lower())
    return names


def _match(text: str, sheets: Sequence[Sheet]) -> tuple[Sheet, Trait, str] | None:
    """The trait a side starts with (the longest name that fits), and the rest."""
    lower = text.lower()
    found: dict[tuple[int, str], tuple[int, Sheet, Trait]] = {}
    for index, sheet in enumerate(sheets):
        for key, trait in sheet.traits.items():
            names = [f"{q}.{key}" for q in _qualifiers(sheet)]
            names.append(key)
            for name in names:
                after = lower[len(name) : len(name) + 1]
                if lower.startswith(name) and not (after.isalnum() or after in ("_", ".")):
                    best = found.get((index, key))
                    if best is None or len(name) > best[0]:
                        found[(index, key)] = (len(name), sheet, trait)
    if not found:
        return None
    longest = max(length for length, _, _ in found.values())
    winners = [(sheet, trait) for length, sheet, trait in found.values() if length == longest]
    if len(winners) > 1:
        whose = " and ".join(sheet.name for sheet, _ in winners)
        raise DiceValueError(
            f"'{text[:longest]}' is a trait of {whose}",
            hint=f"name the sheet: '{winners[0][0].name.split()[0]}.{winners[0][1].name}'",
        )
    sheet, trait = winners[0]
    return sheet, trait, text[longest:]


def _unknown(text: str, sheets: Sequence[Sheet]) -> DiceError:
    """The error for a side that starts with no trait: the nearest one."""
    word = re.split(r"[-+*/()\s]", text.strip(), maxsplit=1)[0]
    sheet = sheets[0]
    if "." in word:
        qualifier, _, word = word.partition(".")
        named = [each for each in sheets if qualifier.lower() in _qualifiers(each)]
        if not named:
            known = ", ".join(each.name.split()[0] for each in sheets)
            return SheetError(f"no sheet is called '{qualifier}'", hint=f"sheets: {known}")
        sheet = named[0]
    try:
        sheet.trait(word or text.strip())
    except DiceError as error:
        return error
    return DiceValueError(f"'{text.strip()}' does not start with a trait of {sheet.name}")


def _wound(sheet: Sheet, role: str) -> tuple[str, str, list[str]]:
    """The level's penalty, the side's options and the notes, from the wounds."""
    if sheet.state == "wound level":
        wound = sheet.d6_wound()
        if wound == "none" or role == "dmg":
            return "", "", []
        option = D6_OPTION[wound]
        return "", f" wound={option}", [f"{sheet.name} is {wound.title()}: wound={option}"]
    if sheet.state != "wound track":
        return "", "", []
    worst = worst_wound(sheet.wounds())
    if worst is None or worst == "Scratch":
        return "", "", []
    if worst in OUT_OF_ACTION:
        raise SheetError(
            f"{sheet.name} is {worst}: an {worst} character makes no roll",
            source=sheet.source,
            hint="fudgedice sheet heal FILE clears the wound track",
        )
    penalty = WOUND_PENALTY[worst]
    where = sheet.rules.penalised
    return f"{penalty:+d}", "", [f"{sheet.name} is {worst}: {penalty:+d} to {where}"]


def _side(
    sheet: Sheet, trait: Trait, rest: str, role: str, spends: tuple[Spend, ...]
) -> tuple[str, list[str]]:
    penalty, options, notes = _wound(sheet, role)
    invokes = ""
    for spend in spends:
        if spend.point == "cp":
            options += f" cp{spend.count}"
        elif spend.point == "fp":
            # a trait is the character's own: on the damage side, with no weapon
            # named, its dice are all the character's for the Fate Point to double
            own = role == "dmg" and not re.search(r"\b(?:weapon|unarmed)\b", rest, re.I)
            options += " unarmed fp" if own else " fp"
        elif spend.point == "invoke":
            invokes = "+2" * spend.count
        else:
            count = "" if spend.count == 1 else str(spend.count)
            options += f" reroll{count}" + (f"={spend.policy}" if spend.policy else "")
    level = level_text(sheet.system, trait.level)
    where = f" ({trait.level.base}+{trait.level.added // 3}D" if trait.level.base else ""
    where += f"+{trait.level.added % 3}" if trait.level.base and trait.level.added % 3 else ""
    where += ")" if where else ""
    notes.insert(
        0, f"{sheet.name}'s {trait.name} is {level_name(sheet.system, trait.level.value)}{where}"
    )
    return f"{level}{penalty}{invokes}{rest.rstrip()}{options}", notes


def resolve(request: str, sheets: Sequence[Sheet], spends: Sequence[str] = ()) -> Plan:
    """The roll text of ``request`` read against ``sheets`` (one, or two for
    an opposed roll), with ``spends`` (``cp2``, ``invoke``, ...) taken by the
    left side's character."""
    if not sheets:
        raise DiceValueError("rolling by trait name needs a sheet")
    body, _, label = request.partition("#")
    system = sheets[0].system
    prefix = _PREFIX.match(body)
    if prefix and prefix.group(1).lower() in SYSTEMS:
        if prefix.group(1).lower() != system:
            raise SheetError(f"the sheet is a {system} sheet, and the roll names {prefix.group(1)}")
        body = body[prefix.end() :]
    if not body.strip():
        raise DiceValueError("name a trait to roll, such as 'Melee' or 'Melee vs Great'")
    check = _CHECK.search(body)
    left = body[: check.start()] if check else body
    matched = _match(left.strip(), sheets)
    if matched is None:
        raise _unknown(left, sheets)
    actor, trait, rest = matched
    mixed = [sheet.name for sheet in sheets if sheet.system != actor.system]
    if mixed:
        raise SheetError(
            f"{', '.join(mixed)} plays another system than {actor.name}: one roll, one system"
        )
    system = actor.system
    spent = read_spends(spends, system)
    for spend in spent:
        have = actor.count(spend.key)
        need = sum(s.count for s in spent if s.key == spend.key)
        if need > have:
            raise SheetError(
                f"{actor.name} has {points(spend.key, have)}, and the roll spends {need}",
                source=actor.source,
            )
    # a damage roll and its resistance are no skill rolls: a wound takes no
    # dice from them, as multiple actions take none (docs/contracts/rules.md section 6)
    role = "dmg" if check and check.group(1).lower() == "dmg" else "left"
    text, notes = _side(actor, trait, rest, role, spent)
    if check:
        keyword, right = check.group(1).lower(), body[check.end() :]
        other = _match(right.strip(), sheets) if keyword != "vs" else None
        if other is not None:
            side, more = _side(other[0], other[1], other[2], keyword, ())
            notes += more
            right = side
        text = f"{text} {keyword} {right.strip()}"
    label = label.strip() or f"{actor.name}, {body.strip()}"
    return Plan(request, f"{system}: {text.strip()} # {label}", tuple(notes), actor, spent)
