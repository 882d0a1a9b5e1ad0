"""What the commands of the ``fudgedice`` CLI share: bad input shown as a
message with its exit code, results as JSON or as text for people, and the
bound and summary of an ``-n`` run of rolls (with or without a session)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from fractions import Fraction
from functools import wraps
from typing import Any, TypeVar

import click

from .errors import DiceError, LimitError
from .exact.odds import approximate, decimal
from .limits import DEFAULT_LIMITS
from .results.roll import Roll

F = TypeVar("F", bound=Callable[..., Any])


def friendly(command: F) -> F:
    """Bad input ends with a message and exit code 2, never a traceback."""

    @wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except DiceError as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(error.exit_code)

    return run  # type: ignore[return-value]


def show(as_json: bool, data: Callable[[], Any], text: Callable[[], str]) -> None:
    """A result as JSON or as text for people: only the one asked for is built."""
    if as_json:
        click.echo(json.dumps(data(), indent=2, ensure_ascii=False))
    else:
        click.echo(text())


def check_run(first: Roll, times: int) -> None:
    """Refuse an ``-n`` run whose dice, at the first roll's count, would be
    more than one request may roll: each roll is in bounds, their sum not."""
    limit = DEFAULT_LIMITS.max_request_dice
    each = max(1, len(first.dice))
    if each * times > limit:
        raise LimitError(
            f"{times} rolls of {first.notation} would roll about {each * times:,} dice, "
            f"more than the limit of {limit:,} in one request",
            hint=f"at most -n {max(1, limit // each)} for this roll",
        )


def run_summary(totals: list[int]) -> str:
    """One line over a run of rolls: every total, their mean and range."""
    mean = approximate(decimal(Fraction(sum(totals), len(totals))))
    return (
        f"{len(totals)} rolls: {', '.join(map(str, totals))} "
        f"(mean {mean}, lowest {min(totals)}, highest {max(totals)})"
    )
