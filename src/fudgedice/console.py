"""What every command of the ``fudgedice`` CLI shares: bad input shown as a
message with its exit code, and results as JSON or as text for people."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from .errors import DiceError

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
