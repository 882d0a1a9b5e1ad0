"""The table speaks every system the engine has: a Fate room reads its rolls
on Fate's ladder, and a D6 room rolls damage against resistance."""

from __future__ import annotations

from typing import Any

from fudgedice import SYSTEMS


def test_a_fate_room_reads_texts_on_the_fate_ladder(served: Any) -> None:
    created = served.room("Fate night", system="fate")
    assert created["system"] == "fate"
    gm = created["gm_token"]
    read = served.roll(created["room"], gm, "Good vs Great", faces=["+", "0", "-", "+"])
    assert read.status_code == 201, read.text
    roll = read.json()
    assert (roll["system"], roll["total"], roll["events"]) == ("fate", 4, ["tie"])
    assert roll["details"]["ladder"] == "Fate Core"
    # the room's ladder, not Fudge's: Good is +3 here
    drawn = served.roll(created["room"], gm, "Good reroll vs Great").json()
    assert drawn["details"]["policy"].startswith("reroll invoke")
    odds = served.client.get("/api/odds", params={"text": "Good vs Great", "system": "fate"})
    assert odds.json()["events"]["tie"]["exact"] == "16/81"


def test_a_d6_room_rolls_damage_against_resistance(served: Any) -> None:
    created = served.room("D6 night", system="d6")
    faces = ["4", "4", "3", "3", "w2", "dmg", "2", "2", "w5"]
    roll = served.roll(created["room"], created["gm_token"], "5D+1 dmg 3D+2", faces=faces).json()
    assert (roll["total"], roll["events"]) == (6, ["wounded"])
    assert roll["result"].startswith("Wounded: damage 17 against resistance 11")


def test_the_page_lists_the_registry_s_systems_and_each_example_rolls(served: Any) -> None:
    listing = served.client.get("/api/systems").json()
    assert [each["name"] for each in listing["systems"]] == list(SYSTEMS)
    assert listing["default"] == SYSTEMS.default
    for each in listing["systems"]:
        created = served.room(each["title"], system=each["name"])
        for example in each["examples"]:
            rolled = served.roll(created["room"], created["gm_token"], example)
            assert rolled.status_code == 201, (each["name"], example, rolled.text)
            assert rolled.json()["system"] == each["name"]
