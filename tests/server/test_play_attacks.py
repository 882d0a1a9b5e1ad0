"""Play attacked as a player, a GM and an outsider would: a roll made to
give more than one advantage, ids of one room used in another, hidden rolls
asked about, points raced, sizes at their bounds. Through the real app on
SQLite (the ``play_room`` and ``play_table`` fixtures: tests/server/conftest.py)."""

from __future__ import annotations

from typing import Any


def test_a_roll_makes_one_advantage_even_once_it_is_removed(
    play_table: Any, play_room: Any
) -> None:
    room = play_room(play_table)
    ann = room.ann
    rolled = room.roll(ann, "fate: Good vs Fair", faces=["+", "0", "0", "0"])
    made = room.ok(ann, action="advantage", of=rolled["seq"], name="Cornered")
    cornered = room.aspect({"play": made["play"]}, "Cornered")
    room.ok(ann, action="remove", aspect=cornered["id"])
    again = room.play(ann, action="advantage", of=rolled["seq"], name="Cornered again")
    assert again.status_code == 422, again.text
    assert "advantage already" in again.json()["error"]


def test_a_roll_invoked_on_makes_one_advantage_over_its_chain(
    play_table: Any, play_room: Any
) -> None:
    room = play_room(play_table)
    ann = room.ann
    rolled = room.roll(ann, "fate: Superb vs Terrible")
    room.ok(ann, action="advantage", of=rolled["seq"], name="Cornered")
    spent = room.spend(ann, rolled["seq"], aspect="Infamous Girl with Sword")
    assert spent.status_code == 201, spent.text
    again = room.play(ann, action="advantage", of=spent.json()["seq"], name="Twice")
    assert again.status_code == 422, again.text


def test_a_roll_of_an_earlier_scene_makes_no_advantage(play_table: Any, play_room: Any) -> None:
    room = play_room(play_table)
    ann = room.ann
    rolled = room.roll(ann, "fate: Superb vs Terrible")
    room.ok(ann, action="advantage", of=rolled["seq"], name="Cornered")
    room.ok(room.gm, action="scene", name="Later")
    again = room.play(ann, action="advantage", of=rolled["seq"], name="Cornered")
    assert again.status_code == 422, again.text
