"""The table's refusals: each an HTTP status and the body ``{"error",
"position"?, "hint"?}`` that every answer of the API shares."""

from __future__ import annotations

from typing import Any

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


def problem_headers(problem: Problem) -> list[tuple[bytes, bytes]]:
    """What a refusal says besides its body: when to try again, if it may."""
    return [(b"retry-after", b"1")] if problem.status in (429, 503) else []
