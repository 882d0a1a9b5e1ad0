"""Whose dice a Fate Point doubles, and the result point bonus (docs/contracts/rules.md
sections 6 and 7): a weapon's and armor's dice stay as written, and a
success's result points, halved and rounded up, are shown (``rpb``) or added
to damage or an effect (``rp=N``). Exact odds against brute force, read by
hand, and every misplaced word refused with a message."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest

import fudgedice
from fudgedice.errors import DiceError

Options = dict[str, Any]
Code = tuple[int, int]
Chances = dict[int, Fraction]
SIXTH = Fraction(1, 6)
DEPTH = 8
"""Tosses of the Wild Die followed by the brute force: what it leaves out
(under 1e-6 a side) bounds how far the exact odds may lie from it."""


def _stories(depth: int) -> list[tuple[Fraction, list[int]]]:
    """Every toss sequence of one exploding d6, cut after ``depth`` tosses."""
    out: list[tuple[Fraction, list[int]]] = []
    for length in range(1, depth + 1):
        for last in range(1, 6):
            out.append((SIXTH**length, [6] * (length - 1) + [last]))
    return out


def side(
    code: Code,
    *,
    wild: bool = True,
    crit: str = "complication",
    reduction: str | None = None,
    bonus: int = 0,
) -> Chances:
    """One side's totals, every die tossed: the plain dice, the Wild Die's
    stories (its first 1 cancelling itself and the highest die under
    ``crit=cancel``), the pips, the chart's "5D" bonus for ``fast``, and a
    result point bonus."""
    dice, pips = code
    rolled, chart = dice, 0
    if reduction == "fast":
        rolled, chart = min(dice, 5), max(0, -(-(dice - 5) * 7 // 2))
    stories = _stories(DEPTH) if wild else [(Fraction(1), [])]
    out: Chances = defaultdict(Fraction)
    for plain in itertools.product(range(1, 7), repeat=rolled - int(wild)):
        for p_wild, tosses in stories:
            total = sum(plain) + sum(tosses)
            if tosses and tosses[0] == 1 and crit == "cancel":
                total = sum(plain) - max(plain, default=0)
            out[total + pips + chart + bonus] += SIXTH ** len(plain) * p_wild
    return dict(out)


def margins(left: Chances, right: Chances) -> Chances:
    out: Chances = defaultdict(Fraction)
    for x, px in left.items():
        for y, py in right.items():
            out[x - y] += px * py
    return dict(out)


def assert_within(odds: fudgedice.Odds, counted: Chances) -> None:
    """Every value's exact chance lies within what the brute force counted
    and that plus what it left out; with nothing left out, they are equal."""
    missing = 1 - sum(counted.values())
    assert missing < Fraction(1, 10**5)
    for value in range(min(counted) - 3, max(counted) + 4):
        low = counted.get(value, Fraction(0))
        assert low <= odds.probability(value) <= low + missing, value
    if missing == 0:
        assert {o.value: o.p for o in odds.outcomes} == {v: p for v, p in counted.items() if p}


def _rolled(own: Code, fp: bool, added: Code = (0, 0)) -> Code:
    """The code a side rolls, from the rule afresh: the character's own dice
    doubled (pips too) by a Fate Point, then a weapon's or armor's as written;
    three pips make a die."""
    factor = 2 if fp else 1
    pips = 3 * (factor * own[0] + added[0]) + factor * own[1] + added[1]
    return divmod(pips, 3)


WOUND_BANDS = {
    "no wound": (None, 0),
    "stunned": (1, 3),
    "wounded": (4, 8),
    "incapacitated": (9, 12),
    "mortally wounded": (13, 15),
    "dead": (16, None),
}

DAMAGE = [
    # text, (left code, options), (right code, options)
    ("1D+1 weapon 1D fp dmg 1D armor 1", (_rolled((1, 1), True, (1, 0)), {}), ((1, 1), {})),
    ("1D+1 weapon 1D dmg 1D armor 1 fp", ((2, 1), {}), (_rolled((1, 0), True, (0, 1)), {})),
    ("1D unarmed fp dmg 2D", (_rolled((1, 0), True), {}), ((2, 0), {})),
    ("1D weapon 2 fp rp=7 dmg 1D+2", (_rolled((1, 0), True, (0, 2)), {"bonus": 4}), ((1, 2), {})),
    (
        "1D weapon 1D+1 fp crit=cancel dmg 1D armor 1D",
        (_rolled((1, 0), True, (1, 1)), {"crit": "cancel"}),
        ((2, 0), {"crit": "cancel"}),
    ),
    (
        "2D weapon 1D fp fast dmg 1D",
        (_rolled((2, 0), True, (1, 0)), {"reduction": "fast"}),
        ((1, 0), {}),
    ),
    ("1D+2 rp=4 dmg 1D+1 fp", ((1, 2), {"bonus": 2}), (_rolled((1, 1), True), {})),
    (
        "1D+1 weapon 1D fp nowild rp=3 dmg 1D armor 2 fp nowild",
        (_rolled((1, 1), True, (1, 0)), {"wild": False, "bonus": 2}),
        (_rolled((1, 0), True, (0, 2)), {"wild": False}),
    ),
]


@pytest.mark.parametrize(("form", "left", "right"), DAMAGE, ids=[case[0] for case in DAMAGE])
def test_damage_with_whose_dice_matches_brute_force(
    form: str, left: tuple[Code, Options], right: tuple[Code, Options]
) -> None:
    """Every margin against the sides enumerated, each rolling the code the
    rule gives it (exactly, without Wild Dice); the wounds are the margin's bands."""
    odds = fudgedice.odds(f"d6: {form}")
    counted = margins(side(left[0], **left[1]), side(right[0], **right[1]))
    assert_within(odds, counted)
    missing = 1 - sum(counted.values())
    assert odds.uncertain == {} and odds.truncated <= Fraction(1, 10**12)
    for name, (low, top) in WOUND_BANDS.items():
        inside = [m for m in counted if (low is None or m >= low) and (top is None or m <= top)]
        listed = sum((counted[m] for m in inside), Fraction(0))
        assert listed <= odds.events[name] <= listed + missing, name


def test_a_fate_point_leaves_the_weapon_as_written() -> None:
    """The issue's roll: 5D+1 of which 2D is the weapon's. Doubling the whole
    code is no longer what fp does; the character's own 3D+1 is doubled."""
    weapon = fudgedice.odds("d6: 3D+1 weapon 2D fp dmg 3D+2")
    assert weapon.dist == fudgedice.odds("d6: 8D+2 dmg 3D+2").dist
    assert weapon.events["dead"] < fudgedice.odds("d6: 10D+2 dmg 3D+2").events["dead"]
    unarmed = fudgedice.odds("d6: 5D+1 unarmed fp dmg 3D+2")
    assert unarmed.dist == fudgedice.odds("d6: 10D+2 dmg 3D+2").dist
    armor = fudgedice.odds("d6: 5D+1 dmg 3D+2 armor 1D fp")
    assert armor.dist == fudgedice.odds("d6: 5D+1 dmg 8D+1").dist
    plain = fudgedice.odds("d6: 3D+1 weapon 2D dmg 3D+2 armor 1D")
    assert plain.dist == fudgedice.odds("d6: 5D+1 dmg 4D+2").dist


def test_all_weapon_damage_has_nothing_for_a_fate_point() -> None:
    with pytest.raises(fudgedice.DiceValueError) as raised:
        fudgedice.odds("d6: 5D+1 fp dmg 3D+2")
    error = raised.value
    assert error.message == (
        "a Fate Point doubles only the character's own dice, and the damage code 5D+1 is "
        "all the weapon's"
    )
    assert error.position == len("d6: 5D+1 ")
    assert error.hint is not None and "3D+1 weapon 2D fp" in error.hint
    assert "add unarmed" in error.hint


def test_what_was_doubled_is_explained() -> None:
    rolled = fudgedice.read(
        "d6: 3D+1 weapon 2D fp dmg 3D+2 armor 1D",
        "4 4 3 3 2 2 1 w5 dmg 2 2 6 w3",
    )
    assert rolled.text == (
        "d6: 3D+1 weapon 2D fp dmg 3D+2 armor 1D = 11 -> Incapacitated: damage 26 against "
        "resistance 15 (+11)\n"
        "  7D: 4 4 3 3 2 2 1 = 19\n"
        "  wild die: 5 = 5\n"
        "  resist 3D: 2 2 6 = 10\n"
        "  resist wild die: 3 = 3\n"
        "  (19 + 5 + 2) - (10 + 3 + 2) = 11\n"
        "  Fate Point: 3D+1 doubled to 6D+2; the weapon's 2D stays, 8D+2 in all\n"
        "  Incapacitated: out of the action until healed\n"
        "  resist: 3D+2 and the armor's 1D: 4D+2"
    )
    assert rolled.to_dict()["details"]["code"] == "8D+2"
    assert [side["notation"] for side in rolled.to_dict()["sides"]] == ["8D+2", "4D+2"]


def test_weapon_dice_read_by_hand_are_counted() -> None:
    with pytest.raises(fudgedice.DiceValueError, match="8D\\+2 rolls 7 plain dice"):
        fudgedice.read("d6: 3D+1 weapon 2D fp dmg 2D", "4 4 3 3 2 2 w5 dmg 2 w3")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("d6: 4D weapon 1D vs 10", "'weapon' adds a weapon's dice to the damage, left of dmg"),
        ("d6: 4D weapon 1D", "'weapon' adds a weapon's dice to the damage, left of dmg"),
        ("d6: 4D dmg 3D weapon 1D", "'weapon' adds a weapon's dice to the damage, left of dmg"),
        ("d6: 4D armor 1D dmg 3D", "'armor' adds armor's dice to the resistance, right of dmg"),
        ("d6: 4D opp 3D armor 1D", "'armor' adds armor's dice to the resistance, right of dmg"),
        ("d6: 2D weapon 1D weapon 1 dmg 3D", "a second 'weapon'"),
        ("d6: 2D weapon 0 dmg 3D", "'weapon' adds dice or pips, and 0D+0 adds none"),
        ("d6: 2D weapon 1D-3 dmg 3D", "'weapon' adds dice or pips, and 1D-3 adds none"),
        ("d6: 2D dmg 3D armor -1", "'armor' adds dice or pips, and 0D-1 adds none"),
        ("d6: 2D weapon 1d6 dmg 3D", "the D6 System rolls die codes, not 1d6"),
        ("d6: 2D weapon Good dmg 3D", "'Good' is not part of a die code"),
        ("d6: 2D unarmed weapon 1D dmg 3D", "unarmed says there is no weapon"),
        ("d6: 2D dmg 3D unarmed", "unarmed says a damage code is all the character's own"),
        ("d6: 2D unarmed vs 10", "unarmed says a damage code is all the character's own"),
        ("d6: 2D unarmed unarmed dmg 3D", "'unarmed' repeats an option"),
        ("d6: 2D rp=3 vs 10", "rp=N adds an earlier success's result point bonus"),
        ("d6: 2D rp=3 opp 2D", "rp=N adds an earlier success's result point bonus"),
        ("d6: 2D dmg 3D rp=3", "rp=3 is the acting character's, on the left side"),
        ("d6: 2D opp 3D rpb", "rpb is the acting character's, on the left side"),
        ("d6: 2D rpb", "rpb shows a success's result point bonus, and this roll has no"),
        ("d6: 2D rpb dmg 2D", "rpb shows a success's result point bonus"),
        ("d6: 2D rp dmg 2D", "rp takes a whole number"),
        ("d6: 2D rp=many dmg 2D", "rp takes a whole number"),
        ("d6: 2D rpb=2 vs 5", "'rpb' takes no value"),
        ("d6: 2D rp=1 rp=2", "'rp' repeats an option"),
        ("4dF weapon 2", "'weapon' adds a weapon's dice to a D6 System damage"),
        ("fate: Good opp Fair armor 1", "'armor' adds armor's dice to a D6 System"),
    ],
)
def test_misplaced_words_are_refused(text: str, message: str) -> None:
    with pytest.raises(DiceError) as raised:
        fudgedice.odds(text)
    assert message in raised.value.message
    assert raised.value.text == text


def test_a_part_cannot_begin_a_side() -> None:
    with pytest.raises(fudgedice.DiceSyntaxError) as raised:
        fudgedice.roll("d6: weapon 2D dmg 3D")
    assert raised.value.position == len("d6: weapon ")
    assert raised.value.hint is not None
    assert "a damage code alone is all the weapon's: 'd6: 5D dmg 3D'" in raised.value.hint


@pytest.mark.parametrize(
    ("points", "bonus"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (7, 4), (8, 4), (17, 9)]
)
def test_the_bonus_is_half_the_result_points_rounded_up(points: int, bonus: int) -> None:
    # four sixes without a Wild Die: 24, beating the difficulty by ``points``
    rolled = fudgedice.read(f"d6: 4D nowild rpb vs {24 - points}", "6 6 6 6")
    assert rolled.margin == points
    assert str(rolled.result).endswith(f", result point bonus +{bonus}")
    assert rolled.events[-1] == (f"bonus +{bonus}" if bonus < 9 else "bonus +9 or more")
    assert rolled.to_dict()["details"]["result_point_bonus"] == bonus
    added = fudgedice.read(f"d6: 1D nowild rp={points}", "3")
    assert added.total == 3 + bonus
    assert added.to_dict()["details"]["result_point_bonus"] == bonus


def test_a_failure_shows_no_bonus() -> None:
    rolled = fudgedice.read("d6: 2D rpb vs 20", "3 w4")
    assert rolled.result == "failure vs 20 (-13)"
    assert rolled.to_dict()["details"]["result_point_bonus"] is None


def test_the_bonus_is_explained_where_it_is_added() -> None:
    rolled = fudgedice.read("d6: 2D+1 weapon 1D rp=7 dmg 2D", "4 3 w2 dmg 5 w1")
    assert rolled.steps[:2] == [
        "2D+1 and the weapon's 1D: 3D+1",
        "result point bonus: +4 (rp=7: 7 result points halved, rounded up)",
    ]
    assert rolled.total == (4 + 3 + 2 + 1 + 4) - (5 + 1)


@pytest.mark.parametrize("wild", [True, False])
def test_an_effect_with_a_bonus_matches_brute_force(wild: bool) -> None:
    odds = fudgedice.odds("d6: 2D+1 rp=7" + ("" if wild else " nowild"))
    assert_within(odds, side((2, 1), wild=wild, bonus=4))


def _bonus_chances(totals: Chances, threshold: int, floor: int) -> dict[str, Fraction]:
    """Each bonus's chance, from the rule afresh: a success's result points
    halved, rounded up; from +9 (17 result points, Incredible) one event."""
    grouped: dict[str, Fraction] = {f"bonus +{bonus}": Fraction(0) for bonus in range(9)}
    grouped["bonus +9 or more"] = Fraction(0)
    for value, p in totals.items():
        if value >= floor:
            bonus = -(-(value - threshold) // 2)
            grouped[f"bonus +{bonus}" if bonus < 9 else "bonus +9 or more"] += p
    return grouped


def _assert_bonuses(odds: fudgedice.Odds, counted: Chances, threshold: int, floor: int) -> None:
    missing = 1 - sum(counted.values())
    expected = _bonus_chances(counted, threshold, floor)
    for name, p in expected.items():
        assert p <= odds.events[name] <= p + missing, name
    assert sum(odds.events[name] for name in expected) == odds.events["success"]


def test_a_checks_odds_have_each_bonus_as_brute_force_does() -> None:
    odds = fudgedice.odds("d6: 3D+1 rpb vs 12")
    totals = side((3, 1))
    _assert_bonuses(odds, totals, 12, 12)
    exact = fudgedice.odds("d6: 3D+1 nowild rpb vs 12")
    expected = _bonus_chances(side((3, 1), wild=False), 12, 12)
    assert {name: exact.events[name] for name in expected} == expected
    # P(bonus >= b) is the chance of beating the difficulty by 2b - 1 or more
    missing = 1 - sum(totals.values())
    for bonus in range(1, 8):
        counted = sum(
            (p for total, p in totals.items() if -(-(total - 12) // 2) >= bonus), Fraction(0)
        )
        assert counted <= odds.at_least(12 + 2 * bonus - 1) <= counted + missing
    plain = fudgedice.odds("d6: 3D+1 vs 12").events
    assert {name: p for name, p in odds.events.items() if name in plain} == plain


@pytest.mark.parametrize(("ties", "floor"), [("", 0), (" ties=meet", 1)])
def test_an_opposed_rolls_bonus_is_the_initiators(ties: str, floor: int) -> None:
    odds = fudgedice.odds(f"d6: 2D rpb opp 1D+1{ties}")
    _assert_bonuses(odds, margins(side((2, 0)), side((1, 1))), 0, floor)
    tie = fudgedice.read(f"d6: 1D nowild rpb opp 1D nowild{ties}", "3 opp 3")
    assert str(tie.result).endswith(", result point bonus +0") == (floor == 0)
    assert ("bonus +0" in tie.events) == (floor == 0)


def test_samples_roll_the_same_code_and_bonus() -> None:
    text = "d6: 1D weapon 2 fp rp=7 dmg 1D+2"
    odds = fudgedice.odds(text)
    drawn = fudgedice.sample(text, 4000, seed=5)
    assert all(odds.probability(int(value)) > 0 for value in set(drawn.tolist()))
    mean = sum(outcome.value * outcome.p for outcome in odds.outcomes)
    spread = sum((outcome.value - mean) ** 2 * outcome.p for outcome in odds.outcomes)
    # six standard errors: a false alarm once in half a billion seeds
    assert abs(float(drawn.mean()) - float(mean)) < 6 * (float(spread) / 4000) ** 0.5
