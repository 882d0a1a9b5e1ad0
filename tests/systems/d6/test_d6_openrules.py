"""The D6 System beyond the seed (docs/contracts/rules.md section 6, OpenD6): multiple
actions, result points and their degree, damage against resistance and its
wound levels, who wins a tie, and the Character Point cap; each against a
brute-force enumeration of small codes (the Wild Die's chain cut off after a
few tosses: what is cut off bounds how far the exact odds may lie above)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

import pytest

import fudgedice
from fudgedice import DiceError, DiceValueError, LimitError
from fudgedice.api import compile_roll
from fudgedice.systems.d6.program import D6Program

Chances = dict[int, Fraction]
SIXTH = Fraction(1, 6)
DEGREES = [
    (0, "minimal"),
    (1, "solid"),
    (5, "good"),
    (9, "superior"),
    (13, "spectacular"),
    (17, "incredible"),
]
WOUNDS = [
    (1, "stunned"),
    (4, "wounded"),
    (9, "incapacitated"),
    (13, "mortally wounded"),
    (16, "dead"),
]


def side(dice: int, pips: int = 0, *, wild: bool = True, depth: int = 4) -> Chances:
    """A code's totals, tossed die by die: the Wild Die explodes on 6, its
    chain cut off after ``depth`` tosses (a 1 counts: crit=complication)."""
    chains: list[tuple[Fraction, int]] = [(Fraction(1), 0)]
    if wild:
        chains = []
        for length in range(1, depth + 1):
            for last in range(1, 6):
                chains.append((SIXTH**length, 6 * (length - 1) + last))
    totals: Chances = defaultdict(Fraction)
    for plain in itertools.product(range(1, 7), repeat=dice - int(wild)):
        for p, chain in chains:
            totals[sum(plain) + chain + pips] += SIXTH ** len(plain) * p
    return dict(totals)


def margins(left: Chances, right: Chances) -> Chances:
    out: Chances = defaultdict(Fraction)
    for x, px in left.items():
        for y, py in right.items():
            out[x - y] += px * py
    return dict(out)


def band(chances: Chances, low: int | None, high: int | None) -> Fraction:
    return sum(
        (
            p
            for v, p in chances.items()
            if (low is None or v >= low) and (high is None or v <= high)
        ),
        Fraction(0),
    )


def exact(odds: fudgedice.Odds) -> Chances:
    return {row.value: row.p for row in odds.outcomes if row.p}


def program(text: str) -> D6Program:
    compiled = compile_roll(text)
    assert isinstance(compiled, D6Program)
    return compiled


def refused(text: str) -> DiceError:
    with pytest.raises(DiceError) as caught:
        fudgedice.odds(text)
    return caught.value


# --- multiple actions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "same_as"),
    [
        ("d6: 5D+1 actions=3", "d6: 3D+1"),
        ("d6: 5D+1 actions=1", "d6: 5D+1"),
        ("d6: 4D+1 actions=2 fp", "d6: 6D+2"),  # 3D+1, then doubled
        ("d6: 12D actions=3 fast", "d6: 10D fast"),  # 10D, then reduced
        ("d6: 11D actions=2 wildonly", "d6: 10D wildonly"),
        ("d6: 3D actions=2 cp1 crit=cancel", "d6: 2D cp1 crit=cancel"),
    ],
)
def test_each_action_beyond_the_first_costs_a_die_first(text: str, same_as: str) -> None:
    """-1D per action beyond the first, before Fate Points and reduction;
    Character Point dice are not the code's and stay."""
    assert fudgedice.odds(text).dist == fudgedice.odds(same_as).dist
    assert program(text).left.code == program(same_as).left.code


def test_actions_against_brute_force() -> None:
    odds = fudgedice.odds("d6: 3D+2 actions=2 nowild")
    assert exact(odds) == side(2, 2, wild=False)
    check = fudgedice.odds("d6: 4D actions=3 nowild vs 7")
    assert check.events["success"] == band(side(2, wild=False), 7, None)


def test_actions_are_explained() -> None:
    rolled = fudgedice.read("d6: 5D+1 actions=3 fp", "1 2 3 4 5 w2")
    assert "actions=3: -2D for 2 actions beyond the first, 5D+1 rolls as 3D+1" in rolled.steps
    assert "Fate Point: 3D+1 doubled to 6D+2" in rolled.steps
    assert rolled.to_dict()["details"]["actions"] == 3


@pytest.mark.parametrize(
    ("text", "message", "error"),
    [
        (
            "d6: 2D+2 actions=3",
            "2D+2 with actions=3 leaves no die: each action beyond the first costs 1D, "
            "and 2D+2 has 2",
            DiceValueError,
        ),
        ("d6: 3D actions=0", "actions=N counts this round's actions: 1 or more", DiceValueError),
        (
            "d6: 3D actions=two",
            "actions takes a whole number: the actions taken this round",
            DiceValueError,
        ),
        (
            "d6: 3D actions=12345678",
            "actions=12345678... is no count a table uses: the actions taken this round",
            LimitError,
        ),
        (
            "d6: 5D+1 actions=2 dmg 3D",
            "multiple actions cost dice of skill and attribute rolls, not of damage",
            DiceValueError,
        ),
        (
            "d6: 5D+1 dmg 3D actions=2",
            "multiple actions cost dice of skill and attribute rolls, not of resistance",
            DiceValueError,
        ),
        (
            "d6: 3D actions=2 actions=3",
            "'actions' repeats an option already given on this side",
            DiceValueError,
        ),
    ],
)
def test_actions_refused(text: str, message: str, error: type[DiceError]) -> None:
    caught = refused(text)
    assert isinstance(caught, error)
    assert caught.message == message


def test_no_die_left_says_how_many_actions_fit() -> None:
    assert refused("d6: 2D+2 actions=3").hint == "2D+2 can take at most actions=2"
    assert fudgedice.odds("d6: 2D+2 actions=2").low == 1 + 2


def test_actions_on_both_sides_of_an_opposed_roll() -> None:
    opposed = fudgedice.odds("d6: 4D actions=2 nowild opp 3D actions=2 nowild")
    assert exact(opposed) == margins(side(3, wild=False), side(2, wild=False))


# --- result points ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "name"),
    [
        (0, "Minimal"),
        (1, "Solid"),
        (4, "Solid"),
        (5, "Good"),
        (8, "Good"),
        (9, "Superior"),
        (12, "Superior"),
        (13, "Spectacular"),
        (16, "Spectacular"),  # the rules' bands overlap at 16
        (17, "Incredible"),
        (40, "Incredible"),
    ],
)
def test_result_points_and_their_degree(points: int, name: str) -> None:
    rolled = fudgedice.read(f"d6: 4D nowild vs {24 - points}", "6 6 6 6")
    assert rolled.result == (
        f"success vs {24 - points} (+{points}): {points} result point"
        f"{'' if points == 1 else 's'}, {name}"
    )
    assert rolled.events[:2] == ["success", name.lower()]
    details = rolled.to_dict()["details"]
    assert (details["result_points"], details["degree"]) == (points, name)


def test_a_failure_has_no_degree() -> None:
    rolled = fudgedice.read("d6: 2D nowild vs 13", "6 6")
    assert (rolled.result, rolled.events) == ("failure vs 13 (-1)", ["failure"])
    assert rolled.to_dict()["details"]["degree"] is None


@pytest.mark.parametrize(("dice", "pips", "difficulty"), [(2, 1, 6), (3, 0, 11), (1, 2, 3)])
def test_degree_events_against_brute_force(dice: int, pips: int, difficulty: int) -> None:
    odds = fudgedice.odds(f"d6: {dice}D+{pips} vs {difficulty}")
    cut = side(dice, pips, depth=5)
    missing = 1 - sum(cut.values())
    assert odds.uncertain == {}
    for index, (lowest, name) in enumerate(DEGREES):
        high = DEGREES[index + 1][0] - 1 if index + 1 < len(DEGREES) else None
        counted = band(cut, difficulty + lowest, None if high is None else difficulty + high)
        assert counted <= odds.events[name] <= counted + missing
    assert sum(odds.events[name] for _, name in DEGREES) == odds.events["success"]
    nowild = fudgedice.odds(f"d6: {dice}D+{pips} nowild vs {difficulty}")
    plain = side(dice, pips, wild=False)
    assert [nowild.events[name] for _, name in DEGREES[:3]] == [
        band(plain, difficulty, difficulty),
        band(plain, difficulty + 1, difficulty + 4),
        band(plain, difficulty + 5, difficulty + 8),
    ]


def test_opposed_degrees_are_the_initiators() -> None:
    text = "d6: 3D nowild opp 2D+1 nowild"
    chances = margins(side(3, wild=False), side(2, 1, wild=False))
    odds = fudgedice.odds(text)
    assert odds.events["minimal"] == band(chances, 0, 0)
    assert odds.events["solid"] == band(chances, 1, 4)
    assert odds.events["success"] == band(chances, 0, None)
    rolled = fudgedice.read(text, "6 5 4 opp 1 2")
    assert rolled.result == "initiator wins by 11, 11 result points, Superior"
    assert rolled.events == ["success", "superior"]


# --- damage against resistance --------------------------------------------------------------


@pytest.mark.parametrize(
    ("margin", "level"),
    [
        (-2, "No wound"),
        (0, "No wound"),
        (1, "Stunned"),
        (3, "Stunned"),
        (4, "Wounded"),
        (8, "Wounded"),
        (9, "Incapacitated"),
        (12, "Incapacitated"),
        (13, "Mortally Wounded"),
        (15, "Mortally Wounded"),
        (16, "Dead"),
        (23, "Dead"),
    ],
)
def test_wound_levels(margin: int, level: str) -> None:
    # 4D against 1D, no Wild Dice: four faces that beat the resistance's one by ``margin``
    resistance = 1 if margin >= 3 else 6
    damage = margin + resistance
    faces = [6] * (damage // 6) + [damage % 6] if damage % 6 else [6] * (damage // 6)
    faces = faces + [0] * (4 - len(faces))
    while 0 in faces:  # lend a pip from a die above 1 to each empty one
        donor = next(i for i, face in enumerate(faces) if face > 1)
        faces[donor] -= 1
        faces[faces.index(0)] = 1
    dice = " ".join(map(str, faces))
    rolled = fudgedice.read("d6: 4D nowild dmg 1D nowild", f"{dice} dmg {resistance}")
    assert (rolled.total, rolled.margin, rolled.verdict) == (margin, margin, None)
    assert rolled.events == [level.lower()]
    assert (
        rolled.result == f"{level}: damage {damage} against resistance {resistance} ({margin:+d})"
    )
    assert rolled.to_dict()["details"]["wound"] == level


def test_a_damage_roll_explained() -> None:
    rolled = fudgedice.read("d6: 5D+1 dmg 3D+2", "4 4 3 3 w2 dmg 2 2 w5")
    assert rolled.text == (
        "d6: 5D+1 dmg 3D+2 = 6 -> Wounded: damage 17 against resistance 11 (+6)\n"
        "  4D: 4 4 3 3 = 14\n"
        "  wild die: 2 = 2\n"
        "  resist 2D: 2 2 = 4\n"
        "  resist wild die: 5 = 5\n"
        "  (14 + 2 + 1) - (4 + 5 + 2) = 6\n"
        "  Wounded: -1D until healed; a second Wounded makes Severely Wounded, -2D"
    )


def test_damage_odds_are_the_margin_read_as_wounds() -> None:
    damage = fudgedice.odds("d6: 5D+1 dmg 3D+2")
    assert damage.dist == fudgedice.odds("d6: 5D+1 opp 3D+2").dist
    assert damage.value_title == "damage - resistance"
    assert damage.uncertain == {}
    levels = ["no wound", *(name for _, name in WOUNDS)]
    assert [name for name in damage.events][: len(levels)] == levels
    assert sum(damage.events[name] for name in levels) == 1
    assert damage.events["no wound"] == damage.at_most(0)
    assert damage.events["dead"] == damage.at_least(16)
    assert damage.events["wounded"] == damage.chance_between(4, 8).p
    assert damage.events["resistance critical failure"] == Fraction(1, 6)


def test_damage_against_brute_force() -> None:
    chances = margins(side(3, 1, wild=False), side(2, wild=False))
    odds = fudgedice.odds("d6: 3D+1 nowild dmg 2D nowild")
    assert exact(odds) == chances
    assert odds.events["no wound"] == band(chances, None, 0)
    assert odds.events["stunned"] == band(chances, 1, 3)
    assert odds.events["wounded"] == band(chances, 4, 8)
    assert odds.events["incapacitated"] == band(chances, 9, 12)
    assert odds.events["mortally wounded"] == band(chances, 13, 15)
    assert odds.events["dead"] == band(chances, 16, None)
    # with Wild Dice: the exact odds lie within what the cut enumeration misses
    wild = fudgedice.odds("d6: 2D+1 dmg 2D")
    cut = margins(side(2, 1, depth=4), side(2, depth=4))
    missing = 1 - sum(cut.values())
    for index, (lowest, name) in enumerate(WOUNDS):
        high = WOUNDS[index + 1][0] - 1 if index + 1 < len(WOUNDS) else None
        counted = band(cut, lowest, high)
        assert counted <= wild.events[name] <= counted + missing


def test_damage_read_by_hand_and_refused_elsewhere() -> None:
    by_word = fudgedice.read("d6: 2D dmg 2D", "3 w4 dmg 5 w2")
    assert fudgedice.read("d6: 2D dmg 2D", "3 w4 opp 5 w2").total == by_word.total == 0
    with pytest.raises(DiceValueError) as caught:
        fudgedice.read("d6: 2D dmg 2D", "3 w4 5 w2")
    assert caught.value.message == (
        "a damage roll read by hand gives the damage dice, then 'dmg' (or 'opp'), "
        "then the resistance's"
    )
    for text in (
        "Good dmg Fair",
        "power: 4dF dmg 2",
        "3d6fudge: 6 dmg 8",
        "fate: Good dmg Fair",
        "3d6 dmg 2d6",
    ):
        error = refused(text)
        assert error.message == "'dmg' rolls damage against resistance, a D6 System roll"
        assert error.hint == "write it with the d6: prefix, such as 'd6: 5D+1 dmg 3D+2'"
    second = refused("d6: 3D dmg 2D vs 10")
    assert second.message.startswith("unexpected 'vs'")
    assert second.hint is not None and second.hint.startswith("a roll has one 'vs' or 'opp'")


def test_damage_samples_are_margins() -> None:
    drawn = fudgedice.sample("d6: 2D dmg 1D+1", 500, seed=3)
    odds = fudgedice.odds("d6: 2D dmg 1D+1")
    assert all(odds.probability(int(value)) > 0 for value in set(drawn.tolist()))


# --- ties ----------------------------------------------------------------------------------------


def test_ties_go_to_the_initiator_or_to_the_opponent() -> None:
    initiator = fudgedice.read("d6: 2D opp 2D", "3 w4 opp 5 w2")
    meet = fudgedice.read("d6: 2D opp 2D ties=meet", "3 w4 opp 5 w2")
    assert (initiator.verdict, meet.verdict) == ("success", "failure")
    assert meet.result == "tie: the opponent wins (ties=meet), 0 result points, Minimal"
    assert meet.events == ["failure"]
    plain = fudgedice.odds("d6: 3D opp 3D")
    met = fudgedice.odds("d6: 3D opp 3D ties=meet")
    assert met.dist == plain.dist
    assert plain.events["success"] == plain.at_least(0)
    assert met.events["success"] == plain.at_least(1)
    assert met.events["success"] + met.events["failure"] == 1
    assert met.events["minimal"] == 0
    # stated on either side, it is the roll's one rule
    assert fudgedice.odds("d6: 3D opp 3D ties=meet").events == met.events
    assert fudgedice.odds("d6: 3D ties=meet opp 3D").events == met.events


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "d6: 3D ties=meet vs 10",
            "ties=... settles who wins a tied opposed roll, and this roll has no 'opp'",
        ),
        (
            "d6: 3D ties=meet",
            "ties=... settles who wins a tied opposed roll, and this roll has no 'opp'",
        ),
        (
            "d6: 3D ties=meet dmg 2D",
            "ties=... settles who wins a tied opposed roll, and this roll has no 'opp'",
        ),
        (
            "d6: 3D ties=meet opp 3D ties=initiator",
            "the two sides state different ties=... rules: it is one rule for the roll",
        ),
        ("d6: 3D ties=defender opp 3D", "ties takes one of initiator, meet"),
    ],
)
def test_ties_refused(text: str, message: str) -> None:
    assert refused(text).message == message


# --- the Character Point cap ------------------------------------------------------------------


def test_cp_above_the_cap_names_it_and_how_to_raise_it() -> None:
    error = refused("d6: 3D cp3 cpcap=2")
    assert isinstance(error, DiceValueError)
    assert (
        error.message == "cp3 is more than this game's cap of 2 Character Points per roll (cpcap=2)"
    )
    assert error.hint == "if the GM allows more, raise the cap: cpcap=3, or cpcap=none for no cap"
    assert refused("d6: 3D cp cpcap=0").message == (
        "cp1 is more than this game's cap of 0 Character Points per roll (cpcap=0)"
    )


def test_the_cap_holds_up_to_it_and_for_both_sides() -> None:
    assert fudgedice.odds("d6: 3D cp2 cpcap=2").dist == fudgedice.odds("d6: 3D cp2").dist
    assert fudgedice.odds("d6: 3D cp5 cpcap=none").dist == fudgedice.odds("d6: 3D cp5").dist
    inherited = refused("d6: 3D cpcap=2 opp 3D cp3")
    assert inherited.message == (
        "cp3 is more than this game's cap of 2 Character Points per roll "
        "(cpcap=2, set on the left side)"
    )
    assert fudgedice.odds("d6: 3D cpcap=2 opp 3D cp3 cpcap=5").events["success"] > 0
    assert isinstance(refused("d6: 3D cpcap=lots"), DiceValueError)
    # the engine's own limit stays whatever the cap
    assert isinstance(refused("d6: 3D cp21 cpcap=none"), LimitError)


# --- tables ------------------------------------------------------------------------------------


def test_the_wound_and_result_point_tables() -> None:
    wounds = fudgedice.table("d6-wounds")
    assert [row[:2] for row in wounds.rows] == [
        ("0 or less", "No wound"),
        ("1-3", "Stunned"),
        ("4-8", "Wounded"),
        ("9-12", "Incapacitated"),
        ("13-15", "Mortally Wounded"),
        ("16+", "Dead"),
    ]
    assert "Severely Wounded, -2D" in wounds.rows[2][2]
    points = fudgedice.table("d6-result-points")
    assert points.rows == (
        ("0", "Minimal"),
        ("1-4", "Solid"),
        ("5-8", "Good"),
        ("9-12", "Superior"),
        ("13-16", "Spectacular"),
        ("17+", "Incredible"),
    )


# --- a wound's penalty on later rolls ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "same_as"),
    [
        ("d6: 4D+1 wound=stunned", "d6: 3D+1"),
        ("d6: 4D+1 wound=wounded", "d6: 3D+1"),
        ("d6: 4D+1 wound=severely", "d6: 2D+1"),  # a second Wounded: -2D
        ("d6: 5D wound=wounded actions=2 fp", "d6: 6D"),  # 3D, then doubled
        ("d6: 3D wound=wounded dmg 3D wound=severely", "d6: 2D dmg 1D"),
    ],
)
def test_a_wound_costs_dice_of_later_rolls(text: str, same_as: str) -> None:
    assert fudgedice.odds(text).dist == fudgedice.odds(same_as).dist


def test_a_wound_is_explained_and_refused_past_the_dice() -> None:
    rolled = fudgedice.read("d6: 5D+1 wound=severely actions=2", "4 w3")
    assert rolled.steps[0] == (
        "actions=2: -1D for 1 action beyond the first; wound=severely: -2D (Severely Wounded), "
        "5D+1 rolls as 2D+1"
    )
    assert exact(fudgedice.odds("d6: 3D wound=stunned nowild")) == side(2, wild=False)
    error = refused("d6: 3D actions=2 wound=severely")
    assert error.message == (
        "3D with actions=2 and wound=severely leaves no die: Severely Wounded costs 2D and "
        "the actions 1D, and 3D has 3"
    )
    assert error.hint == "wounded so, 3D can take at most actions=1"
    assert refused("d6: 3D wound=incapacitated").message == (
        "an Incapacitated character takes no action: there is no roll to make"
    )
    assert refused("d6: 3D wound=ouch").message == "wound takes one of stunned, wounded, severely"
