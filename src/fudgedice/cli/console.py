"""What the commands of the ``fudgedice`` CLI share: each command one request
of the work budget, bad input shown as a message with its exit code, results
as JSON or as text for people, and the hint for a roll the shell split at its
spaces (``read d6: 3D+1 4 2``). What a roll's and the odds' commands check
without click is in :mod:`fudgedice.cli.checks`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from .. import budget
from ..api import program_with_table
from ..budget import within_budget
from ..dice.program import ROLL_DIE_WORK
from ..errors import DiceError, OverBudget
from ..limits import DEFAULT_LIMITS

F = TypeVar("F", bound=Callable[..., Any])


def json_text(data: Any, *, ensure_ascii: bool = True) -> str:
    """``json.dumps(data, indent=2)``: what ``--json`` prints."""
    import json  # here: only --json prints it, and a roll that starts need not load it

    return json.dumps(data, indent=2, ensure_ascii=ensure_ascii)


def friendly(command: F) -> F:
    """Bad input ends with a message and exit code 2, never a traceback."""

    @wraps(command)
    @within_budget  # one command is one request: all its work, one budget
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
        click.echo(json_text(data(), ensure_ascii=False))
    else:
        click.echo(text())


HINT_WORK = 200_000_000
"""Work the search for a roll the shell split at its spaces may take: the
hint is a courtesy, and the error it would explain stands without it."""
PARSE_CHAR_WORK = 10_000
"""Estimated work of compiling a roll, a character (a roll of 990 characters
of dice: 7 ms, measured)."""


def unquoted(form: str, dice: tuple[str, ...], d100_table: str | None) -> DiceError | None:
    """``read d6: 3D+1 4 2 w6 w3``: the shell split the roll at its spaces. Say
    to quote it when the form and the words after it make a roll whose
    remaining faces read, or, when the form alone is no roll, any longer roll."""
    try:
        program_with_table(form, d100_table)
        form_is_a_roll = True
    except DiceError:
        form_is_a_roll = False
    found: tuple[str, tuple[str, ...]] | None = None
    # a roll has at most max_terms words and max_text characters: only so
    # many of the words after the form can belong to it
    longest = len(form)
    most = 0
    for word in dice[: DEFAULT_LIMITS.max_terms]:
        longest += 1 + len(word)
        if longest > DEFAULT_LIMITS.max_text:
            break
        most += 1
    # a hint, looked for within a bound of its own: each try compiles a longer
    # roll and reads every face left (a form with a label takes every word
    # into its label: a hundred tries of 6,000 faces took 1.4 s)
    with budget.capped(HINT_WORK):
        for taken in range(most, 0, -1):
            whole = " ".join((form, *dice[:taken]))
            try:
                budget.charge(
                    len(whole) * PARSE_CHAR_WORK + (len(dice) - taken) * ROLL_DIE_WORK,
                    "looking for where the roll ends",
                )
            except OverBudget:
                break
            try:
                program = program_with_table(whole, d100_table)
            except DiceError:
                continue
            try:
                program.read(list(dice[taken:]))
            except OverBudget:
                break
            except DiceError:
                if found is None and not form_is_a_roll:
                    found = (whole, dice[taken:])
                continue
            found = (whole, dice[taken:])
            break
    if found is None:
        return None
    whole, faces = found
    return DiceError(
        f"'{form}' is only the start of the roll '{whole}': quote a roll that has spaces",
        hint=f"fudgedice read '{whole}' {' '.join(faces)}".rstrip(),
    )


class RollCommand(click.Command):
    """A command whose words form a roll, which may start with a minus sign
    (``-1+4dF``, ``-(Legendary)``): a word is an option only when it is one of
    the command's own; every other word belongs to the roll, wherever it
    stands. A mistyped long option (``--sed 3``) is click's own "no such
    option", never a piece of the roll."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes_value: dict[str, bool] = {}
        for param in self.get_params(ctx):
            if isinstance(param, click.Option):
                for name in (*param.opts, *param.secondary_opts):
                    takes_value[name] = not (param.is_flag or param.count)
        longs = sorted(name for name in takes_value if name.startswith("--"))
        options: list[str] = []
        words: list[str] = []
        rest = iter(args)
        for arg in rest:
            if arg == "--":
                words.extend(rest)  # everything after it is the roll
                break
            # an option's name is letters: "--0d20" is minus minus 0d20
            long = arg.startswith("--") and arg[2:3].isalpha()
            name = arg.split("=", 1)[0] if long else arg[:2]
            if long and name not in takes_value:
                from difflib import get_close_matches  # here: only a mistyped option needs it

                raise click.NoSuchOption(
                    name, possibilities=get_close_matches(name, longs, 1), ctx=ctx
                )
            if name not in takes_value or (
                len(arg) > 2 and not arg.startswith("--") and not takes_value[name]
            ):
                words.append(arg)  # "-4dF", "-dh", "-(Legendary)": the roll's
                continue
            options.append(arg)
            attached = "=" in arg if long else len(arg) > 2
            if takes_value[name] and not attached:
                value = next(rest, None)  # its value, which may look like a roll
                if value is not None:
                    options.append(value)
        # options first, then '--': click reads no word of the roll as an option
        return super().parse_args(ctx, [*options, "--", *words])
