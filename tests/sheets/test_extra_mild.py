"""Physique and Will both at Superb (docs/contracts/rules.md sections 5 and 7):
an extra mild consequence for each track, ``extra mild`` (physical harm) and
``extra mild mental``; a sheet with one keeps the name ``extra mild`` it always
had, for whichever track gives it."""

from __future__ import annotations

import pytest

from fudgedice import sheets
from fudgedice.sheets import SheetError
from fudgedice.sheets.fari import export_fari, import_fari


def _sheet(
    system: str, physique: str, will: str, consequences: str = "", stress: list[int] | None = None
) -> sheets.Sheet:
    """A sheet with its skills so, its boxes ``stress`` checked on both tracks."""
    text = sheets.new_sheet(system, "Zird")
    if stress:
        text = text.replace("physical = []", f"physical = {stress}")
        text = text.replace("mental = []", f"mental = {stress}")
    text = text.replace('Physique = "Good"', f'Physique = "{physique}"')
    text = text.replace('Will = "Fair"', f'Will = "{will}"')
    text = text.replace("refresh = 3", "refresh = 3\npyramid = false")
    return sheets.load_text(text + consequences)


@pytest.mark.parametrize("system", ["fate", "fatecondensed"])
def test_both_at_superb_give_an_extra_mild_consequence_each(system: str) -> None:
    boxes = list(_sheet(system, "Superb", "Superb").stress_tracks()["physical"])
    zird = _sheet(system, "Superb", "Superb", stress=boxes)  # each hit takes consequences
    assert zird.consequence_slots() == {
        "mild": 2, "moderate": 4, "severe": 6, "extra mild": 2, "extra mild mental": 2
    }  # fmt: skip
    assert "extra mild mental" not in zird.consequence_slots("physical")
    assert "extra mild" not in zird.consequence_slots("mental")
    # mild hits: the mild, then each track's own extra mild
    hurt = sheets.hit(sheets.hit(zird, 2, aspect="Winded").sheet, 2, aspect="Limping").sheet
    assert hurt.consequences() == {"mild": "Winded", "extra mild": "Limping"}
    shaken = sheets.hit(hurt, 2, "mental", aspect="Rattled").sheet
    assert shaken.consequences()["extra mild mental"] == "Rattled"
    healed = sheets.heal(shaken, "extra mild mental").sheet
    assert healed.consequences() == {"mild": "Winded", "extra mild": "Limping"}
    # one at Superb: one extra mild, named as it always was, on its own track
    by_will = _sheet(system, "Good", "Superb")
    assert by_will.consequence_slots("mental")["extra mild"] == 2
    assert "extra mild mental" not in by_will.consequence_slots()


def test_a_sheet_keeps_its_extra_mild_and_a_second_needs_both_at_superb() -> None:
    kept = _sheet("fate", "Superb", "Superb", '"extra mild" = "Old scar"\n')
    assert kept.consequences() == {"extra mild": "Old scar"}
    with pytest.raises(SheetError, match="only with Physique and Will at Superb"):
        _sheet("fate", "Good", "Superb", '"extra mild mental" = "Dread"\n')
    with pytest.raises(SheetError, match="only with Physique or Will at Superb"):
        _sheet("fate", "Good", "Good", '"extra mild" = "Dread"\n')


def test_both_extra_milds_go_to_fari_and_come_back() -> None:
    taken = '"extra mild" = "Limping"\n"extra mild mental" = "Rattled"\n'
    zird = _sheet("fate", "Superb", "Superb", taken)
    ids = iter(f"id-{n}" for n in range(1000))
    back = sheets.load_text(import_fari(export_fari(zird, now=1764201600, new_id=ids.__next__)))
    assert back.consequences() == {"extra mild": "Limping", "extra mild mental": "Rattled"}
