"""The registry: every system declared in the entry-point group
``fudgedice.systems``, the project's own read from its folders, each
declaration saying of its system what the system itself says, so that
loading a system only when a roll names it changes no hint and no listing."""

from __future__ import annotations

import sys
import tomllib
from importlib import metadata
from importlib.metadata import EntryPoint
from pathlib import Path
from types import ModuleType

import pytest

import fudgedice
from fudgedice import api
from fudgedice.language.words import KEYWORDS
from fudgedice.systems import (
    SYSTEMS,
    Declaration,
    Registry,
    load,
    own_declarations,
    registry,
)
from fudgedice.systems.declaration import GROUP
from fudgedice.systems.fate import FATE_CONDENSED

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_each_declaration_says_what_its_system_says() -> None:
    for name, declared in SYSTEMS.declarations.items():
        system = SYSTEMS[name]
        assert (system.name, system.description) == (declared.name, declared.description)
        assert declared.words == system.words, name
        assert declared.title and declared.examples, name
        assert declared.sheet == (system.sheet is not None), name
        for example in declared.examples:
            fudgedice.roll(f"{name}: {example}", seed=1)  # each example rolls


def test_pyproject_declares_the_project_s_own_systems_in_the_group() -> None:
    declared = tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]["entry-points"][GROUP]
    own = own_declarations()
    assert list(declared) == [each.name for each in own]
    for each in own:
        module, _, attribute = declared[each.name].partition(":")
        assert getattr(__import__(module, fromlist=[attribute]), attribute) is each


def test_the_registry_lists_every_system_the_default_first() -> None:
    assert list(SYSTEMS) == ["fudge", "power", "d6", "fate", "fatecondensed", "fae", "3d6fudge"]
    assert len(SYSTEMS) == 7 and "d6" in SYSTEMS and "gurps" not in SYSTEMS
    assert SYSTEMS.get("gurps") is None and object() not in SYSTEMS
    assert fudgedice.SYSTEMS is SYSTEMS


def test_the_vocabulary_is_the_one_every_loaded_system_gives() -> None:
    loaded = api.Dice(registry(*SYSTEMS.values()))  # a plain index: words read from each
    assert set(api.DICE.vocabulary) == set(loaded.vocabulary)
    assert api.DICE.vocabulary >= KEYWORDS | set(SYSTEMS)
    assert api.DICE.vocabulary == api.DICE.vocabulary != loaded.vocabulary  # keys of caches
    assert dict(api.DICE.tables) == dict(loaded.tables)


def test_a_declaration_that_is_not_its_system_s_is_refused() -> None:
    wrong = Declaration("nope", "Nope", "-", "fudgedice.systems.fudge.system:POWER_SYSTEM")
    with pytest.raises(TypeError, match="no System called 'nope'"):
        load(wrong)
    no_sheets = Declaration("fatecondensed", "-", "-", FATE_CONDENSED.system, sheet=False)
    with pytest.raises(TypeError, match="sheet"):
        load(no_sheets)


def test_the_sheet_rules_are_re_exported_when_first_asked_for() -> None:
    assert api.LADDERS["fudge"].name(2) == "Great"
    assert api.THREE_D6_EP_COST[8] == 8
    assert api.D6_WOUNDS[0][1].lower() == "stunned"
    assert not hasattr(api, "NO_SUCH_RULE")
    assert not hasattr(api, "_private_probe")


def _installed(monkeypatch: pytest.MonkeyPatch, *entries: tuple[str, str]) -> Registry:
    """A registry whose installed packages declare ``entries`` (name, value)."""
    found = [EntryPoint(name, value, GROUP) for name, value in entries]
    monkeypatch.setattr(metadata, "entry_points", lambda group: found if group == GROUP else [])
    return Registry()


def test_an_installed_system_joins_the_project_s(monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = ModuleType("a_plugin")
    plugin.ORACLE = Declaration("oracle", "Oracle", "yes or no", "a_plugin:SYSTEM")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "a_plugin", plugin)
    systems = _installed(monkeypatch, ("oracle", "a_plugin:ORACLE"))
    assert list(systems)[-1] == "oracle" and "oracle" in systems and "fudge" in systems
    assert systems.words["oracle"] == frozenset()


@pytest.mark.parametrize(
    ("entry", "error", "message"),
    [
        (("gone", "no_such_plugin:GONE"), ImportError, "gone = no_such_plugin:GONE does not load"),
        (("other", "fudgedice.systems.fudge:POWER"), TypeError, "called 'other'"),
        (("fudge", "fudgedice.systems.fudge:FUDGE"), ValueError, "two systems are named 'fudge'"),
    ],
)
def test_an_installed_system_that_is_wrong_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, entry: tuple[str, str], error: type[Exception], message: str
) -> None:
    systems = _installed(monkeypatch, entry)
    assert "fudge" in systems  # the project's own need no entry point read
    with pytest.raises(error, match=message):
        list(systems)


def test_a_system_a_roll_could_not_name_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = ModuleType("b_plugin")
    plugin.WRONG = Declaration("Bad Name", "-", "-", "b_plugin:SYSTEM")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "b_plugin", plugin)
    with pytest.raises(ValueError, match="no name a roll can give"):
        list(_installed(monkeypatch, ("Bad Name", "b_plugin:WRONG")))
