"""Discord's slash commands through the real server process: each signed as
Discord signs it, with a key generated here, and the follow-ups received by a
local stand-in of Discord's API. What is asserted holds whatever the
messages' wording: the roll's own figures, who sees what (flag 64), and
that nothing of a hidden roll ever reaches the channel."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest
from nacl.signing import SigningKey

APPLICATION = "555000111"
"""The application's ID the servers of tests/server/conftest.py are given."""
GM_ROLE = "4004"
"""The GM's role they are given."""


@pytest.fixture
def discord(discord_served: Any) -> Any:
    """The module's server serving Discord's commands, on each database, and
    its signing client (tests/server/conftest.py)."""
    return discord_served


@pytest.fixture
def table(discord: Any, table_of: Any) -> Any:
    """A client of the same server's API."""
    return table_of(discord.server)


def channel() -> str:
    """A channel of its own for each test: its room is made by its first command."""
    return str(10**15 + secrets.randbelow(10**15))


def test_ping_is_answered_with_pong(discord: Any) -> None:
    answer = discord.post({"type": 1, "id": "1", "application_id": APPLICATION, "token": "t"})
    assert answer.status_code == 200
    assert answer.json() == {"type": 1}


@pytest.mark.parametrize(
    "how",
    ["another key", "no headers", "not hex", "short", "stale", "ahead", "body changed"],
)
def test_a_bad_or_stale_signature_is_401(discord: Any, how: str) -> None:
    body = discord.interaction("roll", channel=channel(), text="4dF")
    if how == "another key":
        answer = discord.post(body, key=SigningKey.generate())
    elif how == "no headers":
        answer = discord.post(body, headers={"content-type": "application/json"})
    elif how in ("not hex", "short"):
        bad = "zz" * 64 if how == "not hex" else "ab" * 10
        answer = discord.post(body, headers={"X-Signature-Ed25519": bad,
                                             "X-Signature-Timestamp": "1700000000"})  # fmt: skip
    elif how == "stale":
        answer = discord.post(body, at=time.time() - 301)
    elif how == "ahead":
        answer = discord.post(body, at=time.time() + 120)
    else:
        stamp = str(int(time.time()))  # signed over one body, another sent
        signature = discord.key.sign(stamp.encode() + b'{"type": 1}').signature.hex()
        answer = discord.client.post(
            "/discord/interactions", content=b'{"type": 1} ',
            headers={"X-Signature-Ed25519": signature, "X-Signature-Timestamp": stamp},
        )  # fmt: skip
    assert answer.status_code == 401, answer.text
    assert "signature" in answer.json()["error"]


def test_a_public_roll_is_answered_in_the_channel_and_kept_in_the_room(
    discord: Any, table: Any
) -> None:
    where = channel()
    room, token, _ = discord.seat(channel=where)
    with table.live(room, token) as events:
        table.until(events, "ready")
        _, replied = discord.command("roll", channel=where, text="4dF+1", label="climb")
        seen = table.until(events, "roll")
    assert replied["type"] == 4 and not discord.ephemeral(replied)
    kept = table.rolls(room, token)
    assert [roll["seq"] for roll in kept] == [seen["seq"]]
    roll = kept[0]
    assert (roll["notation"], roll["label"], roll["name"]) == ("4dF+1", "climb", "Ann")
    assert seen["total"] == roll["total"] and seen["hash"] == roll["hash"]
    shown = discord.text(replied)
    assert "4dF+1" in shown and "climb" in shown and str(roll["total"]) in shown


@pytest.mark.parametrize("visibility", ["gm", "self", "blind"])
def test_a_hidden_roll_never_reaches_the_channel(discord: Any, visibility: str) -> None:
    where = channel()
    discord.command("table", channel=where, user="5005", username="gemma")  # she binds it: GM
    body, replied = discord.command(
        "roll", channel=where, text="4dF+17", label="zebracrossing", visibility=visibility
    )
    assert replied["type"] == 4 and discord.ephemeral(replied), replied
    mine = discord.text(replied)
    if visibility == "blind":  # its roller sees its placeholder, as at the table
        assert "zebracrossing" not in mine and "4dF+17" not in mine
    else:
        assert "zebracrossing" in mine and "4dF+17" in mine
    placeholder = discord.receiver.wait(body["token"], lambda sent: sent.method == "POST")
    assert placeholder.path == f"/webhooks/{APPLICATION}/{body['token']}"
    assert not placeholder.body.get("flags", 0) & 64  # for the whole channel
    for sent in discord.receiver.to(body["token"]):
        assert "zebra" not in sent.text and "4dF+17" not in sent.text


def test_odds_read_compare_and_ladder_answer(discord: Any) -> None:
    where = channel()
    _, odds = discord.command("odds", channel=where, text="4dF+1")
    assert not discord.ephemeral(odds) and "4dF+1" in discord.text(odds)
    _, read = discord.command("read", channel=where, form="4dF+2", faces="+ + 0 -")
    assert not discord.ephemeral(read) and "3" in discord.text(read)
    _, compared = discord.command("compare", channel=where, a="4dF", b="3d6fudge: 0")
    assert not discord.ephemeral(compared) and "4dF" in discord.text(compared)
    _, ladder = discord.command("ladder", channel=where, system="fate")
    assert ladder["type"] == 4 and not discord.ephemeral(ladder)


def test_an_odds_chart_follows_as_an_attachment(discord: Any) -> None:
    _, replied = discord.command("odds", channel=channel(), text="4dF", chart=True)
    assert replied["type"] == 5 and not discord.ephemeral(replied)  # an answer carries no file
    edit = replied["edit"]
    assert list(edit.files) == ["files[0]"] and edit.files["files[0]"].startswith(b"\x89PNG")
    assert edit.body["attachments"][0]["filename"] == "odds.png"


@pytest.mark.parametrize(
    ("name", "given"),
    [
        ("roll", {"text": "4dF+"}),
        ("roll", {"text": "4dF", "visibility": "secret"}),  # a player's roll kept secret
        ("roll", {"text": "4dF", "visibility": "loud"}),
        ("odds", {"text": "200d100*d100"}),
        ("read", {"form": "4dF", "faces": "+ +"}),
        ("compare", {"a": "4dF", "b": "nonsense"}),
        ("roll", {}),
        ("dance", {}),
    ],
)
def test_a_refused_command_is_answered_to_its_caller_alone(
    discord: Any, name: str, given: dict[str, Any]
) -> None:
    where = channel()
    discord.command("table", channel=where, user="6006", username="gm")  # not the caller
    _, replied = discord.command(name, channel=where, **given)
    assert discord.ephemeral(replied) or replied["type"] == 5, replied
    assert discord.text(replied).strip() not in ("", "{}")


def test_an_interaction_of_another_kind_or_a_bad_body_is_400(discord: Any) -> None:
    for body in (discord.interaction("roll", kind=3, text="4dF"), b"not json", b'{"type": 2}'):
        answer = discord.post(body)
        assert answer.status_code == 400 and answer.json()["error"], answer.text


def test_table_gives_the_room_its_commitment_and_a_seat_of_ones_own(
    discord: Any, table: Any
) -> None:
    where = channel()
    room, gm_token, replied = discord.seat(channel=where, system="fate")
    info = table.get(f"/api/rooms/{room}", gm_token).json()
    assert info["system"] == "fate" and info["me"]["gm"] and info["me"]["name"] == "Ann"
    assert info["commitment"] in discord.text(replied)
    assert f"/r/{room}" in discord.text(replied)
    _, player, _ = discord.seat(channel=where, user="2002", username="bo")
    mine = table.get(f"/api/rooms/{room}", player).json()["me"]
    assert (mine["name"], mine["gm"]) == ("Bo", False)
    again = discord.seat(channel=where)[1]  # a fresh token: the one shown before is gone
    assert table.get(f"/api/rooms/{room}", gm_token).status_code == 401
    assert table.get(f"/api/rooms/{room}", again).status_code == 200


def test_only_the_channels_gm_reveals(discord: Any, table: Any) -> None:
    where = channel()
    room, token, _ = discord.seat(channel=where)
    _, refused = discord.command("reveal", channel=where, user="2002", username="bo")
    assert refused["type"] == 4 and discord.ephemeral(refused)
    with table.live(room, token) as events:
        table.until(events, "ready")
        _, revealed = discord.command("reveal", channel=where)
        told = table.until(events, "reveal")
    seeds = table.get(f"/api/rooms/{room}", token).json()["seeds"]
    assert revealed["type"] == 4 and not discord.ephemeral(revealed)
    assert seeds[0]["server_seed"] and seeds[0]["server_seed"] in discord.text(revealed)
    assert told["seeds"] == seeds
    _, by_role = discord.command(
        "reveal", channel=where, user="2003", username="cy", roles=(GM_ROLE,)
    )
    assert by_role["type"] == 4 and not discord.ephemeral(by_role)
    after = table.get(f"/api/rooms/{room}", token).json()["seeds"]
    assert len(after) == 3 and after[1]["server_seed"] in discord.text(by_role)


def test_users_of_one_name_are_members_of_their_own(discord: Any, table: Any) -> None:
    where = channel()
    room, token, _ = discord.seat(channel=where, user="2101", username="ann")
    discord.command("roll", channel=where, user="2102", username="ann", text="4dF")
    discord.command("roll", channel=where, user="2102", username="ann", text="4dF")
    members = table.get(f"/api/rooms/{room}", token).json()["members"]
    assert [(each["name"], each["gm"]) for each in members] == [("Ann", True), ("Ann 2", False)]
    rolls = table.rolls(room, token)
    assert {each["name"] for each in rolls} == {"Ann 2"} and len(rolls) == 2
