"""Fate Condensed's and Fate Accelerated's sheets against docs/contracts/rules.md sections 5
and 7: Condensed's 1-point stress boxes (3, 4 or 6 by Physique and Will, the
extra mild consequence at Superb for its own track), FAE's six approaches in
their spread and its one track of a 1, a 2 and a 3 box; hits, heals, raises
and rolls by name."""

from __future__ import annotations

from itertools import combinations

import pytest

import fudgedice
from fudgedice import sheets
from fudgedice.systems.fate.sheet import spread_fault
from fudgedice.systems.fate.stress import absorb

CONDENSED = sheets.new_sheet("fatecondensed", "Zird")
FAE = sheets.new_sheet("fae", "Abigail")


def _condensed(physique: str = "Good", will: str = "Fair") -> sheets.Sheet:
    text = CONDENSED.replace('Physique = "Good"', f'Physique = "{physique}"')
    text = text.replace('Will = "Fair"', f'Will = "{will}"')
    return sheets.load_text(text.replace("refresh = 3", "refresh = 3\npyramid = false"))


def test_new_sheets_are_what_each_game_starts_with() -> None:
    zird, abigail = sheets.load_text(CONDENSED), sheets.load_text(FAE)
    assert (zird.system, abigail.system) == ("fatecondensed", "fae")
    for sheet in (zird, abigail):
        assert sheet.count("refresh") == 3 and sheet.count("fate_points") == 3
    # Physique Good: 6 boxes; Will Fair: 4
    assert zird.stress_tracks() == {"physical": (1, 2, 3, 4, 5, 6), "mental": (1, 2, 3, 4)}
    assert abigail.stress_tracks() == {"stress": (1, 2, 3)}
    assert abigail.consequence_slots() == {"mild": 2, "moderate": 4, "severe": 6}
    levels = {trait.name: trait.level.value for trait in abigail.traits.values()}
    assert sorted(levels) == ["Careful", "Clever", "Flashy", "Forceful", "Quick", "Sneaky"]
    assert sorted(levels.values()) == [0, 1, 1, 2, 2, 3]
    # the Condensed ladder's own words read on its sheets
    low = CONDENSED.replace('Lore = "Average"', 'Lore = "Catastrophic"')
    assert sheets.load_text(low).trait("Lore").level.value == -3


@pytest.mark.parametrize(
    ("level", "boxes", "extra"),
    [
        ("Terrible", 3, False),
        ("Mediocre", 3, False),
        ("Average", 4, False),
        ("Fair", 4, False),
        ("Good", 6, False),
        ("Great", 6, False),
        ("Superb", 6, True),
        ("Legendary", 6, True),
    ],
)
def test_condensed_tracks_are_sized_by_physique_and_will(
    level: str, boxes: int, extra: bool
) -> None:
    by_physique = _condensed(physique=level, will="Mediocre")
    assert by_physique.stress_tracks()["physical"] == tuple(range(1, boxes + 1))
    assert by_physique.stress_tracks()["mental"] == (1, 2, 3)
    assert ("extra mild" in by_physique.consequence_slots("physical")) is extra
    assert "extra mild" not in by_physique.consequence_slots("mental")
    by_will = _condensed(physique="Mediocre", will=level)
    assert by_will.stress_tracks()["mental"] == tuple(range(1, boxes + 1))
    assert ("extra mild" in by_will.consequence_slots("mental")) is extra
    assert "extra mild" not in by_will.consequence_slots("physical")


def _best(shifts: int, boxes: tuple[int, ...], free: dict[str, int]) -> tuple[int, ...] | None:
    """Every way to absorb a hit with 1-point boxes, enumerated: the least
    (consequences, their shifts, boxes) of them, or None."""
    found = []
    for count in range(len(free) + 1):
        for chosen in combinations(free, count):
            taken = sum(free[name] for name in chosen)
            for used in range(len(boxes) + 1):
                if taken + used >= shifts:
                    found.append((count, taken, used))
    return min(found, default=None)


@pytest.mark.parametrize("shifts", range(0, 22))
@pytest.mark.parametrize("boxes", [(), (1,), (2, 3), (1, 2, 3), (1, 2, 3, 4), (1, 3, 4, 5, 6)])
@pytest.mark.parametrize("extra", [False, True])
def test_a_condensed_hit_takes_the_fewest_consequences_then_boxes(
    shifts: int, boxes: tuple[int, ...], extra: bool
) -> None:
    free = {"mild": 2, "moderate": 4, "severe": 6} | ({"extra mild": 2} if extra else {})
    absorbed = absorb(shifts, boxes, free, "points")
    best = _best(shifts, boxes, free)
    assert (absorbed is None) == (best is None)
    if absorbed is not None:
        taken = sum(free[name] for name in absorbed.consequences)
        assert (len(absorbed.consequences), taken, len(absorbed.boxes)) == best
        assert taken + len(absorbed.boxes) >= shifts  # each box absorbs 1
        assert set(absorbed.boxes) <= set(boxes) and len(set(absorbed.boxes)) == len(absorbed.boxes)


def test_condensed_hits_check_1_point_boxes_then_consequences() -> None:
    zird = _condensed(physique="Superb", will="Fair")  # 6 physical boxes, 4 mental
    hit = sheets.hit(zird, 4)
    assert hit.sheet.stress()["physical"] == [1, 2, 3, 4] and hit.sheet.consequences() == {}
    assert hit.log == ("Zird took a 4-shift physical hit: checked 4 physical stress boxes",)
    hit = sheets.hit(hit.sheet, 5, aspect="Bruised ribs")  # 2 boxes left: a moderate and 1 box
    assert hit.sheet.stress()["physical"] == [1, 2, 3, 4, 5]
    assert hit.sheet.consequences() == {"moderate": "Bruised ribs"}
    assert hit.log[0].endswith("checked 1 physical stress box, took a moderate consequence (4)")
    # two mild consequences for a physical hit: the extra one is Physique's
    hit = sheets.hit(hit.sheet, 3)
    assert set(hit.sheet.consequences()) == {"moderate", "mild"}
    hit = sheets.hit(hit.sheet, 2)
    assert set(hit.sheet.consequences()) == {"moderate", "mild", "extra mild"}
    # a mental hit never takes Physique's extra mild: with the mild taken, 6
    # shifts take the moderate and 2 boxes (the extra mild and 4 would be lighter)
    mild = sheets.hit(zird, 8).sheet
    assert mild.consequences().keys() == {"mild"}
    mental = sheets.hit(mild, 6, "mental")
    assert mental.sheet.consequences().keys() == {"mild", "moderate"}
    assert mental.sheet.stress()["mental"] == [1, 2]
    assert sheets.hit(hit.sheet, 7, "mental").sheet.consequences()["severe"]
    assert sheets.hit(hit.sheet, 11, "mental").log[0].endswith("taken out")


def test_condensed_heals_and_raises_as_fate_core_does() -> None:
    zird = _condensed()
    hurt = sheets.hit(sheets.hit(zird, 8, aspect="Winded").sheet, 2, "mental").sheet
    assert hurt.consequences() == {"mild": "Winded"}
    physical = sheets.heal(hurt, "physical").sheet
    assert physical.stress() == {"physical": [], "mental": [1, 2]}
    assert physical.consequences() == {"mild": "Winded"}
    assert sheets.heal(physical, "mild").sheet.consequences() == {}
    everything = sheets.heal(hurt)
    assert everything.sheet.stress() == {"physical": [], "mental": []}
    assert everything.sheet.consequences() == {}
    pyramid = sheets.load_text(
        CONDENSED.replace('Provoke = "Average"', 'Provoke = "Average"\nDrive = 0')
    )
    with pytest.raises(sheets.SheetError, match="raising Provoke would break the pyramid"):
        sheets.raise_trait(pyramid, "Provoke")
    raised = sheets.raise_trait(pyramid, "Drive")
    assert raised.log == ("Zird raised Drive from +0 Mediocre to +1 Average for a milestone",)
    broken = CONDENSED.replace('Athletics = "Good"', 'Athletics = "Great"')
    with pytest.raises(sheets.SheetError, match="the skills break the pyramid: 2 skill"):
        sheets.load_text(broken)


@pytest.mark.parametrize(
    ("levels", "fault"),
    [
        ({"Careful": 2, "Clever": 3, "Flashy": 0, "Forceful": 1, "Quick": 2, "Sneaky": 1}, None),
        ({"careful": 3, "clever": 2, "flashy": 2, "forceful": 1, "quick": 1, "sneaky": 0}, None),
        (
            {"Careful": 3, "Clever": 3, "Flashy": 0, "Forceful": 1, "Quick": 2, "Sneaky": 1},
            "Good, Good, Fair, Average, Average, Mediocre",
        ),
        (
            {"Careful": 3, "Clever": 2, "Flashy": 2, "Forceful": 1, "Quick": 1},
            "no Sneaky: a character has all six approaches",
        ),
        (
            {"Careful": 3, "Clever": 2, "Flashy": 2, "Forceful": 1, "Quick": 1, "Fight": 0},
            "'Fight' is no approach (Careful, Clever, Flashy, Forceful, Quick, Sneaky)",
        ),
    ],
)
def test_the_approaches_spread(levels: dict[str, int], fault: str | None) -> None:
    assert spread_fault(levels) == fault


def test_a_sheet_off_the_spread_is_refused_where_it_is_unless_it_says_so() -> None:
    broken = FAE.replace('Flashy = "Mediocre"', 'Flashy = "Average"')
    with pytest.raises(sheets.SheetError) as caught:
        sheets.load_text(broken, "abigail.toml")
    error = caught.value
    assert (error.line, error.column) == (12, 1)  # the [approaches] table
    assert error.message == (
        "abigail.toml:12:1: the approaches break the spread: "
        "Good, Fair, Fair, Average, Average, Average"
    )
    assert error.hint is not None and "set spread = false" in error.hint
    opted = broken.replace("refresh = 3", "refresh = 3\nspread = false")
    assert sheets.load_text(opted).trait("Flashy").level.value == 1
    with pytest.raises(sheets.SheetError, match="spread is true or false"):
        sheets.load_text(FAE.replace("refresh = 3", 'refresh = 3\nspread = "no"'))


def test_fae_stress_checks_one_box_worth_what_is_left() -> None:
    abigail = sheets.load_text(FAE)
    hit = sheets.hit(abigail, 2)
    assert hit.sheet.stress() == {"stress": [2]}
    assert hit.log == ("Abigail took a 2-shift stress hit: checked the 2 stress box",)
    hit = sheets.hit(hit.sheet, 2)  # the 2 box is checked: the 3 box takes it
    assert hit.sheet.stress() == {"stress": [2, 3]}
    hit = sheets.hit(hit.sheet, 3, aspect="Sprained wrist")  # a mild and the 1 box
    assert hit.sheet.stress() == {"stress": [1, 2, 3]}
    assert hit.sheet.consequences() == {"mild": "Sprained wrist"}
    assert sheets.hit(hit.sheet, 11).log[0].endswith("taken out")
    assert sheets.hit(hit.sheet, 10).sheet.consequences().keys() == {"mild", "moderate", "severe"}
    with pytest.raises(sheets.SheetError, match="no stress track 'physical'"):
        sheets.hit(abigail, 2, "physical")
    healed = sheets.heal(hit.sheet, "stress")
    assert healed.sheet.stress() == {"stress": []} and healed.sheet.consequences()
    assert healed.log == ("Abigail recovered: stress",)
    assert sheets.heal(hit.sheet).sheet.consequences() == {}


def test_fae_raises_an_approach_only_off_the_spread() -> None:
    abigail = sheets.load_text(FAE)
    with pytest.raises(
        sheets.SheetError,
        match="raising Flashy would break the spread: Good, Fair, Fair, Average, Average, Average",
    ):
        sheets.raise_trait(abigail, "Flashy")
    free = sheets.load_text(FAE.replace("refresh = 3", "refresh = 3\nspread = false"))
    raised = sheets.raise_trait(free, "Clever")
    assert raised.log == ("Abigail raised Clever from +3 Good to +4 Great for a milestone",)
    assert 'Clever = "Great"' in raised.text


def test_approaches_and_condensed_skills_roll_by_name() -> None:
    abigail, zird = sheets.load_text(FAE), sheets.load_text(CONDENSED)
    plan = sheets.resolve("Clever vs Fair", [abigail], ["invoke"])
    assert plan.text == "fae: Good+2 vs Fair # Abigail, Clever vs Fair"
    # Fate Core's dice and ladder: the same odds as a fate: roll
    assert fudgedice.odds(plan.text).events == fudgedice.odds("fate: Good+2 vs Fair").events
    rolled = fudgedice.roll(plan.text, seed=3)
    assert "(Fate Core)" in rolled.text
    settled = sheets.settle(plan, rolled)
    assert settled is not None and settled.sheet.count("fate_points") == 2
    plan = sheets.resolve("Fight opp Zird.Fight", [zird], ["reroll"])
    assert plan.text == "fatecondensed: Great reroll opp Great # Zird, Fight opp Zird.Fight"
    assert "(Fate Condensed)" in fudgedice.roll(plan.text, seed=1).text
    with pytest.raises(fudgedice.DiceError, match="is spent on a d6 roll, not a fae one"):
        sheets.resolve("Quick", [abigail], ["cp"])
    with pytest.raises(sheets.SheetError) as caught:
        sheets.resolve("Fight", [abigail])
    assert caught.value.hint is not None
    assert (
        "an approach not on the sheet is Mediocre (+0): add it to [approaches]" in caught.value.hint
    )
    with pytest.raises(sheets.SheetError) as caught:
        sheets.resolve("Shoot", [zird])
    assert caught.value.hint is not None and "add it to [skills]" in caught.value.hint
