"""Fate characters from Fari and back (fudgedice.sheets.fari).

The golden files in tests/data/fari/ are characters as Fari 6.3.6
(github.com/farirpgs/fari-app, commit 8aebafb6, package.json "version": "6.3.6")
makes and exports them: its templates ``lib/domains/character/character-templates/
Fate Core/Fate Core.json``, ``Fate Condensed/Fate Condensed.json`` and ``Fate
Accelerated/Fate Accelerated.json`` (stored as version 3) carried through
``CharacterFactory.migrate`` (``migrateV3CharacterToV4``, ``V4ToV5``, ``V5ToV6``:
two columns of one row, labels but a link's in capitals) and ``CharacterFactory.make``
(new ids, the name, ``lastUpdated``), their blocks' values set as Fari's editor sets
them (``useCharacter.setBlock``: the block's keys keep their order), and written by
``FariEntity.export``: ``JSON.stringify({...character, fariType: "character"})``, one
line. Their ids are fresh UUIDs, their texts this project's own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from fudgedice import sheets
from fudgedice.errors import LimitError
from fudgedice.sheets.fari import FariError, export_fari, import_fari

DATA = Path(__file__).resolve().parent.parent / "data" / "fari"
GOLDEN = sorted(DATA.glob("*.fari.json"))
CORE = DATA / "cynere-fate-core.fari.json"
CONDENSED = DATA / "zird-fate-condensed.fari.json"
ACCELERATED = DATA / "reth-fate-accelerated.fari.json"


def _text(path: Path) -> str:
    return path.read_text("utf-8")


def _imported(path: Path) -> sheets.Sheet:
    return sheets.load_text(import_fari(_text(path), path.name), path.name)


def _blocks(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A character's blocks by label (the first of each)."""
    found: dict[str, dict[str, Any]] = {}
    for page in data["pages"]:
        for row in page["rows"]:
            for column in row["columns"]:
                for section in column["sections"]:
                    for block in section["blocks"]:
                        found.setdefault(block.get("label"), block)
    return found


def test_the_golden_files_are_three_and_as_fari_writes_them() -> None:
    assert [path.name for path in GOLDEN] == [
        "cynere-fate-core.fari.json",
        "reth-fate-accelerated.fari.json",
        "zird-fate-condensed.fari.json",
    ]
    for path in GOLDEN:
        text = _text(path)
        data = json.loads(text)
        # JSON.stringify: one line, no spaces between tokens, fariType last
        assert (
            "\n" not in text and json.dumps(data, separators=(",", ":"), ensure_ascii=False) == text
        )
        assert list(data)[-2:] == ["version", "fariType"] and data["version"] == 6


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.name)
def test_import_then_export_gives_the_file_back_byte_for_byte(path: Path) -> None:
    # Fari regenerates nothing a file keeps: its ids stay (lastUpdated is set
    # anew only when Fari itself imports it), so the file comes back whole
    assert export_fari(_imported(path)) == _text(path)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.name)
def test_a_sheet_from_fari_through_fari_again_is_the_same_text(path: Path) -> None:
    toml = import_fari(_text(path), path.name)
    again = import_fari(export_fari(sheets.load_text(toml)), path.name)
    assert again == toml


def test_a_fate_core_character_on_the_sheet() -> None:
    cynere = _imported(CORE)
    values = cynere.values
    assert (cynere.system, cynere.name) == ("fate", "Cynere")
    assert values["high_concept"] == "Infamous Girl with Sword"
    assert values["trouble"] == "Tempted by Shiny Things"
    assert values["aspects"] == [
        "Rivals with the Collegium Arcana",
        "Does Not Suffer Fools Gladly",
        "Lost Her Brother to the Sea",
    ]
    assert values["stunts"][0] == "Master Swordswoman: +2 to Fight when she is outnumbered."
    assert len(values["stunts"]) == 2
    assert (values["refresh"], values["fate_points"]) == (3, 2)
    assert values["notes"] == "Owes Landon a favour.\nKeeps the map of Sindral Reach."
    levels = {trait.name: trait.level.value for trait in cynere.traits.values()}
    assert levels == {
        "Athletics": 3, "Burglary": 2, "Deceive": 1, "Fight": 4, "Notice": 1,
        "Physique": 2, "Provoke": 3, "Rapport": 2, "Stealth": 1, "Will": 1,
    }  # fmt: skip
    assert cynere.stress() == {"physical": [2], "mental": [1]}
    assert cynere.consequences() == {"mild": "Bruised Knuckles"}
    assert sheets.resolve("Fight vs Great", [cynere]).text.startswith("fate: Great vs Great")
    # what the sheet holds is no longer in the layout: one place for each value
    layout = values["fari"]["layout"]
    assert (
        "Infamous Girl" not in layout and "Bruised" not in layout and '"checked":true' not in layout
    )
    assert '"group":"Sindral Reach"' in layout and "evilhat.com" in layout


def test_changes_made_on_the_sheet_go_to_fari() -> None:
    cynere = _imported(CORE)
    hit = sheets.hit(cynere, 3, "mental", "Shaken Nerve").sheet
    spent = sheets.spend(hit, "fate").sheet
    raised = sheets.load_text(spent.document.text.replace('Drive = "Average"', ""))
    exported = json.loads(export_fari(raised))
    blocks = _blocks(exported)
    assert blocks["FATE POINTS"]["value"] == "1"
    assert blocks["MENTAL"]["value"] == [
        {"checked": True, "label": "1"},
        {"checked": False, "label": "2"},
        {"checked": True, "label": "3"},
    ]
    assert blocks["FIGHT"]["value"] == "4" and blocks["DRIVE"]["value"] == ""


def test_a_new_sheet_goes_into_fari_s_own_template_and_comes_back() -> None:
    cynere = sheets.load_text(sheets.new_sheet("fate", "Cynere"))
    ids = iter(f"id-{n}" for n in range(1000))
    text = export_fari(cynere, now=1764201600, new_id=ids.__next__)
    back = sheets.load_text(import_fari(text))
    for key in ("system", "name", "high_concept", "trouble", "aspects", "stunts", "refresh",
                "fate_points", "skills", "stress", "consequences"):  # fmt: skip
        assert back.values[key] == cynere.values[key], key
    # a sheet that never came from Fari has the very shape of Fari's file
    golden = json.loads(_text(CORE))
    del golden["group"]
    imported = _imported(CORE).document.text
    alone = sheets.load_text(imported[: imported.index("\n[fari]")])
    made = json.loads(export_fari(alone, now=golden["lastUpdated"], new_id=ids.__next__))
    assert _without_ids(made) == _without_ids(golden)


def _without_ids(data: dict[str, Any]) -> str:
    return re.sub(r'"id":"[^"]*"', '"id":""', json.dumps(data, separators=(",", ":")))


def test_condensed_and_accelerated_characters() -> None:
    zird, reth = _imported(CONDENSED), _imported(ACCELERATED)
    has = sheets.SYSTEMS
    assert zird.system == ("fatecondensed" if "fatecondensed" in has else "fate")
    assert reth.system == ("fae" if "fae" in has else "fate")
    assert zird.trait("Lore").level.value == 4 and reth.trait("Quick").level.value == 3
    assert [t.name for t in reth.traits.values()] == [
        "Careful", "Clever", "Forceful", "Flashy", "Quick", "Sneaky",
    ]  # fmt: skip
    assert zird.consequences() == {"moderate": "Singed Eyebrows"}
    if zird.system == "fate":  # 1-point boxes have no place on a Fate Core sheet: Fari keeps them
        assert zird.stress() == {"physical": [], "mental": []}
        assert '"checked":true' in zird.values["fari"]["layout"]
        assert "the stress track 'MENTAL' is Fari's alone" in zird.document.text
    else:  # Fate Condensed's own sheet: its boxes numbered from 1
        assert zird.stress() == {"physical": [], "mental": [1]}
        assert '"checked":true' not in zird.values["fari"]["layout"]
    if reth.system == "fate":  # one track of 1, 2, 3 boxes: no Fate Core track
        assert "the stress track 'STRESS' is Fari's alone" in reth.document.text
    else:
        assert reth.stress() == {"stress": [2]} and "[approaches]" in reth.document.text


def _refusal(text: str) -> str:
    with pytest.raises((FariError, LimitError)) as refused:
        import_fari(text, "bad.fari.json")
    return str(refused.value)


def test_what_is_no_fari_character_is_refused_clearly() -> None:
    golden = json.loads(_text(CORE))
    assert _refusal('{"name": "x",\n "pages": [}').startswith("bad.fari.json:2:12: not Fari's JSON")
    assert "a JSON object, not a list" in _refusal("[]")
    assert "'scene', not a character" in _refusal('{"fariType": "scene"}')
    assert "version 3: fudgedice reads versions 4 to 6" in _refusal(
        json.dumps({**golden, "version": 3})
    )
    assert "nested 17 deep" in _refusal(
        json.dumps({**golden, "x": [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]})
    )
    assert "not Fari's JSON" in _refusal("[" * 60_000)
    assert "more than 65,536 bytes" in _refusal(json.dumps({**golden, "x": "a" * 70_000}))
    assert "NaN is no number" in _refusal('{"x": NaN}')
    assert "has no name" in _refusal(json.dumps({**golden, "name": " "}))
    # a character of another game (Fari's D&D 5e template: Text and 1d20 skills)
    other = {**golden, "pages": [{"id": "p", "label": "CHARACTER", "rows": [{"columns": [
        {"sections": [{"id": "s", "label": "ABILITIES", "blocks": [
            {"id": "b", "type": "Skill", "meta": {"commands": ["1d20"]}, "label": "STRENGTH",
             "value": "3"}]}]}]}]}]}  # fmt: skip
    assert "this Fari character is no Fate character" in _refusal(json.dumps(other))
    fight = _text(CORE).replace('"label":"FIGHT","value":"4"', '"label":"FIGHT","value":"four"')
    assert re.search(r"pages\[0\]\.rows\[0\]\.columns\[1\]\.sections\[2\]\.blocks\[\d+\] "
                     r"\(FIGHT\): 'four' is not a skill's level", _refusal(fight))  # fmt: skip
    # a box Physique Fair does not give, checked
    box = _text(CORE).replace('{"checked":false,"label":"3"}]', '{"checked":true,"label":"4"}]', 1)
    assert _refusal(box).startswith(
        "bad.fari.json: the sheet made from it is refused: "
        "physical stress lists the boxes checked, of [1, 2, 3]"
    )


def test_skills_that_break_the_pyramid_are_kept_and_said() -> None:
    text = _text(CORE).replace('"label":"DRIVE","value":""', '"label":"DRIVE","value":"6"')
    sheet = sheets.load_text(import_fari(text))
    assert sheet.values["pyramid"] is False and sheet.trait("Drive").level.value == 6
    assert "pyramid = false      # Fari's skills break the pyramid\n" in sheet.document.text


def test_only_fate_sheets_go_to_fari() -> None:
    jax = sheets.load_text(sheets.new_sheet("d6", "Jax"))
    with pytest.raises(FariError, match="a d6 sheet has no Fari character"):
        export_fari(jax)
    bad = sheets.load_text(sheets.new_sheet("fate", "Cy") + "\n[fari]\nlayout = '[]'\n")
    with pytest.raises(FariError, match=r"\[fari\] layout: a Fari file is a JSON object"):
        export_fari(bad)


def test_the_commands_import_and_export(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from fudgedice.cli import main

    def run(*args: str) -> Any:
        return CliRunner().invoke(main, list(args))

    toml, out = tmp_path / "cynere.toml", tmp_path / "Cynere.fari.json"
    made = run("sheet", "import", str(CORE), str(toml))
    assert made.exit_code == 0, made.output
    assert f"{toml}: the sheet of Cynere, from Fari" in made.output
    printed = run("sheet", "import", str(CORE))
    assert printed.output == toml.read_text("utf-8")
    assert run("sheet", "export", str(toml), "--to", "fari", str(out)).exit_code == 0
    assert out.read_text("utf-8") == _text(CORE)
    assert run("sheet", "export", str(toml), "--to", "fari").output == _text(CORE)
    again = run("sheet", "import", str(CORE), str(toml))
    assert again.exit_code == 2 and "the file is already there" in again.output
    assert run("sheet", "import", "--force", str(CORE), str(toml)).exit_code == 0
    for args, said in [
        (("import", str(toml)), f"error: {toml}:1:1: not Fari's JSON: Expecting value"),
        (("import", str(tmp_path / "none.json")), "can't read the file"),
        (("export", str(toml), "--to", "foundry"), "'foundry' is not 'fari'"),
        (("export", str(toml)), "Missing option '--to'"),
    ]:
        refused = run("sheet", *args)
        assert refused.exit_code == 2 and said in refused.output, refused.output
        assert "Traceback" not in refused.output
    assert "fudgedice sheet import Cynere.fari.json" in run("sheet", "import", "--help").output
    assert "--to [fari]" in run("sheet", "export", "--help").output


ODD_VALUES: tuple[object, ...] = (None, 2.5, "\ud800", [], {"a": 1}, "-3")


@pytest.mark.parametrize("odd", ODD_VALUES, ids=repr)
def test_odd_values_anywhere_are_refused_or_read_never_a_traceback(odd: object) -> None:
    golden = json.loads(_text(CORE))
    blocks = _blocks(golden)
    # one block of each type, its value, its meta and its label made odd
    for label in (
        "HIGH CONCEPT",
        "FATE POINTS",
        "PHYSICAL",
        "FIGHT",
        "MILD",
        "Evil Hat Productions",
    ):
        for key in ("value", "meta", "label"):
            kept = blocks[label][key]
            blocks[label][key] = odd
            try:
                sheet = sheets.load_text(import_fari(json.dumps(golden)))
                json.loads(export_fari(sheet))
            except (FariError, LimitError, sheets.SheetError):
                pass
            blocks[label][key] = kept
