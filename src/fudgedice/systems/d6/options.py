"""The options of one side of a ``d6:`` roll, read and checked one by one:
``nowild``, ``crit=...``, ``cpN``, ``fp``, ``fast``/``wildonly``,
``allow=cpfp``, the OpenD6 settings ``actions=N``, ``wound=...``,
``cpcap=N`` and ``ties=initiator|meet`` (docs/contracts/rules.md sections 4 and 6),
``unarmed`` and the result point bonus, ``rpb`` and ``rp=N`` (section 7).

What the options mean together (a cap against the Character Points spent, a
Fate Point beside them) is judged in :mod:`.rules`, which knows both sides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from ...errors import DiceValueError, LimitError
from ...language.diagnostics import suggest
from ...language.tree import Expression, Option
from ...limits import DEFAULT_LIMITS
from .measure import CritRule

Reduction = Literal["fast", "wildonly"]
Ties = Literal["initiator", "meet"]

CRIT_RULES: tuple[CritRule, ...] = ("complication", "cancel", "ignore")
TIES: tuple[Ties, ...] = ("initiator", "meet")
"""Who an opposed tie goes to: the initiator (the left side, the default),
or, with ``meet``, the opponent, whose total the initiator met but did not beat."""
UNCAPPED = ("none", "unlimited")
"""``cpcap=none``: Character Points per roll are capped only by the engine's limit."""

WOUND_PENALTIES = {"stunned": 1, "wounded": 1, "severely": 2}
"""``wound=...``: the dice a wound takes from later rolls (Severely Wounded: -2D)."""
OUT_OF_ACTION = ("incapacitated", "mortally", "dead")


def wound_name(value: str) -> str:
    """``severely`` as the rules name it: Severely Wounded."""
    return {"severely": "Severely Wounded", "mortally": "Mortally Wounded"}.get(
        value, value.capitalize()
    )


OPTIONS = (
    "nowild",
    "crit",
    "cp",
    "fp",
    "fast",
    "wildonly",
    "allow",
    "actions",
    "wound",
    "cpcap",
    "ties",
    "unarmed",
    "rp",
    "rpb",
)
ALLOW_BOTH = "cpfp"
"""``allow=cpfp``: the GM lets Character Points and a Fate Point share a roll."""

_CP = re.compile(r"cp([0-9]*)")
_NUMBER_DIGITS = 6
"""Digits of a count written in an option: more is no count a table uses."""


@dataclass(slots=True)
class SideOptions:
    """One side's options as written; None (or the default) where not given."""

    wild: bool = True
    crit: CritRule | None = None
    character_points: int = 0
    fate_point: bool = False
    reduction: Reduction | None = None
    allowed: bool = False
    actions: int = 1
    wound: str | None = None
    """The wound the character carries: ``stunned``, ``wounded`` or ``severely``."""
    cp_cap: int | None = None
    """The most Character Points one roll may spend; None: no cap."""
    cp_cap_given: bool = False
    ties: Ties | None = None
    unarmed: bool = False
    """The damage code is all the character's own (no weapon): a Fate Point doubles it."""
    result_points: int | None = None
    """``rp=N``: an earlier success's result points, whose bonus this damage or effect takes."""
    shows_bonus: bool = False
    """``rpb``: a check shows its success's result point bonus."""
    seen: dict[str, Option] = field(default_factory=dict)
    """Each option by its key, for the messages that point at it."""


def _fail(
    expression: Expression, message: str, option: Option, hint: str | None = None
) -> DiceValueError:
    return DiceValueError(message, text=expression.text, position=option.position, hint=hint)


def _count(expression: Expression, option: Option, text: str, what: str) -> int:
    if not text.isdigit():
        raise _fail(expression, f"{option.name} takes a whole number: {what}", option)
    if len(text) > _NUMBER_DIGITS:
        raise LimitError(
            f"{option.name}={text[:12]}... is no count a table uses: {what}",
            text=expression.text,
            position=option.position,
        )
    return int(text)


def read_options(expression: Expression, options: tuple[Option, ...]) -> SideOptions:
    """Read ``options``; a repeated, unknown or malformed option is refused."""
    read = SideOptions()
    for option in options:
        name, value = option.name, option.value
        cp = _CP.fullmatch(name)
        key = "cp" if cp else "reduction" if name in ("fast", "wildonly", "faster") else name
        if key in read.seen:
            earlier = read.seen[key].name
            if key == "reduction" and earlier != name:
                raise _fail(
                    expression,
                    f"'{earlier}' and '{name}' are two dice reductions: a roll takes one",
                    option,
                    "fast rolls five dice, wildonly the Wild Die alone",
                )
            raise _fail(
                expression, f"'{option.name}' repeats an option already given on this side", option
            )
        read.seen[key] = option
        if cp:
            _character_points(expression, option, cp.group(1), read)
        elif name in ("crit", "ties", "allow", "actions", "wound", "cpcap", "rp"):
            _setting(expression, option, read)
        elif value is not None:
            raise _fail(expression, f"'{name}' takes no value", option)
        elif name == "nowild":
            read.wild = False
        elif name == "fp":
            read.fate_point = True
        elif name in ("unarmed", "rpb"):
            read.unarmed = read.unarmed or name == "unarmed"
            read.shows_bonus = read.shows_bonus or name == "rpb"
        elif name in ("fast", "wildonly", "faster"):
            read.reduction = "fast" if name == "fast" else "wildonly"
        else:
            raise _fail(
                expression,
                f"unknown D6 System option '{name}'",
                option,
                suggest(name, [*OPTIONS, "cp2", "crit=cancel"])
                or f"options: nowild, crit=..., cpN, fp, fast, wildonly, allow={ALLOW_BOTH}, "
                "actions=N, wound=..., cpcap=N, ties=initiator|meet, unarmed, rp=N, rpb",
            )
    return read


def _character_points(
    expression: Expression, option: Option, digits: str, read: SideOptions
) -> None:
    value = option.value
    count_text = digits if value is None else value
    if (value is not None and digits) or not (count_text or "1").isdigit():
        raise _fail(expression, "write Character Points as cp2 or cp=2", option)
    if len(count_text) > _NUMBER_DIGITS:
        raise LimitError(
            "write Character Points as a small number, such as cp2",
            text=expression.text,
            position=option.position,
        )
    read.character_points = int(count_text or "1")
    limit = DEFAULT_LIMITS.max_character_points
    if read.character_points > limit:
        raise LimitError(
            f"{read.character_points} Character Points on one roll is more than the "
            f"limit of {limit}",
            text=expression.text,
            position=option.position,
            hint=f"each is an exploding die of its own; cp{limit} is the most one roll may spend",
        )


def _setting(expression: Expression, option: Option, read: SideOptions) -> None:
    """``name=value`` options: crit, ties, allow, actions, wound, cpcap, rp."""
    name, value = option.name, option.value or ""
    if name == "crit":
        if value not in CRIT_RULES:
            raise _fail(
                expression,
                f"crit takes one of {', '.join(CRIT_RULES)}",
                option,
                suggest(value, CRIT_RULES),
            )
        read.crit = value
    elif name == "ties":
        if value not in TIES:
            raise _fail(
                expression,
                f"ties takes one of {', '.join(TIES)}",
                option,
                "ties=initiator: a tie goes to the initiator (the left side); ties=meet: to "
                "the opponent, whose total was met but not beaten",
            )
        read.ties = value
    elif name == "allow":
        if value != ALLOW_BOTH:
            raise _fail(
                expression,
                f"allow={ALLOW_BOTH} is the only permission a roll can carry "
                "(Character Points with a Fate Point)",
                option,
            )
        read.allowed = True
    elif name == "wound":
        if value in OUT_OF_ACTION:
            article = "an" if value == "incapacitated" else "a"
            raise _fail(
                expression,
                f"{article} {wound_name(value)} character takes no action: there is no roll "
                "to make",
                option,
            )
        if value not in WOUND_PENALTIES:
            raise _fail(
                expression,
                f"wound takes one of {', '.join(WOUND_PENALTIES)}",
                option,
                "stunned and wounded cost 1D, severely (Severely Wounded) 2D",
            )
        read.wound = value
    elif name == "rp":
        read.result_points = _count(
            expression, option, value, "the result points of the success whose bonus this adds"
        )
    elif name == "actions":
        read.actions = _count(expression, option, value, "the actions taken this round")
        if read.actions < 1:
            raise _fail(expression, "actions=N counts this round's actions: 1 or more", option)
    else:
        read.cp_cap_given = True
        if value not in UNCAPPED:
            read.cp_cap = _count(
                expression, option, value, "the most Character Points a roll may spend, or none"
            )
