"""``fudgedice odds --float``: float odds shown as JSON or as a table (the hint
to ``--float`` when exact odds are refused for their size is in
:mod:`fudgedice.cli.checks`)."""

from __future__ import annotations

import click

from .. import api
from ..errors import DiceValueError
from ..render.float_table import float_odds_text
from .console import json_text


def float_odds(
    text: str,
    as_json: bool,
    plot_path: str | None,
    exact: bool,
    all_rows: bool,
    d100_table: str | None,
) -> None:
    """The float odds of ``text``, as JSON or as the table."""
    for given, flag in ((plot_path, "--plot"), (exact, "--exact"), (d100_table, "--d100-table")):
        if given:
            raise DiceValueError(f"{flag} is for exact odds: leave out --float")
    result = api.odds(text, exact=False)
    if as_json:
        click.echo(json_text(result.to_dict()))
    else:
        click.echo(float_odds_text(result, all_rows=all_rows))
