"""Odds and comparisons as Discord messages: a table in a code block (its
columns kept), the events under it. A distribution too long for a message
(an exploding roll's tail goes on for pages) is shown as its likeliest
window of values, and the message says what was left out and how likely it is."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..render.numbers import percent
from .markdown import block, escape, one_line
from .messages import EVEN, message

MOST_ROWS: Final = 25
"""Values one table shows: past them a window, the likeliest."""
MOST_EVENTS: Final = 20
BAR: Final = 10
"""Width of the longest chance's bar."""
MOST_EXACT: Final = 24
"""Characters of an exact fraction shown beside its percentage."""
NAME: Final = 12
MOST_FORMS: Final = 8
"""Rolls one comparison shows (as many as ``compare`` measures)."""


def number(value: Any) -> float | None:
    """A chance or a figure of the JSON as a float, or None when it is none."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        found = float(value)
    except (ValueError, OverflowError):
        return None
    return found if math.isfinite(found) else None


def chance(value: Any) -> str:
    found = number(value)
    return "?" if found is None else percent(min(max(found, 0.0), 1.0))


def rows_of(odds: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    outcomes = odds.get("outcomes")
    if not isinstance(outcomes, list):
        return []
    return [
        each
        for each in outcomes
        if isinstance(each, Mapping) and isinstance(each.get("value"), int)
    ]


def window(weights: Sequence[float], most: int = MOST_ROWS) -> tuple[int, int]:
    """The ``most`` consecutive rows of the greatest weight together: [start, end)."""
    if len(weights) <= most:
        return 0, len(weights)
    best, start, held = -1.0, 0, sum(weights[:most])
    for first in range(len(weights) - most + 1):
        if first:
            held += weights[first + most - 1] - weights[first - 1]
        if held > best:
            best, start = held, first
    return start, start + most


def left_out(values: Sequence[int], weights: Sequence[float], start: int, end: int) -> str | None:
    """What a window leaves out, in words: how far and how likely."""
    said = []
    if start:
        said.append(f"below {values[start]} ({percent(sum(weights[:start]))})")
    if end < len(values):
        said.append(f"above {values[end - 1]} ({percent(sum(weights[end:]))})")
    return f"values {' and '.join(said)} left out" if said else None


def odds_message(odds: Mapping[str, Any], *, text: str, chart: str | None = None) -> dict[str, Any]:
    """The table's ``/api/odds`` answer: each value's chance, at least, a bar;
    events; tails. ``chart``: the file name of a chart attached to the message
    (:func:`.charts.chart_png`), shown as the embed's image."""
    rows = rows_of(odds)
    weights = [number(row.get("p")) or 0.0 for row in rows]
    start, end = window(weights)
    peak = max(weights[start:end], default=0.0) or 1.0
    named = any(row.get("name") for row in rows)
    header = ["value", *(["name"] if named else []), "chance", "at least", ""]
    table = [header]
    for row, weight in zip(rows[start:end], weights[start:end], strict=True):
        name = [one_line(row.get("name"))[:NAME]] if named else []
        bar = "\u2588" * round(BAR * weight / peak)
        table.append([f"{row['value']:+d}" if named else str(row["value"]), *name,
                      chance(weight), chance(row.get("at_least")), bar])  # fmt: skip
    lines = [block(columns(table))] if rows else ["no outcomes"]
    note = left_out([row["value"] for row in rows], weights, start, end)
    if note:
        lines.append(f"*{note}*")
    lines.extend(_tails(odds))
    embed: dict[str, Any] = {
        "title": f"Odds of {escape(text)}",
        "description": "\n".join(lines),
        "color": EVEN,
        "fields": _events(odds.get("events")),
        "footer": {"text": _figures(odds)},
    }
    if chart and re.fullmatch(r"[\w.-]{1,100}", chart):
        embed["image"] = {"url": f"attachment://{chart}"}
    return message(embed)


def columns(table: Sequence[Sequence[str]]) -> str:
    """Rows as padded columns, numbers to the right, the first column and names to the left."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    left = {0} | {i for i, head in enumerate(table[0]) if head in {"name", ""}}
    return "\n".join(
        "  ".join(cell.ljust(w) if i in left else cell.rjust(w)
                  for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
        for row in table
    )  # fmt: skip


def _tails(odds: Mapping[str, Any]) -> list[str]:
    tails = odds.get("tails")
    if not isinstance(tails, list):
        return []
    said = [
        f"{escape(tail.get('label'))}: {chance(tail.get('p'))}"
        for tail in tails[:MOST_EVENTS]
        if isinstance(tail, Mapping)
    ]
    return [f"past the cut-off (exploding dice): {'; '.join(said)}"] if said else []


def event_text(value: Any) -> str:
    """An event's chance: its percentage, and its fraction when short."""
    if not isinstance(value, Mapping):
        return chance(value)
    exact = one_line(value.get("exact"))
    said = chance(value.get("p"))
    if exact and len(exact) <= MOST_EXACT:
        said += f" ({exact})"
    if value.get("uncertain"):
        said += ", a tail may add a little more"
    return said


def _events(events: Any) -> list[dict[str, Any]]:
    if not isinstance(events, Mapping):
        return []
    return [
        {"name": escape(name), "value": event_text(value), "inline": True}
        for name, value in list(events.items())[:MOST_EVENTS]
    ]


def _figures(odds: Mapping[str, Any]) -> str:
    parts = [one_line(odds.get("value_title")) or "value"]
    for key in ("mean", "stdev"):
        found = number(odds.get(key))
        if found is not None:
            parts.append(f"{key} {found:.4g}")
    system = one_line(odds.get("system"))
    return " \u00b7 ".join([*parts, *([system] if system else []), "exact odds"])


def compare_message(comparison: Mapping[str, Any]) -> dict[str, Any]:
    """The project's compare JSON: a column a roll (A, B, ...), each value's chance."""
    forms = [each for each in comparison.get("forms") or [] if isinstance(each, Mapping)]
    forms = forms[:MOST_FORMS]
    letters = [chr(ord("A") + i) for i in range(len(forms))]
    lines = [
        f"**{letter}** {escape(form.get('label'))}"
        for letter, form in zip(letters, forms, strict=True)
    ]
    lines.extend(_compared_table(forms, letters))
    embed = {
        "title": "Compared: " + ", ".join(letters),
        "description": "\n".join(lines),
        "color": EVEN,
        "fields": _compared_events(forms, letters, comparison.get("difference")),
    }
    return message(embed)


def _compared_table(forms: Sequence[Mapping[str, Any]], letters: Sequence[str]) -> list[str]:
    """Each value's chance in every roll, as a code block; what a window leaves out."""
    chances = [
        {row["value"]: number(row.get("p")) or 0.0 for row in rows_of(form)} for form in forms
    ]
    values = sorted(set().union(*chances)) if chances else []
    if not values:
        return ["no outcomes"]
    names = _common_names(forms)
    named = any(names.values())
    ladder = any(row.get("name") for form in forms for row in rows_of(form))
    start, end = window([max(each.get(value, 0.0) for each in chances) for value in values])
    table = [["value", *(["name"] if named else []), *letters]]
    for value in values[start:end]:
        head = [f"{value:+d}" if ladder else str(value), *([names[value]] if named else [])]
        table.append([*head, *(chance(each.get(value, 0.0)) for each in chances)])
    lines = [block(columns(table))]
    if start or end < len(values):
        said = [f"below {values[start]}"] if start else []
        said += [f"above {values[end - 1]}"] if end < len(values) else []
        lines.append(f"*values {' and '.join(said)} left out: rare in every roll*")
    return lines


def _common_names(forms: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """Each value's name where every roll names it alike (Good is +1 in fudge
    and +3 in fate: such a value is left unnamed), as ``compare`` prints it."""
    said: dict[int, set[str]] = {}
    for form in forms:
        for row in rows_of(form):
            said.setdefault(row["value"], set()).add(one_line(row.get("name"))[:NAME])
    return {value: names.pop() if len(names) == 1 else "" for value, names in said.items()}


def _compared_events(
    forms: Sequence[Mapping[str, Any]], letters: Sequence[str], difference: Any
) -> list[dict[str, Any]]:
    fields = []
    names = [
        name for form in forms if isinstance(form.get("events"), Mapping) for name in form["events"]
    ]
    for name in list(dict.fromkeys(names))[:MOST_EVENTS]:
        said = [
            f"{letter} {_event_of(form, name)}" for letter, form in zip(letters, forms, strict=True)
        ]
        fields.append({"name": escape(name), "value": "\n".join(said), "inline": True})
    means = [
        f"{letter} {number(form.get('mean')):.4g}"
        for letter, form in zip(letters, forms, strict=True)
        if number(form.get("mean")) is not None
    ]
    if means:
        fields.append({"name": "mean", "value": "\n".join(means), "inline": True})
    if isinstance(difference, Mapping) and isinstance(difference.get("mean"), Mapping):
        gap = number(difference["mean"].get("p"))
        if gap is not None:
            fields.append({"name": "B \u2212 A", "value": f"mean {gap:+.4g}", "inline": True})
    return fields


def _event_of(form: Mapping[str, Any], name: str) -> str:
    events = form.get("events")
    return event_text(events[name]) if isinstance(events, Mapping) and name in events else "-"
