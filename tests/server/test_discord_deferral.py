"""The deferral of a slow reply and the signature's bounds, in process: a
reply not made within DEFER_AFTER is answered type 5 and sent later as an
edit of the deferred message; a refusal or a failure is the caller's alone."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from nacl.signing import SigningKey
from starlette.datastructures import State

from fudgedice.server.discord import deferral, signature
from fudgedice.server.discord.interaction import Interaction
from fudgedice.server.discord.replies import Call, Reply
from fudgedice.server.discord.settings import DiscordSettings
from fudgedice.server.outbox import Delivery
from fudgedice.server.problems import Problem


class Kept:
    """An outbox that keeps what it is given."""

    def __init__(self) -> None:
        self.sent: list[Delivery] = []

    def send(self, delivery: Delivery) -> None:
        self.sent.append(delivery)


def a_call(outbox: Kept) -> Call:
    state = State()
    state.outbox = outbox
    settings = DiscordSettings(b"k" * 32, application_id="42", api="http://discord.test/api")
    asked = Interaction(type=2, token="tok", data={"name": "odds"})  # type: ignore[arg-type]
    return Call(asked, settings, state, "http://table.test")


async def slow(gate: asyncio.Event, message: dict[str, Any]) -> Reply:
    await gate.wait()
    return Reply(message, channel=({"content": "to all"},))


def test_a_slow_reply_is_deferred_then_sent_as_an_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferral, "DEFER_AFTER", 0.01)
    outbox = Kept()

    async def run() -> tuple[dict[str, Any], list[Delivery]]:
        gate = asyncio.Event()
        answer, then = await deferral.respond(a_call(outbox), slow(gate, {"content": "x"}), True)
        assert outbox.sent == []  # nothing until the reply is made
        gate.set()
        while not outbox.sent:
            await asyncio.sleep(0.01)
        return answer, then

    answer, then = asyncio.run(run())
    assert answer == {"type": 5, "data": {"flags": 64}} and then == []
    edit, follow_up = outbox.sent
    assert (edit.method, edit.url) == (
        "PATCH",
        "http://discord.test/api/webhooks/42/tok/messages/@original",
    )
    assert edit.body["content"] == "x" and "flags" not in edit.body
    assert (follow_up.method, follow_up.url) == ("POST", "http://discord.test/api/webhooks/42/tok")


@pytest.mark.parametrize("failure", [Problem(413, "too big", hint="smaller"), RuntimeError("bug")])
def test_a_refusal_or_a_failure_is_answered_to_its_caller_alone(failure: Exception) -> None:
    async def failing() -> Reply:
        raise failure

    answer, then = asyncio.run(deferral.respond(a_call(Kept()), failing(), False))
    assert answer["type"] == 4 and answer["data"]["flags"] & 64 and then == []
    assert "bug" not in str(answer)  # no internals shown


def test_the_signature_holds_for_five_minutes_and_a_minute_ahead() -> None:
    key = SigningKey.generate()
    now = time.time()

    def checked(at: float) -> bool:
        stamp = str(int(at))
        signed = key.sign(stamp.encode() + b"{}").signature.hex()
        try:
            signature.check(key.verify_key, signed, stamp, b"{}", now=now)
        except Problem as problem:
            assert problem.status == 401
            return False
        return True

    assert checked(now) and checked(now - 299) and checked(now + 59)
    assert not checked(now - 302) and not checked(now + 62)
