"""Changing a sheet: raise a trait, take a hit, heal, spend points, and pay
for what a roll spent. Each change takes a :class:`~.model.Sheet` and gives
the whole new text (comments and layout kept: tomlkit changes values in
place), the new sheet checked again, and one line a log can keep.

Nothing here touches a file: the command line writes the text atomically,
and a server can store it as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import tomlkit
from tomlkit.toml_document import TOMLDocument

from .. import api
from ..results.roll import Roll
from .document import SheetError, parse
from .levels import level_name, rules_of, written_like
from .model import MAX_COUNT, POINTS, SYSTEMS, Sheet, load, points
from .rolling import Plan
from .rules import (
    D6_LEVELS,
    EP_COSTS,
    WOUND_LEVELS,
    d6_hit,
    d6_raise_cost,
    mark_wound,
)


@dataclass(frozen=True)
class Edit:
    """A change made: the sheet's new text, the new sheet, what happened."""

    text: str
    sheet: Sheet
    log: tuple[str, ...]


def _change(sheet: Sheet, change: Callable[[TOMLDocument], list[str]]) -> Edit:
    toml = tomlkit.parse(sheet.document.text)
    log = change(toml)
    text = toml.as_string()
    return Edit(text, load(parse(text, sheet.source)), tuple(log))


def _table(toml: TOMLDocument, name: str) -> Any:
    if name not in toml:
        toml[name] = tomlkit.table()
    return toml[name]


def _points(sheet: Sheet, key: str, wanted: int, what: str) -> int:
    have = sheet.count(key)
    if wanted > have:
        raise sheet.document.fail(
            f"{sheet.name} has {points(key, have)}, and {what} needs {wanted}",
            key=key if key in sheet.values else None,
        )
    return have - wanted


# ------------------------------------------------------------------ raise


def ep_costs(sheet: Sheet) -> dict[str, int]:
    """Experience Points to raise a trait to each level: seed 004's sheet,
    with the sheet's own ``[ep_costs]`` over them."""
    costs = dict(EP_COSTS)
    costs.update({str(k): int(v) for k, v in sheet.values.get("ep_costs", {}).items()})
    return {word.lower(): cost for word, cost in costs.items()}


def _words_for(sheet: Sheet, value: int) -> list[str]:
    """Every word of the system's ladder for ``value``, its own name first."""
    rules = rules_of(sheet.system)
    return [rules.written(value).lower()] + [w for w, at in rules.words.items() if at == value]


def by_hand(sheet: Sheet, what: str) -> None:
    """Refuse a change of a sheet that keeps no state of the sheets' rules."""
    if not rules_of(sheet.system).state:
        raise SheetError(f"a {sheet.system} sheet has no rules for {what}: edit it by hand")


def raise_trait(sheet: Sheet, name: str) -> Edit:
    """Raise a trait one level (a D6 code one pip), paying what the system asks."""
    by_hand(sheet, "raising a trait")
    trait = sheet.trait(name)
    old = level_name(sheet.system, trait.level.value)
    state = rules_of(sheet.system).state
    if state == "wound level":
        cost = d6_raise_cost(trait.level.value) * (10 if trait.table == "attributes" else 1)
        left = _points(sheet, "character_points", cost, f"raising {trait.name}")
        if trait.level.base is not None:
            written: object = (
                f"{trait.level.base}+{level_name(sheet.system, trait.level.added + 1)}"
            )
        else:
            written = level_name(sheet.system, trait.level.value + 1)
        new, paid = (
            level_name(sheet.system, trait.level.value + 1),
            f"{cost} Character Points ({left} left)",
        )
        key = "character_points"
    elif state == "stress":
        levels = {t.name: t.level.value for t in sheet.traits.values()}
        levels[trait.name] += 1
        stress = sheet.stress_rules
        checked = sheet.values.get(stress.check_key, True) is not False
        fault = stress.fault(levels) if checked else None
        if fault:
            raise sheet.document.fail(
                f"raising {trait.name} would break {stress.check}: {fault}",
                trait.table,
                trait.name,
                hint=f"{stress.check_hint}; set {stress.check_key} = false to allow it",
            )
        written = written_like(sheet.system, trait.written, trait.level.value + 1)
        new, paid, key, left = level_name(sheet.system, trait.level.value + 1), "a milestone", "", 0
    else:
        word = rules_of(sheet.system).written(trait.level.value + 1)
        costs = ep_costs(sheet)
        # a level may have two words (Fudge's Superb+1 is Legendary): either's cost
        priced = next(
            (costs[name] for name in _words_for(sheet, trait.level.value + 1) if name in costs),
            None,
        )
        if priced is None:
            raise sheet.document.fail(
                f"the sheet has no Experience Point cost to raise {trait.name} to {word}",
                "ep_costs",
                hint=f'add it: [ep_costs] "{word}" = 16',
            )
        cost = priced
        left = _points(sheet, "ep", cost, f"raising {trait.name} to {word}")
        written = written_like(sheet.system, trait.written, trait.level.value + 1)
        new, paid, key = (
            level_name(sheet.system, trait.level.value + 1),
            f"{cost} EP ({left} left)",
            "ep",
        )

    def change(toml: TOMLDocument) -> list[str]:
        toml[trait.table][trait.name] = written
        if key:
            toml[key] = left
        return [f"{sheet.name} raised {trait.name} from {old} to {new} for {paid}"]

    return _change(sheet, change)


# ------------------------------------------------------------------ hit and heal


def hit(sheet: Sheet, amount: int, track: str | None = None, aspect: str | None = None) -> Edit:
    """A hit: Fudge damage on the wound track, a D6 margin of damage over
    resistance, or Fate shifts absorbed by stress and consequences."""
    by_hand(sheet, "a hit")
    if sheet.state == "wound level":
        before = sheet.d6_wound()
        after = d6_hit(before, amount)

        def d6(toml: TOMLDocument) -> list[str]:
            toml["wound"] = after
            return [f"{sheet.name} took a hit of {amount} over resistance: {before} -> {after}"]

        return _change(sheet, d6)
    if sheet.state == "stress":
        return _fate_hit(sheet, amount, track or next(iter(sheet.stress_tracks())), aspect)
    marked = mark_wound(sheet.wounds(), sheet.wound_boxes(), amount)

    def fudge(toml: TOMLDocument) -> list[str]:
        if marked is None:
            return [f"{sheet.name} took {amount} damage: no wound"]
        if marked.level is None:
            return [f"{sheet.name} took {amount} damage ({marked.landed}): no box is free from "
                    f"{marked.landed} up, beyond Near Death: the character dies"]  # fmt: skip
        wounds = _table(toml, "wounds")
        wounds[marked.level] = sheet.wounds()[marked.level] + 1
        moved = "" if marked.level == marked.landed else f" ({marked.landed} was full)"
        return [f"{sheet.name} took {amount} damage: {marked.level}{moved}"]

    return _change(sheet, fudge)


def _fate_hit(sheet: Sheet, shifts: int, track: str, aspect: str | None) -> Edit:
    tracks = sheet.stress_tracks()
    if track not in tracks:
        raise SheetError(f"no stress track '{track}'", hint=f"tracks: {', '.join(tracks)}")
    checked = sheet.stress()[track]
    free_boxes = tuple(box for box in tracks[track] if box not in checked)
    taken = sheet.consequences()
    slots = sheet.consequence_slots(track)
    free = {name: value for name, value in slots.items() if name not in taken}
    absorbed = api.FATE_ABSORB(shifts, free_boxes, free, sheet.stress_rules.kind)
    valued = sheet.stress_rules.kind == "valued"

    def change(toml: TOMLDocument) -> list[str]:
        if absorbed is None:
            return [f"{sheet.name} took a {shifts}-shift {track} hit: taken out"]
        parts = []
        if absorbed.boxes:
            stress = _table(toml, "stress")
            stress[track] = sorted([*checked, *absorbed.boxes])
            count, named = len(absorbed.boxes), "stress" if track == "stress" else f"{track} stress"
            parts.append(
                f"checked the {absorbed.boxes[0]} {named} box"
                if valued
                else f"checked {count} {named} box{'es' if count > 1 else ''}"
            )
        for name in absorbed.consequences:
            _table(toml, "consequences")[name] = aspect or f"(name this {name} consequence)"
            parts.append(f"took a {name} consequence ({free[name]})")
        return [
            f"{sheet.name} took a {shifts}-shift {track} hit: " + (", ".join(parts) or "no harm")
        ]

    return _change(sheet, change)


def heal(sheet: Sheet, what: str | None = None) -> Edit:
    """Clear wounds: all of them, or one level (Fudge), down to a level (D6),
    or stress, one track or one consequence (Fate)."""
    by_hand(sheet, "healing")
    key = (what or "").strip().lower()

    def change(toml: TOMLDocument) -> list[str]:
        if sheet.state == "wound level":
            after = key or "none"
            now = sheet.d6_wound()
            if after not in D6_LEVELS or D6_LEVELS.index(after) > D6_LEVELS.index(now):
                raise SheetError(
                    f"'{what}' is no healing of {now}",
                    source=sheet.source,
                    hint="heal to a lesser wound: " + ", ".join(D6_LEVELS),
                )
            toml["wound"] = after
            return [f"{sheet.name} healed: {sheet.d6_wound()} -> {after}"]
        if sheet.state == "stress":
            return _fate_heal(sheet, toml, key)
        levels = [level for level in WOUND_LEVELS if not key or level.lower() == key]
        if not levels:
            raise SheetError(f"'{what}' is no level of the wound track", source=sheet.source,
                             hint="levels: " + ", ".join(WOUND_LEVELS))  # fmt: skip
        wounds = _table(toml, "wounds")
        for level in levels:
            if level in wounds or sheet.wounds()[level]:
                wounds[level] = 0
        return [f"{sheet.name} healed: {', '.join(levels) if key else 'every wound'}"]

    return _change(sheet, change)


def _fate_heal(sheet: Sheet, toml: TOMLDocument, key: str) -> list[str]:
    every = list(sheet.stress_tracks())
    if key in ("", "stress", *every):
        tracks = every if key in ("", "stress") else [key]
        stress = _table(toml, "stress")
        for track in tracks:
            stress[track] = []
        cleared = "stress" if tracks == ["stress"] else f"{' and '.join(tracks)} stress"
        if key == "":
            if "consequences" in toml:
                for name in list(toml["consequences"]):
                    toml["consequences"][name] = ""
            cleared += " and every consequence"
        return [f"{sheet.name} recovered: {cleared}"]
    if key not in sheet.consequences():
        named = ", ".join(dict.fromkeys(["stress", *every]))
        raise SheetError(f"{sheet.name} has no '{key}' to heal", source=sheet.source,
                         hint=f"{named}, or a consequence taken: "
                         + ", ".join(sheet.consequences()))  # fmt: skip
    toml["consequences"][key] = ""
    return [f"{sheet.name} recovered from the {key} consequence"]


# ------------------------------------------------------------------ points


class _Spendable(Mapping[str, Mapping[str, str]]):
    def __getitem__(self, system: str) -> Mapping[str, str]:
        return rules_of(system).spendable

    def __iter__(self) -> Iterator[str]:
        return iter(SYSTEMS)

    def __len__(self) -> int:
        return len(SYSTEMS)


SPENDABLE: Mapping[str, Mapping[str, str]] = _Spendable()
"""The points each system spends off a roll, by the name ``sheet spend`` takes."""


_LEFT = re.compile(r" \([0-9]+ left\)")
"""How a change's words say the points left: "(2 left)"."""


def without_balance(line: str) -> str:
    """A change's words with the points left taken out: ``Bob spent 1 Fate
    Point (2 left)`` is ``Bob spent 1 Fate Point``. What a reader who is
    neither the sheet's owner nor the GM may read of a change."""
    return _LEFT.sub("", line)


def spend(sheet: Sheet, point: str, count: int = 1) -> Edit:
    """Spend ``count`` points of a kind (``fudge``, ``fate``, ``cp``, ``fp``)."""
    by_hand(sheet, "spending points")
    names = SPENDABLE[sheet.system]
    key = names.get(point.strip().lower())
    if key is None:
        raise SheetError(f"a {sheet.system} sheet has no '{point}' points",
                         source=sheet.source, hint="points: " + ", ".join(names))  # fmt: skip
    if count < 1:
        raise SheetError(f"spend 1 point or more, not {count}", source=sheet.source)
    left = _points(sheet, key, count, "spending")

    def change(toml: TOMLDocument) -> list[str]:
        toml[key] = left
        return [f"{sheet.name} spent {points(key, count)} ({left} left)"]

    return _change(sheet, change)


def set_points(sheet: Sheet, key: str, value: int, line: str) -> Edit:
    """The sheet with ``key`` (one of :data:`.model.POINTS`) set to ``value``:
    what play at the table gives or takes (an award, a compel, a refresh),
    said in ``line``."""
    if key not in POINTS or not 0 <= value <= MAX_COUNT:
        raise SheetError(f"no {key} of {value} on a sheet", source=sheet.source)

    def change(toml: TOMLDocument) -> list[str]:
        toml[key] = value
        return [line]

    return _change(sheet, change)


def name_consequence(sheet: Sheet, slot: str, text: str) -> Edit:
    """The sheet with the consequence it took in ``slot`` named ``text``."""
    if slot not in sheet.consequences():
        raise SheetError(f"{sheet.name} has taken no {slot} consequence", source=sheet.source)
    before = sheet.consequences()[slot]

    def change(toml: TOMLDocument) -> list[str]:
        toml["consequences"][slot] = text
        return [f"{sheet.name}'s {slot} consequence {before} is now {text}"]

    return _change(sheet, change)


def settle(plan: Plan, roll: Roll) -> Edit | None:
    """Take what a roll spent from its character's sheet: every Character
    Point die, the Fate Point, each +2 invoke, and each reroll invoke the
    policy actually used (a reroll not needed costs nothing)."""
    if not plan.spends:
        return None
    sheet = plan.actor
    costs: dict[str, int] = {}
    for each in plan.spends:
        used = each.count
        if each.point == "reroll":
            used = int(roll.to_dict()["details"].get("rerolls", 0))
        elif each.point == "fp":
            used = 1
        costs[each.key] = costs.get(each.key, 0) + used
    lefts = {key: _points(sheet, key, used, "the roll") for key, used in costs.items()}

    def change(toml: TOMLDocument) -> list[str]:
        for key, left in lefts.items():
            toml[key] = left
        return [
            f"{sheet.name} spent {points(key, costs[key])} on the roll ({left} left)"
            if costs[key]
            else f"{sheet.name} spent no point: the reroll invoke was not needed ({left} left)"
            for key, left in lefts.items()
        ]

    return _change(sheet, change)
