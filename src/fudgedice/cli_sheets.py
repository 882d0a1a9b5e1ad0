"""The ``fudgedice sheet`` commands, and ``--sheet``/``--spend`` for ``roll``
and ``odds``: character sheets as TOML files, read, rolled by trait name and
changed atomically (docs/sheets.md)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from .console import friendly as _friendly
from .console import show as _show
from .errors import DiceValueError
from .records import dataclass, field
from .results.roll import Roll

if TYPE_CHECKING:
    # Each function imports the sheets when it runs: tomlkit and the sheets' rules
    # are a third of a plain roll's start-up, and most rolls name no sheet.
    from . import sheets

F = TypeVar("F", bound=Callable[..., Any])


def sheet_options(command: F) -> F:
    """``--sheet FILE`` (once, or twice for an opposed roll) and ``--spend POINT``."""
    command = click.option(
        "--spend",
        "spends",
        multiple=True,
        metavar="POINT",
        help="Points the roll spends from the first sheet: cp2, fp (D6); invoke, reroll (Fate).",
    )(command)
    return click.option(
        "--sheet",
        "sheet_files",
        multiple=True,
        metavar="FILE",
        type=click.Path(dir_okay=False),
        help="A character sheet: the roll names its traits ('Melee vs Great').",
    )(command)


@dataclass
class SheetRoll:
    """A roll's text, read against the sheets given (or as it is, with none)."""

    text: str
    plan: sheets.Plan | None = None
    paid: list[str] = field(default_factory=list)
    """What the roll took from the sheet, said after the roll."""

    @property
    def notes(self) -> list[str]:
        return list(self.plan.notes) if self.plan else []

    def page(self, blocks: list[str]) -> str:
        """The rolls' explanations, after what the sheets said of the roll and
        before what the sheet paid for it."""
        text = "\n\n".join(["\n".join(self.notes)] * bool(self.notes) + blocks)
        return "\n".join([text, *self.paid])

    def pay(self, roll: Roll, *, err: bool = False) -> None:
        """Take what the roll spent from the sheet and write it (atomically,
        refused if the file changed since it was read); what was paid is said
        on standard error at once (``err``), or after the roll by :meth:`page`."""
        if self.plan is None:
            return
        from . import sheets  # tomlkit: see TYPE_CHECKING above

        edit = sheets.settle(self.plan, roll)
        if edit is None:
            return
        actor = self.plan.actor
        sheets.write_atomically(actor.source, edit.text, expected=actor.document.text)
        self.paid = list(edit.log)
        for line in self.paid if err else ():
            click.echo(line, err=True)

    def show(self, roll: Roll, as_json: bool) -> None:
        """A roll read by hand: the sheet paid, then the roll as JSON or text."""
        self.pay(roll, err=as_json)
        _show(as_json, roll.to_dict, lambda: self.page([roll.text]))


def sheet_plan(
    text: str, times: int = 1, *, sheet_files: tuple[str, ...] = (), spends: tuple[str, ...] = ()
) -> SheetRoll:
    """The roll text for ``text``: names of traits resolved when sheets are given."""
    if not sheet_files:
        if spends:
            raise DiceValueError("--spend takes points from a sheet: give it with --sheet FILE")
        return SheetRoll(text)
    from . import sheets  # tomlkit: see TYPE_CHECKING above

    if spends and times > 1:
        raise DiceValueError("points are spent on one roll at a time: drop -n or --spend")
    plan = sheets.resolve(text, [sheets.load_file(path) for path in sheet_files], spends)
    return SheetRoll(plan.text, plan)


def _write(path: str, edit: sheets.Edit, before: str) -> None:
    from . import sheets  # tomlkit: see TYPE_CHECKING above

    sheets.write_atomically(path, edit.text, expected=before)
    for line in edit.log:
        click.echo(line)


@click.group()
def sheet() -> None:
    """Character sheets: TOML files, one character each (docs/sheets.md).

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
    """Write a new sheet of SYSTEM (fudge, power, 3d6fudge, d6, fate) for the
    character NAME to FILE, with the system's defaults."""
    from . import sheets  # tomlkit: see TYPE_CHECKING above

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
    from . import sheets  # tomlkit: see TYPE_CHECKING above

    click.echo(sheets.show(sheets.load_file(file)))


@sheet.command(name="raise")
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("trait")
@_friendly
def raise_(file: str, trait: str) -> None:
    """Raise TRAIT one level, paying Experience Points (Fudge, 3d6 Fudge:
    seed 004's costs, or the sheet's [ep_costs]) or Character Points (D6)."""
    from . import sheets  # tomlkit: see TYPE_CHECKING above

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
    from . import sheets  # tomlkit: see TYPE_CHECKING above

    loaded = sheets.load_file(file)
    _write(file, sheets.hit(loaded, amount, track, aspect), loaded.document.text)


@sheet.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("what", required=False)
@_friendly
def heal(file: str, what: str | None) -> None:
    """Heal every wound, or WHAT: a level of the track (Fudge), the wound
    left (D6), or stress, a track or a consequence (Fate)."""
    from . import sheets  # tomlkit: see TYPE_CHECKING above

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
    from . import sheets  # tomlkit: see TYPE_CHECKING above

    loaded = sheets.load_file(file)
    _write(file, sheets.spend(loaded, point, count), loaded.document.text)
