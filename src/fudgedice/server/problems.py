"""The table's refusals: each an HTTP status and the body ``{"error",
"position"?, "hint"?}`` that every answer of the API shares."""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from ..errors import DiceError


class Problem(Exception):
    """A request the table refuses, and why."""

    def __init__(
        self, status: int, error: str, *, position: int | None = None, hint: str | None = None
    ) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.position = position
        self.hint = hint

    @classmethod
    def from_dice(cls, error: DiceError) -> Problem:
        """Bad roll text: the CLI's message, its column and its hint."""
        return cls(400, error.message, position=error.position, hint=error.hint)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.error}
        if self.position is not None:
            body["position"] = self.position
        if self.hint is not None:
            body["hint"] = self.hint
        return body


def not_found(what: str = "no such room") -> Problem:
    return Problem(404, what)


def unauthorized(why: str) -> Problem:
    return Problem(401, why, hint="send 'Authorization: Bearer TOKEN' with your member token")


def unprocessable(why: str, hint: str | None = None) -> Problem:
    return Problem(422, why, hint=hint)


class ProblemBody(BaseModel):
    """A refusal's body, as the OpenAPI document describes it."""

    model_config = ConfigDict(extra="forbid")
    error: str
    """What is wrong, in words."""
    position: int | None = None
    """The column of a roll text at fault, counted from 0."""
    hint: str | None = None
    """What to do instead."""
    line: int | None = None
    """The line of a character sheet at fault, counted from 1 (with ``column``)."""
    column: int | None = None


PROBLEM_SCHEMA: Final = {"$ref": "#/components/schemas/ProblemBody"}
"""The refusals' body in the OpenAPI document, for an answer documented by hand."""
BUSY: dict[int | str, dict[str, Any]] = {
    503: {
        "model": ProblemBody,
        "description": "Busy, or the database unreachable: try again in a moment (Retry-After)",
    }
}
"""What a route may answer when it cannot be served right now: the writer or
the odds' workers too busy, or the database out of reach (:mod:`.outage`)."""
REFUSED: dict[int | str, dict[str, Any]] = {
    "4XX": {"model": ProblemBody, "description": "Refused: the request is at fault"},
    **BUSY,
}
"""What every route of the API may answer besides its success: a refusal
(400 bad roll text, 401 no token, 403, 404, 409, 413 too long, 422 malformed,
429 too fast), always the same body; and 503 (:data:`BUSY`)."""
