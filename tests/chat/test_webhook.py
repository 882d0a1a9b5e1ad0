"""An incoming webhook's body, Discord's or Slack's, made from a message;
and the odds chart a message attaches."""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from typing import Any

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from fudgedice.chat.discord import (
    chart_png,
    error_message,
    fit,
    placeholder_message,
    problems,
    roll_message,
    webhook_body,
)
from fudgedice.chat.webhook import SLACK_BLOCKS, SLACK_SECTION, SLACK_TEXT, slack
from fudgedice.errors import DiceError, LimitError

Shown = Callable[..., dict[str, Any]]


def test_a_discord_webhook_takes_the_message_under_the_tables_name(seen: Shown) -> None:
    message = roll_message(seen("4dF", ["+", "0", "-", "+"], label="sneak"), system="fudge")
    body = webhook_body(message, "discord")
    assert body == {**message, "username": "fudgedice"}
    ephemeral = webhook_body(error_message("no"), "discord")
    assert "flags" not in ephemeral and ephemeral["allowed_mentions"] == {"parse": []}


def test_slack_reads_the_roll_in_its_own_markup(seen: Shown, hostile: str) -> None:
    message = roll_message(
        seen("Good vs Great", ["+", "0", "-", "+"], name="Ann", label=hostile), system="fudge"
    )
    body = webhook_body(message, "slack")
    text = body["text"]
    assert "`[+]` `[ ]` `[-]` `[+]`" in text
    assert "*2* \u00b7 \u2705 success" in text
    assert "\\" not in text.replace(" \\ ", "")  # Discord's escapes undone: Slack has none
    # Slack reads a mention or a link only between < and >: every one the text had is escaped
    assert "<" not in text and ">" not in text and "&lt;@123&gt;" in text
    assert "@everyone" in text and "\\@" not in text
    assert body["blocks"][0]["text"]["type"] == "mrkdwn"
    assert body["unfurl_links"] is False


def test_slack_escapes_as_slack_asks() -> None:
    assert slack("a & b < c > d") == "a &amp; b &lt; c &gt; d"
    assert slack("**bold** *it* ~~no~~ \\*star\\*") == "*bold* _it_ ~no~ *star*"
    assert (
        slack("`2*3 \\*` \\` *x*\n```\na**b <c>\n```")
        == "`2*3 \\*` ` _x_\n```\na**b &lt;c&gt;\n```"
    )


def test_slack_bodies_are_within_slacks_limits() -> None:
    embeds = [{"description": "d" * 4000, "fields": [{"name": "n", "value": "&" * 1000}] * 25}] * 10
    body = webhook_body({"content": "<" * 2000, "embeds": embeds}, "slack")
    assert len(body["text"]) <= SLACK_TEXT
    assert len(body["blocks"]) <= SLACK_BLOCKS
    assert all(len(block["text"]["text"]) <= SLACK_SECTION for block in body["blocks"])


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="discord, slack"):
        webhook_body({"content": "x"}, "teams")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60), st.sampled_from(["gm", "self", "blind", "secret"]))
def test_a_placeholder_in_a_webhook_says_nothing_of_the_roll(name: str, visibility: str) -> None:
    hidden = {
        "seq": 3, "name": name, "visibility": visibility, "label": "Q7Z-label",
        "notation": "Q7Z-text", "total": 987654, "dice": [{"sides": "F", "face": "+"}],
        "result": "Q7Z-result", "text": "Q7Z-how",
    }  # fmt: skip
    for kind in ("discord", "slack"):
        said = json.dumps(webhook_body(placeholder_message(hidden), kind))
        assert "Q7Z" not in said and "987654" not in said and "[+]" not in said
    assert problems(fit(placeholder_message(hidden))) == []


def test_the_chart_is_a_png_of_the_rooms_system() -> None:
    png = chart_png("3D vs 11", "d6")  # a die code the fudge system does not read
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
    # the measuring process is handed the function itself
    assert pickle.loads(pickle.dumps(chart_png)) is chart_png


def test_the_chart_is_bounded_by_the_engines_limits() -> None:
    with pytest.raises(LimitError):
        chart_png("1000000d6", "fudge")
    with pytest.raises(DiceError):
        chart_png("4dF +", "fudge")
