"""The public result of a roll."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .results import DieRoll, Part, pools_of


@dataclass(slots=True)
class Roll:
    """A rolled expression: its total, every die's story and the explanation.

    Systems fill in the rest: ``result`` names the total on the system's
    ladder or gives the verdict of a check (``+3 Superb``, ``success by 2``);
    ``details`` are the steps a player would want spelled out (``ignored one
    - (advantage)``); ``sides`` are the other rolls of a check (the opposing
    side, the difficulty); ``data`` holds the figures behind the verdict for
    the JSON output (``{"margin": 2}``).
    """

    notation: str
    system: str
    total: int
    parts: Part
    seed: int | str | None = None
    label: str | None = None
    events: list[str] = field(default_factory=list)
    result: str | None = None
    details: list[str] = field(default_factory=list)
    sides: list[Roll] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    title: str | None = None
    """How the head line names this roll (the notation, or one side of it)."""
    quick_read: bool = False
    """Explain Fudge dice the seeds' quick way (cancel +/- pairs) when shown."""

    @property
    def dice(self) -> list[DieRoll]:
        """Every toss, in the order the expression shows them (sides included)."""
        own = [die for pool in pools_of(self.parts) for die in pool.dice]
        return own + [die for side in self.sides for die in side.dice]

    @property
    def text(self) -> str:
        """The explanation: each die as it came up and what happened to it."""
        return _renderer()(self)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "notation": self.notation,
            "system": self.system,
            "total": self.total,
            "dice": [die.to_dict() for die in self.dice],
            "events": list(self.events),
            "text": self.text,
            "seed": self.seed,
        }
        if self.label is not None:
            out["label"] = self.label
        if self.result is not None:
            out["result"] = self.result
        if self.details:
            out["details"] = list(self.details)
        if self.sides:
            out["sides"] = [_side_dict(side) for side in self.sides]
        out.update(self.data)
        return out

    def __str__(self) -> str:
        return self.text


def _side_dict(side: Roll) -> dict[str, Any]:
    out: dict[str, Any] = {
        "notation": side.title or side.notation,
        "total": side.total,
        "dice": [die.to_dict() for die in side.dice],
    }
    if side.result is not None:
        out["result"] = side.result
    if side.details:
        out["details"] = list(side.details)
    out.update(side.data)
    return out


_roll_text: Callable[[Roll], str] | None = None


def _renderer() -> Callable[[Roll], str]:
    """The renderer, imported on first use: rendering lives apart from
    evaluation (and imports this module), and an import statement on every
    ``.text`` costs as much as a die."""
    global _roll_text
    if _roll_text is None:
        from .render import roll_text

        _roll_text = roll_text
    return _roll_text
