"""``--sheet``/``--spend`` for ``roll``, ``odds`` and ``read``: character
sheets as TOML files, rolled by trait name and paid from atomically
(docs/sheets.md). The ``fudgedice sheet`` commands are in
:mod:`fudgedice.cli.sheet_commands`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..errors import DiceValueError
from ..results.roll import Roll
from .console import show as _show

if TYPE_CHECKING:
    # Each function imports the sheets when it runs: tomlkit and the sheets' rules
    # are a third of a plain roll's start-up, and most rolls name no sheet.
    from .. import sheets

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
class ReadAgainstSheets:
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
        from .. import sheets  # tomlkit: see TYPE_CHECKING above

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
) -> ReadAgainstSheets:
    """The roll text for ``text``: names of traits resolved when sheets are given."""
    if not sheet_files:
        if spends:
            raise DiceValueError("--spend takes points from a sheet: give it with --sheet FILE")
        return ReadAgainstSheets(text)
    from .. import sheets  # tomlkit: see TYPE_CHECKING above

    if spends and times > 1:
        raise DiceValueError("points are spent on one roll at a time: drop -n or --spend")
    plan = sheets.resolve(text, [sheets.load_file(path) for path in sheet_files], spends)
    return ReadAgainstSheets(plan.text, plan)
