"""A roll's dice and result in Discord's markdown, as the table's page draws
them (``static/dice.js``): Fudge dice as ``[+]`` ``[ ]`` ``[-]``, a d6 as its
number, the Wild Die tagged ``W`` and a Character Point die ``CP``, an exploded
die with ``!``, a die set aside struck through; the total, the verdict and the
result in words (the ladder's word among them).

The Fudge faces are the command line's own (its explanations print them so):
in a code span every face is as wide as the next, on any client and font,
where the symbols ⊞ ▢ ⊟ are drawn at different sizes or not at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .markdown import code, escape, one_line

SET_ASIDE: Final = frozenset({"dropped", "rerolled", "ignored", "cancelled", "removed"})
"""Marks that take a toss out of the total: such a die is drawn struck."""
MOST_DICE: Final = 60
"""Dice drawn on one line; more are counted (a message has room for words too)."""
VERDICTS: Final = {
    "success": "\u2705 success", "win": "\u2705 win",
    "failure": "\u274c failure", "loss": "\u274c loss",
    "tie": "\u2796 tie", "stand-off": "\u2796 stand-off",
}  # fmt: skip


def marks(rolled: Mapping[str, Any]) -> list[str]:
    found = rolled.get("marks")
    return [str(mark) for mark in found] if isinstance(found, list) else []


def face(rolled: Mapping[str, Any]) -> str:
    """One die as the page draws it, in a code span."""
    shown = one_line(rolled.get("face"))
    flags = marks(rolled)
    if one_line(rolled.get("sides")).startswith("F"):
        shown = {"+": "[+]", "-": "[-]"}.get(shown, "[ ]")
    else:
        signed = re.fullmatch(r"([pn])(\d+)", shown)  # a die of 4dF@4d6: positive 4, negative 1
        if signed:
            shown = ("+" if signed[1] == "p" else "-") + signed[2]
        if "exploded" in flags:
            shown += "!"
        if "wild" in flags:
            shown = "W" + shown
        elif "character_point" in flags:
            shown = "CP" + shown
    drawn = code(shown or "?")
    struck = SET_ASIDE.intersection(flags) or rolled.get("kept") is False
    return f"~~{drawn}~~" if struck else drawn


def dice_line(roll: Mapping[str, Any]) -> str:
    """Every die of ``roll``, in the order of its explanation."""
    dice = [each for each in _list(roll.get("dice")) if isinstance(each, Mapping)]
    shown = " ".join(face(each) for each in dice[:MOST_DICE])
    if len(dice) > MOST_DICE:
        shown += f" \u2026 and {len(dice) - MOST_DICE} more"
    return shown


def wild_line(roll: Mapping[str, Any]) -> str | None:
    """The D6 System's Wild Die in words when it did more than count: exploded,
    a complication, a critical failure."""
    wild = [each for each in _list(roll.get("dice")) if isinstance(each, Mapping)]
    wild = [each for each in wild if "wild" in marks(each)]
    if not wild:
        return None
    found = roll.get("details")
    details: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    notes = []
    if any("exploded" in marks(each) for each in wild):
        notes.append("exploded")
    if details.get("critical_failure"):
        notes.append("critical failure")
    if details.get("complication"):
        notes.append("complication")
    if not notes:  # the dice above tag it W: nothing more to say
        return None
    faces = " ".join(face(each) for each in wild[:MOST_DICE])
    return f"**Wild Die** {faces}: {', '.join(notes)}"


def result_line(roll: Mapping[str, Any]) -> str:
    """The total in bold, the verdict, the result in words; a failed roll's error."""
    if roll.get("failed"):
        tosses = " ".join(one_line(each) for each in _list(roll.get("tosses")))
        drew = f" (drew {code(tosses)})" if tosses else ""
        return f"\u26a0\ufe0f failed: {escape(roll.get('error'))}{drew}"
    total = roll.get("total")
    parts = [f"**{escape('?' if total is None else total)}**"]
    verdict = one_line(roll.get("verdict"))
    if verdict:
        parts.append(VERDICTS.get(verdict, escape(verdict)))
    if roll.get("result"):
        parts.append(escape(roll.get("result")))
    return " \u00b7 ".join(parts)


def without_label(notation: Any) -> str:
    """A roll as written, less its ``# label`` (shown on its own)."""
    return re.sub(r"\s*#.*$", "", one_line(notation), flags=re.DOTALL)


def sides_of(roll: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [side for side in _list(roll.get("sides")) if isinstance(side, Mapping)]


def _list(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list) else []
