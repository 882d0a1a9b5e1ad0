"""The ``fudgedice`` console script: ``roll TEXT`` and ``odds TEXT`` answered
without click, every other command line given to click (:mod:`fudgedice.cli`).

A player runs one ``fudgedice roll 4dF`` per roll, so its start-up is what they
wait for, and importing click (with the ``inspect``, ``typing``, ``uuid``,
``platform``, ``datetime`` and ``gettext`` it loads) and building its commands
was a fifth of that process. A command line of ``roll`` or ``odds`` and words
none of which starts with ``-`` (no option, no ``--help``, no roll that starts
with a minus sign) has one meaning, the command's defaults: it is run here with
the same functions the click commands call, and printed as ``click.echo``
prints it (a page it would change, holding a colour code, goes through
``click.echo`` itself). Any other command line, and any case where click would
do something of its own before the command (shell completion asked for, a
standard output it would rewrap, Windows' wildcards), goes to click. A bad
roll's message, a broken pipe and Ctrl-C end as under click: the same lines
and exit codes. ``tests/test_entry.py`` holds the two ways to the same output,
error and exit code."""

from __future__ import annotations

import codecs
import errno
import os
import sys
from typing import NoReturn, TextIO, cast

from .api import odds as measure_odds
from .api import program_with_table
from .budget import collector_paused, within_budget
from .cli_checks import check_run, suggesting_float
from .errors import DiceError
from .render.odds_table import odds_text
from .stream import fresh

QUICK = ("roll", "odds")
"""The commands a plain command line of words runs without click."""


def main(args: list[str] | None = None) -> NoReturn:
    """Run the command line ``args`` (by default, the process's arguments)."""
    words = sys.argv[1:] if args is None else list(args)
    text = quick_text(words)
    if text is None:
        from .cli import main as commands  # here: click, for every other command line

        commands(args)
        raise SystemExit(0)  # click's main in standalone mode exits itself; never reached
    run_quick(words[0], text)


def quick_text(words: list[str]) -> str | None:
    """The roll of ``words`` when they are ``roll`` or ``odds`` and a roll that
    click would read the same way with every option at its default; else None."""
    if len(words) < 2 or words[0] not in QUICK or any(w.startswith("-") for w in words[1:]):
        return None
    text = " ".join(words[1:]).strip()
    if not text or os.name == "nt" or not _plain(sys.stdout):
        return None  # an empty roll is click's usage error; Windows: click expands wildcards
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None  # click's shell completion (_FUDGEDICE_COMPLETE) may be asked for
    return text


def _plain(stream: TextIO | None) -> bool:
    """``stream`` is a text stream that ``click.echo`` would write to as it is:
    not missing, not binary, writable and not declaring ASCII (click rewraps
    such a stream as UTF-8)."""
    encoding = getattr(stream, "encoding", None)
    if stream is None or not encoding or not hasattr(stream, "buffer"):
        return False
    try:
        return codecs.lookup(encoding).name != "ascii" and bool(stream.writable())
    except (LookupError, ValueError):
        return False


def run_quick(command: str, text: str) -> NoReturn:
    """``fudgedice roll TEXT`` or ``fudgedice odds TEXT``, as click runs them."""
    try:
        with collector_paused():  # as the click group's main
            try:
                page = _answer(command, text)
            except DiceError as error:  # as console.friendly
                _write(f"error: {error}", err=True)
                sys.exit(error.exit_code)
            _write(page)
    except (EOFError, KeyboardInterrupt):  # click's standalone main: "Aborted!"
        from gettext import gettext  # click's translation of its message

        _write("", err=True)
        _write(gettext("Aborted!"), err=True)
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
    def roll() -> str:  # cli.roll with its defaults: one fresh roll, no sheet, no session
        program = program_with_table(text, None)
        first = program.roll(fresh(), None)
        check_run(first, 1, as_json=False, program=program)
        return first.text

    @within_budget
    def odds() -> str:  # cli.odds with its defaults: exact odds as the table
        with suggesting_float(text, None):
            result = measure_odds(text, d100_table=None)
        return odds_text(result, show_exact=False, all_rows=False)

    return roll() if command == "roll" else odds()


def _write(page: str, *, err: bool = False) -> None:
    """``click.echo(page, err=err)``: written here when click would write it as
    it is. click strips colour codes from an output that is not a terminal, and
    rewraps a stream it finds misconfigured: a page holding an escape, or for
    such a standard error, goes through click itself."""
    stream = sys.stderr if err else sys.stdout
    if "\x1b" in page or (err and not _plain(stream)):
        import click  # here: only a page click would change needs it

        click.echo(page, err=err)
        return
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
