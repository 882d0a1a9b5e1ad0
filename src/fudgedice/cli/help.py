"""``fudgedice help``: the reference pages (the roll language, each system,
sheets, the table, fair rolls), read from the installed package, so that they
travel with it (a wheel holds them). The pages are ``fudgedice/reference/*.md``;
``docs/`` links each one for readers of the repository."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

import click

from ..api import SYSTEMS

SUFFIX = ".md"


def pages() -> dict[str, Traversable]:
    """Each reference page by name (its file's name less ``.md``), in name order."""
    folder = files("fudgedice").joinpath("reference")
    found = {
        entry.name.removesuffix(SUFFIX): entry
        for entry in folder.iterdir()
        if entry.name.endswith(SUFFIX) and entry.is_file()
    }
    return dict(sorted(found.items()))


def title(page: Traversable) -> str:
    """A page's first heading, as the list of pages shows it."""
    with page.open(encoding="utf-8") as lines:
        first = lines.readline()
    return first.lstrip("#").strip().replace("`", "")


PAGES = pages()
"""The pages this install holds: the choices of ``fudgedice help PAGE``."""


@click.command("help", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("page", required=False, metavar="[PAGE]", type=click.Choice(list(PAGES)))
def help_command(page: str | None) -> None:
    """Print the reference page PAGE; with no PAGE, list the pages and the systems.

    \b
    Examples:
      fudgedice help
      fudgedice help notation
      fudgedice help fate | less
    """
    if page is None:
        width = max(len(name) for name in PAGES)
        click.echo("The reference pages (fudgedice help PAGE):")
        for name, path in PAGES.items():
            click.echo(f"  {name:<{width}}  {title(path)}")
        list_systems()
        return
    click.echo(PAGES[page].read_text(encoding="utf-8"), nl=False)


def list_systems() -> None:
    """Every installed system, a plugin's included."""
    declared = SYSTEMS.declarations
    width = max(len(name) for name in declared)
    click.echo(
        f"\nThe systems (a roll names one first, as in 'd6: 4D+2'; {SYSTEMS.default} if none):"
    )
    for name, each in declared.items():
        click.echo(f"  {name:<{width}}  {each.description}")
