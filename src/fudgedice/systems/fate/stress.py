"""Fate's stress and consequences (docs/contracts/rules.md sections 5 and 7), as data: what a
character can absorb of a hit, by the skill that sets the track (Physique for
physical stress, Will for mental). Not a roll: the table a player looks up
beside one, and the rule a hit's shifts are checked against.

Fate Core's boxes are worth their number (a 1, a 2, then a 3 and a 4 box), and
a hit checks one box worth at least what the consequences leave; Fate
Accelerated's one track is a 1, a 2 and a 3 box, read the same way; Fate
Condensed's boxes are worth 1 shift each, as many checked as the hit needs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from ...errors import DiceValueError
from .ladders import FATE_CORE

BASE_BOXES = (1, 2)
"""Every stress track starts with a 1 and a 2 box."""
CONSEQUENCES = {"mild": 2, "moderate": 4, "severe": 6}
"""Each consequence absorbs this many shifts of a hit."""
AVERAGE, GOOD, SUPERB = 1, 3, 5
FAE_BOXES = (1, 2, 3)
"""Fate Accelerated's one stress track: a 1, a 2 and a 3 box."""

BoxKind = Literal["valued", "points"]
"""How a track's boxes absorb a hit: ``valued`` (Fate Core, Fate Accelerated),
one box worth its number and at least what the consequences leave;
``points`` (Fate Condensed), boxes worth 1 shift each, as many as it needs."""


def stress_boxes(level: int) -> tuple[int, ...]:
    """The boxes of a track whose skill is at ``level``: a 3 box from Average
    (Average or Fair), a 3 and a 4 box from Good."""
    if level >= GOOD:
        return (*BASE_BOXES, 3, 4)
    if level >= AVERAGE:
        return (*BASE_BOXES, 3)
    return BASE_BOXES


def condensed_boxes(level: int) -> tuple[int, ...]:
    """Fate Condensed's track, its boxes numbered from 1 (each worth 1 shift):
    3 boxes, 4 with the skill at Average or Fair, 6 at Good or more."""
    count = 6 if level >= GOOD else 4 if level >= AVERAGE else 3
    return tuple(range(1, count + 1))


def consequences(level: int) -> dict[str, int]:
    """The consequences and what each absorbs; Superb or more adds an extra
    mild one (for that track's kind of harm)."""
    out = dict(CONSEQUENCES)
    if level >= SUPERB:
        out["extra mild"] = CONSEQUENCES["mild"]
    return out


def largest_hit(level: int, kind: BoxKind = "valued") -> int:
    """The most shifts one hit can deal without taking the character out:
    every consequence at once, and one stress box (the largest) or, 1-point
    boxes, every box of Fate Condensed's track."""
    if kind == "points":
        return len(condensed_boxes(level)) + sum(consequences(level).values())
    return max(stress_boxes(level)) + sum(consequences(level).values())


def covered(left: int, box: int | None) -> bool:
    """The one rule of a hit: what the consequences leave (``left`` shifts) is
    absorbed by one stress box worth at least as much, or needs none."""
    return left <= 0 or (box is not None and box >= left)


def absorbs(shifts: int, box: int | None, used: tuple[str, ...], level: int) -> bool:
    """Whether a hit of ``shifts`` is absorbed by checking ``box`` (a box of
    the track: it must be worth at least what the consequences leave) and
    taking the consequences ``used``; what is left takes the character out."""
    available = consequences(level)
    if box is not None and box not in stress_boxes(level):
        raise DiceValueError(f"no {box} box on a track at {FATE_CORE.describe(level)}")
    return covered(shifts - sum(available[name] for name in used), box)


@dataclass(frozen=True)
class Absorbed:
    """How a hit is absorbed: the stress boxes checked (none, one, or for
    1-point boxes as many as it needs) and the consequences taken."""

    boxes: tuple[int, ...]
    consequences: tuple[str, ...]


def boxes_for(left: int, free_boxes: tuple[int, ...], kind: BoxKind) -> tuple[int, ...] | None:
    """The boxes that absorb the ``left`` shifts the consequences leave: none
    when nothing is left; the smallest box worth as much (``valued``); that
    many 1-point boxes, the lowest numbers first (``points``). None: they can't."""
    if covered(left, None):
        return ()
    if kind == "points":
        return tuple(sorted(free_boxes)[:left]) if left <= len(free_boxes) else None
    fitting = [each for each in free_boxes if covered(left, each)]
    return (min(fitting),) if fitting else None


def absorb(
    shifts: int, free_boxes: tuple[int, ...], free: Mapping[str, int], kind: BoxKind = "valued"
) -> Absorbed | None:
    """How a hit of ``shifts`` is absorbed with the fewest consequences (then
    the lightest ones, then the fewest and smallest boxes), of the boxes and
    consequences still free (``free``: each one's shifts), the boxes read as
    ``kind`` says. None: the character is taken out."""
    best: tuple[tuple[int, int, int, int], Absorbed] | None = None
    names = list(free)
    for count in range(len(names) + 1):
        for chosen in combinations(names, count):
            taken = sum(free[name] for name in chosen)
            boxes = boxes_for(shifts - taken, free_boxes, kind)
            if boxes is None:
                continue
            key = (count, taken, len(boxes), sum(boxes))
            if best is None or key < best[0]:
                best = (key, Absorbed(boxes, chosen))
    return None if best is None else best[1]
