"""Parse trees of every generic form of the roll language, and syntax errors."""

from __future__ import annotations

import dataclasses

import pytest

import fudgedice
from fudgedice import DiceError, DiceSyntaxError, DiceValueError, parse
from fudgedice.api import compile_roll
from fudgedice.language.tree import (
    BinOp,
    Compare,
    Count,
    Die,
    Explode,
    Group,
    Keep,
    Neg,
    Node,
    Number,
    Pool,
    Reroll,
    Word,
)

D4 = Die("d4", (1, 2, 3, 4))
D6 = Die("d6", (1, 2, 3, 4, 5, 6))
D10 = Die("d10", tuple(range(1, 11)))
D100 = Die("d%", tuple(range(1, 101)))
DF = Die("dF", (-1, 0, 1), fudge=True)
DF1 = Die("dF.1", (-1, 0, 0, 0, 0, 1), fudge=True)


def n(value: int) -> Number:
    return Number(value)


def d6(source: str, count: int = 3, **modifiers: object) -> Pool:
    return Pool(count=count, die=D6, source=source, **modifiers)  # type: ignore[arg-type]


SHAPES: list[tuple[str, Node]] = [
    # integers and arithmetic
    ("2", n(2)),
    ("0", n(0)),
    ("-1", Neg(n(1))),
    ("+3", n(3)),
    ("--1", Neg(Neg(n(1)))),
    ("1+2", BinOp("+", n(1), n(2))),
    ("5-2", BinOp("-", n(5), n(2))),
    ("2*3", BinOp("*", n(2), n(3))),
    ("7/2", BinOp("/", n(7), n(2))),
    ("1+2*3", BinOp("+", n(1), BinOp("*", n(2), n(3)))),
    ("1*2+3", BinOp("+", BinOp("*", n(1), n(2)), n(3))),
    ("1-2-3", BinOp("-", BinOp("-", n(1), n(2)), n(3))),
    ("8/2/2", BinOp("/", BinOp("/", n(8), n(2)), n(2))),
    ("-2*3", BinOp("*", Neg(n(2)), n(3))),
    ("2*-3", BinOp("*", n(2), Neg(n(3)))),
    ("1 - -1", BinOp("-", n(1), Neg(n(1)))),
    ("(1+2)*3", BinOp("*", Group(BinOp("+", n(1), n(2))), n(3))),
    ("((4))", Group(Group(n(4)))),
    ("-(1)", Neg(Group(n(1)))),
    ("  1 +\t2 ", BinOp("+", n(1), n(2))),
    # NdX, dX, d%
    ("3d6", d6("3d6")),
    ("d6", d6("d6", 1)),
    ("1d6", d6("1d6", 1)),
    ("3D6", d6("3D6")),
    ("0d6", d6("0d6", 0)),
    ("2d4", Pool(2, D4, "2d4")),
    ("d%", Pool(1, D100, "d%")),
    ("2d%", Pool(2, D100, "2d%")),
    ("d100", Pool(1, Die("d100", tuple(range(1, 101))), "d100")),
    # Fudge dice
    ("4dF", Pool(4, DF, "4dF")),
    ("dF", Pool(1, DF, "dF")),
    ("4df", Pool(4, DF, "4df")),
    ("4dF.2", Pool(4, DF, "4dF.2")),
    ("4dF.1", Pool(4, DF1, "4dF.1")),
    # keep / drop
    ("4d6kh3", d6("4d6kh3", 4, keep=Keep("kh", 3))),
    ("4d6kl3", d6("4d6kl3", 4, keep=Keep("kl", 3))),
    ("4d6dh1", d6("4d6dh1", 4, keep=Keep("dh", 1))),
    ("4d6dl1", d6("4d6dl1", 4, keep=Keep("dl", 1))),
    ("4d6k3", d6("4d6k3", 4, keep=Keep("kh", 3))),
    ("4d6KH3", d6("4d6KH3", 4, keep=Keep("kh", 3))),
    ("2d6kh", d6("2d6kh", 2, keep=Keep("kh", 1))),
    ("4dFkl2", Pool(4, DF, "4dFkl2", keep=Keep("kl", 2))),
    # explode, compound, penetrate; compare points
    ("3d6!", d6("3d6!", explode=Explode("!", Compare("=", 6)))),
    ("3d6!!", d6("3d6!!", explode=Explode("!!", Compare("=", 6)))),
    ("3d6!p", d6("3d6!p", explode=Explode("!p", Compare("=", 6)))),
    ("3d6!P", d6("3d6!P", explode=Explode("!p", Compare("=", 6)))),
    ("3d6!>=5", d6("3d6!>=5", explode=Explode("!", Compare(">=", 5)))),
    ("3d6!>5", d6("3d6!>5", explode=Explode("!", Compare(">", 5)))),
    ("3d6!<=2", d6("3d6!<=2", explode=Explode("!", Compare("<=", 2)))),
    ("3d6!<2", d6("3d6!<2", explode=Explode("!", Compare("<", 2)))),
    ("3d6!=4", d6("3d6!=4", explode=Explode("!", Compare("=", 4)))),
    ("3d6!5", d6("3d6!5", explode=Explode("!", Compare("=", 5)))),
    ("3d6!!>=5", d6("3d6!!>=5", explode=Explode("!!", Compare(">=", 5)))),
    ("3d6!p>=5", d6("3d6!p>=5", explode=Explode("!p", Compare(">=", 5)))),
    ("3d6!>= 5", d6("3d6!>= 5", explode=Explode("!", Compare(">=", 5)))),
    ("4dF!", Pool(4, DF, "4dF!", explode=Explode("!", Compare("=", 1)))),
    ("d%!", Pool(1, D100, "d%!", explode=Explode("!", Compare("=", 100)))),
    # reroll while / once
    ("3d6r1", d6("3d6r1", reroll=Reroll(False, Compare("=", 1)))),
    ("3d6r<=2", d6("3d6r<=2", reroll=Reroll(False, Compare("<=", 2)))),
    ("3d6ro<=2", d6("3d6ro<=2", reroll=Reroll(True, Compare("<=", 2)))),
    ("3d6ro1", d6("3d6ro1", reroll=Reroll(True, Compare("=", 1)))),
    ("3d6r>5", d6("3d6r>5", reroll=Reroll(False, Compare(">", 5)))),
    ("3d6ro>=5", d6("3d6ro>=5", reroll=Reroll(True, Compare(">=", 5)))),
    ("3d6r<3", d6("3d6r<3", reroll=Reroll(False, Compare("<", 3)))),
    ("3d6r=2", d6("3d6r=2", reroll=Reroll(False, Compare("=", 2)))),
    ("3d6 r<=2", d6("3d6 r<=2", reroll=Reroll(False, Compare("<=", 2)))),
    # success counting, failures
    ("5d10>=7", Pool(5, D10, "5d10>=7", counting=Count(Compare(">=", 7)))),
    ("5d10>7", Pool(5, D10, "5d10>7", counting=Count(Compare(">", 7)))),
    ("5d10<=2", Pool(5, D10, "5d10<=2", counting=Count(Compare("<=", 2)))),
    ("5d10<3", Pool(5, D10, "5d10<3", counting=Count(Compare("<", 3)))),
    ("5d10=10", Pool(5, D10, "5d10=10", counting=Count(Compare("=", 10)))),
    ("5d10 >= 7", Pool(5, D10, "5d10 >= 7", counting=Count(Compare(">=", 7)))),
    (
        "5d10>=7f<=1",
        Pool(5, D10, "5d10>=7f<=1", counting=Count(Compare(">=", 7), Compare("<=", 1))),
    ),
    ("5d10>=7f1", Pool(5, D10, "5d10>=7f1", counting=Count(Compare(">=", 7), Compare("=", 1)))),
    ("5d10>7f<2", Pool(5, D10, "5d10>7f<2", counting=Count(Compare(">", 7), Compare("<", 2)))),
    ("4dF>=1", Pool(4, DF, "4dF>=1", counting=Count(Compare(">=", 1)))),
    ("3d6>=-1", d6("3d6>=-1", counting=Count(Compare(">=", -1)))),
    # modifiers together, in any order
    (
        "4d6r1kh3",
        d6("4d6r1kh3", 4, reroll=Reroll(False, Compare("=", 1)), keep=Keep("kh", 3)),
    ),
    (
        "4d6kh3r1",
        d6("4d6kh3r1", 4, reroll=Reroll(False, Compare("=", 1)), keep=Keep("kh", 3)),
    ),
    (
        "6d10!ro1>=8f1",
        Pool(
            6,
            D10,
            "6d10!ro1>=8f1",
            reroll=Reroll(True, Compare("=", 1)),
            explode=Explode("!", Compare("=", 10)),
            counting=Count(Compare(">=", 8), Compare("=", 1)),
        ),
    ),
    # pools in arithmetic
    ("2d6+3", BinOp("+", d6("2d6", 2), n(3))),
    (
        "d20+d12-2d4",
        BinOp(
            "-",
            BinOp(
                "+",
                Pool(1, Die("d20", tuple(range(1, 21))), "d20"),
                Pool(1, Die("d12", tuple(range(1, 13))), "d12"),
            ),
            Pool(2, D4, "2d4"),
        ),
    ),
    ("-d6", Neg(d6("d6", 1))),
    ("(d6+2)*3", BinOp("*", Group(BinOp("+", d6("d6", 1), n(2))), n(3))),
    ("3d6! - 2", BinOp("-", d6("3d6!", explode=Explode("!", Compare("=", 6))), n(2))),
    ("5d10>=7 + 1", BinOp("+", Pool(5, D10, "5d10>=7", counting=Count(Compare(">=", 7))), n(1))),
    ("4dF+Good", BinOp("+", Pool(4, DF, "4dF"), Word("Good"))),
    ("Good", Word("Good")),
]


@pytest.mark.parametrize(("text", "shape"), SHAPES, ids=[text for text, _ in SHAPES])
def test_shape(text: str, shape: Node) -> None:
    expression = parse(text)
    assert expression.side.expr == shape
    assert expression.system == "fudge"
    assert expression.check is None
    assert expression.label is None
    assert expression.side.options == ()
    assert expression.text == text


def test_pool_positions_point_into_the_text() -> None:
    expression = parse("1 + 3d6! - (2d4kh1)")
    node = expression.side.expr
    assert isinstance(node, BinOp)
    assert isinstance(node.left, BinOp) and isinstance(node.left.right, Pool)
    assert node.left.right.position == 4
    assert isinstance(node.right, Group) and isinstance(node.right.inner, Pool)
    assert node.right.inner.position == 12
    assert node.right.inner.source == "2d4kh1"


@pytest.mark.parametrize(
    ("text", "total"),
    [("7/2", 3), ("-7/2", -4), ("7/-2", -4), ("-7/-2", 3), ("6/3", 2), ("1/2", 0), ("-1/2", -1)],
)
def test_division_rounds_down(text: str, total: int) -> None:
    assert fudgedice.roll(text, seed=1).total == total
    assert fudgedice.odds(text).probability(total) == 1


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("3d6 # attack", "attack"),
        ("3d6#attack", "attack"),
        ("3d6 # sword & board: 2 hands", "sword & board: 2 hands"),
        ("3d6 #x#y", "x#y"),
        ("3d6 #", None),
        ("3d6 #   ", None),
    ],
)
def test_label(text: str, label: str | None) -> None:
    expression = parse(text)
    assert expression.label == label
    assert expression.side.expr == d6("3d6")


@pytest.mark.parametrize(
    ("text", "system"),
    [("4dF", "fudge"), ("fudge: 4dF", "fudge"), ("POWER: 4dF", "power"), ("d6:3D", "d6")],
)
def test_system_prefix(text: str, system: str) -> None:
    assert parse(text).system == system


def test_d6_die_code_is_marked() -> None:
    node = parse("d6: 3D+1").side.expr
    assert isinstance(node, BinOp) and isinstance(node.left, Pool)
    assert node.left.die_code
    assert node.left.count == 3
    assert parse("3d6").side.expr != node.left


def test_parse_trees_are_cached() -> None:
    text = "4d6kh3 + 2 # cached"
    first = parse(text)
    assert parse(text) is first
    assert compile_roll(text) is compile_roll(text)
    # equal text, equal tree; spacing is free
    assert parse("4d6kh3+2#cached") == first


def test_parse_trees_are_immutable() -> None:
    expression = parse("3d6+1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        expression.system = "power"  # type: ignore[misc]
    node = expression.side.expr
    assert isinstance(node, BinOp)
    with pytest.raises(dataclasses.FrozenInstanceError):
        node.op = "-"  # type: ignore[misc]
    hash(expression)  # nodes are hashable: memoised distributions key on them


SYNTAX_ERRORS = [
    # text, 0-based column of the error
    ("3d6+", 4),
    ("3d6++", 5),
    ("(3d6", 4),
    ("3d6)", 3),
    ("3d6 + * 2", 6),
    ("3d6 $ 2", 4),
    ("*3", 0),
    ("()", 1),
    ("2 3", 2),
    ("3d6 +(2", 7),
    ("4dF vss 3", 8),
    ("3d6r<>2", 4),
    ("d6!p!", 4),
    ("4d6kh3kl1", 6),
    ("3d6f1", 3),
    ("4d6kx3", 4),
]


@pytest.mark.parametrize(("text", "column"), SYNTAX_ERRORS)
def test_syntax_error_points_at_the_column(text: str, column: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        compile_roll(text)
    error = caught.value
    assert isinstance(error, DiceError)
    assert error.exit_code == 2
    assert error.text == text
    assert error.position == column
    shown = str(error).splitlines()
    assert shown[1] == f"  {text}"
    assert shown[2] == "  " + " " * column + "^"


@pytest.mark.parametrize(
    "text", ["3d6+", "(3d6", "3d6)", "3d6 + * 2", "3d6 $ 2", "*3", "2 3", "4dF vss 3"]
)
def test_parser_syntax_errors_say_column_and_expected(text: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    error = caught.value
    assert error.position is not None
    assert f"at column {error.position + 1}" in error.message
    assert "expected " in error.message


def test_syntax_error_expected_lists_the_alternatives() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse("3d6+")
    message = caught.value.message
    for alternative in ("'('", "a number", "dice such as 3d6 or 4dF"):
        assert alternative in message
    with pytest.raises(DiceSyntaxError) as caught:
        parse("(3d6")
    assert "')'" in caught.value.message


def test_misspelled_keyword_gets_a_suggestion() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse("4dF oppp 2")
    assert caught.value.hint == "did you mean 'opp'?"
    with pytest.raises(DiceValueError) as unknown:
        fudgedice.roll("fudgee: 4dF")  # the registry, not the grammar, knows the systems
    assert unknown.value.hint == "did you mean 'fudge'?"
    assert unknown.value.position == 0


def test_empty_roll() -> None:
    for text in ("", "   "):
        with pytest.raises(DiceSyntaxError, match="empty"):
            parse(text)


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("d0", 0, "at least one side"),
        ("2 + 3d0", 4, "at least one side"),
        ("4dF.3", 0, "dF.3"),
        ("3d6kh4", 3, "can't keep 4 of 3 dice"),
        ("3d6dl4", 3, "can't drop 4 of 3 dice"),
    ],
)
def test_meaningless_pools_are_refused_at_the_column(text: str, column: int, message: str) -> None:
    with pytest.raises(DiceError) as caught:
        compile_roll(text)
    assert caught.value.position == column
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("Good vs Great vs Fair", "one 'vs' or 'opp'"),
        ("d6: 4D+2 vs 15 opp 3D", "one 'vs' or 'opp'"),
        ("d6: 4D+2 vs 15 fp", "go before 'vs' or 'opp'"),
    ],
)
def test_a_second_check_or_a_late_option_is_explained(text: str, hint: str) -> None:
    with pytest.raises(DiceError) as caught:
        fudgedice.roll(text, seed=1)
    assert hint in str(caught.value)
    assert "did you mean 'opp'" not in str(caught.value)
