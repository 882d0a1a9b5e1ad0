"""Fate's ladders and its four outcomes (docs/contracts/rules.md section 5).

Fate reads 4dF on a ladder of its own: the words of Fudge's ladder at other
numbers (``Good`` is +3 here, +1 in Fudge), so the system prefix decides
which ladder a word is read on, and every result says which ladder named it.
Fate Condensed adds two rungs below Terrible.
"""

from __future__ import annotations

from typing import Literal

from ...render.ladder import Ladder

_CORE_WORDS = (
    (-2, "Terrible"),
    (-1, "Poor"),
    (0, "Mediocre"),
    (1, "Average"),
    (2, "Fair"),
    (3, "Good"),
    (4, "Great"),
    (5, "Superb"),
    (6, "Fantastic"),
    (7, "Epic"),
    (8, "Legendary"),
)
_CONDENSED_WORDS = ((-4, "Horrifying"), (-3, "Catastrophic"), *_CORE_WORDS)


def _ladder(system: str, words: tuple[tuple[int, str], ...]) -> Ladder:
    # beyond the ends, levels count on from the last word (Legendary+1,
    # Terrible-1), as Fudge's ladder does: a roll can go past any ladder
    return Ladder(
        system,
        bands=words,
        words=tuple((word.lower(), value) for value, word in words),
        beyond=True,
    )


FATE_CORE = _ladder("fate", _CORE_WORDS)
"""Fate Core: Terrible -2 .. Legendary +8."""
FATE_CONDENSED = _ladder("fatecondensed", _CONDENSED_WORDS)
"""Fate Condensed: Horrifying -4 .. Legendary +8."""

LADDER_TITLES = {FATE_CORE.system: "Fate Core", FATE_CONDENSED.system: "Fate Condensed"}
"""How a result names the ladder it was read on."""

FateOutcome = Literal["fail", "tie", "succeed", "succeed with style"]
"""The name of one of Fate's four outcomes of a roll against opposition."""

OUTCOMES: tuple[FateOutcome, ...] = ("fail", "tie", "succeed", "succeed with style")
"""The four outcomes, worst first: the names of a check's events."""

STYLE = 3
"""Shifts from which a success is a success with style."""


def outcome(shifts: int) -> FateOutcome:
    """The outcome of ``shifts`` (result less opposition): below 0 fail, 0 tie,
    1 or 2 succeed, 3 or more succeed with style."""
    if shifts < 0:
        return "fail"
    if shifts == 0:
        return "tie"
    return "succeed" if shifts < STYLE else "succeed with style"


def shifts_text(shifts: int) -> str:
    return ("0" if shifts == 0 else f"{shifts:+d}") + " shift" + ("" if abs(shifts) == 1 else "s")
