"""The table's answers as Discord messages: pure, sending
and keeping nothing. Each function gives a message as Discord's API takes it,
``{"content"?, "embeds", "allowed_mentions": NO_MENTIONS, "flags"?}``, within
Discord's limits; user text (names, labels, roll texts, errors) shown as typed,
never as markdown, a mention or a link.

Made in the modules beside this one: :mod:`.dice` and :mod:`.rolls` (a roll,
a placeholder, dice read by hand), :mod:`.odds` (odds, comparisons),
:mod:`.answers` (a ladder, the room, a reveal, an error), :mod:`.charts` (an
odds chart as PNG), :mod:`.limits` (Discord's limits: :func:`fit`,
:func:`problems`), :mod:`.webhook` (an incoming webhook's body, Discord's or
Slack's) and :mod:`.markdown` (escaping).
"""

from __future__ import annotations

from .answers import error_message, ladder_message, reveal_message, room_message
from .charts import chart_png
from .limits import fit, problems
from .messages import EPHEMERAL, NO_MENTIONS
from .odds import compare_message, odds_message
from .rolls import placeholder_message, read_message, roll_message
from .webhook import webhook_body

__all__ = [
    "EPHEMERAL",
    "NO_MENTIONS",
    "chart_png",
    "compare_message",
    "error_message",
    "fit",
    "ladder_message",
    "odds_message",
    "placeholder_message",
    "problems",
    "read_message",
    "reveal_message",
    "roll_message",
    "room_message",
    "webhook_body",
]
