"""The one rule for names (fudgedice.names): the characters no name holds,
and names a reader would take for one another; a sheet's names under it,
whatever TOML escape wrote them."""

from __future__ import annotations

import pytest

from fudgedice import sheets
from fudgedice.names import refusal, refused_character, same_name

REFUSED = {
    "\u202e": "a right-to-left override",
    "\u200b": "a zero-width space",
    "\u200d": "a zero-width joiner",
    "\ufeff": "a byte-order mark",
    "\n": "a newline",
    "\x00": "NUL",
    "\x85": "a C1 next line",
    "\u2028": "a line separator",
    "\u2029": "a paragraph separator",
}


@pytest.mark.parametrize("char", REFUSED, ids=REFUSED.values())
def test_control_and_format_characters_are_no_part_of_a_name(char: str) -> None:
    assert refused_character(f"Ann{char}e") == char
    assert refusal(f"Ann{char}e", "a name") == (
        f"a name must not contain control or format characters (U+{ord(char):04X})"
    )


@pytest.mark.parametrize("name", ["Ann", "Zoë", "Ægir the Bold", "Ёжик", "山田", "O'Brien-Smith"])
def test_names_in_any_script_are_names(name: str) -> None:
    assert refused_character(name) is None


@pytest.mark.parametrize(
    ("name", "taken"),
    [
        ("GM", "GM"),
        ("gm", "GM"),
        ("G\u041c", "GM"),  # a Cyrillic capital EM
        ("\uff27\uff2d", "GM"),  # fullwidth
        ("\U0001d406\U0001d40c", "GM"),  # mathematical bold
        ("G\u200bM", "GM"),  # an invisible character, were it let in
        ("\u0410nn", "Ann"),  # a Cyrillic capital A
        ("ANN", "Ann"),
        ("\u212bnn", "\u00c5nn"),  # the Angstrom sign, the letter A with ring
        ("Iris", "lris"),  # a capital I and a small L look alike
        ("rnaya", "maya"),
    ],
)
def test_names_a_reader_takes_for_another_are_the_same(name: str, taken: str) -> None:
    assert same_name(name, taken) and same_name(taken, name)


@pytest.mark.parametrize(
    ("name", "taken"),
    [("Ann", "Anne"), ("G M", "GM"), ("Ann", "\u00c5nn"), ("Anna", "Ana"), ("Bob", "Rob")],
)
def test_names_that_read_apart_are_different(name: str, taken: str) -> None:
    assert not same_name(name, taken)


SHEET = """system = "fate"
name = {name}
high_concept = {aspect}
[skills]
{trait} = "Average"
"""
PLAIN = {"name": '"Bob"', "aspect": '"Bold"', "trait": "Fight"}


@pytest.mark.parametrize(
    ("part", "written", "line", "what"),
    [
        ("name", r'"Bo\u202Eb"', 2, "a character's name"),
        ("name", r'"Bob\n"', 2, "a character's name"),
        ("name", '"""Bob\nthe GM"""', 2, "a character's name"),
        ("aspect", r'"Bold\u2028Brave"', 3, "an aspect"),
        ("aspect", '"Bold"\naspects = ["Brave", "Quick\\u200D"]', 4, "an aspect"),
        ("aspect", '"Bold"\nplayer = "Sam\\u202E"', 4, "a player's name"),
        ("trait", r'"Fi\u200Bght"', 4, "a trait's name"),  # its table's line: an escaped key
    ],
)
def test_a_sheets_names_follow_the_rule_whatever_escape_wrote_them(
    part: str, written: str, line: int, what: str
) -> None:
    text = SHEET.format(**{**PLAIN, part: written})
    with pytest.raises(sheets.SheetError) as raised:
        sheets.load_text(text, "sheet.toml")
    assert f": {what} must not contain control or format" in raised.value.message
    assert raised.value.line == line
    assert sheets.load_text(SHEET.format(**PLAIN), "sheet.toml").name == "Bob"


def test_a_consequence_written_by_a_hit_follows_the_rule() -> None:
    sheet = sheets.load_text(SHEET.format(**PLAIN), "sheet.toml")
    with pytest.raises(sheets.SheetError, match="an aspect must not contain"):
        sheets.hit(sheet, 4, "physical", "Broken\u202earm")  # past the stress boxes
