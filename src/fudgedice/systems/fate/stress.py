"""Fate Core's stress and consequences (docs/contracts/rules.md section 5), as data: what a
character can absorb of a hit, by the skill that sets the track (Physique for
physical stress, Will for mental). Not a roll: the table a player looks up
beside one, and the rule a hit's shifts are checked against."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

from ...errors import DiceValueError
from .ladders import FATE_CORE

BASE_BOXES = (1, 2)
"""Every stress track starts with a 1 and a 2 box."""
CONSEQUENCES = {"mild": 2, "moderate": 4, "severe": 6}
"""Each consequence absorbs this many shifts of a hit."""
AVERAGE, GOOD, SUPERB = 1, 3, 5


def stress_boxes(level: int) -> tuple[int, ...]:
    """The boxes of a track whose skill is at ``level``: a 3 box from Average
    (Average or Fair), a 3 and a 4 box from Good."""
    if level >= GOOD:
        return (*BASE_BOXES, 3, 4)
    if level >= AVERAGE:
        return (*BASE_BOXES, 3)
    return BASE_BOXES


def consequences(level: int) -> dict[str, int]:
    """The consequences and what each absorbs; Superb or more adds an extra
    mild one (for that track's kind of harm)."""
    out = dict(CONSEQUENCES)
    if level >= SUPERB:
        out["extra mild"] = CONSEQUENCES["mild"]
    return out


def largest_hit(level: int) -> int:
    """The most shifts one hit can deal without taking the character out: one
    stress box (the largest) and every consequence at once."""
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
    """How a hit is absorbed: the stress box checked (None: none) and the
    consequences taken."""

    box: int | None
    consequences: tuple[str, ...]


def absorb(shifts: int, free_boxes: tuple[int, ...], free: Mapping[str, int]) -> Absorbed | None:
    """How a hit of ``shifts`` is absorbed with the fewest consequences (then
    the lightest ones, then the smallest box), of the boxes and consequences
    still free (``free``: each one's shifts). None: the character is taken out."""
    best: tuple[tuple[int, int, int], Absorbed] | None = None
    names = list(free)
    for count in range(len(names) + 1):
        for chosen in combinations(names, count):
            taken = sum(free[name] for name in chosen)
            left = shifts - taken
            box = None
            if not covered(left, None):
                fitting = [each for each in free_boxes if covered(left, each)]
                if not fitting:
                    continue
                box = min(fitting)
            key = (count, taken, box or 0)
            if best is None or key < best[0]:
                best = (key, Absorbed(box, chosen))
    return None if best is None else best[1]
