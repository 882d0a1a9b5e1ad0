"""``fudgedice compare``: rolls of any systems side by side."""

from __future__ import annotations

import click

from ..comparisons import compare as measure
from ..render.compare_table import comparison_text
from ..render.plot import check_plot_path, plot_comparison
from .console import friendly, json_text


# A roll may start with a minus sign ("-1+4dF"): a word click does not know
# is a roll, never an option.
@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("forms", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print each roll's odds as JSON.")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Also write a chart of the rolls overlaid to this .png or .svg file.",
)
@click.option("--exact", is_flag=True, help="Exact fractions instead of percentages.")
@click.option(
    "--d100-table",
    "d100_table",
    metavar="TABLE",
    help="A custom table for @d%: a file, or inline such as '1=-4, 2-6=-3, ..., 00=+4'.",
)
@friendly
def compare(
    forms: tuple[str, ...],
    as_json: bool,
    plot_path: str | None,
    exact: bool,
    d100_table: str | None,
) -> None:
    """Set the exact odds of two rolls or more side by side: a column a roll
    for each value's chance, at least and at most, the events (success,
    critical failure, ...), mean and spread; with two rolls, the second less
    the first. Each FORM is one roll, quoted if it has spaces, of any system;
    a roll's '# label' names its column.

    \b
    Examples:
      fudgedice compare 4dF 4dF@3d6 4dF@d% 4dF@4d6 --plot cmp.png
      fudgedice compare "power: 4dF # plain" "power: 4dF adv # advantage"
      fudgedice compare "Good vs Great" "3d6fudge: Good-1" "fate: Good vs Great"
    """
    if plot_path:
        check_plot_path(plot_path)
    result = measure(*forms, d100_table=d100_table)
    if as_json:
        click.echo(json_text(result.to_dict(), ensure_ascii=False))
    else:
        click.echo(comparison_text(result, show_exact=exact))
    if plot_path:
        odds = [form.odds for form in result.forms]
        written = plot_comparison(result.labels, odds, plot_path)
        click.echo(f"chart written to {written}", err=as_json)
