"""The catalog the registry reads before a system is loaded: each system's
name, home and words as the system itself has them, so that loading a system
only when a roll names it changes no hint and no listing."""

from __future__ import annotations

from importlib import import_module

import fudgedice
from fudgedice import api
from fudgedice.language.words import KEYWORDS
from fudgedice.systems import SYSTEMS, catalog, registry


def test_the_catalog_holds_each_system_s_own_name_and_words() -> None:
    for name, (package, attribute) in catalog.HOMES.items():
        system = getattr(import_module(package, "fudgedice.systems"), attribute)
        assert system.name == name
        assert catalog.WORDS[name] == system.words, name
        assert SYSTEMS[name] is system


def test_the_registry_lists_the_catalog_in_order() -> None:
    assert list(SYSTEMS) == list(catalog.HOMES) == list(catalog.WORDS)
    assert len(SYSTEMS) == 6 and "d6" in SYSTEMS and "gurps" not in SYSTEMS
    assert SYSTEMS.get("gurps") is None
    assert fudgedice.SYSTEMS is SYSTEMS


def test_the_vocabulary_is_the_one_every_loaded_system_gives() -> None:
    loaded = api.Dice(registry(*SYSTEMS.values()))  # a plain index: words read from each
    assert api.DICE.vocabulary == loaded.vocabulary
    assert api.DICE.vocabulary >= KEYWORDS | set(SYSTEMS)
    assert dict(api.DICE.tables) == dict(loaded.tables)


def test_the_sheet_rules_are_re_exported_when_first_asked_for() -> None:
    assert api.LADDERS["fudge"].name(2) == "Great"
    assert api.THREE_D6_LEVELS["abysmal"] == 1
    assert api.D6_WOUNDS[0][1].lower() == "stunned"
    assert not hasattr(api, "NO_SUCH_RULE")
    assert not hasattr(api, "_private_probe")
