"""The ``fudgedice sheet`` commands: character sheets as TOML files, made,
shown and changed atomically (docs/sheets.md). The command line loads this
module when ``sheet`` is named (or the help lists the commands): a roll
builds none of these commands."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from .console import friendly as _friendly

if TYPE_CHECKING:
    # Each function imports the sheets when it runs: tomlkit and the sheets' rules
    # are a third of a plain roll's start-up (and of `sheet --help`'s).
    from .. import sheets


def _write(path: str, edit: sheets.Edit, before: str) -> None:
    from .. import sheets  # tomlkit: see TYPE_CHECKING above

    sheets.write_atomically(path, edit.text, expected=before)
    for line in edit.log:
        click.echo(line)


@click.group()
def sheet() -> None:
    """Character sheets: TOML files, one character each (fudgedice help sheets).

    \b
    Examples:
      fudgedice sheet new 3d6fudge "Ashley the Alert" ashley.toml
      fudgedice sheet show ashley.toml
      fudgedice roll --sheet ashley.toml "Melee-1"
      fudgedice sheet raise ashley.toml Melee
      fudgedice sheet hit ashley.toml 3
      fudgedice sheet spend ashley.toml fudge
    """


@sheet.command()
@click.argument("system")
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace a file that is already there.")
@_friendly
def new(system: str, name: str, file: str, force: bool) -> None:
    """Write a new sheet of SYSTEM (fudge, power, 3d6fudge, d6, fate,
    fatecondensed, fae, ...) for the character NAME to FILE, with the
    system's defaults."""
    from .. import sheets  # tomlkit: see TYPE_CHECKING above

    text = sheets.new_sheet(system, name)
    if os.path.exists(file) and not force:
        raise sheets.SheetError(
            "the file is already there", source=file, hint="--force replaces it"
        )
    sheets.write_atomically(file, text)
    click.echo(f"{file}: a new {system.lower()} sheet for {name}")


@sheet.command()
@click.argument("file", type=click.Path(dir_okay=False))
@_friendly
def show(file: str) -> None:
    """Show the sheet FILE as a page, with each trait's chance."""
    from .. import sheets  # tomlkit: see TYPE_CHECKING above

    click.echo(sheets.show(sheets.load_file(file)))


@sheet.command(name="raise")
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("trait")
@_friendly
def raise_(file: str, trait: str) -> None:
    """Raise TRAIT one level, paying Experience Points (Fudge, 3d6 Fudge:
    seed 004's costs, or the sheet's [ep_costs]) or Character Points (D6)."""
    from .. import sheets  # tomlkit: see TYPE_CHECKING above

    loaded = sheets.load_file(file)
    _write(file, sheets.raise_trait(loaded, trait), loaded.document.text)


@sheet.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("amount", type=click.IntRange(min=0, max=10_000))
@click.option(
    "--track",
    type=click.Choice(["physical", "mental", "stress"]),
    help="Fate: the stress track (physical by default; a Fate Accelerated sheet's is stress).",
)
@click.option("--aspect", help="Fate: the text of a consequence taken.")
@_friendly
def hit(file: str, amount: int, track: str | None, aspect: str | None) -> None:
    """Take a hit of AMOUNT: Fudge damage on the wound track, D6 damage over
    resistance, or Fate shifts on stress and consequences."""
    from .. import sheets  # tomlkit: see TYPE_CHECKING above

    loaded = sheets.load_file(file)
    _write(file, sheets.hit(loaded, amount, track, aspect), loaded.document.text)


@sheet.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("what", required=False)
@_friendly
def heal(file: str, what: str | None) -> None:
    """Heal every wound, or WHAT: a level of the track (Fudge), the wound
    left (D6), or stress, a track or a consequence (Fate)."""
    from .. import sheets  # tomlkit: see TYPE_CHECKING above

    loaded = sheets.load_file(file)
    _write(file, sheets.heal(loaded, what), loaded.document.text)


@sheet.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("point")
@click.argument("count", required=False, default=1, type=click.IntRange(1, 1_000_000))
@_friendly
def spend(file: str, point: str, count: int) -> None:
    """Spend COUNT (1) of POINT: fudge (Fudge Points), fate (Fate's fate
    points, D6 Fate Points), cp (Character Points)."""
    from .. import sheets  # tomlkit: see TYPE_CHECKING above

    loaded = sheets.load_file(file)
    _write(file, sheets.spend(loaded, point, count), loaded.document.text)
