"""A character sheet's changes as entries of the log (docs/fairness.md,
"Sheet changes"): attaching or editing a sheet, a hit, a heal, a raise,
points spent off a roll. Such an entry draws nothing: it takes no nonce, and
what the log proves of it is its place in the chain (who changed which
character, when, between which rolls) and the digest of the sheet it left
(``sheet``: SHA-256 of the sheet's text), which its owner can check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..errors import DiceValueError
from .canonical import is_hex64, sha256_hex
from .entries import checked_name, checked_visibility, drawless_entry, now

SHEET_ACTIONS: Final = ("attach", "edit", "raise", "hit", "heal", "spend")

SHEET_FIELDS: Final = (
    "seq",
    "at",
    "roller",
    "visibility",
    "kind",
    "action",
    "character",
    "change",
    "sheet",
    "nonce",
    "commitment",
)
"""A sheet change's own fields: ``roller`` is the sheet's owner, ``change``
what happened in words, ``sheet`` the digest of the sheet's new text."""

MAX_CHANGE = 2000
"""Characters in a change's words (a few lines of ``sheet`` commands' log)."""


def sheet_entry(
    *,
    commitment: str,
    seq: int,
    prev: str,
    roller: str,
    action: str,
    character: str,
    change: str,
    sheet_text: str,
    visibility: str = "gm",
    at: str | None = None,
    extra_shown: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The entry of a sheet's change, and a hidden one's opening (its salt
    and fields, kept private until its seed is revealed). A sheet is its
    owner's and the GM's: its changes are ``gm`` (the roller and the GM) by
    default, chained as a placeholder."""
    shown = checked_visibility(visibility)
    if action not in SHEET_ACTIONS:
        raise DiceValueError(f"a sheet's change is one of {', '.join(SHEET_ACTIONS)}")
    if len(change) > MAX_CHANGE:
        change = change[: MAX_CHANGE - 3] + "..."
    fields: dict[str, Any] = {
        "seq": seq,
        "at": now() if at is None else at,
        "roller": checked_name(roller, "a roller's name"),
        "visibility": shown,
        "kind": "sheet",
        "action": action,
        "character": character,
        "change": change,
        "sheet": sha256_hex(sheet_text.encode("utf-8")),
        "nonce": None,
        "commitment": commitment,
        **(extra_shown or {}),
    }
    return drawless_entry(fields, prev, extra_shown or {})


def sheet_fields_error(fields: Mapping[str, Any]) -> str | None:
    """What is wrong with a sheet change's own fields, or None."""
    missing = [name for name in SHEET_FIELDS if name not in fields]
    if missing:
        return f"it lacks {', '.join(missing)}"
    for name in ("at", "roller", "character", "change"):
        if not isinstance(fields[name], str):
            return f"its {name} is not text"
    if fields["action"] not in SHEET_ACTIONS:
        return f"its action is not one of {', '.join(SHEET_ACTIONS)}"
    if fields["nonce"] is not None:
        return "a sheet's change draws nothing: its nonce is null"
    if not is_hex64(fields["sheet"]):
        return "its sheet is not a SHA-256 of 64 hex digits"
    return None
