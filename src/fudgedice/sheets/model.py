"""A character sheet read from its TOML document: every key checked, every
level read, every mistake an error at its line and column with the nearest
real key or word.

The keys every sheet has::

    system = "3d6fudge"        # fudge, power, 3d6fudge, d6, fate, fatecondensed, fae
    name = "Ashley the Alert"
    [traits]                   # name = level (also [attributes] and [skills])
    Melee = "Good"

and each system's own (docs/sheets.md lists them all).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import api
from ..render.numbers import counted
from .document import Document, SheetError
from .levels import Level, LevelError, read_level, rules_of
from .rules import D6_LEVELS, FATE_CONSEQUENCES, FATE_DEFAULT, WOUND_BOXES, WOUND_LEVELS

TRAIT_TABLES = ("attributes", "skills", "approaches", "traits")
FREE_TEXT = ("player", "genre", "story", "notes", "description", "created", "equipment")
"""Keys for people: any text (or a list of texts), never read by the rules."""
SYSTEMS = tuple(name for name, each in api.SYSTEMS.declarations.items() if each.sheet)
"""Every system a sheet may name: those that have sheets (``System.sheet``),
a plugin's included."""
POINTS = {
    "fudge_points": "Fudge Points",
    "ep": "Experience Points",
    "character_points": "Character Points",
    "fate_points": "Fate Points",
    "refresh": "refresh",
}


def points(key: str, count: int) -> str:
    """``1 Fate Point``, ``2 Fate Points``."""
    name = POINTS[key]
    return f"{count} {name[:-1] if count == 1 and name.endswith('s') else name}"


MAX_COUNT = 1_000_000
"""Points, boxes and costs on a sheet: whole numbers up to this."""
MAX_TRAITS = 500


@dataclass(frozen=True)
class Trait:
    name: str
    table: str
    level: Level
    written: object
    """The level as the sheet wrote it (a word stays a word when raised)."""


@dataclass(frozen=True)
class Sheet:
    """A checked character sheet and the document it was read from."""

    document: Document
    system: str
    name: str
    traits: Mapping[str, Trait]
    """By lower-case name, in the order the sheet lists them."""
    values: Mapping[str, Any] = field(repr=False)
    """The document as plain Python values."""

    @property
    def rules(self) -> api.SheetLevels:
        """What the sheet's system tells its sheets."""
        return rules_of(self.system)

    @property
    def state(self) -> str:
        """The state the sheet keeps: its system's ``SheetLevels.state``."""
        return self.rules.state

    @property
    def source(self) -> str:
        return self.document.source

    def count(self, key: str, default: int = 0) -> int:
        value = self.values.get(key, default)
        return value if isinstance(value, int) else default

    def texts(self, key: str) -> list[str]:
        value = self.values.get(key, [])
        return [value] if isinstance(value, str) else [str(item) for item in value]

    def trait(self, name: str) -> Trait:
        """The trait called ``name`` (any case), or an error with the nearest."""
        found = self.traits.get(name.strip().lower())
        if found is not None:
            return found
        names = [trait.name for trait in self.traits.values()]
        close = difflib.get_close_matches(name.strip(), names, n=1, cutoff=0.5)
        lower = {each.lower(): each for each in names}
        close = close or [
            lower[each]
            for each in difflib.get_close_matches(
                name.strip().lower(), list(lower), n=1, cutoff=0.5
            )
        ]
        hint = f"did you mean '{close[0]}'?" if close else f"traits: {', '.join(names) or 'none'}"
        if self.rules.absent:
            hint += f"; {self.rules.absent}"
        raise SheetError(
            f"{self.name} has no trait '{name.strip()}'", source=self.source, hint=hint
        )

    # the state of the dice: wounds, stress, consequences

    def wounds(self) -> dict[str, int]:
        checked = self.values.get("wounds", {})
        return {level: int(checked.get(level, 0)) for level in WOUND_LEVELS}

    def wound_boxes(self) -> dict[str, int]:
        boxes = dict(WOUND_BOXES)
        boxes.update(self.values.get("wound_boxes", {}))
        return boxes

    def d6_wound(self) -> str:
        return str(self.values.get("wound", "none")).lower()

    def fate_skill(self, name: str) -> int:
        found = self.traits.get(name.lower())
        return found.level.value if found else FATE_DEFAULT

    @property
    def stress_rules(self) -> api.Stress:
        """How the sheet's stress tracks and consequences work (Fate's sheets)."""
        stress = self.rules.stress
        if stress is None:
            raise SheetError(f"a {self.system} sheet keeps no stress", source=self.source)
        return stress

    def track_level(self, track: str) -> int:
        """The level of the skill that sizes ``track`` (Mediocre for a track none sizes)."""
        skill = self.stress_rules.tracks[track]
        return self.fate_skill(skill) if skill else FATE_DEFAULT

    def stress_tracks(self) -> dict[str, tuple[int, ...]]:
        """Each track's boxes, numbered."""
        rules = self.stress_rules
        return {track: rules.boxes(self.track_level(track)) for track in rules.tracks}

    def stress(self) -> dict[str, list[int]]:
        """Each track's boxes checked."""
        checked = self.values.get("stress", {})
        return {track: sorted(checked.get(track, [])) for track in self.stress_rules.tracks}

    def consequence_slots(self, track: str | None = None) -> dict[str, int]:
        """The consequences the character has and what each absorbs; a track's
        skill at Superb or more adds an extra mild one, which only a hit on
        that track takes (``track``: the consequences such a hit may take)."""
        levels = {each: self.track_level(each) for each in self.stress_rules.tracks}
        return self.stress_rules.slots(levels, track)

    def consequences(self) -> dict[str, str]:
        taken = self.values.get("consequences", {})
        return {name: str(text) for name, text in taken.items() if str(text).strip()}


def _nearest(word: str, known: list[str]) -> str | None:
    close = difflib.get_close_matches(word.lower(), known, n=1, cutoff=0.5)
    return f"did you mean '{close[0]}'?" if close else None


def load(document: Document) -> Sheet:
    """Check ``document`` as a sheet: a :class:`SheetError` at the first
    mistake's line and column."""
    values = document.toml.unwrap()
    system = values.get("system")
    if system is None:
        raise document.fail(
            "a sheet names its system",
            hint=f'add a line: system = "{SYSTEMS[0]}" ({", ".join(SYSTEMS)})',
        )
    if not isinstance(system, str) or system.strip().lower() not in SYSTEMS:
        raise document.fail(
            f"unknown system {system!r}",
            key="system",
            hint=_nearest(str(system), list(SYSTEMS)) or f"systems: {', '.join(SYSTEMS)}",
        )
    system = system.strip().lower()
    name = values.get("name")
    if not isinstance(name, str) or not name.strip():
        raise document.fail(
            "a sheet names its character (text in quotes)",
            key="name" if "name" in values else None,
            hint='name = "Ashley the Alert"',
        )
    document.check_name(name, "a character's name", key="name")
    allowed = ["system", "name", *TRAIT_TABLES, *FREE_TEXT, "extra", "fari", *rules_of(system).keys]
    for key in values:
        if key not in allowed:
            others = [each for each in SYSTEMS if key in rules_of(each).keys]
            # a key of another system's sheet says more than a near spelling
            hint = (
                f"'{key}' belongs on a {others[0]} sheet"
                if others
                else _nearest(key, allowed) or f"keys: {', '.join(allowed)}"
            )
            raise document.fail(
                f"unknown key '{key}' on a {system} sheet", key=key, at_value=False, hint=hint
            )
    _table(document, values, "fari")  # what a character from Fari keeps (sheets.fari)
    traits = _traits(document, system, values)
    sheet = Sheet(document, system, name.strip(), traits, values)
    _check_state(sheet)
    return sheet


def _table(document: Document, values: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    table = values.get(key, {})
    if not isinstance(table, Mapping):
        raise document.fail(f"'{key}' is a table: write it [{key}] with one entry a line", key=key)
    return table


def _traits(document: Document, system: str, values: Mapping[str, Any]) -> dict[str, Trait]:
    traits: dict[str, Trait] = {}
    for table in TRAIT_TABLES:
        for name, written in _table(document, values, table).items():
            if name.lower() in traits:
                raise document.fail(
                    f"'{name}' is on the sheet twice (also in [{traits[name.lower()].table}])",
                    table,
                    name,
                    at_value=False,
                )
            if "." in name or not name.strip():
                raise document.fail(
                    f"a trait's name can't contain '.' or be empty: '{name}'",
                    table,
                    name,
                    at_value=False,
                )
            document.check_name(name, "a trait's name", table, name, at_value=False)
            try:
                level = read_level(system, written)
            except LevelError as error:
                raise document.fail(
                    f"{name}: {error.message}", table, name, hint=error.hint
                ) from None
            traits[name.lower()] = Trait(name, table, level, written)
    if len(traits) > MAX_TRAITS:
        raise document.fail(f"{len(traits)} traits is more than a sheet may hold ({MAX_TRAITS})")
    if rules_of(system).codes:
        traits = _d6_skills(document, traits)
    stress = rules_of(system).stress
    if stress is not None and values.get(stress.check_key, True) is not False:
        fault = stress.fault({trait.name: trait.level.value for trait in traits.values()})
        if fault is not None:
            where = next((trait.table for trait in traits.values()), None)
            raise document.fail(
                f"the {where or 'traits'} break {stress.check}: {fault}",
                where,
                hint=f"{stress.check_hint}; set {stress.check_key} = false to allow it",
            )
    return traits


def _d6_skills(document: Document, traits: dict[str, Trait]) -> dict[str, Trait]:
    """A skill written ``Dexterity+1D`` rolls its attribute's code plus 1D."""
    out = dict(traits)
    for key, trait in traits.items():
        base_name = trait.level.base
        if base_name is None:
            continue
        base = traits.get(base_name.lower())
        if base is None or base.level.base is not None:
            attributes = [t.name for t in traits.values() if t.level.base is None]
            raise document.fail(
                f"{trait.name} adds dice to '{base_name}', which is no attribute on the sheet",
                trait.table,
                trait.name,
                hint=_nearest(base_name, [a.lower() for a in attributes])
                or f"attributes: {', '.join(attributes) or 'none'}",
            )
        pips = base.level.value + trait.level.added
        if pips < 3:
            raise document.fail(f"{trait.name} comes to less than 1D", trait.table, trait.name)
        level = Level(pips, base=base.name, added=trait.level.added)
        out[key] = Trait(trait.name, trait.table, level, trait.written)
    return out


_NAMED = {
    "player": "a player's name",
    "high_concept": "an aspect",
    "trouble": "an aspect",
    "aspects": "an aspect",
}
"""The keys beside ``name`` and the traits whose texts are names (each item
of a list): what :mod:`fudgedice.names` allows, as the trait names."""


def _whole(document: Document, value: object, table: str | None, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise document.fail(f"{key} is a whole number from 0 to {MAX_COUNT:,}", table, key)
    return value


def _check_state(sheet: Sheet) -> None:
    """Points, wounds, stress and consequences: the state the rules read."""
    document, values = sheet.document, sheet.values
    for key in POINTS:
        if key in values:
            _whole(document, values[key], None, key)
    for key in ("high_concept", "trouble"):
        if not isinstance(values.get(key, ""), str):
            raise document.fail(f"{key} is an aspect's text, in quotes", key=key)
    for key in ("pyramid", "spread"):
        if not isinstance(values.get(key, True), bool):
            raise document.fail(f"{key} is true or false", key=key)
    for key in ("gifts", "faults", "aspects", "stunts", *FREE_TEXT):
        value = values.get(key, [])
        if not isinstance(value, str) and not (
            isinstance(value, list) and all(isinstance(item, str) for item in value)
        ):
            raise document.fail(f'{key} is a list of texts: {key} = ["...", "..."]', key=key)
    for key, what in _NAMED.items():
        for text in sheet.texts(key):
            document.check_name(text, what, key=key)
    if sheet.state == "wound track":
        for table in ("wounds", "wound_boxes", "ep_costs"):
            known = list(WOUND_LEVELS) if table != "ep_costs" else None
            for key, value in _table(document, values, table).items():
                if known is not None and key not in known:
                    raise document.fail(
                        f"'{key}' is no level of the wound track",
                        table,
                        key,
                        at_value=False,
                        hint=_nearest(key, [k.lower() for k in known])
                        or f"levels: {', '.join(known)}",
                    )
                _whole(document, value, table, key)
        boxes = sheet.wound_boxes()
        for level, checked in sheet.wounds().items():
            if checked > boxes[level]:
                raise document.fail(
                    f"{counted(checked, level + ' box', level + ' boxes')} checked of "
                    f"{boxes[level]}",
                    "wounds",
                    level,
                )
    elif sheet.state == "wound level":
        if sheet.d6_wound() not in D6_LEVELS:
            raise document.fail(
                f"unknown wound {values.get('wound')!r}",
                key="wound",
                hint=_nearest(sheet.d6_wound(), list(D6_LEVELS))
                or f"wounds: {', '.join(D6_LEVELS)}",
            )
    elif sheet.state == "stress":
        _check_fate(sheet)


def _check_fate(sheet: Sheet) -> None:
    document, values = sheet.document, sheet.values
    tracks = sheet.stress_tracks()
    for track, checked in _table(document, values, "stress").items():
        if track not in tracks:
            raise document.fail(
                f"no stress track '{track}'", "stress", track, at_value=False,
                hint=_nearest(track, list(tracks)) or f"tracks: {', '.join(tracks)}",
            )  # fmt: skip
        if not isinstance(checked, list) or any(box not in tracks[track] for box in checked):
            raise document.fail(
                f"{track} stress lists the boxes checked, of {list(tracks[track])}",
                "stress",
                track,
                hint=f"{track} = [] when none is checked",
            )
    slots = sheet.consequence_slots()
    for name, text in _table(document, values, "consequences").items():
        if name not in slots:
            both = " and " if name == FATE_CONSEQUENCES[-1] else " or "  # extra mild mental
            skills = both.join(skill for skill in sheet.stress_rules.tracks.values() if skill)
            why = f"only with {skills} at Superb" if name in FATE_CONSEQUENCES and skills else ""
            raise document.fail(
                f"no consequence '{name}' {why}".strip(),
                "consequences",
                name,
                at_value=False,
                hint=_nearest(name, list(slots)) or f"consequences: {', '.join(slots)}",
            )
        if not isinstance(text, str):
            raise document.fail(f"the {name} consequence is an aspect's text", "consequences", name)
        document.check_name(text, "an aspect", "consequences", name)
