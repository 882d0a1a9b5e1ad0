"""``roll --session``: a roll from a session's committed seed, added to its
log (docs/fairness.md). The ``session`` and ``verify`` commands are
:mod:`fudgedice.cli.session_commands`, which a roll does not load."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import click

from ..errors import DiceError, DiceValueError
from ..results.roll import Roll
from .checks import check_run

F = TypeVar("F", bound=Callable[..., Any])


def roll_options(command: F) -> F:
    """The options ``roll`` takes for a roll into a session."""
    for option in reversed(
        (
            click.option(
                "--session",
                "session_file",
                metavar="FILE",
                help="Roll from this session's committed seed and add the roll to its log.",
            ),
            click.option(
                "--as",
                "roller",
                metavar="NAME",
                help="Who rolls, as the session's log records it (default GM).",
            ),
            click.option(
                "--secret",
                is_flag=True,
                help="A GM secret roll: the log shows a placeholder until the reveal.",
            ),
            click.option(
                "--blind",
                is_flag=True,
                help="A blind roll: the GM rolls for the player --as names and reads it; "
                "the log, that player's copy too, shows a placeholder until the reveal.",
            ),
            click.option(
                "--client-seed",
                metavar="TEXT",
                help="The roller's client seed, chosen after the commitment was published "
                "(default: a fresh random one for each roll, which the log records).",
            ),
        )
    ):
        command = option(command)
    return command


def refuse_without_session(
    *, roller: str | None, secret: bool, client: str | None, blind: bool = False
) -> None:
    given = [
        name
        for name, value in (
            ("--as", roller),
            ("--secret", secret),
            ("--blind", blind),
            ("--client-seed", client),
        )
        if value is not None and value is not False
    ]
    if given:
        raise click.UsageError(f"{', '.join(given)} only go with a roll into a --session FILE")


def visibility_of(*, roller: str | None, secret: bool, blind: bool) -> str:
    """The visibility a session's roll is logged with: a blind roll is a
    player's, read by the GM alone; the GM's own hidden roll is secret."""
    if secret and blind:
        raise click.UsageError("--secret and --blind are two visibilities: choose one")
    if blind and roller is None:
        raise click.UsageError(
            "--blind rolls for a player (--as NAME) whom the GM alone reads it for; "
            "the GM's own hidden roll is --secret"
        )
    return "blind" if blind else "secret" if secret else "public"


def roll_into(
    path: str,
    text: str,
    times: int,
    *,
    roller: str | None,
    visibility: str,
    client_seed: str | None,
    refused: Mapping[str, str | None],
) -> tuple[list[Roll], list[dict[str, Any]]]:
    """``times`` rolls of ``text`` from the session in ``path``, each added to
    its log; the file is replaced once, when every roll is made. With no
    ``client_seed``, each roll takes a fresh random one, so that whoever holds
    the session's seed could not foresee it. A roll that fails once its dice
    are drawn stays in the log as a failed roll (docs/fairness.md); the run
    stops there, and the failure is raised once the file is written."""
    from ..log.storage import updating  # the log: only a session's commands load it

    for option, value in refused.items():
        if value is not None:
            raise DiceValueError(
                f"{option} can't go with --session: the log records the roll text alone, "
                "and the session's seed decides the dice"
            )
    rolls: list[Roll] = []
    entries: list[dict[str, Any]] = []
    failed: DiceError | None = None
    with updating(path) as session:
        for index in range(times):
            logged = session.roll(
                text,
                roller="GM" if roller is None else roller,
                visibility=visibility,
                client_seed=fresh_client_seed() if client_seed is None else client_seed,
            )
            if logged.roll is None:
                assert logged.error is not None
                failed = logged.error
                entries.append(logged.entry)
                break
            rolls.append(logged.roll)
            entries.append(logged.entry)
            if index == 0:
                check_run(logged.roll, times)
    if failed is not None:
        raise DiceValueError(
            f"{failed.message} (the dice were drawn: a failed roll, {logged_line(entries[-1])})",
            text=failed.text,
            position=failed.position,
            hint=failed.hint,
        )
    return rolls, entries


CLIENT_SEED_BYTES = 16
"""A fresh client seed's random bytes (128 bits), written in hex."""


def fresh_client_seed() -> str:
    """A client seed nobody could know before the roll: random bytes from the
    operating system, in hex."""
    return os.urandom(CLIENT_SEED_BYTES).hex()


def logged_line(entry: Mapping[str, Any]) -> str:
    """The line under a roll that says where the log holds it."""
    where = f"logged: seq {entry['seq']}, nonce {entry['nonce']}, hash {entry['hash'][:16]}"
    if entry.get("hidden"):
        whose = f", {entry['roller']}'s copy too," if entry.get("visibility") == "blind" else ""
        kind = entry.get("visibility", "secret")
        return f"{where} ({kind}: the log{whose} shows a placeholder until the reveal)"
    return where
