"""The table's other answers as Discord messages: a ladder, the channel's
room (``/table``), a reveal, an error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..api import ladder, table
from ..errors import DiceError
from ..render.table import table_text
from .markdown import block, code, escape, one_line
from .messages import BAD, EPHEMERAL, EVEN, GOOD, link, message, placed

WORDS_INSTEAD: Final = {"d6": "d6-difficulties"}
"""A system without a ladder, and the table of words it reads instead."""


def ladder_message(system: str) -> dict[str, Any]:
    """``system``'s ladder (the D6 System's difficulty words), as a code block;
    an unknown system's error."""
    try:
        chosen = table(WORDS_INSTEAD[system]) if system in WORDS_INSTEAD else ladder(system)
    except DiceError as error:
        return error_message(error.message, error.hint)
    embed = {"title": one_line(chosen.title), "description": block(table_text(chosen))}
    return message({**embed, "color": EVEN})


def room_message(
    *,
    name: str,
    system: str,
    link: str | None,
    commitment: str,
    epoch: int,
    seat_link: str | None = None,
) -> dict[str, Any]:
    """The channel's room: its page, its system, the commitment to its seed.
    With ``seat_link`` (the asker's own seat, a secret) it is sent to the
    asker alone: ephemeral."""
    lines = [
        "Rolls made here and at the room's page are one log: each shows at both.",
        f"Seed {epoch}'s commitment: {code(commitment)}",
        "When the GM reveals the seed, anyone can check every roll with `fudgedice verify`.",
    ]
    page = _link(link)
    if page:
        lines.insert(0, f"Page: <{page}>")
    seat = _link(seat_link)
    if seat:
        lines.append(f"Your seat (keep it to yourself): <{seat}>")
    embed: dict[str, Any] = {
        "title": f"{escape(name)} ({escape(system)})",
        "description": "\n".join(lines),
        "color": EVEN,
    }
    made = message(placed(embed, page, None))
    if seat:
        made["flags"] = EPHEMERAL
    return made


def reveal_message(revealed: Mapping[str, Any], *, link: str | None = None) -> dict[str, Any]:
    """A reveal (the store's answer): the seed, what it was committed to, the next commitment."""
    epoch = revealed.get("epoch")
    lines = [
        f"Seed: {code(revealed.get('server_seed'))}",
        f"It was committed to as {code(revealed.get('commitment'))}",
        f"The next seed's commitment: {code(revealed.get('next_commitment'))}",
        "Every roll of the seed now checks: export the room's log and run `fudgedice verify`.",
    ]
    embed: dict[str, Any] = {
        "title": f"Seed {escape(epoch)} revealed",
        "description": "\n".join(lines),
        "color": GOOD,
    }
    return message(placed(embed, _link(link), revealed.get("revealed_at")))


def error_message(error: str, hint: str | None = None) -> dict[str, Any]:
    """An error, to its asker alone (ephemeral): what went wrong and what to try."""
    said = f"\u26a0\ufe0f {escape(error) or 'something went wrong'}"
    if hint and one_line(hint):
        said += f"\n{escape(hint)}"
    made = message({"description": said, "color": BAD})
    made["flags"] = EPHEMERAL
    return made


def _link(value: str | None) -> str | None:
    """An http(s) address to show (between ``<`` and ``>``: no preview) and to link."""
    checked = link(value)
    return checked if checked and not any(c in checked for c in "<>") else None
