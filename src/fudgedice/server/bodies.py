"""What the API's requests carry (pydantic models), and how a malformed one
is refused: 422 with the first field at fault.

Every body is a :class:`Body`: none of its strings holds what no database
stores (:func:`.inputs.unstorable`), none of its integers passes what a
database column holds (:data:`MAX_INT`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, model_validator
from pydantic_core import PydanticCustomError

from ..log.canonical import RollVisibility, TalkVisibility
from .inputs import unstorable
from .problems import Problem, unprocessable

MAX_INT = 2**63 - 1
"""The largest integer a database column holds (a seq, a version): a larger
one in a request is a 422, not an overflow inside the driver."""


class Body(BaseModel):
    """A request's JSON body: only the fields named, each of its type, strictly."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="after")
    def _storable(self) -> Self:
        # one call for the whole body, not one per field: a roll's body is
        # the request a table makes most
        for field, value in self.__dict__.items():
            for each in value if isinstance(value, list) else (value,):
                if isinstance(each, str) and (why := unstorable(each)) is not None:
                    raise PydanticCustomError("unstorable", f"{field}: {why}")
                if isinstance(each, int) and not -MAX_INT <= each <= MAX_INT:
                    raise PydanticCustomError("too_large", f"{field}: at most {MAX_INT} in size")
        return self


class NewRoom(Body):
    name: str
    system: str | None = None
    gm_name: str = "GM"


class NewMember(Body):
    name: str


class NewRoll(Body):
    text: str
    visibility: RollVisibility = "public"
    label: str | None = None
    client_seed: str | None = None
    faces: list[str] | None = None
    """Dice rolled by hand, as written (``["+", "0", "-", "+"]``): the roll is
    read from them instead of drawn from the room's seed."""


class NewTalk(Body):
    text: str
    """Checked by :func:`fudgedice.log.talk_entries.checked_talk` (a 400 if
    empty or too long); the request's size is bounded by :class:`.guards.BodyLimit`."""
    visibility: TalkVisibility = "public"
    to: str | None = None
    """A whisper's: the member id it is to."""


def malformed(errors: Sequence[Any]) -> Problem:
    """The 422 for pydantic's errors: ``field: what is wrong`` of the first."""
    first = errors[0] if errors else {}
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = f"{where}: {first.get('msg', 'malformed')}" if where else first.get("msg", "")
    return unprocessable(message or "malformed request")
