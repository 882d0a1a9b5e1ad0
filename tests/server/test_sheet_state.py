"""A sheet as the table's page reads it: the state beside the traits (wounds,
stress boxes, consequences, aspects) and each trait's level as a wound leaves it."""

from __future__ import annotations

from fudgedice import sheets
from fudgedice.server.sheet_pages import described

FUDGE = """\
system = "fudge"
name = "Ashley"
fudge_points = 3
ep = 5
[traits]
Melee = "Good"
[wounds]
Hurt = 1
"""

D6 = """\
system = "d6"
name = "Jax"
character_points = 2
wound = "wounded"
[attributes]
Perception = "3D+1"
"""

FATE = """\
system = "fate"
name = "Bob"
fate_points = 3
refresh = 3
high_concept = "Sword for hire"
trouble = "Hot-headed"
aspects = ["Owes the guild"]
[skills]
Fight = "Good"
Physique = "Fair"
Will = "Average"
[stress]
physical = [1]
[consequences]
mild = "Bruised ribs"
"""


def test_a_fudge_wound_lowers_every_trait_and_shows_its_track() -> None:
    shown = described(sheets.load_text(FUDGE), None)
    assert shown["traits"] == [
        {"name": "Melee", "table": "traits", "level": "+1 Good", "adjusted": "+0 Fair (Hurt -1)"}
    ]
    assert shown["points"] == {"fudge_points": 3, "ep": 5}
    track = {row["level"]: (row["checked"], row["boxes"]) for row in shown["state"]["wounds"]}
    assert track["Hurt"] == (1, 1) and track["Scratch"] == (0, 3)
    assert shown["state"]["worst"] == "Hurt"


def test_a_fudge_character_out_of_the_action_rolls_nothing() -> None:
    text = FUDGE.replace("Hurt = 1", "Incapacitated = 1")
    shown = described(sheets.load_text(text), None)
    assert shown["traits"][0]["adjusted"] == "no roll (Incapacitated)"


def test_an_unwounded_trait_has_no_adjusted_level() -> None:
    shown = described(sheets.load_text(FUDGE.replace("Hurt = 1", "Scratch = 2")), None)
    assert shown["traits"][0]["adjusted"] is None


def test_a_d6_wound_takes_a_die() -> None:
    shown = described(sheets.load_text(D6), None)
    assert shown["traits"][0]["adjusted"] == "2D+1 (wounded -1D)"
    assert shown["state"] == {"wound": "wounded"}
    severe = described(sheets.load_text(D6.replace('"wounded"', '"severely wounded"')), None)
    assert severe["traits"][0]["adjusted"] == "1D+1 (severely wounded -2D)"


def test_fate_stress_consequences_and_aspects_by_name() -> None:
    shown = described(sheets.load_text(FATE), None)
    state = shown["state"]
    physical = next(track for track in state["stress"] if track["track"] == "physical")
    assert [(box["value"], box["checked"]) for box in physical["boxes"]] == [
        (1, True),
        (2, False),
        (3, False),  # Physique Fair: a third box
    ]
    slots = {row["slot"]: row["name"] for row in state["consequences"]}
    assert slots["mild"] == "Bruised ribs" and slots["moderate"] is None
    assert state["aspects"] == ["Sword for hire", "Hot-headed", "Owes the guild"]
    assert all(trait["adjusted"] is None for trait in shown["traits"])
