"""A roll as a Discord message: its dice drawn as the table draws them, its
words, its placeholder that says nothing of it, user text never markdown."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

import fudgedice
from fudgedice.chat.discord import (
    EPHEMERAL,
    NO_MENTIONS,
    placeholder_message,
    problems,
    read_message,
    roll_message,
)
from fudgedice.chat.markdown import SPECIAL, code, escape, one_line
from fudgedice.chat.messages import BAD
from fudgedice.server.drawing import failed_result
from fudgedice.server.kept import RollRecord

Shown = Callable[..., dict[str, Any]]
Kept = Callable[..., RollRecord]


def text_of(message: dict[str, Any]) -> str:
    """Everything a message shows, as one string."""
    return json.dumps(message, ensure_ascii=False)


def test_fudge_dice_are_drawn_as_faces_with_the_ladder_word_and_verdict(seen: Shown) -> None:
    message = roll_message(
        seen("Good vs Great", ["+", "0", "-", "+"], label="climb"), system="fudge"
    )
    embed = message["embeds"][0]
    assert embed["title"] == "Ann: climb"
    assert "`[+]` `[ ]` `[-]` `[+]`" in embed["description"]
    assert "**2**" in embed["description"]
    assert "\u2705 success" in embed["description"]
    assert "Great" in embed["description"]
    assert embed["footer"]["text"] == "#12 \u00b7 fudge \u00b7 verify --hash 12:ab12ab12ab12ab12"
    assert message["allowed_mentions"] == NO_MENTIONS
    assert problems(message) == []


def test_the_wild_die_is_marked_exploded_or_a_complication(seen: Shown) -> None:
    exploded = roll_message(seen("d6: 3D+1 vs 12", ["4", "2", "w6", "w3"]), system="d6")
    description = exploded["embeds"][0]["description"]
    assert "`W6!` `W3`: exploded" in description
    assert "\u2705 success" in description
    complication = roll_message(seen("d6: 3D vs 10", ["4", "2", "w1"]), system="d6")
    said = complication["embeds"][0]["description"]
    assert re.search(r"\*\*Wild Die\*\* `W1`: .*complication", said), said


def test_dice_set_aside_are_struck(seen: Shown) -> None:
    message = roll_message(seen("4d6kh3", ["6", "1", "3", "5"]), system="fudge")
    assert "~~`1`~~" in message["embeds"][0]["description"]
    assert "`6` ~~`1`~~ `3` `5`" in message["embeds"][0]["description"]


def test_the_ladder_of_the_room_is_not_named_again(seen: Shown) -> None:
    message = roll_message(seen("fate: Good vs Fair", ["+", "0", "0", "0"]), system="fate")
    description = message["embeds"][0]["description"]
    assert "Fate Core" not in description and "+4 Great vs +2 Fair" in description
    elsewhere = roll_message(seen("fate: Good vs Fair", ["+", "0", "0", "0"]), system="fudge")
    assert "Fate Core" in elsewhere["embeds"][0]["description"]


def test_an_opposed_roll_shows_each_side(seen: Shown) -> None:
    message = roll_message(
        seen("3d6fudge: Good opp Great", ["5", "2", "1", "4", "4", "3"]), system="3d6fudge"
    )
    names = [field["name"] for field in message["embeds"][0]["fields"]]
    assert len(names) == 3 and names[-1] == "how"
    assert "win" in message["embeds"][0]["description"]


def test_a_failed_roll_shows_its_error_and_what_it_drew(seen: Shown) -> None:
    failed = {
        **seen("4dF", ["+", "+", "+", "+"]),
        **failed_result("4dF", {"faces": ["+", "-"], "error": "boom <@1>"}),
    }
    embed = roll_message(failed, system="fudge")["embeds"][0]
    assert embed["color"] == BAD
    description = embed["description"]
    assert "failed: boom \\<\\@1\\>" in description
    assert "(drew `+ -`)" in description


def test_a_read_roll_says_it_was_read_by_hand() -> None:
    message = read_message(fudgedice.read("4dF+2 # jump", "+ + 0 -").to_dict())
    assert message["embeds"][0]["title"] == "Read by hand: jump"
    assert "`[+]` `[+]` `[ ]` `[-]`" in message["embeds"][0]["description"]
    assert problems(message) == []


@pytest.mark.parametrize("visibility", ["gm", "self", "blind", "secret"])
def test_a_placeholder_says_nothing_of_the_roll(visibility: str, kept: Kept) -> None:
    made = kept("4dF+3 # Moonlit", ["+", "+", "-", "0"], visibility=visibility, label="Moonlit")
    secrets = [
        "Moonlit",
        "4dF",
        "[+]",
        "[-]",
        "[ ]",
        "Superb",
        "Great",
        "client",
        "5a5a",
        "total",
        "+3",
    ]
    for given in (made.full(), made.own(), made.placeholder()):
        message = placeholder_message(given, link="https://table.example/r/room")
        said = text_of(message)
        assert [secret for secret in secrets if secret in said] == []
        embed = message["embeds"][0]
        assert embed["title"].startswith("\U0001f512 Ann made a ")
        assert "(#12)" in embed["title"]
        assert message["allowed_mentions"] == NO_MENTIONS
        assert problems(message) == []
    words = placeholder_message(made.placeholder())["embeds"][0]["title"]
    placed = {"gm": "for the GM", "self": "kept to themself", "blind": "blind", "secret": "secret"}
    assert placed[visibility] in words
    footer = placeholder_message(made.full())["embeds"][0]["footer"]["text"]
    assert footer == "#12 \u00b7 verify --hash 12:ab12ab12ab12ab12"


def reads(said: str, *more: str) -> list[str]:
    """What Discord would read in ``said`` as a mention, a link or markup a
    player typed: anything but an escaped character or a code span."""
    read = re.sub(r"`[^`]*`", "", re.sub(r"\\.", "", said))
    tokens = ("@everyone", "@here", "<@", "<#", "https:", "[", "|", "_", ">", *more)
    return [token for token in tokens if token in read]


def test_a_hostile_name_and_label_are_shown_as_text(seen: Shown, hostile: str) -> None:
    roll = seen("4dF", ["+", "0", "-", "0"], name=hostile[:60], label=hostile)
    message = roll_message(roll, system="fudge", link="javascript:alert(1)")
    embed = message["embeds"][0]
    assert reads(embed["title"], "*", "~", "`") == []
    assert reads(embed["description"]) == []
    assert "url" not in embed
    assert "\n" not in embed["title"]
    assert message["allowed_mentions"] == {"parse": []}
    placeholder = placeholder_message({**roll, "visibility": "gm"})
    assert "@everyone" not in placeholder["embeds"][0]["title"].replace("\\@", "")
    assert problems(message) == problems(placeholder) == []


def test_escaping_reads_back_as_typed(hostile: str) -> None:
    escaped = escape(hostile)
    unescaped = re.sub(r"\\(.)", r"\1", escaped)
    assert unescaped == one_line(hostile)
    assert all(escaped[i - 1] == "\\" for i, each in enumerate(escaped) if each in SPECIAL - {"\\"})


def test_a_code_span_cannot_be_closed_by_its_text() -> None:
    assert code("a`b") == "`a\u02cbb`"
    assert code("") == "` `"


def test_ephemeral_is_discords_flag() -> None:
    assert EPHEMERAL == 64


def test_a_checked_roll_says_so(seen: Shown) -> None:
    roll = {**seen("4dF", ["+", "+", "+", "+"]), "verified": False, "by_hand": True}
    footer = roll_message(roll, system="fudge")["embeds"][0]["footer"]["text"]
    assert (
        footer
        == "#12 \u00b7 fudge \u00b7 read by hand \u00b7 \u2717 fails to verify \u00b7 "
        + ("verify --hash 12:ab12ab12ab12ab12")
    )


def test_a_sheets_change_is_said_in_words(seen: Shown) -> None:
    change = {"seq": 4, "name": "GM", "kind": "sheet", "lines": ["Ann: Fight *Good* -> Great"]}
    embed = roll_message(change, system="fate")["embeds"][0]
    assert embed["description"] == "Ann\\: Fight \\*Good\\* \\-\\> Great"


def test_a_texts_direction_cannot_be_turned_around() -> None:
    assert one_line("Ann\u202eevil\u2066x") == "Ann evil x"


def test_a_placeholder_given_as_a_roll_is_shown_as_a_placeholder(kept: Kept) -> None:
    made = kept("4dF # Moonlit", ["+", "+", "-", "0"], visibility="blind", label="Moonlit")
    message = roll_message(made.placeholder(), system="fudge")
    assert message == placeholder_message(made.placeholder())
    assert "Moonlit" not in text_of(message)
