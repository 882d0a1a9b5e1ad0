"""``fudgedice roll TEXT`` and ``fudgedice odds TEXT`` with every option at
its default, run without click for the console script (:mod:`fudgedice.cli.entry`
says when): the functions the click commands of :mod:`fudgedice.cli.commands` call, the
page printed as ``click.echo`` prints it (a page it would change, holding a
colour code, goes through ``click.echo`` itself), and a bad roll's message, a
broken pipe and Ctrl-C ending as click's standalone main ends them: the same
lines and exit codes (``tests/test_entry.py``)."""

from __future__ import annotations

import errno
import sys
from typing import NoReturn, TextIO, cast

from ..api import odds as measure_odds
from ..api import program_with_table
from ..budget import collector_paused, within_budget
from ..errors import DiceError
from ..stream import fresh
from .checks import check_run, suggesting_float


def run_quick(command: str, text: str, *, plain_stderr: bool) -> NoReturn:
    """``fudgedice roll TEXT`` or ``fudgedice odds TEXT``, as click runs them;
    ``plain_stderr``: standard error is a stream ``click.echo`` writes to as it
    is (:func:`fudgedice.cli.entry.plain`)."""
    try:
        with collector_paused():  # as the click group's main
            try:
                page = _answer(command, text)
            except DiceError as error:  # as console.friendly
                _write(f"error: {error}", err=plain_stderr)
                sys.exit(error.exit_code)
            _write(page)
    except (EOFError, KeyboardInterrupt):  # click's standalone main: "Aborted!"
        from gettext import gettext  # click's translation of its message

        _write("", err=plain_stderr)
        _write(gettext("Aborted!"), err=plain_stderr)
        sys.exit(1)
    except OSError as error:  # click's standalone main: a reader that went away
        if error.errno != errno.EPIPE:
            raise
        sys.stdout = cast(TextIO, _Pacified(sys.stdout))
        sys.stderr = cast(TextIO, _Pacified(sys.stderr))
        sys.exit(1)
    sys.exit(0)


def _answer(command: str, text: str) -> str:
    """What the command prints, made as one request of the work budget."""

    @within_budget
    def roll() -> str:  # commands.roll with its defaults: one fresh roll, no sheet, no session
        program = program_with_table(text, None)
        first = program.roll(fresh(), None)
        check_run(first, 1, as_json=False, program=program)
        return first.text

    @within_budget
    def odds() -> str:  # commands.odds with its defaults: exact odds as the table
        from ..render.odds_table import odds_text  # here: a roll prints no odds table

        with suggesting_float(text, None):
            result = measure_odds(text, d100_table=None)
        return odds_text(result, show_exact=False, all_rows=False)

    return roll() if command == "roll" else odds()


def _write(page: str, *, err: bool | None = None) -> None:
    """``click.echo(page)`` to standard output (``err`` None), or to standard
    error (``err`` True when it is a stream click writes to as it is, False when
    click would rewrap it). click strips colour codes from an output that is not
    a terminal: a page holding an escape, or for a standard error click would
    rewrap, goes through click itself."""
    if "\x1b" in page or err is False:
        import click  # here: only a page click would change needs it

        click.echo(page, err=err is not None)
        return
    stream = sys.stdout if err is None else sys.stderr
    stream.write(page + "\n")
    stream.flush()


class _Pacified:
    """A standard stream whose reader went away, as click's standalone main
    leaves it: the interpreter's last flush at exit raises no second broken
    pipe (click's own wrapper is private to it)."""

    def __init__(self, wrapped: TextIO) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as error:
            if error.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> object:
        return getattr(self.wrapped, name)
