"""A game system installed from outside the project: a tiny package (Risus, a
cliché's dice against a target number) with one entry point in the group
``fudgedice.systems``, installed into a temporary folder and put on the path of
child processes. It rolls, measures, samples and reads by hand, is listed by
``fudgedice help``, plays a room of its own on a real ``fudgedice serve``, is
on the list the page reads, and has a character sheet; no file of the project
changes; metadata of the project itself from another tree, on the same
path, is not read. The test's own process never sees either: its registry
stays the project's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from fudgedice import SYSTEMS

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "fudgedice"

DECLARATION = """
from fudgedice.systems.declaration import Declaration

RISUS = Declaration(
    name="risus",
    title="Risus",
    description="Risus: a cliche's dice, Nd6, against a target number",
    system="risus_dice.system:RISUS_SYSTEM",
    examples=("3d6 vs 10", "4d6 vs 15"),
    forms=(("3d6 vs 10", "a cliche of 3 against a target of 10"),),
    faces="5 3 4",
    sheet=True,
)
"""

SYSTEM = '''
from fudgedice import Program, System
from fudgedice.dice.checks import refuse_option
from fudgedice.dice.outcomes import Band, Outcomes
from fudgedice.systems.sheet_levels import numbered
from fudgedice.errors import DiceValueError
from fudgedice.language.tree import Number, Versus

from . import RISUS


class Risus(Program):
    """Nd6 against a target number: a success when the total reaches it."""

    def _check(self):
        check = self.expression.check
        if not (isinstance(check, Versus) and isinstance(check.target, Number)):
            raise DiceValueError("a Risus roll is dice against a number", hint="'3d6 vs 10'")
        for option in self.expression.side.options:
            refuse_option(self.expression, option, self.vocabulary)

    def declare(self):
        target = self.expression.check.target.value
        success = Band("success", target, None, verdict=True)
        return Outcomes((success, Band("failure", None, target - 1, verdict=True)))


RISUS_SYSTEM = System(RISUS.name, RISUS.description, compile=Risus, sheet=numbered("{level}d6"))
'''

# The entry point is written as an installer writes it (the dist-info's
# METADATA, entry_points.txt and RECORD) rather than by pip: building the
# package would need a build backend (setuptools) in the environment, which a
# fresh virtualenv of Python 3.12 or later does not have and which would
# otherwise come from PyPI. What the registry reads is these files alone.
DIST_INFO = {
    "METADATA": "Metadata-Version: 2.1\nName: risus-dice\nVersion: 1.0\n",
    "entry_points.txt": "[fudgedice.systems]\nrisus = risus_dice:RISUS\n",
    "INSTALLER": "test\n",
    "RECORD": "",
}


STALE_PROJECT = {
    "METADATA": "Metadata-Version: 2.1\nName: fudgedice\nVersion: 0.0.1\n",
    "entry_points.txt": "[fudgedice.systems]\nfudge = fudgedice.systems.gone:FUDGE\n"
    "gurps = fudgedice.systems.gurps:GURPS\n",
    "RECORD": "",
}
"""The project's own metadata as another checkout installed it (an editable
install of an older tree): first on the path, so that it is the fudgedice
distribution the entry points are read from. Its entries name modules that
do not exist; the registry reads the project's systems from the code that
runs, never from them."""


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a child process with Risus installed."""
    site = tmp_path_factory.mktemp("site")
    package = site / "risus_dice"
    package.mkdir()
    (package / "__init__.py").write_text(DECLARATION, "utf-8")
    (package / "system.py").write_text(SYSTEM, "utf-8")
    info = site / "risus_dice-1.0.dist-info"
    info.mkdir()
    for name, text in DIST_INFO.items():
        info.joinpath(name).write_text(text, "utf-8")
    stale = site / "fudgedice-0.0.1.dist-info"
    stale.mkdir()
    for name, text in STALE_PROJECT.items():
        stale.joinpath(name).write_text(text, "utf-8")
    path = os.environ.get("PYTHONPATH")
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src"), *([path] if path else [])]),
    }


def fudgedice(env: dict[str, str], *args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(
        [str(SCRIPT), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def test_the_command_line_rolls_measures_samples_and_reads_risus(plugin: dict[str, str]) -> None:
    rolled = json.loads(fudgedice(plugin, "roll", "risus: 3d6 vs 10", "--seed", "7", "--json"))
    assert rolled["system"] == "risus" and len(rolled["dice"]) == 3
    assert rolled["verdict"] == ("success" if rolled["total"] >= 10 else "failure")
    odds = json.loads(fudgedice(plugin, "odds", "risus: 3d6 vs 10", "--json"))
    assert odds["events"]["success"]["exact"] == "5/8"  # 135 of the 216 throws of 3d6 reach 10
    read = json.loads(fudgedice(plugin, "read", "risus: 3d6 vs 10", "5", "3", "1", "--json"))
    assert (read["total"], read["verdict"]) == (9, "failure")
    code = (
        "import numpy, fudgedice; print(int(fudgedice.sample('risus: 2d6 vs 7', 600, seed=1,"
        " events=True).events['success'].sum()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=plugin, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert 200 < int(done.stdout) < 400  # 7 or more on 2d6: 21 of 36
    listed = fudgedice(plugin, "help")
    assert "risus" in listed and "a cliche's dice" in listed
    assert "gurps" not in listed  # the stale metadata's
    systems = listed.split("The systems")[1]
    assert systems.count("\n  fudge ") == 1 and "\n  3d6fudge " in systems
    refused = subprocess.run(
        [str(SCRIPT), "roll", "risus: 3d6"], env=plugin, capture_output=True, text=True
    )
    assert refused.returncode == 2 and "dice against a number" in refused.stderr


def test_a_room_plays_risus_and_the_page_lists_it(
    plugin: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    start_server: Callable[..., Any],
) -> None:
    monkeypatch.setenv("PYTHONPATH", plugin["PYTHONPATH"])  # the server's, as it starts
    server = start_server(f"sqlite:///{tmp_path / 'table.db'}")
    with httpx.Client(base_url=server.url, timeout=30) as client:
        listing = client.get("/api/systems").json()
        risus = {each["name"]: each for each in listing["systems"]}["risus"]
        assert risus["title"] == "Risus" and risus["examples"][0] == "3d6 vs 10"
        made = client.post("/api/rooms", json={"name": "Risus night", "system": "risus"})
        assert made.status_code == 201, made.text
        room = made.json()
        assert room["system"] == "risus"
        bearer = {"Authorization": f"Bearer {room['gm_token']}"}
        rolled = client.post(
            f"/api/rooms/{room['room']}/rolls", json={"text": "4d6 vs 12"}, headers=bearer
        )
        assert rolled.status_code == 201, rolled.text
        assert rolled.json()["notation"].startswith("risus:")
        assert rolled.json()["verdict"] in ("success", "failure")
        unknown = client.post("/api/rooms", json={"name": "x", "system": "gurps"})
        assert unknown.status_code == 422 and "risus" in unknown.json()["hint"]


def test_a_risus_character_sheet(plugin: dict[str, str], tmp_path: Path) -> None:
    sheet = tmp_path / "jax.toml"
    fudgedice(plugin, "sheet", "new", "risus", "Jax", str(sheet))
    text = sheet.read_text("utf-8")
    assert 'system = "risus"' in text
    sheet.write_text(text + "Swordsman = 4\n", "utf-8")
    shown = fudgedice(plugin, "sheet", "show", str(sheet))
    assert "Swordsman" in shown
    rolled = json.loads(
        fudgedice(plugin, "roll", "--sheet", str(sheet), "Swordsman vs 12", "--seed", "1", "--json")
    )
    assert rolled["notation"].startswith("risus: 4d6 vs 12") and len(rolled["dice"]) == 4


def test_this_process_knows_only_the_project_s_systems() -> None:
    assert "risus" not in SYSTEMS
