"""``fudgedice discord``: the table's slash commands made known to Discord
(``fudgedice help discord``), built when named. ``register`` sends the one
list of :mod:`fudgedice.chat.commands` through Discord's HTTP API, for the
whole application or, with ``--guild``, one server (there at once, for
trying them); ``unregister`` sends an empty list; ``commands`` prints the
list without sending it. The bot token comes from the environment or a
file, never from an option a process list would show, and is never printed."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click
import httpx

from .. import __version__
from ..chat.commands import COMMANDS

API = "https://discord.com/api/v10"
"""Discord's HTTP API, version 10."""
TOKEN_VARIABLE = "FUDGEDICE_DISCORD_TOKEN"
APPLICATION_VARIABLE = "FUDGEDICE_DISCORD_APPLICATION_ID"
HOME = "https://pypi.org/project/fudgedice/"
USER_AGENT = f"DiscordBot ({HOME}, {__version__})"
"""Discord asks every bot to name itself so: ``DiscordBot ($url, $version)``."""
TIMEOUT = 20.0
"""Seconds the request may take (connecting, sending, Discord's answer)."""
LONGEST_WAIT = 10.0
"""Seconds a rate limit's ``retry_after`` may ask for and be waited out, once;
a longer one is reported instead."""
MOST_PROBLEMS = 10
"""Lines of a refused list's problems printed at most."""
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")
"""Discord's IDs: a number of up to 20 digits (nothing else may enter a URL)."""


class Refused(click.ClickException):
    """What stops a request, said in a line with exit code 2, as every
    command's errors are: never a traceback."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.message}", err=True)


def _refuse(message: str, token: str = "") -> NoReturn:
    # whatever Discord echoed back, the token is never shown
    raise Refused(message.replace(token, "[token]") if token else message)


def _snowflake(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not _SNOWFLAKE.fullmatch(value.strip()):
        raise click.BadParameter("a Discord ID is a number, such as 1234567890123456789")
    return None if value is None else value.strip()


def _api(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if not re.match(r"https?://[^\s/]+", value):
        raise click.BadParameter("an http:// or https:// address, such as " + API)
    return value.rstrip("/")


def token_from(token_file: str | None) -> str:
    """The bot token: the file's first line, else ``$FUDGEDICE_DISCORD_TOKEN``."""
    if token_file is not None:
        try:
            token = Path(token_file).read_text("utf-8").strip()
        except (OSError, UnicodeError) as error:
            _refuse(f"cannot read the token file {token_file}: {error.__class__.__name__}")
        if not token:
            _refuse(f"the token file {token_file} is empty")
    else:
        token = os.environ.get(TOKEN_VARIABLE, "").strip()
        if not token:
            _refuse(
                f"no bot token: set {TOKEN_VARIABLE} (the Bot page of the application in "
                "Discord's developer portal) or give --token-file"
            )
    if any(char.isspace() or not char.isprintable() for char in token):
        _refuse("the bot token holds spaces or control characters: copy it again")
    return token


def commands_url(api: str, application_id: str, guild: str | None) -> str:
    """Where the list goes: the application's global commands, or one guild's."""
    base = f"{api}/applications/{application_id}"
    return f"{base}/guilds/{guild}/commands" if guild else f"{base}/commands"


def problems(errors: Any, path: str = "") -> Iterator[str]:
    """Discord's nested ``errors`` of a 400 as ``where: what`` lines."""
    if not isinstance(errors, dict):
        return
    for key, value in errors.items():
        if key == "_errors" and isinstance(value, list):
            for each in value:
                said = each.get("message") if isinstance(each, dict) else None
                yield f"{path or 'the list'}: {said or each}"
        else:
            yield from problems(value, f"{path}.{key}" if path else str(key))


def _body(answer: httpx.Response) -> Any:
    try:
        return answer.json()
    except ValueError:
        return None


def _retry_after(answer: httpx.Response) -> float | None:
    """Seconds a 429 asks to wait: its JSON's ``retry_after``, else its header."""
    body = _body(answer)
    said = body.get("retry_after") if isinstance(body, dict) else None
    if said is None:
        said = answer.headers.get("Retry-After")
    try:
        seconds = float(said) if said is not None else None
    except (TypeError, ValueError):
        return None
    return seconds if seconds is not None and seconds >= 0 else None


def _pause(seconds: float) -> None:
    """Waits out a short rate limit (tests stand in for it)."""
    time.sleep(seconds)


def _refusal(answer: httpx.Response, where: str) -> str:
    """What Discord's refusal means for whoever registers, in a line or a few."""
    status = answer.status_code
    body = _body(answer)
    said = body.get("message") if isinstance(body, dict) else None
    if status == 401:
        return (
            "Discord refused the bot token (401 Unauthorized): give the token of the "
            "application's bot (its Bot page; reset it there if it leaked)"
        )
    if status == 403:
        return (
            f"Discord forbids it (403 Forbidden{f': {said}' if said else ''}): the token "
            f"must be {where}'s own bot, and with --guild the application must be in that "
            "server, invited with the applications.commands scope (fudgedice help discord)"
        )
    if status == 404:
        return f"Discord knows no such application or server (404): check {where}'s ID"
    if status == 429:
        wait = _retry_after(answer)
        later = f" in {wait:.0f} s" if wait is not None else " later"
        return f"Discord is limiting this application's requests (429): try again{later}"
    if status == 400:
        found = list(problems(body.get("errors") if isinstance(body, dict) else None))
        lines = [f"Discord refused the commands (400: {said or 'bad request'})"]
        lines += [f"  {line}" for line in found[:MOST_PROBLEMS]]
        if len(found) > MOST_PROBLEMS:
            lines.append(f"  ... and {len(found) - MOST_PROBLEMS} more")
        return "\n".join(lines)
    return f"Discord answered {status}{f' ({said})' if said else ''}: try again later"


def put_commands(url: str, token: str, commands: Sequence[Any], where: str) -> list[Any]:
    """``PUT`` the list to ``url``, which replaces the application's commands
    there; returns the commands Discord now holds. A rate limit that asks for
    at most :data:`LONGEST_WAIT` seconds is waited out once."""
    headers = {"Authorization": f"Bot {token}", "User-Agent": USER_AGENT}
    with httpx.Client(timeout=TIMEOUT, headers=headers) as client:
        for attempt in (1, 2):
            try:
                answer = client.put(url, json=list(commands))
            except httpx.HTTPError as error:
                _refuse(f"could not reach Discord at {url}: {error.__class__.__name__}", token)
            wait = _retry_after(answer) if answer.status_code == 429 else None
            if attempt == 1 and wait is not None and wait <= LONGEST_WAIT:
                _pause(wait)
                continue
            break
    if answer.status_code not in (200, 201):
        _refuse(_refusal(answer, where), token)
    held = _body(answer)
    if not isinstance(held, list):
        _refuse("Discord's answer was not the list of commands: try again", token)
    return held


_TARGET = (
    click.option("--application-id", envvar=APPLICATION_VARIABLE, callback=_snowflake,
                 metavar="ID", help=f"The application's ID (its General Information page). "
                 f"[default: ${APPLICATION_VARIABLE}]"),
    click.option("--guild", callback=_snowflake, metavar="ID",
                 help="One server's ID: its commands, there at once (for trying them). "
                 "Without it: every server the application is in."),
    click.option("--token-file", type=click.Path(dir_okay=False), metavar="FILE",
                 help=f"A file holding the bot token. [default: ${TOKEN_VARIABLE}]"),
    click.option("--api", default=API, show_default=True, callback=_api, metavar="URL",
                 help="Discord's HTTP API (another address: a stand-in, for tests)."),
)  # fmt: skip


def _target(command: Any) -> Any:
    for option in reversed(_TARGET):
        command = option(command)
    return command


def _send(commands: Sequence[Any], application_id: str | None, guild: str | None,
          token_file: str | None, api: str) -> tuple[list[Any], str]:  # fmt: skip
    if application_id is None:
        _refuse(f"no application: give --application-id or set {APPLICATION_VARIABLE}")
    token = token_from(token_file)
    where = f"application {application_id}"
    held = put_commands(commands_url(api, application_id, guild), token, commands, where)
    return held, (f"in server {guild}" if guild else "in every server the application is in")


@click.group("discord", context_settings={"help_option_names": ["-h", "--help"]})
def discord() -> None:
    """Register the table's slash commands with Discord.

    For an application whose interactions endpoint is `fudgedice serve`
    (fudgedice help discord).

    \b
    Examples:
      export FUDGEDICE_DISCORD_TOKEN=...   # the application's bot token
      fudgedice discord register --application-id 1234567890123456789 --guild 987654321
      fudgedice discord register --application-id 1234567890123456789
      fudgedice discord commands
    """


@discord.command()
@_target
def register(application_id: str | None, guild: str | None, token_file: str | None,
             api: str) -> None:  # fmt: skip
    """Register the slash commands with Discord.

    The table's commands (/roll, /odds, ...) for the application: in one
    server with --guild (at once), else in every server the application is in
    (Discord may take a while to show them everywhere). The list replaces the
    application's commands there."""
    held, where = _send(COMMANDS, application_id, guild, token_file, api)
    names = ", ".join(f"/{each.get('name')}" for each in held if isinstance(each, dict))
    click.echo(f"registered {len(held)} commands {where}: {names}")


@discord.command()
@_target
def unregister(application_id: str | None, guild: str | None, token_file: str | None,
               api: str) -> None:  # fmt: skip
    """Remove the application's slash commands.

    Every one: in one server with --guild, else its global ones."""
    _held, where = _send((), application_id, guild, token_file, api)
    click.echo(f"removed the application's commands {where}")


@discord.command("commands")
def commands_command() -> None:
    """Print the slash commands as JSON, as `register` sends them."""
    click.echo(json.dumps(list(COMMANDS), indent=2, ensure_ascii=False))
