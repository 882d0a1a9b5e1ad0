"""Whatever a sheet or a request says, the answer is a sheet, a roll text, or
the project's own error: never a traceback."""

from __future__ import annotations

from typing import Any

import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fudgedice
from fudgedice import sheets

WORDS = [
    "Good",
    "Great",
    "gret",
    "3D+1",
    "Dexterity+1D",
    "Dex+1D",
    "4D-2",
    "0D",
    "9",
    "-3",
    "+2",
    "",
]
KEYS = [
    "system", "name", "ep", "fudge_points", "character_points", "fate_points", "wound", "refresh",
    "gifts", "aspects", "pyramid", "extra", "notes", "fudge_ponts",
]  # fmt: skip
values: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(WORDS + list(sheets.SYSTEMS) + ["wounded", "none", "Ashley"]),
    st.integers(-5, 2_000_000),
    st.booleans(),
    st.lists(st.sampled_from(WORDS), max_size=3),
)
NAMES = ["Dexterity", "Melee", "Physique", "Will", "a.b", "Hurt", "Scratch", "mild", "physical"]
tables = st.dictionaries(st.sampled_from(NAMES), values, max_size=4)
documents = st.fixed_dictionaries(
    {"system": st.sampled_from([*sheets.SYSTEMS, "gurps"]), "name": st.sampled_from(["A", "", 3])},
    optional={
        **{key: values for key in KEYS[2:]},
        **{
            table: tables
            for table in (
                "attributes", "skills", "traits", "wounds", "wound_boxes", "ep_costs",
                "stress", "consequences",
            )
        },
    },
)  # fmt: skip


def _only_ours(call: Any) -> Any:
    try:
        return call()
    except fudgedice.DiceError:
        return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, st.sampled_from(["Melee", "Dexterity vs Moderate", "Physique+2", "x opp Melee"]))
def test_any_sheet_loads_or_says_why_and_rolls_or_says_why(
    document: dict[str, Any], request: str
) -> None:
    sheet = _only_ours(lambda: sheets.load_text(tomlkit.dumps(document)))
    if sheet is None:
        return
    assert sheets.show(sheet).startswith(sheet.name)
    plan = _only_ours(lambda: sheets.resolve(request, [sheet], []))
    if plan is not None:
        _only_ours(lambda: fudgedice.odds(plan.text))
    for change in (
        lambda: sheets.hit(sheet, 5),
        lambda: sheets.heal(sheet),
        lambda: sheets.raise_trait(sheet, "Melee"),
        lambda: sheets.spend(sheet, "fate"),
    ):
        _only_ours(change)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_sheet_or_an_error(text: str) -> None:
    _only_ours(lambda: sheets.load_text(text))


TEMPLATES = [sheets.new_sheet(system, "Jax") for system in sheets.SYSTEMS]
TABLES = ["attributes", "skills", "stress", "consequences", "wounds"]
INNER = [*NAMES, "Dodge", "Fight"]
ANY_KEY = [*KEYS, "player", "high_concept", "trouble", "stunts", "faults", "equipment", "story"]


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(TEMPLATES),
    st.lists(st.tuples(st.sampled_from(ANY_KEY), values), min_size=1, max_size=2),
    st.lists(st.tuples(st.sampled_from(TABLES), st.sampled_from(INNER), values), max_size=2),
)
def test_a_sheet_changed_by_hand_still_loads_or_says_why(
    template: str, top: list[tuple[str, Any]], inner: list[tuple[str, str, Any]]
) -> None:
    document = tomlkit.parse(template)
    for key, value in top:
        document[key] = value
    for table, key, value in inner:
        if isinstance(document.get(table), dict):
            document[table][key] = value
    sheet = _only_ours(lambda: sheets.load_text(tomlkit.dumps(document)))
    if sheet is None:
        return
    assert sheets.show(sheet).startswith(sheet.name)
    for trait in list(sheet.traits.values())[:3]:
        plan = _only_ours(lambda name=trait.name: sheets.resolve(f"{name}+1", [sheet]))
        if plan is not None:
            _only_ours(lambda text=plan.text: fudgedice.odds(text))
    for change in (
        lambda: sheets.hit(sheet, 7),
        lambda: sheets.heal(sheet),
        lambda: sheets.raise_trait(sheet, next(iter(sheet.traits.values())).name),
        lambda: sheets.spend(sheet, "cp"),
    ):
        _only_ours(change)


TEMPLATE = sheets.load_text(TEMPLATES[3])


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="DodgeSarchAilty .+-#:vsopmg123cpf=", max_size=40),
    st.lists(st.sampled_from(["cp", "cp2", "fp", "invoke", "reroll=tie", "cp99", "x"]), max_size=2),
)
def test_any_request_is_a_roll_text_or_an_error(request: str, spends: list[str]) -> None:
    plan = _only_ours(lambda: sheets.resolve(request, [TEMPLATE], spends))
    if plan is not None:
        _only_ours(lambda: fudgedice.odds(plan.text))
