"""The slash commands the table answers in Discord (docs/discord.md): their
definitions as Discord's API takes them (``fudgedice discord register`` sends
this list) and the names the interactions endpoint reads back. One list, so
that what is registered and what is answered cannot drift apart."""

from __future__ import annotations

from typing import Any, Final

from ..limits import DEFAULT_LIMITS

STRING: Final = 3
"""Discord's option type of a text; 5 is a yes or no."""
BOOLEAN: Final = 5
CHAT_INPUT: Final = 1
"""Discord's command type of a slash command."""

MAX_LABEL: Final = 200
"""A roll's label at most, as the table bounds it."""

VISIBILITY_CHOICES: Final = (
    ("public", "everyone in the channel"),
    ("gm", "me and the GM"),
    ("self", "only me"),
    ("blind", "the GM only, not even me"),
    ("secret", "the GM's alone (the GM's own rolls)"),
)
"""Who sees a roll, as the table's visibilities: a hidden one is answered to
its roller alone (ephemeral) with a placeholder in the channel."""

SYSTEM_CHOICES: Final = ("fudge", "power", "3d6fudge", "d6", "fate", "fatecondensed", "fae")
"""The systems a channel's room may be made for (the project's own)."""


def _text(name: str, description: str, *, required: bool = True, most: int = 0) -> dict[str, Any]:
    option: dict[str, Any] = {
        "type": STRING, "name": name, "description": description, "required": required,
    }  # fmt: skip
    if most:
        option["max_length"] = most
    return option


def _choices(values: tuple[str, ...] | tuple[tuple[str, str], ...]) -> list[dict[str, str]]:
    return [
        {"name": each, "value": each} if isinstance(each, str)
        else {"name": f"{each[0]}: {each[1]}", "value": each[0]}
        for each in values
    ]  # fmt: skip


TEXT = DEFAULT_LIMITS.max_text
COMMANDS: Final[tuple[dict[str, Any], ...]] = (
    {
        "name": "roll", "type": CHAT_INPUT,
        "description": "Roll in this channel's room: 4dF+2, Good vs Great, d6: 4D+1",
        "options": [
            _text("text", "What to roll, e.g. 4dF+2, Good vs Great, d6: 3D+1 vs 15", most=TEXT),
            {**_text("visibility", "Who sees it (default: everyone)", required=False),
             "choices": _choices(VISIBILITY_CHOICES)},
            _text("label", "What the roll is for, e.g. climb the wall", required=False,
                  most=MAX_LABEL),
        ],
    },
    {
        "name": "odds", "type": CHAT_INPUT,
        "description": "The exact odds of a roll, e.g. 4dF+1 or d6: 3D vs 15",
        "options": [
            _text("text", "The roll to measure", most=TEXT),
            {"type": BOOLEAN, "name": "chart", "description": "Attach a chart of the odds",
             "required": False},
        ],
    },
    {
        "name": "read", "type": CHAT_INPUT,
        "description": "Read dice rolled by hand, e.g. form 4dF+2 with faces + + 0 -",
        "options": [
            _text("form", "The roll the dice were for, e.g. 4dF+2", most=TEXT),
            _text("faces", "The faces, e.g. + + 0 - (Fudge) or 3 5 6 (d6)", most=TEXT),
        ],
    },
    {
        "name": "compare", "type": CHAT_INPUT,
        "description": "Two rolls' odds side by side, e.g. 4dF and 3d6fudge: 0",
        "options": [
            _text("a", "The first roll", most=TEXT), _text("b", "The second roll", most=TEXT)
        ],
    },
    {
        "name": "ladder", "type": CHAT_INPUT,
        "description": "A system's ladder: what each level is called",
        "options": [{**_text("system", "Whose ladder (default: this channel's)", required=False),
                     "choices": _choices(SYSTEM_CHOICES)}],
    },
    {
        "name": "table", "type": CHAT_INPUT,
        "description": "This channel's room: its page, its seed's commitment, your seat",
        "options": [{**_text("system", "The room's system, when the channel has none yet",
                             required=False), "choices": _choices(SYSTEM_CHOICES)}],
    },
    {
        "name": "reveal", "type": CHAT_INPUT,
        "description": "GM: reveal the room's seed (every roll checkable) and commit to a new one",
        "options": [],
    },
)  # fmt: skip
"""Every command, as ``PUT /applications/{id}/commands`` takes the list."""

NAMES: Final = frozenset(command["name"] for command in COMMANDS)
