"""The grammar's parser, generated into the package by lark's standalone tool
(``make parser``): it is the parser of the grammar as it stands (never stale),
parses and fails exactly as lark building the grammar does, and the command
line's start-up imports nothing it does not use: neither lark nor NumPy."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import lark
import pytest

from fudgedice.language import generated_parser, parser

LANGUAGE = Path(generated_parser.__file__).parent
SRC = LANGUAGE.parents[1]
GRAMMAR = LANGUAGE / "grammar.lark"
OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "contextual", "maybe_placeholders": False}
"""What the Makefile's ``parser`` target gives lark's standalone tool."""

TEXTS = (
    "4dF+2",
    "Good vs Great",
    "Good opp Fair",
    "d6: 5D+2 vs 12",
    "d6: 5D+1 dmg 3D+2",
    "power: 4dF+2 adv vs 3",
    "3d6fudge: Good opp Great",
    "(3d6!+1)*2",
    "-(Legendary)",
    "4d6kh3 + 2d8r<2 - 5d10>=8f1 / 2",
    "4dF@4d6 # sneak",
    "fate: Good+2 vs Great",
    "d%",
    "3d6!>=5",
    "4DF+2",
    "GOOD VS GREAT",
    "D6: 5d+2 NoWild",
    "Power: 4dF+2 ADV vs 3",
    "4DF@4D6 # \u017f\u212a\u0131\u0130 the label's own letters",
    "3D6KH2+1",
)
BROKEN = ("4dF+", "4dF &", "vs", "(3d6", "3d6)", "d6: 5D++", "3d6 * * 2", "d6: 3D+1 opp")


def _generated() -> generated_parser.Lark:
    built: generated_parser.Lark = generated_parser.Lark_StandAlone()  # type: ignore[no-untyped-call]
    return built


def _configured() -> generated_parser.Lark:
    """The generated parser as the language loads it (ASCII case folding)."""
    return parser._lark()


PARSERS = {"generated": _generated, "as loaded": _configured}


def _built() -> lark.Lark:
    return lark.Lark(GRAMMAR.read_text("utf-8"), **OPTIONS)


def test_the_generated_parser_is_of_the_grammar_as_it_stands() -> None:
    first = (LANGUAGE / "generated_parser.py").read_text("utf-8").splitlines()[0]
    found = re.search(r"sha256 ([0-9a-f]{64})", first)
    assert found, f"no digest of the grammar in the generated parser's first line: {first}"
    digest = hashlib.sha256(GRAMMAR.read_bytes()).hexdigest()
    assert found.group(1) == digest, "grammar.lark changed since 'make parser': run it"
    assert generated_parser.__version__ == lark.__version__, "lark changed: run 'make parser'"


@pytest.mark.parametrize("made", PARSERS)
@pytest.mark.parametrize("text", TEXTS)
def test_it_parses_as_lark_building_the_grammar(text: str, made: str) -> None:
    assert PARSERS[made]().parse(text).pretty() == _built().parse(text).pretty()


@pytest.mark.parametrize("made", PARSERS)
@pytest.mark.parametrize("text", BROKEN)
def test_it_fails_as_lark_building_the_grammar(text: str, made: str) -> None:
    with pytest.raises(lark.exceptions.UnexpectedInput) as built:
        _built().parse(text)
    with pytest.raises(generated_parser.UnexpectedInput) as generated:
        PARSERS[made]().parse(text)
    assert type(generated.value).__name__ == type(built.value).__name__
    assert generated.value.column == built.value.column
    assert getattr(generated.value, "expected", None) == getattr(built.value, "expected", None)


def test_ascii_folding_reads_every_roll_as_unicode_folding_does() -> None:
    """The language checks a roll is ASCII up to its label before parsing: on
    such texts the parser as loaded (ASCII case folding) and as generated agree,
    tree for tree and error for error."""
    rng = random.Random(14)
    pieces = [
        "4",
        "d",
        "D",
        "F",
        "f",
        "k",
        "H",
        "vs",
        "OPP",
        "dmg",
        "good",
        "!",
        "p",
        ">=",
        "+",
        "-",
        "*",
        "(",
        ")",
        " ",
        ":",
        "@",
        "%",
        "=",
        "x",
        "_",
        "3",
        "6",
        ",",
        ".",
    ]
    label = ["#", "\u017f", "\u212a", "\u0131", "\u0130", "K", "s", "\u00e9"]
    for _ in range(400):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8)))
        if rng.random() < 0.2:
            text += "# " + "".join(rng.choice(label) for _ in range(rng.randint(1, 4)))
        outcomes = []
        for made in (_generated, _configured):
            try:
                outcomes.append(made().parse(text).pretty())
            except generated_parser.UnexpectedInput as error:
                outcomes.append(f"{type(error).__name__} {error.column}")
        assert outcomes[0] == outcomes[1], text


# ----------------------------------------------- the command line, a fresh process

HEAVY = (
    "lark",
    "numpy",
    "matplotlib",
    "tomlkit",
    "fastapi",
    "sqlalchemy",
    "fudgedice.sheets",
    "fudgedice.log",
    "fudgedice.server",
    "fudgedice.comparisons",
    "fudgedice.render.chart",
    "fudgedice.render.html",
    "fudgedice.render.plot",
    "logging",
    "pickle",
    "difflib",
    "pathlib",
    "html",
    "secrets",
    "tempfile",
    "fudgedice.files",
    "fudgedice.cli.compare",
    "fudgedice.cli.sheet_commands",
    "fudgedice.cli.session_commands",
    "fudgedice.cli.serve",
    "fudgedice.cli.help",
    "fudgedice.results.float_odds",
    "fudgedice.results.sampled",
    "hashlib",
)
"""Loaded by the commands that use them (sample, --plot, --sheet, session,
verify, serve, compare, sheet, --float; a misspelling's hint), never by a plain
roll (json too, but this probe prints with it); nor hashlib (OpenSSL's, some
milliseconds to load: the dice stream uses the interpreter's own SHA-256);
lark never at all (only ``make parser``), nor the standard library's logging
and pickle (the generated parser's, which ``make parser`` leaves out)."""

_COMMAND = """
import json, sys
from fudgedice.cli import main
try:
    main(sys.argv[1:])
except SystemExit as done:
    code = done.code
heavy = [name for name in json.loads(HEAVY) if name in sys.modules]
print(json.dumps({"code": code, "heavy": heavy}))
"""


def _command(*args: str, heavy: tuple[str, ...] = HEAVY, script: bool = False) -> dict[str, object]:
    """Run the command line ``args`` through click's group, or (``script``)
    as the console script does (``cli.entry``: a plain roll or odds without click)."""
    probe = (
        _COMMAND.replace("fudgedice.cli import", "fudgedice.cli.entry import")
        if script
        else _COMMAND
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", probe.replace("HEAVY", repr(json.dumps(heavy))), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    result["out"] = "\n".join(done.stdout.splitlines()[:-1])
    return result


@pytest.mark.parametrize(
    "args", [("roll", "4dF"), ("odds", "4dF"), ("roll", "d6: 5D+2"), ("roll", "4dF+")]
)
def test_roll_and_odds_import_nothing_heavy(args: tuple[str, ...]) -> None:
    result = _command(*args)
    assert result["code"] == (2 if args[-1].endswith("+") else 0), result["out"]  # 2: a bad roll
    assert result["heavy"] == [], f"{' '.join(args)} imported {result['heavy']}"


ODDS_ONLY = ("fudgedice.render.odds_table",)
"""What ``odds`` prints and a plain ``roll`` never loads."""


def test_a_plain_roll_loads_no_odds_table() -> None:
    rolled = _command("roll", "4dF", heavy=ODDS_ONLY, script=True)
    assert rolled["code"] == 0, rolled["out"]
    assert rolled["heavy"] == []
    measured = _command(
        "odds", "4dF", heavy=ODDS_ONLY, script=True
    )  # the names are the modules odds loads
    assert measured["heavy"] == list(ODDS_ONLY)


ROLL_ONLY = (
    "fudgedice.dice.roller",
    "fudgedice.dice.quick",
    "fudgedice.results.dice",
    "fudgedice.results.roll",
    "fudgedice.render.explain",
    "fudgedice.systems.fudge.rolling",
)
"""What a roll is rolled and explained with, which ``odds`` never loads."""


def test_odds_load_nothing_a_roll_is_rolled_with() -> None:
    measured = _command("odds", "4dF", heavy=ROLL_ONLY, script=True)
    assert measured["code"] == 0, measured["out"]
    assert measured["heavy"] == []
    rolled = _command("roll", "4dF", heavy=ROLL_ONLY, script=True)  # the names are right
    assert rolled["heavy"] == list(ROLL_ONLY)


MEASURED_ONLY = ("fudgedice.exact.odds", "fudgedice.exact.rows", "fudgedice.exact.views")
"""The odds, their rows and views, which a plain roll never loads."""


def test_a_plain_roll_measures_no_odds() -> None:
    rolled = _command("roll", "4dF", heavy=MEASURED_ONLY, script=True)
    assert rolled["code"] == 0, rolled["out"]
    assert rolled["heavy"] == []
    measured = _command("odds", "4dF", heavy=MEASURED_ONLY, script=True)  # the names are right
    assert measured["heavy"] == list(MEASURED_ONLY)


PRINTED_TABLES = ("fudgedice.results.table",)
"""The printed tables (``fudgedice table``, ``ladder``), which the systems
declare (``results.table_spec``) but neither a roll nor odds prints."""


@pytest.mark.parametrize("command", ["roll", "odds"])
def test_a_plain_roll_or_odds_loads_no_printed_table(command: str) -> None:
    result = _command(command, "4dF", heavy=PRINTED_TABLES, script=True)
    assert result["code"] == 0, result["out"]
    assert result["heavy"] == []


def test_a_printed_table_loads_them() -> None:
    result = _command("ladder", "fudge", heavy=PRINTED_TABLES)
    assert result["code"] == 0, result["out"]
    assert result["heavy"] == list(PRINTED_TABLES)


SYSTEM_PACKAGES = {
    "fudge": "fudgedice.systems.fudge.system",
    "3d6fudge": "fudgedice.systems.fudge3d6.system",
    "d6": "fudgedice.systems.d6.system",
    "fate": "fudgedice.systems.fate.system",
}
"""Each system's module that holds its System (its rules, program and tables). A
system's package itself holds its declaration alone, which the registry reads
for every roll (a few lines of data): what a roll must not load is the system."""


@pytest.mark.parametrize(
    ("args", "loaded"),
    [
        (("roll", "4dF"), {"fudge"}),
        (("odds", "4dF"), {"fudge"}),
        (("roll", "d6: 5D+2"), {"d6"}),
        (("roll", "fate: Good vs Great"), {"fate"}),
    ],
)
def test_a_roll_loads_only_the_system_it_names(args: tuple[str, ...], loaded: set[str]) -> None:
    result = _command(*args, heavy=(*HEAVY, *SYSTEM_PACKAGES.values()))
    assert result["code"] == 0, result["out"]
    imported = set(cast(list[str], result["heavy"]))
    found = {name for name, package in SYSTEM_PACKAGES.items() if package in imported}
    assert found == loaded


def test_the_help_lists_every_command_loaded_or_not() -> None:
    result = _command("--help")
    assert result["code"] == 0
    listed = str(result["out"]).split("Commands:")[1].split()
    for command in ("compare", "ladder", "odds", "read", "roll", "session", "sheet", "table"):
        assert command in listed


def test_a_session_command_still_finds_the_log(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert _command("session", "new", str(path))["code"] == 0
    rolled = _command("roll", "--session", str(path), "4dF")
    assert rolled["code"] == 0 and "logged: seq 1" in str(rolled["out"])
    verified = _command("verify", str(path))
    # 3: nothing fails, the roll waits for the reveal
    assert verified["code"] == 3 and "fudgedice.log" in str(verified["heavy"])
