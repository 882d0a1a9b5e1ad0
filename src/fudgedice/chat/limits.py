"""Discord's limits on a message, checked (:func:`problems`) and kept
(:func:`fit`): what passes one is refused whole, with a 400, by Discord.

Lengths are counted in UTF-16 code units, which are never fewer than the
characters Discord counts: a message within them is within Discord's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

CONTENT: Final = 2000
EMBEDS: Final = 10
TITLE: Final = 256
DESCRIPTION: Final = 4096
FIELDS: Final = 25
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER: Final = 2048
AUTHOR: Final = 256
TOTAL: Final = 6000
"""Characters of every embed of a message together: titles, descriptions,
fields' names and values, footers and authors' names."""

CUT: Final = "\u2026 (cut)"
EMPTY: Final = "\u200b"
"""What an empty field's name or value is given: Discord refuses an empty one."""


def size(text: str) -> int:
    """``text``'s length as UTF-16 code units (an emoji past U+FFFF is two)."""
    return len(text) + sum(1 for each in text if ord(each) > 0xFFFF)


def cut(text: str, most: int) -> str:
    """``text`` within ``most`` units, ending with a visible note when cut;
    a code block it cuts open is closed again."""
    if size(text) <= most:
        return text
    note = "\n" + CUT if "\n" in text else " " + CUT
    room = max(0, most - size(note))
    kept = _prefix(text, room).rstrip("\\")  # a backslash at the end would escape the note
    if kept.count("```") % 2:  # a code block left open: closed, within the room
        kept = _prefix(kept, max(0, room - 4)).rstrip("\\")
        kept += "\n```" if kept.count("```") % 2 else ""
    return kept + note if size(kept + note) <= most else CUT[:most]


def _prefix(text: str, most: int) -> str:
    """The longest start of ``text`` within ``most`` units (a character is never split)."""
    kept = text[:most]
    over = size(kept) - most
    while over > 0:  # each character dropped from the end frees one unit or two
        over -= size(kept[-1])
        kept = kept[:-1]
    return kept


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def embed_size(embed: Mapping[str, Any]) -> int:
    """The characters of ``embed`` that count toward :data:`TOTAL`."""
    total = size(_text(embed.get("title"))) + size(_text(embed.get("description")))
    for field in _fields(embed):
        total += size(_text(field.get("name"))) + size(_text(field.get("value")))
    total += size(_text(_part(embed, "footer").get("text")))
    return total + size(_text(_part(embed, "author").get("name")))


def problems(message: Mapping[str, Any]) -> list[str]:
    """Which of Discord's limits ``message`` breaks ([] when none)."""
    found = []
    content = _text(message.get("content"))
    embeds = [each for each in message.get("embeds") or [] if isinstance(each, Mapping)]
    if size(content) > CONTENT:
        found.append(f"content has {size(content)} characters, more than {CONTENT}")
    if not content.strip() and not embeds and not message.get("attachments"):
        found.append("the message is empty")
    if len(embeds) > EMBEDS:
        found.append(f"{len(embeds)} embeds, more than {EMBEDS}")
    for number, embed in enumerate(embeds, start=1):
        found.extend(f"embed {number}: {each}" for each in _embed_problems(embed))
        if not shows(embed):
            found.append(f"embed {number} shows nothing")
    total = sum(embed_size(embed) for embed in embeds)
    if total > TOTAL:
        found.append(f"the embeds have {total} characters, more than {TOTAL}")
    if message.get("allowed_mentions") != {"parse": []}:
        found.append("allowed_mentions is not {'parse': []}: it could ping")
    return found


def _embed_problems(embed: Mapping[str, Any]) -> list[str]:
    found = []
    for what, text, most in (
        ("title", _text(embed.get("title")), TITLE),
        ("description", _text(embed.get("description")), DESCRIPTION),
        ("footer", _text(_part(embed, "footer").get("text")), FOOTER),
        ("author", _text(_part(embed, "author").get("name")), AUTHOR),
    ):
        if size(text) > most:
            found.append(f"{what} has {size(text)} characters, more than {most}")
    fields = _fields(embed)
    if len(fields) > FIELDS:
        found.append(f"{len(fields)} fields, more than {FIELDS}")
    for number, field in enumerate(fields, start=1):
        for part, most in (("name", FIELD_NAME), ("value", FIELD_VALUE)):
            text = _text(field.get(part))
            if not text.strip():
                found.append(f"field {number}'s {part} is empty")
            elif size(text) > most:
                found.append(
                    f"field {number}'s {part} has {size(text)} characters, more than {most}"
                )
    return found


SHOWN: Final = ("title", "description", "fields", "footer", "author", "image", "thumbnail")


def shows(embed: Mapping[str, Any]) -> bool:
    """Whether ``embed`` shows anything: Discord refuses an empty one."""
    return any(embed.get(key) for key in SHOWN)


def fit(message: Mapping[str, Any]) -> dict[str, Any]:
    """``message`` within Discord's limits: what passes one cut, with a visible
    note; empty fields filled; mentions never parsed. Never raises."""
    fitted = dict(message)
    given = message.get("embeds") or []
    embeds = [_fit_embed(each) for each in given if isinstance(each, Mapping) and shows(each)]
    content = _text(message.get("content"))
    if len(embeds) > EMBEDS:
        content = f"{content}\n\u2026 {len(embeds) - EMBEDS} more not shown".strip()
        embeds = embeds[:EMBEDS]
    embeds = _within_total(embeds)
    if content:
        fitted["content"] = cut(content, CONTENT)
    else:
        fitted.pop("content", None)
    fitted["embeds"] = embeds
    fitted["allowed_mentions"] = {"parse": []}
    if not embeds and not content.strip() and not message.get("attachments"):
        fitted["content"] = "(nothing to show)"
    return fitted


def _fit_embed(embed: Mapping[str, Any]) -> dict[str, Any]:
    fitted = dict(embed)
    for key, most in (("title", TITLE), ("description", DESCRIPTION)):
        if key in fitted:
            fitted[key] = cut(_text(fitted[key]), most)
    for key, inner, most in (("footer", "text", FOOTER), ("author", "name", AUTHOR)):
        if key in fitted:
            part = dict(_part(fitted, key))
            part[inner] = cut(_text(part.get(inner)), most) or EMPTY
            fitted[key] = part
    fields = [_fit_field(each) for each in _fields(embed)]
    if len(fields) > FIELDS:
        left = len(fields) - FIELDS + 1
        fields = [*fields[: FIELDS - 1], {"name": CUT, "value": f"{left} more not shown"}]
    if "fields" in fitted or fields:
        fitted["fields"] = fields
    return fitted


def _fit_field(field: Mapping[str, Any]) -> dict[str, Any]:
    fitted = dict(field)
    fitted["name"] = (
        cut(_text(field.get("name")), FIELD_NAME) if _text(field.get("name")).strip() else EMPTY
    )
    fitted["value"] = (
        cut(_text(field.get("value")), FIELD_VALUE) if _text(field.get("value")).strip() else EMPTY
    )
    return fitted


def _within_total(embeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Embeds cut, the last first, until they hold :data:`TOTAL` characters
    together: fields dropped (a field says how many), then descriptions cut,
    then whole embeds dropped (one embed without them is well within)."""
    excess = sum(embed_size(each) for each in embeds) - TOTAL
    for embed in reversed(embeds):
        if excess > 0 and embed.get("fields"):
            excess = _drop_fields(embed, excess)
        description = _text(embed.get("description"))
        if excess > 0 and description:
            shorter = cut(description, max(0, size(description) - excess))
            excess -= size(description) - size(shorter)
            embed["description"] = shorter
    while excess > 0 and len(embeds) > 1:
        excess -= embed_size(embeds.pop())
    return [embed for embed in embeds if shows(embed)]  # a description cut to nothing


def _drop_fields(embed: dict[str, Any], excess: int) -> int:
    """Fields dropped from the end until ``excess`` is gone or none is left,
    one field in their place that says so; the excess left."""
    fields = embed["fields"]
    dropped = 0
    while excess > -30 and fields:
        gone = fields.pop()
        excess -= size(gone["name"]) + size(gone["value"])
        dropped += 1
    note = {"name": CUT, "value": f"{dropped} more not shown"}
    fields.append(note)
    return excess + size(note["name"]) + size(note["value"])


def _part(embed: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    part = embed.get(key)
    return part if isinstance(part, Mapping) else {}


def _fields(embed: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    fields = embed.get("fields")
    return (
        [each for each in fields if isinstance(each, Mapping)] if isinstance(fields, list) else []
    )
