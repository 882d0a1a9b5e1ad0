"""What a D6 System total means beyond success (docs/contracts/rules.md section 6, OpenD6):
the degree of a success by its result points, and the wound a hit deals by
how far its damage beats the resistance. Pure data and functions: the
program reads rolls with them, the odds name their events by them, and the
tables print them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Tier:
    """A named range of a number (a degree of success, a wound): ``lowest`` up to
    the next tier's lowest."""

    lowest: int
    name: str
    effect: str = ""


DEGREES = (
    Tier(0, "Minimal"),
    Tier(1, "Solid"),
    Tier(5, "Good"),
    Tier(9, "Superior"),
    # the rules' tiers overlap at 16 (13-16 and 16+): 16 is Spectacular here
    Tier(13, "Spectacular"),
    Tier(17, "Incredible"),
)
"""Result points (total - difficulty) of a success and their degree."""

NO_WOUND = Tier(-(10**9), "No wound", "the resistance holds")
WOUNDS = (
    Tier(1, "Stunned", "-1D this round and next"),
    Tier(4, "Wounded", "-1D until healed; a second Wounded makes Severely Wounded, -2D"),
    Tier(9, "Incapacitated", "out of the action until healed"),
    Tier(13, "Mortally Wounded", "dying: dead without help"),
    Tier(16, "Dead", "killed"),
)
"""Damage total - resistance total and the wound it deals; 0 or less deals none."""


def _tier(tiers: tuple[Tier, ...], value: int) -> Tier:
    found = tiers[0]
    for tier in tiers:
        if value >= tier.lowest:
            found = tier
    return found


def degree(result_points: int) -> str | None:
    """The degree of a success with these result points; None for a failure."""
    return None if result_points < 0 else _tier(DEGREES, result_points).name


def wound(margin: int) -> str:
    """The wound dealt when the damage beats the resistance by ``margin``."""
    return NO_WOUND.name if margin < WOUNDS[0].lowest else _tier(WOUNDS, margin).name


def ranges(tiers: tuple[Tier, ...]) -> list[tuple[Tier, int, int | None]]:
    """Each tier with its lowest and highest value (None: no highest)."""
    return [
        (tier, tier.lowest, tiers[index + 1].lowest - 1 if index + 1 < len(tiers) else None)
        for index, tier in enumerate(tiers)
    ]


def span(lowest: int, highest: int | None) -> str:
    """``1-4``, ``0``, ``17+``."""
    if highest is None:
        return f"{lowest}+"
    return str(lowest) if lowest == highest else f"{lowest}-{highest}"


def result_points_text(points: int) -> str:
    """``7 result points, Good``."""
    name = degree(points)
    return f"{points} result point{'' if points == 1 else 's'}, {name}"


def event(name: str) -> str:
    """The odds' event for a degree or a wound: its name in lower case."""
    return name.lower()


CRITICAL = "critical"
"""The fact a side shows when its Wild Die first comes up 1 under a rule that flags it."""


def critical_events(crit: str) -> tuple[str, ...]:
    """What a critical failure makes happen: a complication too, unless the
    rule cancels dice instead (or ignores the 1, when nothing happens)."""
    if crit == "ignore":
        return ()
    return ("critical failure",) if crit == "cancel" else ("critical failure", "complication")
