"""The four dice techniques, against brute force and seed 001's table.

Every technique is enumerated here the slow way (every face of every
ordinary die, read with the seed's words, not the library's readers) and
compared with the exact distribution ``odds`` gives.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import fudgedice
from fudgedice import DiceValueError
from fudgedice.systems.fudge.techniques import SEED_D100, parse_d100_table

D6 = range(1, 7)


def chances(counter: Counter[int], total: int) -> dict[int, Fraction]:
    return {value: Fraction(count, total) for value, count in counter.items()}


def ours(text: str, **kwargs: object) -> dict[int, Fraction]:
    odds = fudgedice.odds(text, **kwargs)  # type: ignore[call-overload]
    return {outcome.value: outcome.p for outcome in odds.outcomes}


def brute_d6(n: int) -> dict[int, Fraction]:
    """Seed 000: read each d6 as 1-2 minus, 3-4 blank, 5-6 plus."""
    reading = {1: -1, 2: -1, 3: 0, 4: 0, 5: 1, 6: 1}
    counter = Counter(sum(reading[f] for f in faces) for faces in itertools.product(D6, repeat=n))
    return chances(counter, 6**n)


def brute_3d6() -> dict[int, Fraction]:
    rows = [((3, 4), -4), ((5, 5), -3), ((6, 7), -2), ((8, 9), -1), ((10, 11), 0)]
    rows += [((12, 13), 1), ((14, 15), 2), ((16, 16), 3), ((17, 18), 4)]

    def read(total: int) -> int:
        return next(result for (lo, hi), result in rows if lo <= total <= hi)

    counter = Counter(read(sum(faces)) for faces in itertools.product(D6, repeat=3))
    return chances(counter, 216)


def brute_d100() -> dict[int, Fraction]:
    bounds = [(1, -4), (6, -3), (18, -2), (38, -1), (62, 0), (82, 1), (94, 2), (99, 3), (100, 4)]

    def read(roll: int) -> int:
        return next(result for top, result in bounds if roll <= top)

    return chances(Counter(read(roll) for roll in range(1, 101)), 100)


def brute_4d6() -> dict[int, Fraction]:
    """Seed 001, word for word: two positive and two negative dice; remove
    all but the lowest; one colour left is the result, both colours is 0."""
    counter: Counter[int] = Counter()
    for p1, p2, n1, n2 in itertools.product(D6, repeat=4):
        lowest = min(p1, p2, n1, n2)
        positive_left = lowest in (p1, p2)
        negative_left = lowest in (n1, n2)
        if positive_left and negative_left:
            counter[0] += 1
        elif positive_left:
            counter[lowest] += 1
        else:
            counter[-lowest] += 1
    return chances(counter, 6**4)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_d6_substitution_matches_brute_force(n: int) -> None:
    assert ours(f"{n}dF@d6") == brute_d6(n)
    assert ours(f"{n}dF@d6") == ours(f"{n}dF")  # same spread as real Fudge dice


def test_3d6_matches_brute_force() -> None:
    assert ours("4dF@3d6") == brute_3d6()


def test_d100_matches_brute_force() -> None:
    assert ours("4dF@d%") == brute_d100()
    assert ours("4dF@d100") == brute_d100()


def test_4d6_matches_brute_force() -> None:
    assert ours("4dF@4d6") == brute_4d6()


def test_techniques_inside_expressions() -> None:
    brute = brute_3d6()
    shifted = {value + 1: p for value, p in brute.items()}
    assert ours("4dF@3d6+1") == shifted
    assert ours("Good + 4dF@3d6") == shifted


# --- seed 001's success-rate table, exactly ------------------------------------------

# docs/contracts/rules.md: "X or better" in percent, 4dF / d% / 3d6 / 4d6, from +5 down to -4.
SEED_TABLE = {
    5: ("0", "0", "0", "0.23"),
    4: ("1.23", "1", "1.85", "1.77"),
    3: ("6.17", "6", "4.63", "6.64"),
    2: ("18.52", "18", "16.20", "17.75"),
    1: ("38.27", "38", "37.50", "38.97"),
    0: ("61.73", "62", "62.50", "61.03"),
    -1: ("81.48", "82", "83.80", "82.25"),
    -2: ("93.83", "94", "95.37", "93.36"),
    -3: ("98.77", "99", "98.15", "98.23"),
    -4: ("100", "100", "100", "99.77"),
}
EXACT = {
    # the exact fractions behind the table (4dF over 81, d% over 100, 3d6 over
    # 216, 4d6 over 1296), each of which rounds to the printed percentage
    5: (0, 0, 0, Fraction(3, 1296)),
    4: (Fraction(1, 81), Fraction(1, 100), Fraction(4, 216), Fraction(23, 1296)),
    3: (Fraction(5, 81), Fraction(6, 100), Fraction(10, 216), Fraction(86, 1296)),
    2: (Fraction(15, 81), Fraction(18, 100), Fraction(35, 216), Fraction(230, 1296)),
    1: (Fraction(31, 81), Fraction(38, 100), Fraction(81, 216), Fraction(505, 1296)),
    0: (Fraction(50, 81), Fraction(62, 100), Fraction(135, 216), Fraction(791, 1296)),
    -1: (Fraction(66, 81), Fraction(82, 100), Fraction(181, 216), Fraction(1066, 1296)),
    -2: (Fraction(76, 81), Fraction(94, 100), Fraction(206, 216), Fraction(1210, 1296)),
    -3: (Fraction(80, 81), Fraction(99, 100), Fraction(212, 216), Fraction(1273, 1296)),
    -4: (1, 1, 1, Fraction(1293, 1296)),
}
FORMS = ("4dF", "4dF@d%", "4dF@3d6", "4dF@4d6")


@pytest.mark.parametrize("level", sorted(SEED_TABLE))
def test_seed_001_table_exactly(level: int) -> None:
    for form, exact, printed in zip(FORMS, EXACT[level], SEED_TABLE[level], strict=True):
        chance = fudgedice.odds(form).at_least(level)
        assert chance == exact, (form, level)
        assert round(float(chance) * 100, 2) == float(printed), (form, level)


def test_techniques_table_command_output() -> None:
    table = fudgedice.table("techniques")
    assert table.header == ("X", "4dF", "d%", "3d6", "4d6")
    assert table.rows[0][0] == "+5 or better"
    assert table.rows[-1][0] == "-5 or better"
    rows = {row[0]: row[1:] for row in table.rows}
    assert rows["+1 or better"] == ("38.27%", "38.00%", "37.50%", "38.97%")
    assert rows["-4 or better"] == ("100.00%", "100.00%", "100.00%", "99.77%")
    exact = {row[0]: row[1:] for row in fudgedice.table("techniques", exact=True).rows}
    assert exact["+5 or better"] == ("0", "0", "0", "1/432")
    assert exact["-5 or better"] == ("1", "1", "1", "1")


# --- reading ordinary dice by hand ----------------------------------------------------


def test_read_seed_examples() -> None:
    assert fudgedice.read("4dF@3d6", ["3", "3", "6"]).total == 1  # seed 001
    assert fudgedice.read("4dF@4d6", ["p4", "p3", "n3", "n3"]).total == 0  # seed 001
    assert fudgedice.read("4dF@4d6", ["p1", "p1", "n2", "n4"]).total == 1  # seed 001
    assert fudgedice.read("4dF@d%", ["00"]).total == 4
    assert fudgedice.read("4dF@d%", ["1"]).total == -4
    assert fudgedice.read("4dF@d6", "1 3 5 6").total == 1


def test_4d6_explanation_names_removed_dice() -> None:
    rolled = fudgedice.read("4dF@4d6", ["p4", "p3", "n3", "n3"])
    assert "removed p4 (above the lowest)" in rolled.text
    assert "both colours left -> +0" in rolled.text
    assert [die.kept for die in rolled.dice] == [False, True, True, True]
    negatives = fudgedice.read("4dF@4d6", "n2 p5 n2 p3")
    assert negatives.total == -2
    assert "only negative dice left" in negatives.text
    plain = fudgedice.read("4dF@4d6", "2 3 1 1")  # unmarked: first two positive
    assert plain.total == -1


def test_d6_explanation_shows_reading() -> None:
    rolled = fudgedice.read("4dF@d6", "1 3 5 6")
    assert "1=- 3=blank 5=+ 6=+" in rolled.text
    assert rolled.result == "+1 Good"


@pytest.mark.parametrize(
    ("form", "dice", "message"),
    [
        ("4dF@3d6", "3 3", "not enough dice"),
        ("4dF@3d6", "3 3 6 1", "too many dice"),
        ("4dF@3d6", "3 3 7", "not a face of d6"),
        ("4dF@d%", "0", "not a face of d%"),
        ("4dF@d%", "101", "not a face of d%"),
        ("4dF@4d6", "p4 p3 p3 n3", "two positive and two negative"),
        ("4dF@4d6", "p4 p3 3 n3", "mark every die"),
        ("4dF@4d6", "p7 p3 n3 n3", "not a face of a positive or negative d6"),
        ("4dF@d6", "1 2 3 +", "not a face of d6"),
    ],
)
def test_read_errors(form: str, dice: str, message: str) -> None:
    with pytest.raises(DiceValueError, match=message):
        fudgedice.read(form, dice.split())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4dF@2d6", "unknown dice technique"),
        ("3dF@3d6", "exactly four Fudge dice"),
        ("5dF@4d6", "exactly four Fudge dice"),
        ("4d6@3d6", "after dF"),
        ("4dF.1@d6", "after dF"),
        ("4dFkh2@d6", "no modifiers"),
    ],
)
def test_technique_errors(text: str, message: str) -> None:
    with pytest.raises(DiceValueError, match=message):
        fudgedice.odds(text)


def test_rolls_agree_with_odds() -> None:
    for form in ("4dF@d6", "4dF@3d6", "4dF@d%", "4dF@4d6"):
        possible = set(ours(form))
        for seed in range(40):
            rolled = fudgedice.roll(form, seed=seed)
            assert rolled.total in possible
            assert rolled.result is not None


# --- a game master's d% table -------------------------------------------------------

CUSTOM = "1-10=-2, 11-40=-1, 41-60=0, 61-90=+1, 91-00=+2"


def test_custom_d100_table_inline() -> None:
    odds = fudgedice.odds("4dF@d%", d100_table=CUSTOM)
    assert odds.probability(-2) == Fraction(1, 10)
    assert odds.probability(0) == Fraction(1, 5)
    assert fudgedice.read("4dF@d%", ["95"], d100_table=CUSTOM).total == 2
    assert "the custom table" in fudgedice.read("4dF@d%", ["95"], d100_table=CUSTOM).text
    assert fudgedice.roll("Good + 4dF@d%", seed=1, d100_table=CUSTOM).total in range(-1, 4)
    # the default is untouched afterwards
    assert fudgedice.odds("4dF@d%").probability(4) == Fraction(1, 100)


def test_custom_d100_table_file(tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    path.write_text("# my table\n1-50 = -1\n51-00 = +1   # the upper half\n", encoding="utf-8")
    assert fudgedice.odds("4dF@d%", d100_table=path).probability(1) == Fraction(1, 2)
    assert fudgedice.odds("4dF@d%", d100_table=str(path)).probability(1) == Fraction(1, 2)


def test_seed_table_round_trips() -> None:
    assert parse_d100_table(SEED_D100.spec()) == SEED_D100
    assert SEED_D100.spec().startswith("1=-4, 2-6=-3, 7-18=-2")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("1-50=-1", "no result for roll 51"),
        ("1-50=-1, 50-00=+1", "roll 50 is given twice"),
        ("1-50=-1, 51-00", "ROLLS=RESULT"),
        ("1-50=-1, 51-00=lots", "not a whole number"),
        ("0-50=-1, 51-00=+1", "not a roll from 1 to 100"),
        ("50-1=-1, 51-00=+1", "runs backwards"),
        ("missing-file.txt", "can't read the d% table file"),
    ],
)
def test_custom_d100_table_errors(spec: str, message: str) -> None:
    with pytest.raises(DiceValueError, match=message):
        fudgedice.odds("4dF@d%", d100_table=spec)


def test_custom_d100_table_needs_d100() -> None:
    with pytest.raises(DiceValueError, match="rolls read from d%"):
        fudgedice.odds("4dF", d100_table=CUSTOM)
    with pytest.raises(DiceValueError, match="rolls read from d%"):
        fudgedice.odds("3d6", d100_table=CUSTOM)
