"""``roll --session``: a roll from a session's committed seed, added to its
log (docs/fairness.md). The ``session`` and ``verify`` commands are
:mod:`fudgedice.session_commands`, which a roll does not load."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import click

from .cli_checks import check_run
from .errors import DiceValueError
from .results.roll import Roll

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
                "--client-seed",
                metavar="TEXT",
                help="The roller's client seed, chosen after the commitment was published.",
            ),
        )
    ):
        command = option(command)
    return command


def refuse_without_session(*, roller: str | None, secret: bool, client: str | None) -> None:
    given = [
        name
        for name, value in (("--as", roller), ("--secret", secret), ("--client-seed", client))
        if value is not None and value is not False
    ]
    if given:
        raise click.UsageError(f"{', '.join(given)} only go with a roll into a --session FILE")


def roll_into(
    path: str,
    text: str,
    times: int,
    *,
    roller: str | None,
    secret: bool,
    client_seed: str | None,
    refused: Mapping[str, str | None],
) -> tuple[list[Roll], list[dict[str, Any]]]:
    """``times`` rolls of ``text`` from the session in ``path``, each added to
    its log; the file is replaced once, when every roll is made."""
    from .log.storage import updating  # the log: only a session's commands load it

    for option, value in refused.items():
        if value is not None:
            raise DiceValueError(
                f"{option} can't go with --session: the log records the roll text alone, "
                "and the session's seed decides the dice"
            )
    rolls: list[Roll] = []
    entries: list[dict[str, Any]] = []
    with updating(path) as session:
        for index in range(times):
            logged = session.roll(
                text,
                roller="GM" if roller is None else roller,
                visibility="secret" if secret else "public",
                client_seed="" if client_seed is None else client_seed,
            )
            rolls.append(logged.roll)
            entries.append(logged.entry)
            if index == 0:
                check_run(logged.roll, times)
    return rolls, entries


def logged_line(entry: Mapping[str, Any]) -> str:
    """The line under a roll that says where the log holds it."""
    where = f"logged: seq {entry['seq']}, nonce {entry['nonce']}, hash {entry['hash'][:16]}"
    if entry.get("hidden"):
        return f"{where} (secret: the log shows a placeholder until the reveal)"
    return where
