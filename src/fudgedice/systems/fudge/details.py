"""The figures behind a Fudge or Power Fudge result (``Roll.details``)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(slots=True)
class FudgeDetails:
    """The figures behind a Fudge or Power Fudge result."""

    ladder: str
    """Which ladder names the values: ``fudge`` or ``power``."""
    rolled_degree: int | None
    """The side's rolled degree; None for an opposed roll (each side has its own)."""
    difficulty: int | None = None
    coin: str | None = None
    """``even`` or ``odd`` for the even/odd coin."""

    def to_dict(self) -> dict[str, Any]:
        # every field is a plain value: asdict's recursive copy took a fifth of
        # Roll.to_dict, which the table calls for every roll
        return {field.name: getattr(self, field.name) for field in fields(self)}
