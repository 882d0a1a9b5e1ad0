"""The rules a sheet applies, against the seeds and docs/contracts/rules.md: seed 004's EP
costs, defaults and wound track; the Fate pyramid and stress boxes; D6 wounds."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from fudgedice import sheets
from fudgedice.sheets import rules
from fudgedice.systems.fate.sheet import pyramid_fault
from fudgedice.systems.fate.stress import absorb

DATA = Path(__file__).parents[1] / "data"


def _seed004() -> tuple[dict[str, int], dict[str, str], list[tuple[int, int | None, str]]]:
    """Seed 004's sheet, transcribed: EP by level, the defaults, the wound track."""
    costs: dict[str, int] = {}
    defaults: dict[str, str] = {}
    track: list[tuple[int, int | None, str]] = []
    for row in (DATA / "seed004_sheet.txt").read_text("utf-8").splitlines():
        cells = [cell.strip() for cell in row.split("|")]
        if cells[0][0].isdigit() and len(cells) >= 3:
            costs[cells[1]] = int(cells[2])
            if len(cells) == 4:
                defaults[cells[3]] = cells[1]
        else:
            low, _, high = cells[0].rstrip("+").partition("-")
            track.append((int(low), int(high) if high else None, cells[1]))
    return costs, defaults, track


SEED_COSTS, SEED_DEFAULTS, SEED_TRACK = _seed004()


def test_the_transcription_is_whole() -> None:
    assert len(SEED_COSTS) == 7 and len(SEED_TRACK) == 5
    assert SEED_DEFAULTS == {"Attributes": "Fair", "Most Skills": "Poor"}


def test_ep_costs_are_the_seeds() -> None:
    assert rules.EP_COSTS == SEED_COSTS


def test_raising_costs_the_seeds_ep_level_by_level() -> None:
    text = sheets.new_sheet("3d6fudge", "Ashley").replace("ep = 0 ", "ep = 99")
    sheet = sheets.load_text(text)
    paid = []
    for _ in range(5):  # Poor 3 -> Superb 8
        before = sheet.count("ep")
        sheet = sheets.raise_trait(sheet, "Melee").sheet
        paid.append((sheet.trait("Melee").written, before - sheet.count("ep")))
    assert paid == [
        (word, SEED_COSTS[word]) for word in ("Mediocre", "Fair", "Good", "Great", "Superb")
    ]
    assert sheet.trait("Melee").level.value == 8


def test_raising_past_the_seeds_costs_needs_the_sheets_own() -> None:
    text = sheets.new_sheet("3d6fudge", "Ashley").replace('Melee = "Poor"', 'Melee = "Superb"')
    sheet = sheets.load_text(text.replace("ep = 0 ", "ep = 50"))
    with pytest.raises(
        sheets.SheetError, match="no Experience Point cost to raise Melee to Legendary"
    ) as caught:
        sheets.raise_trait(sheet, "Melee")
    # the sheet has no [ep_costs] table: no line of it to point at
    assert caught.value.line is None
    assert caught.value.hint == 'add it: [ep_costs] "Legendary" = 16'
    own = sheets.load_text(sheet.document.text + "\n[ep_costs]\nLegendary = 16\n")
    raised = sheets.raise_trait(own, "Melee").sheet
    assert raised.trait("Melee").level.value == 9 and raised.count("ep") == 34


def test_raising_is_refused_when_ep_are_short() -> None:
    text = sheets.new_sheet("3d6fudge", "Ashley").replace('Melee = "Poor"', 'Melee = "Good"')
    sheet = sheets.load_text(text.replace("ep = 0 ", "ep = 3"))
    with pytest.raises(
        sheets.SheetError, match="has 3 Experience Points, and raising Melee to Great needs 4"
    ):
        sheets.raise_trait(sheet, "Melee")


def test_a_new_3d6_sheet_has_the_seeds_defaults() -> None:
    sheet = sheets.load_text(sheets.new_sheet("3d6fudge", "Ashley"))
    levels: dict[str, set[object]] = {t.table: set() for t in sheet.traits.values()}
    for trait in sheet.traits.values():
        levels[trait.table].add(trait.written)
    assert levels == {
        "attributes": {SEED_DEFAULTS["Attributes"]},
        "skills": {SEED_DEFAULTS["Most Skills"]},
    }
    assert {t.level.value for t in sheet.traits.values()} == {5, 3}


@pytest.mark.parametrize("damage", range(0, 15))
def test_the_wound_track_is_the_seeds(damage: int) -> None:
    expected = next(
        (
            name
            for low, high, name in SEED_TRACK
            if low <= damage and (high is None or damage <= high)
        ),
        None,
    )
    assert rules.wound_of(damage) == expected


def test_a_full_level_moves_a_wound_up() -> None:
    sheet = sheets.load_text(sheets.new_sheet("fudge", "Ashley"))
    logs: list[str] = []
    for _ in range(3):
        edit = sheets.hit(sheet, 3)
        sheet, logs = edit.sheet, [*logs, *edit.log]
    assert sheet.wounds() == {
        "Scratch": 0,
        "Hurt": 1,
        "Very Hurt": 1,
        "Incapacitated": 1,
        "Near Death": 0,
    }
    assert logs[1].endswith("Very Hurt (Hurt was full)")


# ------------------------------------------------------------------------ Fate

FATE = sheets.new_sheet("fate", "Cynere")


@pytest.mark.parametrize(
    ("levels", "fault"),
    [
        ({"a": 4, "b": 3, "c": 3, "d": 2, "e": 2, "f": 2, "g": 1, "h": 1, "i": 1, "j": 1}, None),
        ({"a": 4, "b": 3, "c": 2, "d": 1}, None),
        ({"a": 4, "b": 3, "c": 3, "d": 2, "e": 1}, "2 skill(s) at +3 Good but 1 at +2 Fair"),
        ({"a": 4}, "1 skill(s) at +4 Great but 0 at +3 Good"),
        ({"a": 1, "b": 1, "c": 0, "d": -1}, None),
    ],
)
def test_the_pyramid(levels: dict[str, int], fault: str | None) -> None:
    assert pyramid_fault(levels) == fault


def test_a_sheet_that_breaks_the_pyramid_is_refused_unless_it_says_so() -> None:
    broken = FATE.replace('Athletics = "Good"', 'Athletics = "Great"')
    with pytest.raises(sheets.SheetError, match="break the pyramid: 2 skill"):
        sheets.load_text(broken)
    assert sheets.load_text(broken.replace("refresh = 3", "refresh = 3\npyramid = false"))


@pytest.mark.parametrize(
    ("physique", "boxes", "extra"),
    [
        ("Mediocre", (1, 2), False),
        ("Average", (1, 2, 3), False),
        ("Fair", (1, 2, 3), False),
        ("Good", (1, 2, 3, 4), False),
        ("Great", (1, 2, 3, 4), False),
        ("Superb", (1, 2, 3, 4), True),
    ],
)
def test_stress_boxes_are_sized_from_physique(
    physique: str, boxes: tuple[int, ...], extra: bool
) -> None:
    text = FATE.replace('Physique = "Good"', f'Physique = "{physique}"')
    sheet = sheets.load_text(text.replace("refresh = 3", "refresh = 3\npyramid = false"))
    assert sheet.stress_tracks()["physical"] == boxes
    assert sheet.stress_tracks()["mental"] == (1, 2, 3)  # Will Fair
    assert ("extra mild" in sheet.consequence_slots()) is extra


def _brute_absorb(shifts: int, boxes: tuple[int, ...], free: dict[str, int]) -> bool:
    for count in range(len(free) + 1):
        for chosen in combinations(free, count):
            left = shifts - sum(free[name] for name in chosen)
            if left <= 0 or any(box >= left for box in boxes):
                return True
    return False


@pytest.mark.parametrize("shifts", range(0, 20))
@pytest.mark.parametrize("boxes", [(), (1,), (2,), (1, 2, 3), (3, 4), (1, 2, 3, 4)])
def test_a_hit_is_absorbed_whenever_the_rules_allow_and_by_the_rules(
    shifts: int, boxes: tuple[int, ...]
) -> None:
    free = {"mild": 2, "moderate": 4, "severe": 6}
    absorbed = absorb(shifts, boxes, free)
    assert (absorbed is not None) == _brute_absorb(shifts, boxes, free)
    if absorbed is not None and shifts > 0:
        left = shifts - sum(free[name] for name in absorbed.consequences)
        # one box, worth at least what the consequences leave, and one only
        assert left <= 0 or (
            len(absorbed.boxes) == 1 and absorbed.boxes[0] in boxes and absorbed.boxes[0] >= left
        )
        assert left > 0 or absorbed.boxes == ()


def test_a_hit_checks_the_smallest_box_that_holds_it() -> None:
    sheet = sheets.load_text(FATE)
    edit = sheets.hit(sheet, 2)
    assert edit.sheet.stress()["physical"] == [2] and edit.sheet.consequences() == {}
    edit = sheets.hit(edit.sheet, 2)  # the 2 box is checked: the 3 box takes it
    assert edit.sheet.stress()["physical"] == [2, 3]
    taken = sheets.hit(edit.sheet, 8, aspect="Cracked ribs")
    assert taken.sheet.stress()["physical"] == [2, 3, 4] and taken.sheet.consequences() == {
        "moderate": "Cracked ribs"
    }
    out = sheets.hit(taken.sheet, 15)
    assert out.log == ("Cynere took a 15-shift physical hit: taken out",)
    assert out.text == taken.text


# ------------------------------------------------------------------------ D6


@pytest.mark.parametrize(
    ("before", "margin", "after"),
    [
        ("none", 0, "none"),
        ("none", 1, "stunned"),
        ("none", 3, "stunned"),
        ("none", 4, "wounded"),
        ("wounded", 4, "severely wounded"),
        ("severely wounded", 8, "incapacitated"),
        ("wounded", 2, "wounded"),
        ("stunned", 5, "wounded"),
        ("none", 9, "incapacitated"),
        ("none", 13, "mortally wounded"),
        ("wounded", 16, "dead"),
        ("incapacitated", 4, "incapacitated"),
    ],
)
def test_d6_wounds_add_up_by_the_rules(before: str, margin: int, after: str) -> None:
    assert rules.d6_hit(before, margin) == after


def test_a_fate_skill_rises_only_within_the_pyramid() -> None:
    sheet = sheets.load_text(FATE.replace('Provoke = "Average"', 'Provoke = "Average"\nCrafts = 0'))
    with pytest.raises(sheets.SheetError, match="raising Provoke would break the pyramid: 4 skill"):
        sheets.raise_trait(sheet, "Provoke")
    raised = sheets.raise_trait(sheet, "Crafts")
    assert raised.sheet.trait("Crafts").level.value == 1 and "Crafts = 1\n" in raised.text
    assert raised.log == ("Cynere raised Crafts from +0 Mediocre to +1 Average for a milestone",)


def test_a_fudge_level_of_two_words_takes_either_cost() -> None:
    text = sheets.new_sheet("fudge", "Ashley").replace('Melee = "Poor"', 'Melee = "Superb"')
    sheet = sheets.load_text(text.replace("ep = 0 ", "ep = 20") + "[ep_costs]\nLegendary = 16\n")
    raised = sheets.raise_trait(sheet, "Melee")
    assert raised.sheet.trait("Melee").level.value == 4 and raised.sheet.count("ep") == 4
    assert raised.log == ("Ashley raised Melee from +3 Superb to +4 Superb+1 for 16 EP (4 left)",)
