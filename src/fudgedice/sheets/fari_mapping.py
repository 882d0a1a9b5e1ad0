"""Which of a Fari character's blocks a Fate sheet reads, found by their
type and label as Fari's Fate templates write them (any case; ``2: Mild``
is ``Mild``): the aspects, stunts, notes, fate points and refresh, skills or
approaches, stress tracks and consequences. Every other block is Fari's
alone, and stays as it is."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .fari_format import FariError, Place, places
from .fari_templates import ACCELERATED, APPROACHES, CONDENSED, CORE
from .levels import rules_of

CONSEQUENCES = ("mild", "moderate", "severe", "extra mild", "extra mild mental")
TRACKS = ("physical", "mental")
SYSTEM_OF = {CORE: "fate", CONDENSED: "fatecondensed", ACCELERATED: "fae"}
TEMPLATE_OF = {system: template for template, system in SYSTEM_OF.items()}
TITLES = {CORE: "Fate Core", CONDENSED: "Fate Condensed", ACCELERATED: "Fate Accelerated"}
_NUMBER = re.compile(r"\s*[+-]?\d{1,4}\s*")


@dataclass
class Found:
    """The blocks of a Fari character that a sheet's keys hold."""

    template: str = CORE
    high_concept: Place | None = None
    trouble: Place | None = None
    notes: Place | None = None
    points: Place | None = None
    refresh: Place | None = None
    aspects: list[Place] = field(default_factory=list)
    stunts: list[Place] = field(default_factory=list)
    skills: list[Place] = field(default_factory=list)
    stress: dict[str, Place] = field(default_factory=dict)
    consequences: dict[str, Place] = field(default_factory=dict)
    tracks: list[Place] = field(default_factory=list)
    """Every slot tracker: the sheet's stress tracks among them (:func:`match_tracks`)."""
    kinds: dict[str, str] = field(default_factory=dict)
    """The sheet's stress tracks and how their boxes count."""
    kept: list[str] = field(default_factory=list)
    """What the sheet can't hold and Fari keeps: said in the sheet's comments."""


def find(data: dict[str, Any], source: str) -> Found:
    """The blocks of ``data`` a sheet reads."""
    found = Found()
    blocks = list(places(data, source))
    homes = {
        id(p.section) for p in blocks if p.kind == "Text" and p.label in ("high concept", "trouble")
    }
    for place in blocks:
        if place.kind == "Text":
            _text(found, place, id(place.section) in homes or place.section_label == "aspects")
        elif place.kind == "Skill":
            found.skills.append(place)
        elif place.kind in ("PointCounter", "Numeric") and place.label == "refresh":
            found.refresh = found.refresh or place
        elif place.kind == "PointCounter" and (
            meta_of(place).get("isMainPointCounter") is True or place.label == "fate points"
        ):
            found.points = found.points or place
        elif place.kind == "SlotTracker":
            found.tracks.append(place)
    found.template = _template(data, found)
    return found


def _text(found: Found, place: Place, in_aspects: bool) -> None:
    label = place.label
    if label == "high concept" and found.high_concept is None:
        found.high_concept = place
    elif label == "trouble" and found.trouble is None:
        found.trouble = place
    elif label == "notes" and found.notes is None:
        found.notes = place
    elif label in CONSEQUENCES:
        name = "extra mild" if label == "mild" and "mild" in found.consequences else label
        found.consequences.setdefault(name, place)
    elif in_aspects:
        found.aspects.append(place)
    elif place.section_label.startswith("stunt"):
        found.stunts.append(place)


def track_kinds(system: str) -> dict[str, str]:
    """The stress tracks of ``system``'s sheets and how their boxes count:
    ``valued`` (Fate Core's 1, 2, 3 boxes, each worth its number), or
    ``points`` (Fate Condensed's 1-point boxes, numbered on the sheet)."""
    stress = getattr(rules_of(system), "stress", None)
    if stress is None:  # sheets that say nothing of their tracks: Fate Core's
        return dict.fromkeys(TRACKS, "valued")
    return {str(track): str(stress.kind) for track in stress.tracks}


def match_tracks(found: Found, system: str) -> None:
    """Which of the character's slot trackers are the stress tracks of a
    ``system`` sheet: one whose label names the track and whose boxes read as
    the sheet's do (a track of 1-point boxes is no Fate Core track)."""
    found.kinds, found.stress = track_kinds(system), {}
    found.kept = [each for each in found.kept if not each.startswith("the stress track")]
    for place in found.tracks:
        for track, kind in found.kinds.items():
            fits = box_values(place) is not None if kind == "valued" else bool(_slots(place))
            fits = fits and isinstance(place.block.get("value"), list)
            if track in place.label and track not in found.stress and fits:
                found.stress[track] = place
                break
        else:
            found.kept.append(f"the stress track {place.block.get('label')!r}")


def _template(data: dict[str, Any], found: Found) -> str:
    written = data.get("template")
    if written in SYSTEM_OF:
        return str(written)
    names = {place.label for place in found.skills}
    if {each.casefold() for each in APPROACHES} <= names:
        return ACCELERATED
    for place in found.tracks:
        labels = [slot.get("label") for slot in _slots(place)]
        if len(labels) > 1 and all(label == "1" for label in labels):
            return CONDENSED
    return CORE


def is_fate(found: Found) -> bool:
    """Whether the character is one of Fate's: Fari's Fate templates give it a
    High Concept, and skills (approaches) that roll 4dF."""
    rolled = (meta_of(place).get("commands") for place in found.skills)
    return found.high_concept is not None or any(
        isinstance(commands, list) and "4dF" in commands for commands in rolled
    )


def meta_of(place: Place) -> dict[str, Any]:
    """A block's ``meta`` (none: empty)."""
    meta = place.block.get("meta")
    return meta if isinstance(meta, dict) else {}


def _slots(place: Place) -> list[dict[str, Any]]:
    value = place.block.get("value")
    return [slot for slot in value if isinstance(slot, dict)] if isinstance(value, list) else []


def box_values(place: Place) -> list[int] | None:
    """A track's boxes by what each is worth (Fate Core's ``1``, ``2``), or
    None when its labels don't say (Fate Condensed's boxes are all ``1``)."""
    value = place.block.get("value")
    labels = [str(slot.get("label", "")).strip() for slot in _slots(place)]
    if not isinstance(value, list) or len(labels) != len(value):
        return None
    if not all(label.isascii() and label.isdigit() for label in labels):
        return None
    values = [int(label) for label in labels]
    return values if len(set(values)) == len(values) and len(values) <= 20 else None


def checked_boxes(place: Place, kind: str) -> list[int]:
    """The boxes of a track that are checked, as the sheet numbers them: by
    their worth (``valued``), or by their place from 1 (``points``)."""
    slots = _slots(place)
    values = (box_values(place) or []) if kind == "valued" else range(1, len(slots) + 1)
    return [value for value, slot in zip(values, slots, strict=False) if slot.get("checked")]


def text_of(place: Place | None, source: str) -> str:
    """A Text block's value (Fari leaves a new one ``undefined``: none)."""
    if place is None:
        return ""
    value = place.block.get("value", "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise FariError(f"{place.path} ({place.block.get('label')}) holds no text", source=source)
    return value.strip()


def number_of(place: Place | None, source: str, key: str = "value") -> int | None:
    """A point counter's or a skill's number (``"3"``, ``"+3"``), None when blank."""
    if place is None:
        return None
    value = (place.block if key == "value" else meta_of(place)).get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, str) or not _NUMBER.fullmatch(value):
        what = "a skill's level" if place.kind == "Skill" else "a number of points"
        raise FariError(
            f"{place.path} ({place.block.get('label')}): {value!r} is not {what}",
            source=source,
            hint="Fari writes a whole number: 3, +3 or -1",
        )
    return int(value)


def skill_name(label: object) -> str:
    """A skill's name on the sheet: Fari 6 writes its templates' labels in
    capitals (``ACADEMICS``), which a sheet writes ``Academics``."""
    text = str(label or "").strip()
    return text.title() if text.isupper() else text
