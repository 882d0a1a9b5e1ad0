"""A roll as a Discord message: whole, to those who may see it, or its
placeholder, to those who may not (the table's cards, ``static/dice.js``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from .dice import dice_line, result_line, sides_of, wild_line, without_label
from .markdown import block, code, escape, one_line, plain
from .messages import BAD, EVEN, HIDDEN, colour, message, placed

SEEN_BY: Final = {
    "gm": "only its roller and the GM see it",
    "self": "only its roller sees it",
    "blind": "only the GM sees it, not even its roller",
    "secret": "the GM's secret roll",
    "whisper": "a whisper: its sender and the one it is to",
}
"""Who sees a hidden roll, said on the roll itself."""
PLACED: Final = {
    "gm": "made a roll for the GM's eyes",
    "self": "made a roll kept to themself",
    "blind": "made a blind roll: only the GM sees it",
    "secret": "made a secret roll",
    "whisper": "whispered",
}
"""What a placeholder says its roller did, by the roll's visibility."""
MOST_LINES: Final = 40
"""Lines of a sheet's change or an action of play shown."""
MOST_HOW: Final = 900
"""Characters of a roll's explanation shown under it (a field holds 1024)."""


def roll_message(
    shown: Mapping[str, Any], *, system: str, link: str | None = None
) -> dict[str, Any]:
    """A roll as the table shows it whole: its roller and label, its text,
    its dice, its result; under it its ``seq`` and hash (``fudgedice verify``).
    A placeholder (``hidden``: what the API shows a reader who may not see the
    roll, such as a blind roll's roller) is shown as one."""
    if shown.get("hidden") is True:
        return placeholder_message(shown, link=link)
    name = one_line(shown.get("name")) or "someone"
    label = one_line(shown.get("label"))
    title = f"{escape(name)}: {escape(label)}" if label else escape(name)
    embed = roll_embed(_in_room(shown, system), title=title)
    embed["footer"] = {"text": plain(_footer(shown, system))}
    return message(placed(embed, link, shown.get("at")))


def read_message(roll: Mapping[str, Any]) -> dict[str, Any]:
    """Dice rolled by hand and read (``Roll.to_dict()`` of a read roll)."""
    label = one_line(roll.get("label"))
    embed = roll_embed(roll, title="Read by hand" + (f": {escape(label)}" if label else ""))
    embed["footer"] = {"text": "the faces as given: nobody can check how they fell"}
    return message(embed)


def placeholder_message(shown: Mapping[str, Any], *, link: str | None = None) -> dict[str, Any]:
    """That a hidden roll was made, by whom, how hidden, its place in the log
    and its hash: nothing of the roll itself (read from those keys alone)."""
    name = escape(one_line(shown.get("name")) or "someone")
    visibility = one_line(shown.get("visibility"))
    if shown.get("kind") == "sheet":
        did = "changed a character sheet (hidden)"
    else:
        did = PLACED.get(visibility, "made a hidden roll")
    seq = _seq(shown)
    embed: dict[str, Any] = {
        "title": f"\U0001f512 {name} {did}" + (f" (#{seq})" if seq else ""),
        "color": HIDDEN,
        "footer": {"text": plain(_footer({key: shown.get(key) for key in ("seq", "hash")}, ""))},
    }
    return message(placed(embed, link, shown.get("at")))


def roll_embed(roll: Mapping[str, Any], *, title: str) -> dict[str, Any]:
    """The embed of a roll: its text, dice and result; each side of an opposed roll.
    A sheet's change or an action of play: what happened, in words."""
    visibility = one_line(roll.get("visibility"))
    hidden = [f"\U0001f512 {SEEN_BY[visibility]}"] if visibility in SEEN_BY else []
    if roll.get("kind") in {"sheet", "play"}:
        said = roll.get("lines")
        lines = [escape(line) for line in said[:MOST_LINES]] if isinstance(said, list) else []
        lines = lines or ["(nothing said)"]
        return {"title": title, "description": "\n".join([*hidden, *lines]), "color": EVEN}
    lines = [code(without_label(roll.get("notation")) or "?"), *hidden]
    if roll.get("kind") == "spend" and roll.get("spent"):
        lines.append(escape(roll.get("spent")))
    sides = sides_of(roll)
    if not sides and not roll.get("failed"):
        lines.append(dice_line(roll) or "no dice")
    wild = wild_line(roll)
    if wild and not sides:
        lines.append(wild)
    lines.append(result_line(roll))
    if roll.get("foreseeable"):
        lines.append("*rolled with no client seed: the host could have foreseen these dice*")
    embed: dict[str, Any] = {
        "title": title,
        "description": "\n".join(lines),
        "color": BAD if roll.get("failed") else colour(roll.get("verdict")),
        "fields": [_side(side) for side in sides],
    }
    how = _how(roll.get("text"))
    if how:
        embed["fields"].append({"name": "how", "value": how})
    return embed


def _side(side: Mapping[str, Any]) -> dict[str, Any]:
    lines = [dice_line(side) or "no dice"]
    wild = wild_line(side)
    if wild:
        lines.append(wild)
    lines.append(result_line(side))
    return {
        "name": escape(without_label(side.get("notation")) or "a side"),
        "value": "\n".join(lines),
    }


def _in_room(roll: Mapping[str, Any], system: str) -> Mapping[str, Any]:
    """The roll with its ladder's name left out of its result when the ladder
    is the room's own, as the page says it ("+3 Good (Fate Core)" reads "+3 Good")."""
    details = roll.get("details")
    ladder = details.get("ladder") if isinstance(details, Mapping) else None
    said = roll.get("result")
    if not ladder or not isinstance(said, str) or roll.get("system") != system:
        return roll
    return {**roll, "result": said.replace(f" ({ladder})", "")}


def _how(text: Any) -> str | None:
    """The explanation less its first line (the result, said above), as code."""
    if not isinstance(text, str):
        return None
    lines = [re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", " ", line) for line in text.splitlines()[1:]]
    shown = "\n".join(lines).strip("\n")
    if not shown:
        return None
    if len(shown) > MOST_HOW:
        shown = shown[:MOST_HOW].rstrip() + "\n\u2026"
    return block(shown)


def _footer(shown: Mapping[str, Any], system: str) -> str:
    """The roll's place in the log and what ``fudgedice verify --hash`` takes
    to check it there (a placeholder's too: the log holds it, hash and all)."""
    seq = _seq(shown)
    parts = [f"#{seq}"] if seq else []
    if system:
        parts.append(system)
    if shown.get("by_hand"):
        parts.append("read by hand")
    if shown.get("verified") is True:
        parts.append("\u2713 verified")
    elif shown.get("verified") is False:
        parts.append("\u2717 fails to verify")
    digest = one_line(shown.get("hash"))
    if seq and re.fullmatch(r"[0-9a-f]{16,128}", digest):
        parts.append(f"verify --hash {seq}:{digest[:16]}")
    return " \u00b7 ".join(parts) or "fudgedice"


def _seq(shown: Mapping[str, Any]) -> str:
    seq = shown.get("seq")
    return str(seq) if isinstance(seq, int) and not isinstance(seq, bool) else ""
