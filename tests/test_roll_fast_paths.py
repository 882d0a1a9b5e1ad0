"""The roll path's shortcuts (issue 14, item 2) against the ways they replace:
each must give the very same dice, result and explanation."""

from __future__ import annotations

import itertools

import pytest

from fudgedice import api, stream
from fudgedice.stream import Stream, seeded
from fudgedice.systems.fudge.program import FudgeProgram
from fudgedice.systems.fudge3d6 import program as fudge3d6
from fudgedice.systems.fudge3d6.rules import read_3d6


def test_a_fresh_stream_is_the_stream_of_its_key(monkeypatch: pytest.MonkeyPatch) -> None:
    key = bytes(range(32))
    monkeypatch.setattr(stream, "_urandom", lambda size: key[:size])
    fast, written = stream.fresh(), Stream(key)
    assert fast.context == written.context == ""
    assert fast.draws(6, 40) == written.draws(6, 40)
    assert [fast.below(3) for _ in range(20)] == [written.below(3) for _ in range(20)]


@pytest.mark.parametrize(
    "text", ["4dF+2", "Good vs Great", "Good opp Fair", "fudge: 3dF-1 + Great", "4dF+1 coin"]
)
def test_a_fudge_side_without_special_pools_rolls_as_the_side_walk(text: str) -> None:
    program = api.DICE.program(text)
    assert isinstance(program, FudgeProgram)
    for seed in range(30):
        quick = program.roll(seeded(seed), seed)
        program._special = {}  # every side taken the long way, through roll_side
        try:
            slow = program.roll(seeded(seed), seed)
        finally:
            del program._special
            program._check()
        assert quick.to_dict() == slow.to_dict()
        assert quick.tosses == slow.tosses


def test_three_dice_read_against_a_skill_are_remembered_exactly() -> None:
    fudge3d6._read.cache_clear()
    for first, second, third in itertools.product(range(1, 7), repeat=3):
        dice = (first, second, third)
        for skill in (3, 6, 10, 15):
            said = fudge3d6._read(dice, skill)
            assert said.reading == read_3d6(dice, skill)
            assert said == fudge3d6._read(dice, skill)


@pytest.mark.parametrize("text", ["d6: 5D+2", "d6: 3D+1 opp 4D", "d6: 12D fast", "d6: 2D+2 cp=2"])
def test_a_d6_side_laid_out_once_rolls_as_when_laid_out_afresh(text: str) -> None:
    from fudgedice.systems.d6 import rolling

    program = api.DICE.program(text)
    first = [program.roll(seeded(seed), seed).to_dict() for seed in range(20)]
    rolling._LAYOUTS.clear()
    again = [program.roll(seeded(seed), seed).to_dict() for seed in range(20)]
    assert first == again
