"""A hostile Discord user's (or anyone's who can reach the endpoint) ways in,
each refused: timestamps that are not plain Unix seconds, bodies nested deep
or not UTF-8, tokens that would change a follow-up's URL; and through the
real server process, a signed request played again (one roll, not two; its
hidden roll still never in the channel), a blind roll that tells its roller
nothing, a player who /reveals."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

import pytest
from nacl.signing import SigningKey

from fudgedice.server.discord import signature
from fudgedice.server.discord.interaction import read
from fudgedice.server.problems import Problem

KEY = SigningKey.generate()
BODY = b'{"type": 1}'


def signed(stamp: str, body: bytes = BODY) -> None:
    """``signature.check`` of ``body`` signed (rightly) with ``stamp``."""
    sig = KEY.sign(stamp.encode() + body).signature.hex()
    signature.check(KEY.verify_key, sig, stamp, body, now=1_700_000_000.0)


@pytest.mark.parametrize(
    "stamp",
    [" 1700000000", "1700000000 ", "-1700000000", "+1700000000", "1.7e9", "1700000000.0",
     "\u0661\u0667\u0660\u0660\u0660\u0660\u0660\u0660\u0660\u0660", "9" * 13, "9" * 12, "0"],
)  # fmt: skip
def test_a_timestamp_not_plain_recent_seconds_is_401(stamp: str) -> None:
    with pytest.raises(Problem) as refused:
        signed(stamp)
    assert refused.value.status == 401


def test_a_recent_timestamp_holds() -> None:
    signed("1700000000")


@pytest.mark.parametrize(
    "body",
    [
        b'{"type": 2, "deep": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"type": 2, "data": {"name": "roll", "options": [{"name": "\xff\xfe"}]}}',
        b'{"type": 2, "token": "a/../../channels/1/messages"}',
        b'{"type": 2, "token": "a?wait=true"}',
        b'{"type": 2, "channel_id": "1 OR 1=1"}',
        b'{"type": 2, "member": {"user": {"id": "1"}, "roles": ' + b'["1",' * 600 + b'"1"]}}',
        b"[]",
        b"",
    ],
)
def test_a_malformed_body_is_400_never_500(body: bytes) -> None:
    with pytest.raises(Problem) as refused:
        read(body)
    assert refused.value.status == 400


APPLICATION = "555000111"


@pytest.fixture
def discord(discord_served: Any) -> Any:
    return discord_served


def channel() -> str:
    return str(10**15 + secrets.randbelow(10**15))


def posted_again(discord: Any, body: dict[str, Any]) -> dict[str, Any]:
    """The same signed request sent twice, within its five minutes."""
    raw = json.dumps(body).encode()
    stamp = str(int(time.time()))
    sig = discord.key.sign(stamp.encode() + raw).signature.hex()
    headers = {"X-Signature-Ed25519": sig, "X-Signature-Timestamp": stamp,
               "content-type": "application/json"}  # fmt: skip
    first = discord.client.post("/discord/interactions", content=raw, headers=headers)
    again = discord.client.post("/discord/interactions", content=raw, headers=headers)
    assert first.status_code == again.status_code == 200, (first.text, again.text)
    assert first.json() == again.json()
    answer: dict[str, Any] = first.json()
    return answer


def test_a_replayed_roll_rolls_once(discord: Any, table_of: Any) -> None:
    where = channel()
    room, token, _ = discord.seat(channel=where, user="7001", username="gemma")
    body = discord.interaction("roll", channel=where, user="7001", username="gemma", text="4dF")
    posted_again(discord, body)
    rolls = table_of(discord.server).get(f"/api/rooms/{room}/rolls", token=token)
    rolled = [each for each in rolls.json()["rolls"] if each.get("notation") == "4dF"]
    assert len(rolled) == 1, rolls.json()


def test_a_replayed_hidden_roll_still_never_reaches_the_channel(discord: Any) -> None:
    where = channel()
    discord.command("table", channel=where, user="7101", username="gemma")
    body = discord.interaction(
        "roll", channel=where, user="7102", username="ann", text="4dF+13",
        label="quokkasecret", visibility="gm",
    )  # fmt: skip
    answer = posted_again(discord, body)
    assert answer["data"]["flags"] & 64
    discord.receiver.wait(body["token"], lambda sent: sent.method == "POST")
    for sent in discord.receiver.to(body["token"]):
        assert "quokka" not in sent.text and "4dF+13" not in sent.text


def test_a_blind_roll_tells_its_roller_nothing_but_that_it_was_made(discord: Any) -> None:
    where = channel()
    discord.command("table", channel=where, user="7201", username="gemma")
    _, blind = discord.command(
        "roll", channel=where, user="7202", username="ann", text="4dF+11",
        label="wombatsecret", visibility="blind",
    )  # fmt: skip
    shown = discord.text(blind)
    assert discord.ephemeral(blind)
    for secret in ("wombat", "4dF+11", "total", "Superb", "Legendary", "Mediocre"):
        assert secret not in shown, shown


def test_a_failed_hidden_roll_s_error_goes_to_its_roller_alone(discord: Any) -> None:
    where = channel()
    discord.command("table", channel=where, user="7301", username="gemma")
    body, failed = discord.command(
        "roll", channel=where, user="7302", username="ann", text="4dF+",
        label="platypussecret", visibility="gm",
    )  # fmt: skip
    assert discord.ephemeral(failed)
    time.sleep(0.2)  # no follow-up is waited for: what there is, is looked at
    for sent in discord.receiver.to(body["token"]):
        assert "platypus" not in sent.text and "4dF+" not in sent.text


def test_a_player_cannot_reveal_even_naming_themselves_gm(discord: Any) -> None:
    where = channel()
    discord.command("table", channel=where, user="7401", username="gemma")
    _, refused = discord.command("reveal", channel=where, user="7402", username="Gemma (GM)")
    assert discord.ephemeral(refused)
    assert "only the channel's GM" in discord.text(refused)


PROBE = "1/((4dF+4)/5-1)"
"""Fails once drawn when the divisor comes up 0 (tests/server/test_failed_rolls_api.py)."""


def test_a_failed_blind_roll_answers_its_roller_as_one_that_rolled(
    discord: Any, table_of: Any
) -> None:
    """Its error would say what the dice were: the roller sees the same placeholder."""
    where = channel()
    room, gm, _ = discord.seat(channel=where, user="7501", username="gemma")
    shapes = set()
    for _ in range(40):  # some fail, some roll, but for one run in hundreds of millions
        _, blind = discord.command(
            "roll", channel=where, user="7502", username="ann", text=PROBE, visibility="blind"
        )
        assert discord.ephemeral(blind)
        shown = discord.text(blind)
        assert "divis" not in shown and "error" not in shown.lower(), shown
        shapes.add((blind["type"], json.dumps(blind["data"]).count('"'), len(shown) // 10))
    rolls = table_of(discord.server).get(f"/api/rooms/{room}/rolls", token=gm).json()["rolls"]
    assert 0 < sum(bool(roll.get("failed")) for roll in rolls) < len(rolls)
    assert len({shape[:2] for shape in shapes}) == 1, shapes


def test_a_huge_signed_body_is_refused_not_read(discord: Any) -> None:
    body = discord.interaction("roll", channel=channel(), text="4dF")
    body["padding"] = "x" * 3_000_000
    answer = discord.post(body)
    assert answer.status_code == 413, answer.text[:200]
    assert "error" in answer.json()
