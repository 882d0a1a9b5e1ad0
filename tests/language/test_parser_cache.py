"""The grammar's parser, built once and loaded from the user's cache after:
a fresh install works with the cache absent, stale, broken or unwritable,
and the command line's start-up imports nothing it does not use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fudgedice.language import parser_cache

SRC = Path(__file__).resolve().parents[2] / "src"
TEXTS = ("4dF+2", "Good vs Great", "d6: 5D+2 vs 12", "power: 4dF+2 adv vs 3", "(3d6!+1)*2")


def _trees(parser: object) -> list[str]:
    return [parser.parse(text).pretty() for text in TEXTS]  # type: ignore[attr-defined]


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


def _cache_file() -> Path:
    path = parser_cache.cache_file(parser_cache.digest(parser_cache.grammar_text()))
    assert path is not None
    return path


def _refuse_to_build(grammar: str | None = None) -> object:
    raise AssertionError("the parser was built, not loaded from the cache")


def test_absent_cache_is_built_then_loaded(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = parser_cache.build()
    path = _cache_file()
    assert path.is_relative_to(cache_home / "fudgedice") and not path.exists()
    first = parser_cache.load_parser()
    assert path.exists(), "no cache file written"
    assert _trees(first) == _trees(built)
    monkeypatch.setattr(parser_cache, "build", _refuse_to_build)
    assert _trees(parser_cache.load_parser()) == _trees(built)
    assert [p.name for p in path.parent.iterdir()] == [path.name], "a temporary file was left"


@pytest.mark.parametrize(
    "content",
    [b"", b"not a cache file\n", b"fudgedice-parser 1 " + b"0" * 64 + b"\n", "truncated"],
    ids=["empty", "garbage", "another grammar's", "truncated"],
)
def test_a_bad_cache_file_is_rebuilt(
    cache_home: Path, content: bytes | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    parser_cache.load_parser()
    path = _cache_file()
    good = path.read_bytes()
    path.write_bytes(good[: len(good) // 2] if content == "truncated" else content)  # type: ignore[arg-type]
    built = _trees(parser_cache.build())
    assert _trees(parser_cache.load_parser()) == built
    monkeypatch.setattr(parser_cache, "build", _refuse_to_build)  # written again: loaded
    assert _trees(parser_cache.load_parser()) == built


def test_a_changed_grammar_never_loads_stale_tables(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parser_cache.load_parser()
    old = _cache_file()
    grammar = parser_cache.grammar_text()
    changed = grammar.replace(r"VS.2: /vs\b/i", r"VS.2: /versus\b/i")
    assert changed != grammar
    monkeypatch.setattr(parser_cache, "grammar_text", lambda: changed)
    new = _cache_file()
    assert new != old
    # the old file under the new name: its first line says whose it is
    new.write_bytes(old.read_bytes())
    parser = parser_cache.load_parser()
    assert "versus" in parser.parse("4dF versus 2").pretty()
    with pytest.raises(Exception, match="vs"):
        parser.parse("4dF vs 2")


def test_an_unwritable_cache_folder_still_parses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert _trees(parser_cache.load_parser()) == _trees(parser_cache.build())
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "nowhere"))
    monkeypatch.setattr(Path, "home", _no_home)
    assert parser_cache.cache_folder() is None
    assert _trees(parser_cache.load_parser()) == _trees(parser_cache.build())


def _no_home() -> Path:
    raise RuntimeError("no home directory")


# ----------------------------------------------- the command line, a fresh process

HEAVY = ("numpy", "matplotlib", "tomlkit", "fastapi", "sqlalchemy", "fudgedice.sheets")
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


def _command(cache_home: Path, *args: str) -> dict[str, object]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        "XDG_CACHE_HOME": str(cache_home),
    }
    done = subprocess.run(
        [sys.executable, "-c", _COMMAND.replace("HEAVY", repr(json.dumps(HEAVY))), *args],
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


def test_a_fresh_install_rolls_with_the_cache_absent_then_stale(tmp_path: Path) -> None:
    first = _command(tmp_path, "roll", "4dF+2", "--seed", "7")
    assert first["code"] == 0
    path = next((tmp_path / "fudgedice").iterdir())
    path.write_bytes(b"fudgedice-parser 1 " + b"f" * 64 + b"\nstale")
    again = _command(tmp_path, "roll", "4dF+2", "--seed", "7")
    assert again["code"] == 0 and again["out"] == first["out"]
    path.write_bytes(path.read_bytes()[:100])
    assert _command(tmp_path, "roll", "4dF+2", "--seed", "7")["out"] == first["out"]


@pytest.mark.parametrize("args", [("roll", "4dF"), ("odds", "4dF"), ("roll", "d6: 5D+2")])
def test_roll_and_odds_import_nothing_heavy(tmp_path: Path, args: tuple[str, ...]) -> None:
    """NumPy, matplotlib, tomlkit and the server are loaded by the commands
    that use them (sample, --plot, --sheet, serve), never by a plain roll."""
    result = _command(tmp_path, *args)
    assert result["code"] == 0
    assert result["heavy"] == [], f"{' '.join(args)} imported {result['heavy']}"
