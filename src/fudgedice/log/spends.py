"""Points spent on a roll after it was made, as entries of the log
(docs/fairness.md, "Points spent on a roll").

A spend is its roll made again from the roll's own stream (the same seed,
client seed and nonce) with the point written into its text: a D6 Character
Point die (``cp1``, or one more than the roll had), a Fate invoke for +2, or
a Fate reroll invoke (``reroll=style``: all four dice again unless the roll
already succeeds with style). The stream gives the same first draws to the
same dice, so the roll's faces come first and the new dice after them, and
anyone who has the revealed seed draws them again. Nobody chooses them: they
were fixed when the seed was committed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from ..api import SYSTEMS
from ..errors import DiceError, DiceValueError
from .canonical import STREAM
from .entries import Logged, roll_entry

SPEND_POINTS: Final = ("cp", "invoke", "reroll")
"""``cp`` (D6: a Character Point die), ``invoke`` (Fate: +2), ``reroll``
(Fate: the reroll invoke)."""

FATE_ROLLS: Final = ("fate", "fatecondensed", "fae")
"""Fate's systems (Core, Condensed, Accelerated): one program, one reroll invoke."""
POINT_SYSTEMS: Final = {"cp": ("d6",), "invoke": FATE_ROLLS, "reroll": FATE_ROLLS}
"""The systems whose rolls each point is spent on (the first names them in messages)."""

_PREFIX = re.compile(r"^\s*([A-Za-z0-9]+)\s*:")
_CHECK = re.compile(r"(?<![\w.])(vs|opp|dmg)(?![\w.])", re.IGNORECASE)
_CP = re.compile(r"(?<![\w=])cp=?([0-9]*)(?![\w])", re.IGNORECASE)
_REROLL = re.compile(r"(?<![\w])reroll", re.IGNORECASE)


def spent_text(text: str, point: str) -> str:
    """The roll's text with one more ``point`` spent by its left side (the
    side that acts): ``d6: 4D+1 vs 15`` and ``cp`` give ``d6: 4D+1 cp1 vs
    15``; ``cp2`` becomes ``cp3``; Fate's ``invoke`` adds ``+2`` after the
    left side's expression, ``reroll`` adds ``reroll=style``. The label after
    ``#`` stays as it was."""
    if point not in SPEND_POINTS:
        raise DiceValueError(
            f"'{point}' is no point spent after a roll", hint="points: " + ", ".join(SPEND_POINTS)
        )
    body, hash_sign, label = text.partition("#")
    prefix = _PREFIX.match(body)
    system = prefix.group(1).lower() if prefix else SYSTEMS.default
    wanted = POINT_SYSTEMS[point]
    if system not in wanted:
        raise DiceValueError(
            f"a {_POINT_NAMES[point]} is spent on a {wanted[0]} roll, not a {system} one"
        )
    assert prefix is not None
    head, body = body[: prefix.end()], body[prefix.end() :]
    check = _CHECK.search(body)
    left, rest = (body[: check.start()], body[check.start() :]) if check else (body, "")
    left = left.strip()
    if point == "cp":
        if _CP.search(rest):
            # both sides' Character Point dice are drawn after both sides' other dice:
            # the spender's new die would take the draws the other side's die showed
            raise DiceValueError(
                "the other side spends Character Points too: spend yours before the roll"
            )
        found = _CP.search(left)
        if found is None:
            left += " cp1"
        else:
            count = int(found.group(1) or 1) + 1
            left = f"{left[: found.start()]}cp{count}{left[found.end() :]}"
    elif point == "invoke":
        options = re.search(r"\s+reroll\S*", left, re.IGNORECASE)
        at = options.start() if options else len(left)
        left = f"{left[:at]}+2{left[at:]}"
    else:
        if _REROLL.search(left):
            raise DiceValueError("the roll has spent its reroll invoke already")
        left += " reroll=style"
    spent = f"{head} {left}" + (f" {rest.strip()}" if rest.strip() else "")
    return f"{spent} #{label}" if hash_sign else spent


_POINT_NAMES: Final = {"cp": "Character Point", "invoke": "invoke", "reroll": "reroll invoke"}


def spend_entry(
    *,
    server_seed: bytes,
    room: str,
    seq: int,
    prev: str,
    of: Mapping[str, Any],
    point: str,
    stream: int = STREAM,
    at: str | None = None,
    extra: Mapping[str, Any] | None = None,
    extra_shown: Mapping[str, Any] | None = None,
) -> Logged:
    """The entry of ``point`` spent on the roll whose own fields are ``of``
    (a roll's, or an earlier spend's: points may follow points). It rolls the
    spent text from the roll's stream and refuses a spend whose dice would
    not begin with the roll's, or that rolls nothing new (a reroll of a roll
    that already succeeds with style). ``stream`` is the version of the dice
    stream of the roll's seed: the roll's stream is drawn again, its member
    (version 2) in its context."""
    if of.get("by_hand") or of.get("nonce") is None:
        raise DiceValueError(
            "dice read by hand take no point after the roll: read the point's die with them"
        )
    if of.get("error") is not None:
        raise DiceValueError("the roll failed: no point is spent on it")
    text = spent_text(str(of["text"]), point)
    logged = roll_entry(
        server_seed=server_seed,
        commitment=str(of["commitment"]),
        room=room,
        seq=seq,
        nonce=int(of["nonce"]),
        prev=prev,
        text=text,
        roller=str(of["roller"]),
        visibility=str(of["visibility"]),
        client_seed=str(of["client_seed"]),
        member=None if of.get("member") is None else str(of["member"]),
        stream=stream,
        at=at,
        extra={**(extra or {}), "point": point},
        extra_shown={**(extra_shown or {}), "kind": "spend", "of": of["seq"]},
    )
    if logged.roll is None:
        assert logged.error is not None
        raise DiceValueError(
            f"with the {_POINT_NAMES[point]}, the roll fails: {logged.error.message}"
        )
    before: list[Any] = list(of["faces"])
    tosses = logged.roll.tosses
    if tosses[: len(before)] != before:
        raise DiceValueError(
            f"a {_POINT_NAMES[point]} here would change dice already rolled",
            hint="spend it before the roll: its dice are drawn with the others",
        )
    if point == "reroll" and len(tosses) == len(before):
        raise DiceValueError("nothing to reroll: the roll already succeeds with style")
    return logged


def spend_error(
    entry: Mapping[str, Any],
    fields: Mapping[str, Any] | None,
    of_entry: Mapping[str, Any] | None,
    of_fields: Mapping[str, Any] | None,
    position: int,
) -> str | None:
    """What is wrong with a spend, or None. ``entry`` is its link of the
    chain (a hidden one's placeholder), ``fields`` its own fields once known;
    ``of_entry`` and ``of_fields`` the same of the roll it names."""
    of = entry.get("of")
    if not isinstance(of, int) or isinstance(of, bool) or not 1 <= of < position:
        return "it spends a point on no earlier entry"
    if of_entry is None or of_entry.get("kind", "roll") not in ("roll", "spend"):
        return f"it spends a point on seq {of}, which is no roll"
    for name in ("roller", "member", "visibility", "commitment", "nonce"):
        if entry.get(name) != of_entry.get(name):
            return f"its {name} is not that of seq {of}, the roll it spends a point on"
    if entry.get("nonce") is None:
        return "a point spent after the roll is drawn from its roll's stream: it needs a nonce"
    if fields is None or of_fields is None:
        return None  # hidden and not opened yet: its place is checked, its dice wait
    if "error" in fields or "error" in of_fields:
        return f"a point is spent on a roll that rolls: seq {of} or this spend failed"
    point = fields.get("point")
    if point not in SPEND_POINTS or fields.get("of") != of:
        return "its point is not one of " + ", ".join(SPEND_POINTS)
    if fields.get("client_seed") != of_fields.get("client_seed"):
        return f"its client seed is not that of seq {of}"
    try:
        expected = spent_text(str(of_fields.get("text")), point)
    except DiceError as error:
        return f"no {point} can be spent on seq {of}: {error.message}"
    if fields.get("text") != expected:
        return f"its text is not seq {of}'s with the {point} spent: {expected!r}"
    before, after = of_fields.get("faces"), fields.get("faces")
    if not isinstance(before, list) or not isinstance(after, list):
        return None  # the fields' own checks say so
    if after[: len(before)] != before or (point == "invoke" and len(after) != len(before)):
        return f"its faces do not begin with those of seq {of}, the roll it spends a point on"
    return None
