"""The public result of a roll."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .results import DieRoll, Part, pools_of


@dataclass(slots=True)
class Roll:
    """A rolled expression: its total, every die's story and the explanation."""

    notation: str
    system: str
    total: int
    parts: Part
    seed: int | str | None = None
    label: str | None = None
    events: list[str] = field(default_factory=list)

    @property
    def dice(self) -> list[DieRoll]:
        """Every toss, in the order the expression shows them."""
        return [die for pool in pools_of(self.parts) for die in pool.dice]

    @property
    def text(self) -> str:
        """The explanation: each die as it came up and what happened to it."""
        from .render import roll_text  # rendering lives apart from evaluation

        return roll_text(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "notation": self.notation,
            "system": self.system,
            "total": self.total,
            "dice": [die.to_dict() for die in self.dice],
            "events": list(self.events),
            "text": self.text,
            "seed": self.seed,
            "label": self.label,
        }

    def __str__(self) -> str:
        return self.text
