"""Rolling by trait name: the roll text a request becomes, wounds that change
the dice (said in the explanation), and odds that agree with the roll."""

from __future__ import annotations

import pytest

import fudgedice
from fudgedice import sheets

ASHLEY = """
system = "3d6fudge"
name = "Ashley the Alert"
[traits]
Melee = "Good"
Climbing = 5
"""
BERT = ASHLEY.replace("Ashley the Alert", "Bert the Bruiser").replace('"Good"', '"Superb"')
D6 = """
system = "d6"
name = "Jax"
character_points = 5
fate_points = 1
wound = "{wound}"
[attributes]
Dexterity = "3D+1"
[skills]
Blaster = "Dexterity+1D"
"""


def _sheet(text: str, source: str = "sheet") -> sheets.Sheet:
    return sheets.load_text(text, source)


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("Melee", "3d6fudge: Good # Ashley the Alert, Melee"),
        ("Melee-1", "3d6fudge: Good-1 # Ashley the Alert, Melee-1"),
        ("melee +2", "3d6fudge: Good +2 # Ashley the Alert, melee +2"),
        ("Climbing", "3d6fudge: 5 # Ashley the Alert, Climbing"),
        ("Climbing # scaling the wall", "3d6fudge: 5 # scaling the wall"),
        ("3d6fudge: Melee", "3d6fudge: Good # Ashley the Alert, Melee"),
    ],
)
def test_a_trait_becomes_its_level(request_text: str, expected: str) -> None:
    assert sheets.resolve(request_text, [_sheet(ASHLEY)]).text == expected


def test_fudge_vs_and_numbers_on_the_ladder() -> None:
    sheet = _sheet(ASHLEY.replace("3d6fudge", "fudge").replace("Climbing = 5", "Climbing = 1"))
    assert sheets.resolve("Melee vs Great", [sheet]).text.split(" #")[0] == "fudge: Good vs Great"
    assert sheets.resolve("Climbing", [sheet]).text.split(" #")[0] == "fudge: Good"


def test_two_sheets_oppose_each_other() -> None:
    plan = sheets.resolve(
        "Ashley.Melee opp Bert.Melee", [_sheet(ASHLEY, "a.toml"), _sheet(BERT, "b.toml")]
    )
    assert plan.text.split(" #")[0] == "3d6fudge: Good opp Superb"
    # the seed's round: Ashley rolls 5 2 1, Bert 4 4 3; Ashley wins by two
    rolled = fudgedice.read(plan.text, "5 2 1 4 4 3")
    assert rolled.total == 2 and rolled.result == "wins by 2: made it by 3 against 1"


def test_a_name_on_two_sheets_must_say_whose() -> None:
    both = [_sheet(ASHLEY), _sheet(BERT)]
    with pytest.raises(fudgedice.DiceError, match="is a trait of Ashley the Alert and Bert"):
        sheets.resolve("Melee", both)
    with pytest.raises(fudgedice.DiceError, match="no sheet is called 'Carl'"):
        sheets.resolve("Carl.Melee", both)


def test_an_unknown_trait_gets_the_nearest() -> None:
    with pytest.raises(fudgedice.DiceError) as caught:
        sheets.resolve("Mele vs Great", [_sheet(ASHLEY)])
    assert caught.value.hint is not None and caught.value.hint.startswith("did you mean 'Melee'?")


def test_a_hurt_fudge_character_rolls_one_lower_and_says_so() -> None:
    hurt = sheets.hit(_sheet(ASHLEY), 3).sheet
    plan = sheets.resolve("Melee", [hurt])
    assert plan.text.startswith("3d6fudge: Good-1 #")
    assert "Ashley the Alert is Hurt: -1 to the skill level" in plan.notes
    very = sheets.hit(hurt, 5).sheet
    assert sheets.resolve("Melee", [very]).text.startswith("3d6fudge: Good-2 #")
    assert sheets.hit(_sheet(ASHLEY), 1).sheet.wounds()["Scratch"] == 1
    scratched = sheets.hit(_sheet(ASHLEY), 1).sheet
    assert sheets.resolve("Melee", [scratched]).text.startswith("3d6fudge: Good #")
    down = sheets.hit(_sheet(ASHLEY), 7).sheet
    with pytest.raises(
        sheets.SheetError, match="is Incapacitated: an Incapacitated character makes no roll"
    ):
        sheets.resolve("Melee", [down])


@pytest.mark.parametrize(
    ("wound", "code"),
    [("none", "4D+1"), ("stunned", "3D+1"), ("wounded", "3D+1"), ("severely wounded", "2D+1")],
)
def test_d6_wounds_take_dice_in_rolls_and_odds(wound: str, code: str) -> None:
    sheet = _sheet(D6.format(wound=wound))
    plan = sheets.resolve("Blaster vs Moderate", [sheet])
    # the odds of the sheet's roll are those of the code the wound leaves
    assert fudgedice.odds(plan.text).events == fudgedice.odds(f"d6: {code} vs Moderate").events
    rolled = fudgedice.roll(plan.text, seed=3)
    if wound != "none":
        penalty = "-2D" if wound.startswith("severely") else "-1D"
        assert any(penalty in step and f"rolls as {code}" in step for step in rolled.steps)
        assert f"Jax is {wound.title()}" in " ".join(plan.notes)


def test_an_incapacitated_d6_character_makes_no_roll() -> None:
    plan = sheets.resolve("Blaster", [_sheet(D6.format(wound="incapacitated"))])
    with pytest.raises(fudgedice.DiceError, match="takes no action"):
        fudgedice.odds(plan.text)


def test_character_points_spent_on_a_roll() -> None:
    sheet = _sheet(D6.format(wound="none"), "jax.toml")
    plan = sheets.resolve("Blaster vs 15", [sheet], ["cp2"])
    assert plan.text.split(" #")[0] == "d6: 4D+1 cp2 vs 15"
    rolled = fudgedice.read(plan.text, "3 3 3 w4 c2 c5")
    assert "  cp 2D: 2 5 = 7" in rolled.text.splitlines()
    paid = sheets.settle(plan, rolled)
    assert paid is not None and paid.sheet.count("character_points") == 3
    assert paid.log == ("Jax spent 2 Character Points on the roll (3 left)",)
    with pytest.raises(sheets.SheetError, match="has 5 Character Points, and the roll spends 6"):
        sheets.resolve("Blaster", [sheet], ["cp6"])
    with pytest.raises(fudgedice.DiceError, match="is spent on a fate roll"):
        sheets.resolve("Blaster", [sheet], ["invoke"])


FATE = sheets.new_sheet("fate", "Cynere")


def test_a_fate_invoke_is_plus_two_for_a_fate_point() -> None:
    sheet = _sheet(FATE)
    plan = sheets.resolve("Fight vs Superb", [sheet], ["invoke"])
    assert plan.text.split(" #")[0] == "fate: Great+2 vs Superb"
    paid = sheets.settle(plan, fudgedice.read(plan.text, "0 0 0 0"))
    assert paid is not None and paid.sheet.count("fate_points") == 2


@pytest.mark.parametrize(("faces", "spent"), [("+ 0 0 0", 0), ("- - 0 0 + + 0 0", 1)])
def test_a_reroll_invoke_costs_a_point_only_when_used(faces: str, spent: int) -> None:
    plan = sheets.resolve("Fight vs Great", [_sheet(FATE)], ["reroll"])
    assert plan.text.split(" #")[0] == "fate: Great reroll vs Great"
    rolled = fudgedice.read(plan.text, faces)
    paid = sheets.settle(plan, rolled)
    assert paid is not None and paid.sheet.count("fate_points") == 3 - spent


def test_roll_and_odds_read_the_same_text() -> None:
    sheet = _sheet(FATE)
    plan = sheets.resolve("Fight+1 vs Superb", [sheet])
    assert fudgedice.odds(plan.text).events == fudgedice.odds("fate: Great+1 vs Superb").events


def test_a_fate_point_on_damage_doubles_the_traits_dice_not_the_weapons() -> None:
    sheet = _sheet(D6.format(wound="none").replace('"3D+1"', '"3D+1"\nStrength = "2D"'))
    own = sheets.resolve("Strength dmg Strength", [sheet], ["fp"])
    assert own.text.split(" #")[0] == "d6: 2D unarmed fp dmg 2D"
    armed = sheets.resolve("Strength weapon 1D dmg Strength", [sheet], ["fp"])
    assert armed.text.split(" #")[0] == "d6: 2D weapon 1D fp dmg 2D"
    assert fudgedice.odds(armed.text).dist == fudgedice.odds("d6: 5D dmg 2D").dist
    assert fudgedice.odds(own.text).dist == fudgedice.odds("d6: 4D dmg 2D").dist


def test_a_wound_takes_no_dice_from_damage_or_resistance() -> None:
    sheet = _sheet(D6.format(wound="wounded").replace('"3D+1"', '"3D+1"\nStrength = "2D"'))
    plan = sheets.resolve("Blaster dmg Strength", [sheet])
    assert plan.text.split(" #")[0] == "d6: 4D+1 dmg 2D"
    assert sheets.resolve("Blaster opp Strength", [sheet]).text.split(" #")[0] == (
        "d6: 4D+1 wound=wounded opp 2D wound=wounded"
    )
