"""Talk at the table as entries of the log (docs/fairness.md, "Talk"): a
short message beside the rolls, hidden as a roll may be, or whispered to one
member. Such an entry draws nothing (no nonce); what the log proves of it is
its place in the chain, who said it and when, and, to whoever may read it,
its words (a hidden one's opening matches its digest).

Unlike a hidden roll, a hidden message is not opened to everyone when its
seed is revealed: a reveal shows that the dice were fair, and private words
have nothing to do with the dice.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, Final

from ..errors import DiceTypeError, DiceValueError
from .canonical import TALK_VISIBILITIES, is_hex64
from .entries import checked_member, checked_name, checked_visibility, drawless_entry, now

MAX_TALK: Final = 500
"""Characters in one message, once stripped: a few lines, not a document."""

TALK_FIELDS: Final = (
    "seq",
    "at",
    "roller",
    "visibility",
    "kind",
    "member",
    "text",
    "to",
    "nonce",
    "commitment",
)
"""A message's own fields: ``roller`` is the sender's name, ``member`` their
id, ``to`` the member a whisper goes to (null for any other visibility)."""


def checked_talk(value: object) -> str:
    """A message's words: text, stripped, of 1 to :data:`MAX_TALK` characters,
    no control character but the newline (a CR LF read as a newline).

    >>> checked_talk("  The door creaks.\\r\\nWho goes first? ")
    'The door creaks.\\nWho goes first?'
    >>> checked_talk("a\\tb")
    Traceback (most recent call last):
    ...
    fudgedice.errors.DiceValueError: a message holds no control character but the newline
    """
    if not isinstance(value, str):
        raise DiceTypeError(f"a message is text, not {type(value).__name__}")
    text = value.replace("\r\n", "\n").strip()
    if not text:
        raise DiceValueError("a message is empty")
    if len(text) > MAX_TALK:
        raise DiceValueError(f"a message has at most {MAX_TALK} characters, not {len(text)}")
    if any(char != "\n" and unicodedata.category(char) == "Cc" for char in text):
        raise DiceValueError("a message holds no control character but the newline")
    return text


def talk_entry(
    *,
    commitment: str,
    seq: int,
    prev: str,
    roller: str,
    member: str,
    text: str,
    visibility: str = "public",
    to: str | None = None,
    at: str | None = None,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The entry of a message, chained after ``prev``, and a hidden one's
    opening (its salt and fields): shown to those who may read it.

    >>> entry, opening = talk_entry(commitment="0" * 64, seq=1, prev="0" * 64,
    ...     roller="Ann", member="a1", text="psst", visibility="whisper", to="b2")
    >>> entry["kind"], entry["hidden"], "text" in entry, "to" in entry
    ('talk', True, False, False)
    >>> opening["entry"]["text"], opening["entry"]["to"], talk_fields_error(opening["entry"])
    ('psst', 'b2', None)
    """
    fields: dict[str, Any] = {
        "seq": seq,
        "at": now() if at is None else at,
        "roller": checked_name(roller, "a sender's name"),
        "visibility": checked_visibility(visibility, TALK_VISIBILITIES),
        "kind": "talk",
        "member": checked_member(member),
        "text": checked_talk(text),
        "to": None if to is None else checked_member(to),
        "nonce": None,
        "commitment": commitment,
    }
    wrong = talk_fields_error(fields)
    if wrong is not None:
        raise DiceValueError(f"a message's fields: {wrong}")
    return drawless_entry(fields, prev, {"member": fields["member"]})


def talk_fields_error(fields: Mapping[str, Any]) -> str | None:
    """What is wrong with a message's own fields, or None."""
    missing = [name for name in TALK_FIELDS if name not in fields]
    if missing:
        return f"it lacks {', '.join(missing)}"
    for name in ("at", "roller", "member", "text"):
        if not isinstance(fields[name], str):
            return f"its {name} is not text"
    try:
        if checked_talk(fields["text"]) != fields["text"]:
            return "its text is not stripped"
    except DiceValueError as error:
        return f"its text: {error.message}"
    if fields["visibility"] not in TALK_VISIBILITIES:
        return f"its visibility is not one of {', '.join(TALK_VISIBILITIES)}"
    to = fields["to"]
    if fields["visibility"] == "whisper":
        if not isinstance(to, str) or not to or to == fields["member"]:
            return "a whisper is to one other member: its to is their id"
    elif to is not None:
        return "only a whisper is to someone: its to is null"
    if fields["nonce"] is not None:
        return "a message draws nothing: its nonce is null"
    if not is_hex64(fields["commitment"]):
        return "its commitment is not 64 hex digits"
    return None
