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
      fudgedice sheet import Cynere.fari.json cynere.toml
      fudgedice sheet export cynere.toml --to fari Cynere.fari.json
    """


@sheet.command()
@click.argument("system")
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace a file that is already there.")
@_friendly
def new(system: str, name: str, file: str, force: bool) -> None:
    """Write a new sheet of SYSTEM (fudge, power, 3d6fudge, d6, fate, ...) for the
    character NAME to FILE, with the system's defaults."""
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
@click.option("--track", type=click.Choice(["physical", "mental"]), help="Fate: the stress track.")
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


def _out(text: str, out: str | None, force: bool, what: str) -> None:
    """``text`` into the file ``out`` (refused if there, unless ``force``), or printed."""
    from .. import sheets  # tomlkit: see TYPE_CHECKING above

    if out is None:
        click.echo(text, nl=False)
        return
    if os.path.exists(out) and not force:
        raise sheets.SheetError("the file is already there", source=out, hint="--force replaces it")
    sheets.write_atomically(out, text)
    click.echo(f"{out}: {what}", err=True)


@sheet.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("out", required=False, type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace OUT if it is already there.")
@_friendly
def import_(file: str, out: str | None, force: bool) -> None:
    """Read a Fate character from Fari (fari.app): FILE is the .fari.json
    file Fari's character manager exports. Writes the sheet's TOML to OUT,
    or prints it.

    \b
    The sheet holds the name, aspects, stunts, notes, fate points and
    refresh, skills (or approaches), the boxes checked of the physical and
    mental stress tracks, and the consequences; its [fari] table keeps the
    rest of the file (Fari's ids, labels and other blocks) for `sheet export`.
    A Fate Condensed or Accelerated character is a fate sheet unless
    fudgedice has sheets of its own system.

    \b
    Example:
      fudgedice sheet import Cynere.fari.json cynere.toml
    """
    from .. import sheets  # tomlkit: see TYPE_CHECKING above
    from ..sheets import fari

    text = fari.import_fari(fari.read_fari_file(file), file)
    name = sheets.load_text(text, file).name
    _out(text, out, force, f"the sheet of {name}, from Fari")


@sheet.command(name="export")
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("out", required=False, type=click.Path(dir_okay=False))
@click.option(
    "--to", "to", required=True, type=click.Choice(["fari"]), help="The format: fari (.fari.json)."
)
@click.option("--force", is_flag=True, help="Replace OUT if it is already there.")
@_friendly
def export(file: str, out: str | None, to: str, force: bool) -> None:
    """Write the Fate sheet FILE as a Fari character (--to fari): the
    .fari.json file Fari's character manager imports, to OUT or printed.

    \b
    A sheet imported from Fari goes back into the character it came from
    (its [fari] table); any other Fate sheet into a new character of Fari's
    Fate Core template (Condensed, Accelerated for those systems).

    \b
    Example:
      fudgedice sheet export cynere.toml --to fari Cynere.fari.json
    """
    from .. import sheets  # tomlkit: see TYPE_CHECKING above
    from ..sheets import fari

    loaded = sheets.load_file(file)
    _out(fari.export_fari(loaded), out, force, f"{loaded.name} as a Fari character")
