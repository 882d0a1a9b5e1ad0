"""Sheets as files people edit: every system's sheet round-trips, a change
keeps the comments and layout and touches only its values, a bad sheet is an
error at its line and column with the nearest word, and a write is atomic."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

import fudgedice
from fudgedice import sheets

EDITS: dict[str, list[Callable[[sheets.Sheet], sheets.Edit]]] = {
    "fudge": [
        lambda s: sheets.hit(s, 5),
        lambda s: sheets.spend(s, "fudge"),
        lambda s: sheets.heal(s),
    ],
    "power": [lambda s: sheets.hit(s, 3), lambda s: sheets.spend(s, "fudge", 2)],
    "3d6fudge": [lambda s: sheets.hit(s, 9), lambda s: sheets.heal(s, "Near Death")],
    "d6": [
        lambda s: sheets.raise_trait(s, "Dodge"),
        lambda s: sheets.hit(s, 5),
        lambda s: sheets.spend(s, "fp"),
        lambda s: sheets.heal(s, "stunned"),
    ],
    "fate": [
        lambda s: sheets.hit(s, 3, "mental"),
        lambda s: sheets.hit(s, 6, aspect="Bruised"),
        lambda s: sheets.spend(s, "fp"),
        lambda s: sheets.spend(s, "fate"),
        lambda s: sheets.heal(s, "mild"),
    ],
    "fatecondensed": [
        lambda s: sheets.hit(s, 3, "mental"),
        lambda s: sheets.hit(s, 8, aspect="Bruised"),
        lambda s: sheets.spend(s, "fp"),
        lambda s: sheets.spend(s, "fate"),
        lambda s: sheets.heal(s, "physical"),
    ],
    "fae": [
        lambda s: sheets.hit(s, 3),
        lambda s: sheets.hit(s, 4, aspect="Winded"),
        lambda s: sheets.spend(s, "fate"),
        lambda s: sheets.heal(s),
    ],
}


@pytest.mark.parametrize("system", sheets.SYSTEMS)
def test_every_systems_sheet_round_trips(system: str) -> None:
    text = sheets.new_sheet(system, "Ashley the Alert")
    sheet = sheets.load_text(text)
    assert sheet.document.toml.as_string() == text
    comments = [line for line in text.splitlines() if "#" in line]
    for edit in EDITS[system]:
        before = sheet.document.text
        changed = edit(sheet)
        assert changed.log and changed.sheet.system == system
        # only the changed values' lines differ; every comment is still there
        diff = [
            line
            for line in difflib.unified_diff(before.splitlines(), changed.text.splitlines(), n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))
        ]
        assert 0 < len(diff) <= 8, diff
        for line in diff:
            assert "=" in line
        for comment in comments:
            kept = comment.split("#", 1)[1]
            assert kept in changed.text
        assert sheets.load_text(changed.text).document.toml.as_string() == changed.text
        sheet = changed.sheet


def test_a_change_to_a_hand_written_sheet_keeps_its_layout() -> None:
    text = (
        '# Ashley, as the seed prints her\nsystem = "3d6fudge"\nname   = "Ashley the Alert"\n'
        "ep     = 6     # after the last session\n\n[traits]\n"
        'Melee    = "Good"   # sword and board\nClimbing = 5\n'
    )
    raised = sheets.raise_trait(sheets.load_text(text), "Melee")
    # the value changes; the spaces and the comment after it stay as they were
    assert raised.text == text.replace('"Good"', '"Great"').replace("= 6 ", "= 2 ")
    assert raised.log == ("Ashley the Alert raised Melee from 6 Good to 7 Great for 4 EP (2 left)",)
    by_number = sheets.raise_trait(sheets.load_text(text), "Climbing")
    assert "Climbing = 6\n" in by_number.text


def _error(text: str) -> sheets.SheetError:
    with pytest.raises(sheets.SheetError) as caught:
        sheets.load_text(text, "ashley.toml")
    assert isinstance(caught.value, fudgedice.DiceError)
    return caught.value


@pytest.mark.parametrize(
    ("text", "line", "column", "message", "hint"),
    [
        ('system = "3d6fudge"\nname = "A"\n[traits]\nMelee = "Gret"\n', 4, 9,
         "Melee: 'Gret' is not a level of 3d6fudge", "did you mean 'Great'?"),
        ('system = "3d6fuge"\nname = "A"\n', 1, 10, "unknown system '3d6fuge'",
         "did you mean '3d6fudge'?"),
        ('system = "fudge"\nname = "A"\nfudge_ponts = 3\n', 3, 1,
         "unknown key 'fudge_ponts' on a fudge sheet", "did you mean 'fudge_points'?"),
        ('system = "fudge"\nname = "A"\ncharacter_points = 3\n', 3, 1,
         "unknown key 'character_points' on a fudge sheet", "belongs on a d6 sheet"),
        ('system = "d6"\nname = "A"\n[attributes]\nDex = "3D"\n[skills]\nBlaster = "Dexx+1D"\n',
         6, 11, "Blaster adds dice to 'Dexx', which is no attribute", "did you mean 'dex'?"),
        ('system = "d6"\nname = "A"\nwound = "wonded"\n', 3, 9, "unknown wound 'wonded'",
         "did you mean 'wounded'?"),
        ('system = "fudge"\nname = "A"\n[wounds]\nHrt = 1\n', 4, 1,
         "'Hrt' is no level of the wound track", "did you mean 'hurt'?"),
        ('system = "fudge"\nname = "A"\n[traits]\nMelee = "Good\n', 4, 14, "not valid TOML", None),
        ('system = "fudge"\nname = "A"\nep = -2\n', 3, 6, "ep is a whole number from 0", None),
        ('system = "fate"\nname = "A"\n[consequences]\nsevere = "x"\n"extra mild" = "y"\n', 5, 1,
         "no consequence 'extra mild' only with Physique or Will at Superb", None),
        ('system = "fae"\nname = "A"\n[approaches]\nCareful = "Good"\nClever = "Good"\n'
         'Flashy = "Fair"\nForceful = "Average"\nQuick = "Average"\nSneaky = "Mediocre"\n', 3, 1,
         "the approaches break the spread: Good, Good, Fair, Average, Average, "
         "Mediocre", "set spread = false"),
        ('system = "fae"\nname = "A"\nspread = false\n[consequences]\n"extra mild" = "y"\n', 5, 1,
         "no consequence 'extra mild'", "did you mean 'mild'?"),
        ('system = "fae"\nname = "A"\nspread = false\n[stress]\nphysical = []\n', 5, 1,
         "no stress track 'physical'", "tracks: stress"),
        ('system = "fae"\nname = "A"\nspread = false\n[stress]\nstress = [4]\n', 5, 10,
         "stress stress lists the boxes checked, of [1, 2, 3]", None),
        ('system = "fae"\nname = "A"\npyramid = false\n', 3, 1,
         "unknown key 'pyramid' on a fae sheet", "belongs on a fate sheet"),
        ('system = "fatecondensed"\nname = "A"\n[stress]\nmental = [5]\n', 4, 10,
         "mental stress lists the boxes checked, of [1, 2, 3]", None),
    ],
)  # fmt: skip
def test_a_bad_sheet_says_where_and_what_was_meant(
    text: str, line: int, column: int, message: str, hint: str | None
) -> None:
    error = _error(text)
    assert (error.line, error.column) == (line, column)
    assert error.message.startswith(f"ashley.toml:{line}:{column}: ")
    assert message in error.message
    if hint is not None:
        assert error.hint is not None and hint in error.hint
    shown = str(error).splitlines()
    assert shown[1] == "  " + text.splitlines()[line - 1]
    assert shown[2] == "  " + " " * (column - 1) + "^"


def test_a_sheet_must_name_its_system_and_character() -> None:
    assert "a sheet names its system" in _error('name = "A"\n').message
    assert "names its character" in _error('system = "fate"\n').message


def test_sizes_and_nesting_are_bounded_and_quick() -> None:
    with pytest.raises(fudgedice.LimitError, match="more than 32,768 bytes"):
        sheets.load_text("#" * (sheets.MAX_SHEET_BYTES + 1))
    deep = 'system = "fudge"\nname = "A"\nx = ' + "[" * 50_000 + "]" * 50_000 + "\n"
    with pytest.raises(fudgedice.DiceError):
        sheets.load_text(deep)
    long_array = 'system = "fudge"\nname = "A"\nx = [' + "1," * 3000 + "]\n"
    with pytest.raises(fudgedice.LimitError, match="more than 2,000 keys and values"):
        sheets.load_text(long_array)
    many = 'system = "fudge"\nname = "A"\n[traits]\n' + "".join(f"t{i} = 1\n" for i in range(501))
    with pytest.raises(sheets.SheetError, match="501 traits is more than a sheet may hold"):
        sheets.load_text(many)


def test_a_file_too_big_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_bytes(b"#" * (sheets.MAX_SHEET_BYTES + 10))
    with pytest.raises(fudgedice.LimitError):
        sheets.load_file(str(path))
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'system = "fudge"\nname = "\xff"\n')
    with pytest.raises(sheets.SheetError, match=r"bad\.toml:2:1: not UTF-8 text"):
        sheets.load_file(str(bad))


def test_a_write_that_fails_midway_leaves_the_old_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ashley.toml"
    old = sheets.new_sheet("fudge", "Ashley")
    path.write_text(old, "utf-8")

    def crash(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(sheets.SheetError, match="can't write the sheet: No space left on device"):
        sheets.write_atomically(path, old.replace("fudge_points = 3", "fudge_points = 2"))
    assert path.read_text("utf-8") == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ashley.toml"]


def test_a_sheet_changed_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "ashley.toml"
    path.write_text(sheets.new_sheet("fudge", "Ashley"), "utf-8")
    sheet = sheets.load_file(str(path))
    path.write_text(sheet.document.text.replace("fudge_points = 3", "fudge_points = 9"), "utf-8")
    edit = sheets.spend(sheet, "fudge")
    with pytest.raises(sheets.SheetError, match="the sheet changed while"):
        sheets.write_atomically(path, edit.text, expected=sheet.document.text)
    assert "fudge_points = 9" in path.read_text("utf-8")
