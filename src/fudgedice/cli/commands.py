"""The ``fudgedice`` command: roll, measure and explain from the shell."""

from __future__ import annotations

from typing import Any

import click

from .. import api
from ..api import program_with_table
from ..budget import collector_paused
from ..errors import DiceError
from ..render.odds_table import odds_text
from ..render.table import table_text
from . import session_rolls
from .answers import MOST_TIMES, measured, rolled, rolls_json
from .checks import run_summary
from .console import RollCommand, json_text, unquoted
from .console import friendly as _friendly
from .console import show as _show
from .floats import float_odds
from .sheet_options import sheet_options, sheet_plan


def _expression(words: tuple[str, ...]) -> str:
    text = " ".join(words).strip()
    if not text:
        raise click.UsageError("give a roll, such as '4dF+1' or '3d6'")
    return text


_d100_table = click.option(
    "--d100-table",
    "d100_table",
    metavar="TABLE",
    help="A custom table for @d%: a file, or inline such as '1=-4, 2-6=-3, ..., 00=+4'.",
)
"""The game master's own d% technique table, for roll, odds and read."""


class _Commands(click.Group):
    """The command line, run with the cyclic garbage collector paused from
    the words it is given to what it prints (thousands of faces to ``read``
    are thousands of objects before the command's own request begins).

    The commands a roll never runs are built when named (click's lazily
    loaded subcommands): their modules, options and types are a few
    milliseconds of every ``roll`` and ``odds`` that starts. The help lists
    them all, loading each for its line."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with collector_paused():
            return super().main(*args, **kwargs)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _DEFERRED and cmd_name not in self.commands:
            self.add_command(_deferred(cmd_name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *_DEFERRED})

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.NoSuchCommand as error:
            # click suggests from the commands built so far: suggest every one
            raise click.NoSuchCommand(
                error.command_name, possibilities=self.list_commands(ctx), ctx=ctx
            ) from None


_DEFERRED = (
    "backup", "compare", "discord", "help", "mcp", "restore", "serve", "session", "sheet",
    "verify",
)  # fmt: skip
"""The commands built when first named, each in its own module."""


def _deferred(name: str) -> click.Command:
    """The command ``name`` of :data:`_DEFERRED`, its module imported."""
    if name == "compare":  # comparisons load their tables and charts
        from .compare import compare

        return compare
    if name == "discord":  # httpx and Discord's API: for registering commands alone
        from .discord import discord

        return discord
    if name == "help":
        from .help import help_command

        return help_command
    if name == "serve":
        from .serve import serve

        return serve
    if name == "mcp":  # the Model Context Protocol's SDK loads when it starts
        from .mcp import mcp

        return mcp
    if name in ("backup", "restore"):
        from . import backup

        return backup.backup if name == "backup" else backup.restore
    if name == "sheet":
        from .sheet_commands import sheet

        return sheet
    from . import session_commands

    return session_commands.session if name == "session" else session_commands.verify_command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fudgedice")
def main() -> None:
    """Roll, explain and measure the dice of Fudge, Power Fudge, 3d6 Fudge,
    Fate and the D6 System.

    \b
    Examples:
      fudgedice roll 4dF+1
      fudgedice roll "4d6kh3" -n 6
      fudgedice odds "3d6!" --plot odds.png
      fudgedice read 4dF + + - 0
      fudgedice roll "Good vs Great"
      fudgedice roll "3d6fudge: Good opp Great"
      fudgedice roll "d6: 4D+2 vs Moderate"
      fudgedice table
      fudgedice session new game.json
      fudgedice verify log.json

    \b
    The roll language:               fudgedice help notation
    Every reference page and system: fudgedice help

    Quote expressions that contain spaces, '!' or '>' for your shell.
    """


# A roll may start with a minus sign ("-1+4dF"): not an option.
@main.command(cls=RollCommand, context_settings={"ignore_unknown_options": True})
@click.argument("expression", nargs=-1, required=True)
@click.option(
    "-n",
    "--times",
    default=1,
    show_default=True,
    type=click.IntRange(1, MOST_TIMES),
    help="How many times to roll.",
)
@click.option("--seed", default=None, help="Seed for a reproducible roll (a number or a word).")
@click.option("--json", "as_json", is_flag=True, help="Print the rolls as JSON.")
@_d100_table
@session_rolls.roll_options
@sheet_options
@_friendly
def roll(
    expression: tuple[str, ...],
    times: int,
    seed: str | None,
    as_json: bool,
    d100_table: str | None = None,
    session_file: str | None = None,
    roller: str | None = None,
    secret: bool = False,
    blind: bool = False,
    client_seed: str | None = None,
    **sheet: Any,
) -> None:
    """Roll EXPRESSION and show every die and what happened to it.

    Every die is drawn from the dice stream (fudgedice help fairness): --seed S
    gives the same roll on every machine; -n with --seed S rolls S#1, S#2, ...
    (each can be replayed alone with --seed). With --session FILE the roll
    draws from the session's committed seed and enters its log.

    \b
    Examples:
      fudgedice roll 4dF+1
      fudgedice roll "4d6kh3" -n 6
      fudgedice roll "3d6!" --seed 42
      fudgedice roll "5d10>=8f1" --json
      fudgedice roll --session game.json --as Ann "Good vs Great"
      fudgedice roll --session game.json --as Ann --blind "Fair"
    """
    text = (plan := sheet_plan(_expression(expression), times, **sheet)).text
    logged: list[dict[str, Any]] = []
    if session_file is not None:
        rolls, logged = session_rolls.roll_into(
            session_file,
            text,
            times,
            roller=roller,
            visibility=session_rolls.visibility_of(roller=roller, secret=secret, blind=blind),
            client_seed=client_seed,
            refused={"--seed": seed, "--d100-table": d100_table},
        )
    else:
        session_rolls.refuse_without_session(
            roller=roller, secret=secret, client=client_seed, blind=blind
        )
        rolls = rolled(program_with_table(text, d100_table), seed, times, as_json)
    plan.pay(rolls[0], err=as_json)  # the sheet pays only for a roll that was made
    if as_json:
        click.echo(json_text(rolls_json(rolls, logged), ensure_ascii=False))
        return
    blocks = [r.text for r in rolls]
    for index, entry in enumerate(logged):
        blocks[index] += "\n" + session_rolls.logged_line(entry)
    if times > 1:
        blocks.append(run_summary([r.total for r in rolls]))
    click.echo(plan.page(blocks))


# A roll may start with a minus sign ("-1+4dF"): not an option.
@main.command(cls=RollCommand, context_settings={"ignore_unknown_options": True})
@click.argument("expression", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the odds as JSON.")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Also write a chart to this .png or .svg file.",
)
@click.option("--exact", is_flag=True, help="Always show exact fractions, however long.")
@click.option("--all", "all_rows", is_flag=True, help="Show every outcome, even the rarest.")
@click.option(
    "--float",
    "as_float",
    is_flag=True,
    help="Float64 odds by FFT, within a stated bound: for sums of pools too large to count.",
)
@_d100_table
@sheet_options
@_friendly
def odds(
    expression: tuple[str, ...],
    as_json: bool,
    plot_path: str | None,
    exact: bool,
    all_rows: bool,
    as_float: bool = False,
    d100_table: str | None = None,
    **sheet: Any,
) -> None:
    """Show the exact odds of EXPRESSION: each value's chance as a percentage
    and an exact fraction, the chance of at least and at most that value, a
    bar chart, and the mean and spread.

    \b
    Examples:
      fudgedice odds 4dF+1
      fudgedice odds "4d6kh3" --json
      fudgedice odds "3d6!" --plot odds.png
      fudgedice odds 100000dF --float
    """
    if as_float:
        float_odds(_expression(expression), as_json, plot_path, exact, all_rows, d100_table)
        return
    if plot_path:
        from ..render.plot import check_plot_path  # here: charts are for --plot alone

        check_plot_path(plot_path)
    plan = sheet_plan(_expression(expression), **sheet)  # odds never spend
    result = measured(plan.text, d100_table)
    if as_json:
        click.echo(json_text(result.to_dict()))
    else:
        click.echo(plan.page([odds_text(result, show_exact=exact, all_rows=all_rows)]))
    if plot_path:
        from ..render.plot import plot_odds

        written = plot_odds(result, plot_path)
        click.echo(f"chart written to {written}", err=as_json)


@main.command(cls=RollCommand, context_settings={"ignore_unknown_options": True})
@click.argument("form")
@click.argument("dice", nargs=-1)  # none at all for Power Fudge's take0
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_d100_table
@sheet_options
@_friendly
def read(form: str, dice: tuple[str, ...], as_json: bool, d100_table: str | None = None,
         **sheet: Any) -> None:  # fmt: skip
    """Interpret dice rolled by hand: FORM is the roll (quoted if it has
    spaces), DICE the faces as they came up, in order.

    Fudge dice are written +, - and 0 (or o, _ for a blank); numbered dice by
    their number (00 on a d% is 100). For 4dF@4d6 mark the positive and
    negative dice p and n. In the D6 System mark the Wild Die's tosses w
    (w6 w3 for a 6 that exploded into a 3) and Character Point dice c; in an
    opposed roll the word opp separates the two sides' dice (dmg or opp in a
    damage roll). A Fate reroll invoke's four new faces follow the first four.

    \b
    Examples:
      fudgedice read 4dF + + - 0
      fudgedice read "4dF+2" + 0 0 -
      fudgedice read 3d6 6 2 5
      fudgedice read 4dF@4d6 p4 p3 n3 n3
      fudgedice read "Good vs Great" + 0 0 -
      fudgedice read "power: 4dF+2 take0"
      fudgedice read "3d6fudge: Good" 5 2 1
      fudgedice read "d6: 3D+1" 4 2 w6 w3
      fudgedice read "fate: Good vs Great" + 0 - +
    """
    plan = sheet_plan(form, **sheet)
    try:
        result = program_with_table(plan.text, d100_table).read(list(dice))
    except DiceError as error:
        # a roll the shell split at its spaces explains the failure better
        raise (None if plan.plan else unquoted(form, dice, d100_table)) or error from None
    plan.show(result, as_json)  # pays what the roll spent, then shows it


@main.command()
@click.argument("name", required=False)
@click.option("--exact", is_flag=True, help="Exact fractions instead of percentages.")
@click.option(
    "--to", "to", type=click.IntRange(1, api.MAX_TABLE_ROWS), help="How far to print a long table."
)
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@_friendly
def table(name: str | None, exact: bool, to: int | None, as_json: bool) -> None:
    """Print the table NAME, computed from exact distributions; with no
    NAME, list the tables.

    \b
    Examples:
      fudgedice table
      fudgedice table techniques --exact
    """
    if name is None:
        names = api.table_names()
        width = max((len(n) for n in names), default=0)
        for table_name, description in names.items():
            click.echo(f"{table_name:<{width}}  {description}")
        return
    result = api.table(name, exact=exact, to=to)
    _show(as_json, result.to_dict, lambda: table_text(result))


@main.command()
@click.argument("system", required=False, default=api.SYSTEMS.default)
@click.option("--json", "as_json", is_flag=True, help="Print the ladder as JSON.")
@_friendly
def ladder(system: str, as_json: bool) -> None:
    """Print the ladder of SYSTEM (a system with a ladder: fudge, power,
    3d6fudge, fate, ...; `fudgedice help` lists the systems; default fudge).

    \b
    Examples:
      fudgedice ladder
      fudgedice ladder power
      fudgedice ladder fate
    """
    result = api.ladder(system)
    _show(as_json, result.to_dict, lambda: table_text(result))
