"""The commands of rolls anyone can check: ``session new``, ``session
reveal``, ``session export`` and ``verify`` (docs/fairness.md). ``roll
--session`` is :mod:`fudgedice.cli.session_rolls`; the command line loads this
module when ``session`` or ``verify`` is named (or the help lists the
commands), so a roll builds none of these commands."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from ..errors import DiceValueError
from .console import friendly, json_text

if TYPE_CHECKING:
    from ..log import Report

VERIFY_FAILED = 1
"""``verify``'s exit code when an entry fails (2 is a file it can't read)."""
VERIFY_PENDING = 3
"""``verify``'s exit code when nothing fails but some rolls wait for their
seed's reveal."""


def _published(text: str) -> tuple[int, str]:
    """``SEQ:HASH`` as given to --hash (verify checks the hash itself)."""
    seq, colon, shown = text.partition(":")
    seq = seq.strip()
    if not colon or not (seq.isascii() and seq.isdigit() and len(seq) <= 9):
        raise DiceValueError(f"--hash takes SEQ:HASH, such as 3:6f225f62b968cb6c, not {text!r}")
    return int(seq), shown.strip()


def checked(document: Any, hashes: Sequence[str] = ()) -> Report:
    """``verify``'s report on a log document (what ``--json`` prints is its
    ``to_dict()``), each ``SEQ:HASH`` of ``hashes`` looked for in it."""
    from ..log import verify  # the log: only a session's commands load it

    return verify(document, published=dict(_published(each) for each in hashes))


@click.group()
def session() -> None:
    """Rolls anyone can check: commit to a secret seed, roll, reveal, verify.

    \b
    Examples:
      fudgedice session new game.json
      fudgedice roll --session game.json --as Ann "Good vs Great"
      fudgedice roll --session game.json --secret "4dF+2"
      fudgedice session reveal game.json
      fudgedice session export game.json -o log.json
      fudgedice verify log.json

    The session file holds the secret server seed until the reveal: keep it
    private, and publish the commitment 'session new' prints before the
    first roll. See fudgedice help fairness.
    """


@session.command("new")
@click.argument("path", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the commitment as JSON.")
@friendly
def new(path: str, as_json: bool) -> None:
    """Start a session in FILE (never over an existing file) and print the
    commitment to publish before the first roll.

    \b
    Examples:
      fudgedice session new game.json
    """
    from ..log import Session  # the log: only a session's commands load it
    from ..log.session import CLI_ROOM
    from ..log.storage import create

    started = Session.new(room=CLI_ROOM)
    create(path, started)
    if as_json:
        import json  # here: a roll that starts need not load it

        click.echo(json.dumps({"file": path, "room": CLI_ROOM, "commitment": started.commitment}))
        return
    click.echo(f"commitment: {started.commitment}")
    click.echo(
        f"publish the commitment before the first roll; keep {path} private until "
        "'fudgedice session reveal' (it holds the secret server seed)"
    )


@session.command("reveal")
@click.argument("path", metavar="FILE")
@click.option("--new-seed", is_flag=True, help="Start a new seed after this one, and go on.")
@click.option("--json", "as_json", is_flag=True, help="Print the reveal as JSON.")
@friendly
def reveal(path: str, new_seed: bool, as_json: bool) -> None:
    """Publish the server seed of the session in FILE and open its secret
    rolls; the session rolls no more unless --new-seed starts another seed.

    \b
    Examples:
      fudgedice session reveal game.json
      fudgedice session reveal game.json --new-seed
    """
    from ..log.storage import updating  # the log: only a session's commands load it

    with updating(path) as current:
        revealed = current.reveal(new_seed=new_seed)
    if as_json:
        click.echo(json_text(revealed.to_dict()))
        return
    click.echo(f"server seed: {revealed.server_seed}")
    click.echo(f"commitment:  {revealed.commitment}")
    head = revealed.head
    click.echo(f"rolls: {revealed.rolls}; the log's head: seq {head['seq']}, hash {head['hash']}")
    if revealed.next_commitment is not None:
        click.echo(f"new commitment: {revealed.next_commitment} (publish it; rolls go on)")
    click.echo(f"publish the log: fudgedice session export {path} -o log.json")


@session.command("export")
@click.argument("path", metavar="FILE")
@click.option(
    "-o", "--output", metavar="LOG", help="Write the log to this file instead of printing it."
)
@friendly
def export(path: str, output: str | None) -> None:
    """Print the log of the session in FILE: what anyone may read and verify.
    It holds no secret (secret rolls stay placeholders until the reveal).

    \b
    Examples:
      fudgedice session export game.json -o log.json
    """
    from ..log.storage import load, log_text  # the log: only a session's commands load it

    document = log_text(load(path).export())
    if output is None:
        click.echo(document, nl=False)
        return
    try:
        from pathlib import Path  # here: a roll needs no paths, nor files.py's tempfile

        from ..files import write_atomically

        # anyone may read a log
        write_atomically(Path(output), document.encode("utf-8"), mode=0o644)
    except OSError as error:
        raise DiceValueError(f"can't write {output}: {error.strerror or error}") from None
    click.echo(f"log written to {output}", err=True)


@click.command("verify")
@click.argument("path", metavar="LOG")
@click.option(
    "--hash",
    "hashes",
    metavar="SEQ:HASH",
    multiple=True,
    help="A hash shown during play (16 hex digits or more): the log must hold it at SEQ.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@friendly
def verify_command(path: str, hashes: tuple[str, ...], as_json: bool) -> None:
    """Check a log offline: each revealed seed matches its commitment, every
    roll follows from its seed and text, the hash chain is unbroken and
    gap-free, and every secret roll matches its placeholder.

    LOG is a log exported by 'session export' or by a table, or a session
    file. --hash 3:6f225f62b968cb6c checks the log holds the entry whose hash
    was shown for seq 3 during play (nobody can rewrite it, nor anything
    before it). Exit code 0: every roll checked; 1: an entry fails (named);
    3: nothing fails, but some rolls wait for their seed's reveal.

    \b
    Examples:
      fudgedice verify log.json
      fudgedice verify game.json --json
      fudgedice verify log.json --hash 3:6f225f62b968cb6c
    """
    from ..log.storage import read_log  # the log: only a session's commands load it

    report = checked(read_log(path), hashes)
    if as_json:
        click.echo(json_text(report.to_dict(), ensure_ascii=False))
    else:
        click.echo(str(report))
    if not report.ok:
        sys.exit(VERIFY_FAILED)
    if not report.complete:
        sys.exit(VERIFY_PENDING)
