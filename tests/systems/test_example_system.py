"""A system of one's own, added through the public registry alone: no module
of the package is edited, and the default language does not change."""

from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType

import pytest

import fudgedice
from fudgedice import Dice, DiceError, Odds, Program, Roll, System, Table, registry
from fudgedice.dice.roller import Roller
from fudgedice.results.table import TableOptions
from fudgedice.results.table_spec import TableSpec


class Boxcars(Program):
    """Two d6 read as a gambler would: double sixes win, double ones lose."""

    def _check(self) -> None:
        super()._check()
        if self.expression.side.options:
            raise fudgedice.DiceValueError("boxcars takes no options")

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        rolled = super().roll_with(roller, seed)
        faces = [die.value for die in rolled.dice]
        if faces == [6, 6]:
            rolled.verdict, rolled.events, rolled.result = "success", ["boxcars"], "boxcars!"
        elif faces == [1, 1]:
            rolled.verdict, rolled.events, rolled.result = "failure", ["snake eyes"], "snake eyes"
        return rolled

    def odds(self) -> Odds:
        plain = super().odds()
        events = {"boxcars": plain.probability(12), "snake eyes": plain.probability(2)}
        return Odds(plain.notation, plain.system, plain.dist, events)


def _chances(options: TableOptions) -> Table:
    return Table("boxcars", ("event", "chance"), (("boxcars", "1/36"), ("snake eyes", "1/36")))


BOXCARS = System(
    name="boxcars",
    description="two d6 read as a gambler would",
    compile=Boxcars,
    words=frozenset({"boxcars"}),
    tables=MappingProxyType({"boxcars": TableSpec("the two special throws", _chances)}),
)

DICE = Dice(registry(*fudgedice.SYSTEMS.values(), BOXCARS))


def test_the_new_system_rolls_reads_and_measures() -> None:
    won = DICE.read("boxcars: 2d6", ["6", "6"])
    assert (won.total, won.verdict, won.events, won.result) == (
        12,
        "success",
        ["boxcars"],
        "boxcars!",
    )
    assert won.text.splitlines()[0] == "boxcars: 2d6 = 12 -> boxcars!"
    assert DICE.read("boxcars: 2d6", "1 1").events == ["snake eyes"]
    assert DICE.read("boxcars: 2d6", "3 4").events == []
    assert DICE.odds("boxcars: 2d6").events == {
        "boxcars": Fraction(1, 36),
        "snake eyes": Fraction(1, 36),
    }
    seeded = DICE.roll("boxcars: 2d6", seed=7)
    assert seeded.total == DICE.roll("boxcars: 2d6", seed=7).total
    assert DICE.table("boxcars").rows[0] == ("boxcars", "1/36")


def test_the_other_systems_are_untouched() -> None:
    assert DICE.read("d6: 2D", ["3", "w4"]).total == fudgedice.read("d6: 2D", ["3", "w4"]).total
    assert DICE.odds("Good vs Great").events == fudgedice.odds("Good vs Great").events


def test_the_default_language_does_not_know_it() -> None:
    with pytest.raises(DiceError, match="unknown system 'boxcars'"):
        fudgedice.roll("boxcars: 2d6")
    assert "boxcars" not in fudgedice.SYSTEMS
    with pytest.raises(DiceError, match="unknown table"):
        fudgedice.table("boxcars")


def test_its_words_join_the_hints() -> None:
    # the new system's word is in the vocabulary every misspelling is compared with
    with pytest.raises(DiceError) as caught:
        DICE.roll("boxcars: 2d6 boxcar 3")
    assert caught.value.hint == "did you mean 'boxcars'?"
    with pytest.raises(DiceError) as plain:
        fudgedice.roll("2d6 boxcar 3")
    assert plain.value.hint != "did you mean 'boxcars'?"


def test_a_registry_refuses_two_systems_of_one_name() -> None:
    with pytest.raises(ValueError, match="two systems are named 'boxcars'"):
        registry(BOXCARS, BOXCARS)
