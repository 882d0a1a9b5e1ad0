"""How every command ends on bad input: the project's own error as a
message and its exit code, never a traceback. Shared by ``cli`` and
``cli_sheets``."""

from __future__ import annotations

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
