"""Rolls served from a program's kept outcomes (fudgedice.dice.quick) against
the general path they stand for: the same dice, total, text, explanation,
repr, JSON and HTML for every seed, whether an outcome is new or kept."""

from __future__ import annotations

import json

import pytest

import fudgedice
from fudgedice import api, budget
from fudgedice import stream as stream_module
from fudgedice.dice.program import Program
from fudgedice.dice.roller import Roller
from fudgedice.dice.schedule import cut
from fudgedice.results.deferred import DeferredRoll
from fudgedice.results.roll import Roll
from fudgedice.stream import Stream, seeded
from fudgedice.systems.fudge import program as fudge_program
from fudgedice.systems.fudge.notes import side_bounds
from fudgedice.systems.fudge.program import FudgeProgram

KEPT = [
    "3d6+2",
    "2d10-1d4",
    "4dF+2",
    "4dF",
    "-4dF",
    "Good vs Great",
    "Fair vs Terrible-3",
    "Good opp Fair",
    "4dF+1 coin",
    "power: 4dF+2 adv vs 3",
    "power: Great dis2 vs Good",
    "power: 4dF adv dis",
    "3d6fudge: Good",
    "d6: 5D+2",
    "d6: 3D+2 vs 12",
    "d6: 2D+1 vs 30",
    "d6: 4D+1 crit=cancel",
    "d6: 4D cp=1",
    "d6: 1D",
    "d6: 3D+1 rpb vs 12",
    "d6: 2D rp=5",
    "fate: 4dF+3 vs 2",
    "fatecondensed: 4dF+1 vs 2",
    "fae: 4dF+2 vs 1",
    "4d6kh3+1",
    "3d6kl2",
    "2d20kh1+5",
    "3d6>=5",
    "4d6dl1",
]
"""Forms whose outcomes are kept: plain pools (kept, dropped and counted
dice too), advantage, the Wild Die's 1
and its chains of 6, Character Point dice, opposed and difficulty rolls."""
LONG_WAY = [
    "3d6!",
    "4dF r<=-1",
    "4dF@3d6 vs Good",
    "4dF@d% + 1",
    "3d6fudge: Good opp Fair",
    "power: Good take0 vs Great",
    "d6: 4D opp 3D+1",
    "d6: 5D dmg 3D",
    "d6: 2D+1 weapon 1D fp dmg 2D armor 1",
    "fate: Good vs Great",
    "fate: Good reroll vs Great",
]
"""Forms rolled the general way (modifiers, techniques, too many outcomes, a
note that measures a chance on every roll, or a schedule that does not fit):
the same checks hold."""
SEEDS = range(300)


def general(program: Program, seed: int) -> Roll:
    """The general path's roll, with no kept outcome in the way."""
    return walked_roll(program, seeded(seed), seed)


def walked_roll(program: Program, stream: Stream, seed: int | None) -> Roll:
    """The general path's roll of ``stream``'s draws."""
    roller = Roller(stream)
    result = program.roll_with(roller, seed)
    result.tosses = roller.drawn
    return program.explained(result)


def seen(roll: Roll) -> tuple[object, ...]:
    return (
        roll.text,
        str(roll),
        repr(roll),
        roll.total,
        roll.result,
        roll.verdict,
        roll.margin,
        roll.tosses,
        json.dumps(roll.to_dict(), sort_keys=True),
        roll._repr_html_(),
    )


@pytest.mark.parametrize("text", KEPT + LONG_WAY)
def test_every_roll_is_the_general_paths_roll(text: str) -> None:
    program = api.DICE.program(text)
    for _ in range(2):  # the outcomes new, then kept
        for seed in SEEDS:
            rolled = fudgedice.roll(text, seed=seed)
            assert seen(rolled) == seen(general(program, seed)), seed


@pytest.mark.parametrize("text", KEPT)
def test_kept_outcomes_serve_the_rolls_of_these_forms(text: str) -> None:
    program = Program.__new__(type(api.DICE.program(text)))
    program.__dict__.update(api.DICE.program(text).__dict__)
    program.__dict__.pop("quick", None)  # a copy with no outcome kept yet
    assert program.quick is not None
    first = [program.roll(seeded(seed), seed) for seed in SEEDS]
    again = [program.roll(seeded(seed), seed) for seed in SEEDS]
    assert program.quick.schedule is not None  # the schedule held for every outcome
    assert any(isinstance(roll, DeferredRoll) for roll in again)
    for one, other in zip(first, again, strict=True):
        assert seen(one) == seen(other)
        assert one == other and other == one


@pytest.mark.parametrize("text", LONG_WAY)
def test_the_long_way_keeps_nothing(text: str) -> None:
    program = api.DICE.program(text)
    quick_rolls = program.quick
    assert quick_rolls is None or quick_rolls.schedule is None or not quick_rolls.outcomes
    assert not isinstance(program.roll(seeded(1), 1), DeferredRoll)


def test_every_registered_system_has_forms_here() -> None:
    # the quick path serves every system's rolls, so each is held to the
    # general path above (docs/architecture.md, "The quick path")
    systems = {api.DICE.program(text).expression.system for text in KEPT + LONG_WAY}
    assert systems == set(fudgedice.SYSTEMS)


def test_the_wild_die_and_its_chains_are_among_the_outcomes_checked() -> None:
    wild = [fudgedice.roll("d6: 5D+2", seed=seed).tosses[4:] for seed in SEEDS]
    assert any(tosses == [1] for tosses in wild)  # a critical failure
    assert any(len(tosses) >= 3 for tosses in wild)  # 6, 6, then another


def test_a_kept_roll_builds_its_records_from_its_own_draws() -> None:
    text = "power: 4dF+2 adv vs 3"
    for seed in SEEDS:
        fudgedice.roll(text, seed=seed)
    rolled = fudgedice.roll(text, seed=7)
    assert isinstance(rolled, DeferredRoll)
    expected = general(api.DICE.program(text), 7)
    assert rolled.dice == expected.dice
    assert rolled.steps == expected.steps
    assert rolled.parts == expected.parts
    assert rolled.details == expected.details


def test_a_kept_roll_changed_is_explained_as_changed() -> None:
    for seed in SEEDS:
        fudgedice.roll("d6: 5D+2", seed=seed)
    rolled = fudgedice.roll("d6: 5D+2", seed=3)
    assert isinstance(rolled, DeferredRoll)
    rolled.label = "Dodge"
    assert rolled.text.startswith("Dodge: d6: 5D+2 = ")
    rolled = fudgedice.roll("d6: 5D+2", seed=3)
    rolled.steps.append("a note of my own")  # the records built, then changed
    assert rolled.text.endswith("\n  a note of my own")


def test_an_unseeded_roll_of_a_text_rolled_before_takes_the_kept_outcomes() -> None:
    for _ in range(400):
        fudgedice.roll("3d6fudge: Good")
    assert "3d6fudge: Good" in api._QUICK
    rolls = [fudgedice.roll("3d6fudge: Good") for _ in range(50)]
    assert any(isinstance(roll, DeferredRoll) for roll in rolls)
    for roll in rolls:
        assert roll.text == roll.render(roll)  # type: ignore[misc]

    @budget.within_budget
    def in_a_request() -> Roll:
        return fudgedice.roll("3d6fudge: Good")

    assert in_a_request().total in range(-20, 21)


def test_a_schedule_that_misreads_its_program_turns_itself_off() -> None:
    program = api.DICE.compile("2d6+1")
    wrong = Program(program.expression)
    wrong.schedule = lambda: ((6, (1, 2, 3, 4, 5, 6), 3, None, None),)  # type: ignore[method-assign]
    assert wrong.quick is not None
    for seed in range(20):
        assert seen(wrong.roll(seeded(seed), seed)) == seen(general(program, seed))
    assert wrong.quick.schedule is None and not wrong.quick.outcomes


def test_a_roll_from_a_stream_leaves_the_stream_where_the_general_path_does() -> None:
    program = api.DICE.program("d6: 5D+2")
    for seed in SEEDS:
        program.roll(seeded(seed), seed)
    for seed in range(50):
        kept, walked = seeded(seed), seeded(seed)
        program.roll(kept, None)
        program.roll_with(Roller(walked), None)
        assert kept.draws(6, 10) == walked.draws(6, 10)


def test_pieces_cut_a_text_around_its_lines_found_once() -> None:
    text = "head\n  4D: 1 2 = 3\n  wild die: 5 = 5\n  3 + 5 = 8"
    pieces = cut(text, ["4D: 1 2 = 3"])
    assert pieces == ("head\n  ", "\n  wild die: 5 = 5\n  3 + 5 = 8")
    assert cut("a\nx\nx", ["x"]) is None
    assert cut("x", ["y"]) is None


@pytest.mark.parametrize("n", [1, 3, 6, 100, 2**31 + 1, 2**32 - 1, 2**32])
def test_draws_in_one_go_are_the_draws_one_at_a_time(n: int) -> None:
    for seed in range(40):
        for count in (0, 1, 4, 8, 9):
            together, apart = seeded(seed), seeded(seed)
            together.below(2)  # stand somewhere inside a block
            apart.below(2)
            assert together.draws(n, count) == [apart.below(n) for _ in range(count)]
            assert together.mark() == apart.mark()


def test_a_rewound_stream_draws_again_what_was_drawn() -> None:
    stream = Stream(b"key", "room:client:3")
    stream.draws(6, 5)
    mark = stream.mark()
    first = stream.draws(100, 12)
    again = stream.rewound(mark, Stream)
    assert again.draws(100, 12) == first
    assert again.mark() == stream.mark()


BOUNDED = [
    "4dF+2 vs Good",
    "Good vs Great",
    "-2dF + Fair - 3 vs Good",
    "(4dF) - 1dF.1 vs Fair",
    "power: 4dF+2 adv vs 3",
    "power: 4dF adv2 vs 5",
    "power: 2dF dis2 vs -1",
    "power: 4dF+1 adv dis vs 2",
    "Fair vs Legendary+5",
    "Superb vs Terrible-3",
]


@pytest.mark.parametrize("text", BOUNDED)
def test_a_sides_bounds_are_its_measured_extent(text: str) -> None:
    program = api.DICE.program(text)
    assert isinstance(program, FudgeProgram)
    bounds = side_bounds(program.left, program.word_value)
    assert bounds is not None
    assert bounds == program._side_dist(program.left).extent()


@pytest.mark.parametrize("text", ["4dF@3d6 vs Good", "4dF! vs Good", "4dF*2 vs Good"])
def test_sides_bounds_do_not_read_are_left_to_the_odds(text: str) -> None:
    program = api.DICE.program(text)
    assert isinstance(program, FudgeProgram)
    assert side_bounds(program.left, program.word_value) is None


@pytest.mark.parametrize(
    "text",
    [
        "Good vs Great",
        "power: 4dF+2 adv vs 3",
        "Fair vs Legendary+5",
        "Superb vs Terrible-3",
        "power: Great dis2 vs Good",
    ],
)
def test_a_difficulty_is_noted_without_measuring_odds(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = [fudgedice.roll(text, seed=seed).text for seed in range(20)]

    def measured(*args: object) -> None:
        raise AssertionError("odds measured on the roll path")

    monkeypatch.setattr(fudge_program, "side_dist", measured)
    dice = api.Dice(fudgedice.SYSTEMS)  # programs of its own: nothing noted yet
    assert [dice.roll(text, seed=seed).text for seed in range(20)] == expected


def test_a_fresh_start_is_the_first_block_of_its_keys_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for seed in range(20):
        key = bytes((seed * 7 + index) % 256 for index in range(32))
        monkeypatch.setattr(stream_module, "_urandom", lambda size, key=key: key[:size])
        got, words = stream_module.fresh_start()
        assert got == key
        assert list(words) == Stream(key).draws(2**32, 8)


@pytest.mark.parametrize("text", KEPT)
def test_an_unseeded_roll_from_the_first_block_is_its_keys_roll(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = api.DICE.program(text)
    quick_rolls = program.quick
    assert quick_rolls is not None
    keys = iter([bytes([seed % 256, seed // 256]) * 16 for seed in range(600)])
    used: list[bytes] = []

    def urandom(size: int) -> bytes:
        used.append(next(keys))
        return used[-1][:size]

    monkeypatch.setattr(stream_module, "_urandom", urandom)
    for _ in range(300):
        rolled = quick_rolls.roll_fresh()
        assert seen(rolled) == seen(walked_roll(program, Stream(used[-1]), None))


@pytest.mark.parametrize("text", ["4dF+2", "d6: 5D+2", "d6: 4D+1 crit=cancel", "4d6kh3+1"])
def test_draws_served_again_are_their_keys_roll(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same 200 keys twice: the second time, their draws are served as they were
    program = api.DICE.program(text)
    quick_rolls = program.quick
    assert quick_rolls is not None and quick_rolls.in_block
    keys = [bytes([seed % 256, 7, seed // 256]) * 11 for seed in range(200)] * 2
    at = iter(range(len(keys)))
    used: list[bytes] = []

    def urandom(size: int) -> bytes:
        used.append(keys[next(at)][:size])
        return used[-1]

    monkeypatch.setattr(stream_module, "_urandom", urandom)
    for _round in range(2):
        for _ in range(200):
            rolled = quick_rolls.roll_fresh()
            assert seen(rolled) == seen(walked_roll(program, Stream(used[-1]), None))
        assert quick_rolls.served  # kept outcomes' draws, no chain, served again
    budget_spent: list[float] = []

    @budget.within_budget
    def charged() -> None:
        quick_rolls.roll_fresh()
        current = budget.current()
        assert current is not None
        budget_spent.append(current.spent)

    monkeypatch.setattr(stream_module, "_urandom", lambda size: keys[0][:size])
    charged()
    assert budget_spent[0] > 0  # a served roll charges its dice
