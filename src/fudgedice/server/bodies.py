"""What the API's requests carry (pydantic models), and how a malformed one
is refused: 422 with the first field at fault."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from .problems import Problem, unprocessable
from .records import Visibility


class NewRoom(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str
    system: str | None = None
    gm_name: str = "GM"


class NewMember(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str


class NewRoll(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str
    visibility: Visibility = "public"
    label: str | None = None
    client_seed: str | None = None
    faces: list[str] | None = None
    """Dice rolled by hand, as written (``["+", "0", "-", "+"]``): the roll is
    read from them instead of drawn from the room's seed."""


def malformed(errors: Sequence[Any]) -> Problem:
    """The 422 for pydantic's errors: ``field: what is wrong`` of the first."""
    first = errors[0] if errors else {}
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = f"{where}: {first.get('msg', 'malformed')}" if where else first.get("msg", "")
    return unprocessable(message or "malformed request")
