"""Discord's limits: every message the chat package makes is within them,
whatever it is made from, and fit() brings any message within them."""

from __future__ import annotations

import json
from typing import Any

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

import fudgedice
from fudgedice.chat.discord import (
    compare_message,
    error_message,
    fit,
    odds_message,
    placeholder_message,
    problems,
    read_message,
    roll_message,
    room_message,
)
from fudgedice.chat.limits import CUT, TOTAL, embed_size, size

TEXT = st.text(max_size=40) | st.text(alphabet="@<>`*_~|#:\\-[]()\n \U0001f3b2", max_size=40)
LONG = st.integers(1, 3000).map(lambda n: "@x`*\U0001f3b2\n"[n % 6] * n)
"""A text past a limit: long texts drawn character by character take Hypothesis seconds."""
WORDS = TEXT | LONG
ANY = st.none() | st.booleans() | st.integers() | st.floats() | TEXT
DIE = st.fixed_dictionaries(
    {"sides": st.sampled_from([6, "F", 20, "F.1", None]), "face": ANY, "marks": st.lists(
        st.sampled_from(["wild", "exploded", "dropped", "character_point", "x"]), max_size=3)},
    optional={"kept": st.booleans()},
)  # fmt: skip
ROLL = st.fixed_dictionaries(
    {},
    optional={
        "name": WORDS,
        "label": WORDS,
        "notation": WORDS,
        "text": WORDS,
        "result": WORDS,
        "error": WORDS,
        "total": ANY,
        "verdict": ANY,
        "seq": ANY,
        "hash": ANY,
        "at": ANY,
        "visibility": ANY,
        "failed": st.booleans(),
        "foreseeable": st.booleans(),
        "dice": st.lists(DIE, max_size=80),
        "tosses": st.lists(ANY, max_size=5),
        "kind": st.sampled_from(["sheet", "play", "spend", None]),
        "lines": st.lists(TEXT, max_size=50),
        "spent": TEXT,
        "verified": ANY,
        "system": ANY,
    },
).map(
    lambda roll: {**roll, "sides": [dict(roll), dict(roll)] if roll.get("failed") is False else []}
)
SLOW = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(ROLL, st.text(max_size=20), WORDS)
def test_a_roll_from_anything_is_within_the_limits(
    roll: dict[str, Any], system: str, link: str
) -> None:
    for message in (
        roll_message(roll, system=system, link=link), placeholder_message(roll, link=link),
        read_message(roll),
    ):  # fmt: skip
        assert problems(message) == []


@SLOW
@given(WORDS, WORDS, WORDS, st.integers())
def test_the_other_answers_from_anything_are_within_the_limits(
    name: str, error: str, hint: str, epoch: int
) -> None:
    outcomes = [{"value": epoch, "name": name, "p": 0.5}]
    messages = [
        error_message(error, hint),
        room_message(
            name=name, system=name, link=hint, commitment=error, epoch=epoch, seat_link=name
        ),
        odds_message({"outcomes": outcomes, "events": {name: error}}, text=name),
        compare_message({"forms": [{"label": name, "events": {error: hint}}] * 8}),
    ]
    for message in messages:
        assert problems(message) == []


FIELD = st.fixed_dictionaries({"name": WORDS, "value": WORDS}, optional={"inline": st.booleans()})
EMBED = st.fixed_dictionaries(
    {},
    optional={
        "title": WORDS,
        "description": WORDS | st.integers(4000, 5000).map("d".__mul__),
        "fields": st.lists(FIELD, max_size=30),
        "footer": st.fixed_dictionaries({"text": WORDS}),
        "author": st.fixed_dictionaries({"name": WORDS}),
    },
)
MESSAGE = st.fixed_dictionaries(
    {},
    optional={"content": WORDS, "embeds": st.lists(EMBED, max_size=12),
              "flags": st.just(64), "allowed_mentions": st.just({"parse": ["everyone"]})},
)  # fmt: skip


@settings(SLOW, max_examples=60)
@given(MESSAGE)
def test_fit_brings_any_message_within_the_limits(message: dict[str, Any]) -> None:
    fitted = fit(message)
    assert problems(fitted) == []
    assert fitted.get("flags") == message.get("flags")
    if not problems(message):
        assert (
            fitted["embeds"] == [dict(embed) for embed in message.get("embeds", [])]
            or message.get("embeds") is None
        )


def test_what_is_cut_is_said_to_be_cut() -> None:
    message = {"content": "x" * 2500, "embeds": [{"description": "y" * 5000, "title": "t" * 300}]}
    fitted = fit(message)
    assert fitted["content"].endswith(CUT) and 1990 <= size(fitted["content"]) <= 2000
    assert fitted["embeds"][0]["description"].endswith(CUT)
    assert fitted["embeds"][0]["title"].endswith(CUT) and size(fitted["embeds"][0]["title"]) <= 256
    assert problems(message) == [
        "content has 2500 characters, more than 2000",
        "embed 1: title has 300 characters, more than 256",
        "embed 1: description has 5000 characters, more than 4096",
        "allowed_mentions is not {'parse': []}: it could ping",
    ]


def test_a_cut_code_block_is_closed() -> None:
    fitted = fit({"embeds": [{"description": "```\n" + "row\n" * 2000 + "```"}]})
    description = fitted["embeds"][0]["description"]
    assert description.count("```") == 2 and description.endswith("```\n" + CUT)


def test_too_many_fields_and_embeds_are_counted_out() -> None:
    fields = [{"name": f"f{i}", "value": "v"} for i in range(30)]
    fitted = fit({"embeds": [{"fields": fields}] * 12})
    assert len(fitted["embeds"]) == 10
    assert fitted["content"] == "\u2026 2 more not shown"
    kept = fitted["embeds"][0]["fields"]
    assert len(kept) == 25 and kept[-1] == {"name": CUT, "value": "6 more not shown"}


def test_the_embeds_together_are_within_six_thousand() -> None:
    embeds = [
        {"description": "d" * 4000, "fields": [{"name": "n", "value": "v" * 1000}]}
        for _ in range(4)
    ]
    fitted = fit({"embeds": embeds})
    assert sum(embed_size(embed) for embed in fitted["embeds"]) <= TOTAL
    assert problems(fitted) == []


def test_characters_past_the_basic_plane_count_twice() -> None:
    assert size("\U0001f3b2") == 2
    fitted = fit({"content": "\U0001f3b2" * 1500})
    assert size(fitted["content"]) <= 2000


def test_a_real_roll_with_a_long_explanation_is_within_the_limits() -> None:
    roll = json.loads(json.dumps(fudgedice.roll("100d6! # many", seed=1).to_dict()))
    message = roll_message(roll, system="fudge")
    assert problems(message) == []
    assert f"\u2026 and {len(roll['dice']) - 60} more" in message["embeds"][0]["description"]


def test_an_embed_that_shows_nothing_is_dropped() -> None:
    message = {"embeds": [{"color": 1}, {"title": "t"}], "allowed_mentions": {"parse": []}}
    assert problems(message) == ["embed 1 shows nothing"]
    assert fit(message)["embeds"] == [{"title": "t"}]


def test_embeds_cut_to_nothing_are_dropped() -> None:
    fitted = fit({"embeds": [{"description": "d" * 4096} for _ in range(10)]})
    assert problems(fitted) == []
    assert [len(embed["description"]) for embed in fitted["embeds"]] == [4096, 1904]
