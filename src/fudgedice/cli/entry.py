"""The ``fudgedice`` console script: ``roll TEXT`` and ``odds TEXT`` answered
without click, every other command line given to click (:mod:`fudgedice.cli.commands`).

A player runs one ``fudgedice roll 4dF`` per roll, so its start-up is what they
wait for, and importing click (with the ``inspect``, ``typing``, ``uuid``,
``platform``, ``datetime`` and ``gettext`` it loads) and building its commands
was a fifth of that process. A command line of ``roll`` or ``odds`` and words
none of which starts with ``-`` (no option, no ``--help``, no roll that starts
with a minus sign) has one meaning, the command's defaults: it is run by
:mod:`fudgedice.cli.quick` with the same functions the click commands call, and
printed as ``click.echo`` prints it. Any other command line, and any case where click would
do something of its own before the command (shell completion asked for, a
standard output it would rewrap, Windows' wildcards), goes to click. A bad
roll's message, a broken pipe and Ctrl-C end as under click: the same lines
and exit codes. ``tests/test_entry.py`` holds the two ways to the same output,
error and exit code."""

from __future__ import annotations

import codecs
import gc
import os
import sys

from .. import TYPE_CHECKING

if TYPE_CHECKING:  # typing loads with the collector paused (main)
    from typing import NoReturn, TextIO

QUICK = ("roll", "odds")
"""The commands a plain command line of words runs without click."""


def main(args: list[str] | None = None) -> NoReturn:
    """Run the command line ``args`` (by default, the process's arguments)."""
    words = sys.argv[1:] if args is None else list(args)
    text = quick_text(words)
    # The collector paused while the modules load: they make tens of thousands
    # of objects that live as long as the process, and its collections of them
    # were a few percent of a roll's start-up. A plain roll or odds keeps it
    # paused (its request would pause it too: see budget.within_budget), and
    # when the console script runs it (no ``args``) to the process's end:
    # turned on again, the collector's first pass would scan every object the
    # imports made. Other commands run with it as it was (``serve`` runs for
    # hours; each command pauses it for its own request).
    enabled = gc.isenabled()
    gc.disable()
    try:
        if text is None:
            from .commands import main as commands  # here: click, for every other command line
        else:
            from .quick import run_quick
    except BaseException:
        if enabled:
            gc.enable()
        raise
    if text is None:
        if enabled:
            gc.enable()
        commands(args)
        raise SystemExit(0)  # click's main in standalone mode exits itself; never reached
    try:
        run_quick(words[0], text, plain_stderr=plain(sys.stderr))
    finally:
        if enabled and args is not None:
            gc.enable()


def quick_text(words: list[str]) -> str | None:
    """The roll of ``words`` when they are ``roll`` or ``odds`` and a roll that
    click would read the same way with every option at its default; else None."""
    if len(words) < 2 or words[0] not in QUICK or any(w.startswith("-") for w in words[1:]):
        return None
    text = " ".join(words[1:]).strip()
    if not text or os.name == "nt" or not plain(sys.stdout):
        return None  # an empty roll is click's usage error; Windows: click expands wildcards
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None  # click's shell completion (_FUDGEDICE_COMPLETE) may be asked for
    return text


def plain(stream: TextIO | None) -> bool:
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
