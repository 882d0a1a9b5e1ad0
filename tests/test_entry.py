"""The console script (``fudgedice.cli.entry``): a plain ``roll``/``odds`` command
line answered without click prints, fails and exits exactly as click's
command does; every other command line goes to click."""

from __future__ import annotations

import gc
import io
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

import fudgedice.cli.answers
import fudgedice.cli.commands
import fudgedice.cli.entry
import fudgedice.cli.quick
from fudgedice.cli.entry import quick_text
from fudgedice.stream import seeded

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def test_the_console_script_is_the_entry() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["fudgedice"] == "fudgedice.cli.entry:main"


@pytest.mark.parametrize(
    ("words", "text"),
    [
        (["roll", "4dF"], "4dF"),
        (["odds", "4dF+1"], "4dF+1"),
        (["roll", "4dF", "+", "2"], "4dF + 2"),  # click joins the words as they come
        (["roll", " Good vs Great "], "Good vs Great"),
        (["roll"], None),
        (["roll", "  "], None),  # click's usage error
        (["roll", "-1+4dF"], None),  # a word with a minus: click's RollCommand decides
        (["roll", "4dF", "-n", "3"], None),
        (["roll", "--help"], None),
        (["roll", "--", "4dF"], None),
        (["odds", "4dF", "--json"], None),
        (["read", "4dF", "+"], None),
        (["table"], None),
        (["--version"], None),
        ([], None),
        (["Roll", "4dF"], None),
    ],
)
def test_which_command_lines_are_quick(words: list[str], text: str | None) -> None:
    assert quick_text(words) == text


def test_shell_completion_goes_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_FUDGEDICE_COMPLETE", "bash_source")
    assert quick_text(["roll", "4dF"]) is None


@pytest.mark.parametrize(
    "stream",
    [
        None,
        io.BytesIO(),  # binary
        io.TextIOWrapper(io.BytesIO(), encoding="ascii"),  # click rewraps it as UTF-8
    ],
)
def test_an_output_click_would_change_goes_to_click(
    stream: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdout", stream)
    assert quick_text(["roll", "4dF"]) is None
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert quick_text(["roll", "4dF"]) == "4dF"


LINES = [
    ("roll", "4dF"),
    ("roll", "4dF+2"),
    ("roll", "Good vs Great"),
    ("roll", "3d6fudge: Good"),
    ("roll", "d6: 5D+2"),
    ("roll", "power: 4dF+2 adv vs 3"),
    ("roll", "4d6kh3", "#", "strength"),
    ("roll", "3d6! # éclair ☺"),
    ("roll", "4dF # \x1b[31mred\x1b[0m"),  # click strips the colour code
    ("roll", "4dF+"),  # a bad roll: error, exit code 2
    ("roll", "Goood vs Great"),
    ("roll", "100000d6"),  # over a limit
    ("odds", "4dF"),
    ("odds", "3d6fudge: Good opp Great"),
    ("odds", "d6: 3D+1"),
    ("odds", "4dF # \x1b[1mbold"),
    ("odds", "4dF+"),
    ("odds", "100000dF"),  # refused for its size, with the hint to --float
]


def _run(
    main: Callable[[list[str]], object], words: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[object, str, str]:
    with pytest.raises(SystemExit) as done:
        main(words)
    out, err = capsys.readouterr()
    return done.value.code or 0, out, err


@pytest.mark.parametrize("line", LINES, ids=lambda line: " ".join(line))
def test_quick_and_click_say_the_same(
    line: tuple[str, ...], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same dice for both ways: the stream each takes is seeded
    monkeypatch.setattr(fudgedice.cli.quick, "fresh", lambda: seeded("entry"))
    monkeypatch.setattr(fudgedice.cli.answers, "fresh", lambda: seeded("entry"))
    words = list(line)
    assert quick_text(words) is not None
    quick = _run(fudgedice.cli.entry.main, words, capsys)
    clicked = _run(fudgedice.cli.commands.main, words, capsys)
    assert quick == clicked
    assert "\x1b" not in quick[1]  # not a terminal: colour codes stripped, as click does


def test_ctrl_c_ends_as_under_click(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(fudgedice.cli.quick, "program_with_table", interrupted)
    monkeypatch.setattr(fudgedice.cli.commands, "program_with_table", interrupted)
    quick = _run(fudgedice.cli.entry.main, ["roll", "4dF"], capsys)
    clicked = _run(fudgedice.cli.commands.main, ["roll", "4dF"], capsys)
    assert quick == clicked == (1, "", "\nAborted!\n")


_PROBE = """
import json, sys
from fudgedice.cli.entry import main
try:
    main(sys.argv[1:])
except SystemExit as done:
    code = done.code
print(json.dumps({"code": code, "click": "click" in sys.modules}))
"""


def _probe(*args: str) -> tuple[dict[str, object], str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    *page, last = done.stdout.splitlines()
    return json.loads(last), "\n".join(page)


@pytest.mark.parametrize(
    ("args", "code"), [(("roll", "4dF"), 0), (("odds", "4dF"), 0), (("roll", "4dF+"), 2)]
)
def test_a_plain_roll_loads_no_click(args: tuple[str, ...], code: int) -> None:
    result, _page = _probe(*args)
    assert result == {"code": code, "click": False}


def test_other_command_lines_go_to_click() -> None:
    result, page = _probe("--help")
    assert result == {"code": 0, "click": True}
    assert "Commands:" in page and "roll" in page
    result, page = _probe("roll", "4dF", "-n", "2")
    assert result == {"code": 0, "click": True}
    assert "2 rolls:" in page


_BROKEN = """
import sys
from fudgedice.{module} import main
main(sys.argv[1:])
"""


def _into_closed_pipe(module: str) -> tuple[int, str]:
    read, write = os.pipe()
    os.close(read)  # the reader went away before a word was written
    path = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    try:
        done = subprocess.run(
            [sys.executable, "-c", _BROKEN.format(module=module), "odds", "4dF"],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": path},
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    return done.returncode, done.stderr


def test_a_broken_pipe_ends_as_under_click() -> None:
    assert _into_closed_pipe("cli.entry") == _into_closed_pipe("cli.commands") == (1, "")


@pytest.mark.parametrize("words", [["roll", "4dF"], ["odds", "4dF+"], ["ladder"]])
def test_a_caller_gets_the_collector_back_as_it_was(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # the console script (no args) keeps it paused to the process's end; a
    # program that calls main with its words goes on running
    assert gc.isenabled()
    _run(fudgedice.cli.entry.main, words, capsys)
    assert gc.isenabled()
