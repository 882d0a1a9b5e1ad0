"""Odds, comparisons, ladders, the room, a reveal and an error as Discord
messages: made from the project's own JSON, within Discord's limits."""

from __future__ import annotations

import json
import re
from inspect import signature

import pytest

from fudgedice.chat import discord
from fudgedice.chat.commands import SYSTEM_CHOICES
from fudgedice.chat.discord import (
    EPHEMERAL,
    compare_message,
    error_message,
    ladder_message,
    odds_message,
    problems,
    reveal_message,
    room_message,
)
from fudgedice.comparisons import compare
from fudgedice.server.odds import measured


def odds(text: str, system: str = "fudge") -> dict[str, object]:
    parsed: dict[str, object] = json.loads(measured(text, system))
    return parsed


def table_of(description: str) -> list[str]:
    """The lines of the code block in ``description``."""
    found = re.search(r"```\n(.*?)\n```", description, re.DOTALL)
    assert found, description
    return found[1].splitlines()


def test_odds_show_each_value_with_its_word_and_the_events() -> None:
    message = odds_message(odds("Good vs Great"), text="Good vs Great")
    embed = message["embeds"][0]
    rows = table_of(embed["description"])
    assert rows[0].split() == ["value", "name", "chance", "at", "least"]
    assert rows[1].split()[:4] == ["-3", "Terrible", "1.23%", "100.00%"]
    assert len(rows) == 1 + 9
    assert {"name": "success", "value": "38.27% (31/81)", "inline": True} in embed["fields"]
    assert "mean 1" in embed["footer"]["text"]
    assert problems(message) == []


def test_a_long_tail_is_shown_as_a_window_that_says_what_it_leaves_out() -> None:
    measured_odds = odds("3d6!")
    message = odds_message(measured_odds, text="3d6!")
    description = message["embeds"][0]["description"]
    rows = table_of(description)
    assert len(rows) == 1 + 25
    assert [row.split()[0] for row in rows[1:3]] == ["3", "4"]
    last = int(rows[-1].split()[0])
    assert f"values above {last} (" in description
    assert "past the cut-off (exploding dice): 105 or more" in description
    assert problems(message) == []


def test_d6_odds_read_in_the_rooms_system() -> None:
    message = odds_message(odds("3D vs 11", "d6"), text="3D vs 11")
    embed = message["embeds"][0]
    assert embed["title"] == "Odds of 3D vs 11"
    assert "success" in [field["name"] for field in embed["fields"]]
    assert problems(message) == []


def test_a_comparison_sets_the_rolls_side_by_side() -> None:
    message = compare_message(compare("4dF", "4dF@3d6 # three d6").to_dict())
    embed = message["embeds"][0]
    assert embed["description"].startswith("**A** 4dF\n**B** three d6\n")
    rows = table_of(embed["description"])
    assert rows[0].split() == ["value", "name", "A", "B"]
    assert rows[5].split() == ["+0", "Fair", "23.46%", "25.00%"]
    assert {"name": "B \u2212 A", "value": "mean +0", "inline": True} in embed["fields"]
    assert problems(message) == []


def test_a_value_is_named_only_when_every_roll_names_it_alike() -> None:
    message = compare_message(compare("4dF", "fate: 4dF").to_dict())
    rows = table_of(message["embeds"][0]["description"])
    # Good is +1 on Fudge's ladder, +3 on Fate's: a row of neither's name
    assert rows[6].split() == ["+1", "19.75%", "19.75%"]


def test_a_comparison_of_events_and_a_long_tail() -> None:
    message = compare_message(compare("d6: 3D vs 11", "d6: 3D+2 vs 11 # more").to_dict())
    embed = message["embeds"][0]
    success = next(field for field in embed["fields"] if field["name"] == "success")
    assert success["value"].startswith("A 52.47% (85/162)\nB ")
    assert "left out: rare in every roll" in embed["description"]
    assert problems(message) == []


@pytest.mark.parametrize("system", SYSTEM_CHOICES)
def test_every_system_has_its_ladder_or_words(system: str) -> None:
    message = ladder_message(system)
    embed = message["embeds"][0]
    assert "flags" not in message
    assert embed["description"].startswith("```\n") and embed["description"].endswith("\n```")
    assert problems(message) == []


def test_the_d6_system_shows_its_difficulty_words() -> None:
    assert "Moderate" in ladder_message("d6")["embeds"][0]["description"]


def test_an_unknown_ladder_is_an_error_to_its_asker() -> None:
    message = ladder_message("gurps")
    assert message["flags"] == EPHEMERAL
    assert "'gurps' is not a system" in message["embeds"][0]["description"]


def test_the_room_gives_its_page_and_commitment() -> None:
    message = room_message(
        name="Thursday *game* @everyone", system="fate", link="https://table.example/r/abc",
        commitment="ab" * 32, epoch=2, seat_link="https://table.example/r/abc#seat=x",
    )  # fmt: skip
    embed = message["embeds"][0]
    assert embed["title"] == "Thursday \\*game\\* \\@everyone (fate)"
    assert embed["url"] == "https://table.example/r/abc"
    assert "Page: <https://table.example/r/abc>" in embed["description"]
    assert f"`{'ab' * 32}`" in embed["description"]
    assert "<https://table.example/r/abc#seat=x>" in embed["description"]
    assert problems(message) == []


def test_a_seat_is_the_askers_alone() -> None:
    shared = room_message(name="r", system="fudge", link=None, commitment="c", epoch=1)
    assert "flags" not in shared
    seat = room_message(
        name="r", system="fudge", link=None, commitment="c", epoch=1,
        seat_link="https://table.example/r/abc#seat=x",
    )  # fmt: skip
    assert seat["flags"] == EPHEMERAL


def test_odds_may_show_their_attached_chart() -> None:
    message = odds_message(odds("4dF"), text="4dF", chart="odds.png")
    assert message["embeds"][0]["image"] == {"url": "attachment://odds.png"}
    assert "image" not in odds_message(odds("4dF"), text="4dF", chart="../x y")["embeds"][0]


def test_a_link_that_is_not_http_is_left_out() -> None:
    message = room_message(
        name="r", system="fudge", link="javascript:alert(1)", commitment="c", epoch=1,
        seat_link="https://x.example/a b",
    )  # fmt: skip
    embed = message["embeds"][0]
    assert "url" not in embed
    assert "javascript" not in embed["description"] and "Page" not in embed["description"]
    assert "seat" not in embed["description"]


def test_a_reveal_gives_the_seed_and_the_next_commitment() -> None:
    revealed = {
        "server_seed": "cd" * 32, "commitment": "ab" * 32, "next_commitment": "ef" * 32,
        "epoch": 1, "revealed_at": "2026-11-27T12:00:00.000Z",
    }  # fmt: skip
    message = reveal_message(revealed, link="https://table.example/r/abc")
    embed = message["embeds"][0]
    assert embed["title"] == "Seed 1 revealed"
    for key in ("server_seed", "commitment", "next_commitment"):
        assert f"`{revealed[key]}`" in embed["description"]
    assert embed["timestamp"] == "2026-11-27T12:00:00+00:00"
    assert problems(message) == []


def test_an_error_is_ephemeral_and_escaped() -> None:
    message = error_message("can't read `@everyone` <@1>", "try 4dF")
    assert message["flags"] == EPHEMERAL
    description = message["embeds"][0]["description"]
    assert description == "\u26a0\ufe0f can't read \\`\\@everyone\\` \\<\\@1\\>\ntry 4dF"
    assert message["allowed_mentions"] == {"parse": []}


def test_the_api_is_the_one_the_endpoint_and_the_webhooks_call() -> None:
    functions = [name for name in discord.__all__ if callable(getattr(discord, name))]
    said = {name: str(signature(getattr(discord, name))) for name in functions}
    assert said == {
        "chart_png": "(text: 'str', system: 'str') -> 'bytes'",
        "compare_message": "(comparison: 'Mapping[str, Any]') -> 'dict[str, Any]'",
        "error_message": "(error: 'str', hint: 'str | None' = None) -> 'dict[str, Any]'",
        "fit": "(message: 'Mapping[str, Any]') -> 'dict[str, Any]'",
        "ladder_message": "(system: 'str') -> 'dict[str, Any]'",
        "odds_message": "(odds: 'Mapping[str, Any]', *, text: 'str', chart: 'str | None' = None)"
        " -> 'dict[str, Any]'",
        "placeholder_message": "(shown: 'Mapping[str, Any]', *, link: 'str | None' = None)"
        " -> 'dict[str, Any]'",
        "problems": "(message: 'Mapping[str, Any]') -> 'list[str]'",
        "read_message": "(roll: 'Mapping[str, Any]') -> 'dict[str, Any]'",
        "reveal_message": "(revealed: 'Mapping[str, Any]', *, link: 'str | None' = None)"
        " -> 'dict[str, Any]'",
        "roll_message": "(shown: 'Mapping[str, Any]', *, system: 'str', link: 'str | None' = None)"
        " -> 'dict[str, Any]'",
        "room_message": "(*, name: 'str', system: 'str', link: 'str | None', commitment: 'str', "
        "epoch: 'int', seat_link: 'str | None' = None) -> 'dict[str, Any]'",
        "webhook_body": "(message: 'Mapping[str, Any]', kind: 'str') -> 'dict[str, Any]'",
    }
    assert (discord.EPHEMERAL, discord.NO_MENTIONS) == (64, {"parse": []})
