"""A hostile webhook's ways in, each refused: a name that resolved to the
public Internet when the GM set it and resolves into the table's own network
when a roll is posted (the name re-pointed, DNS rebinding), addresses
written in the forms a resolver reads as loopback, credentials in the URL;
and a player's text in a webhook's body never a mention."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from fudgedice.chat.webhook import webhook_body
from fudgedice.server import outbox as outbox_module
from fudgedice.server import webhooks
from fudgedice.server.outbox import Delivery, Outbox

URL = "https://rebound.example/hook"


def drained(box: Outbox, delivery: Delivery) -> None:
    """``delivery`` handed to a started ``box``, which is stopped once it has
    nothing waiting (at most a thousand turns of the loop)."""

    async def run() -> None:
        box.start()
        box.send(delivery)
        for _ in range(1000):
            if box.waiting() == 0:
                break
            await asyncio.sleep(0.001)
        await box.stop()

    asyncio.run(run())


def posted(addresses: list[str], *, public_only: bool) -> tuple[list[httpx.Request], Outbox]:
    """Requests a delivery to :data:`URL` made, its host resolving to ``addresses``."""
    requests: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(204)

    async def resolve(host: str, port: int) -> list[str]:
        assert (host, port) == ("rebound.example", 443)
        return addresses

    box = Outbox(transport=httpx.MockTransport(handle), resolve=resolve, tries=1)

    drained(box, Delivery(URL, {"content": "roll"}, "a webhook", public_only=public_only))
    return requests, box


@pytest.mark.parametrize(
    "addresses", [["127.0.0.1"], ["93.184.216.34", "10.0.0.7"], ["::ffff:169.254.169.254"], []]
)
def test_a_webhook_whose_name_now_resolves_privately_is_not_posted(addresses: list[str]) -> None:
    requests, box = posted(addresses, public_only=True)
    assert requests == []
    assert box.counts.failed == 1 and box.counts.sent == 0


def test_a_webhook_whose_name_resolves_publicly_is_posted() -> None:
    requests, box = posted(["93.184.216.34"], public_only=True)
    assert [str(request.url) for request in requests] == [URL]
    assert box.counts.sent == 1


def test_a_delivery_not_marked_is_not_resolved_first() -> None:
    """Discord's own API (``--discord-api``, a local stand-in in tests) is no webhook."""
    requests, _ = posted(["127.0.0.1"], public_only=False)
    assert len(requests) == 1


def refused(url: str) -> str:
    with pytest.raises(Exception) as caught:
        webhooks.checked(url, "discord", resolve=lambda *_, **__: [(0, 0, 0, "", ("127.0.0.1", 0))])
    return str(getattr(caught.value, "error", caught.value))


@pytest.mark.parametrize(
    "url",
    [
        "https://0x7f.1/api/webhooks/1/a",
        "https://2130706433/api/webhooks/1/a",
        "https://017700000001/api/webhooks/1/a",
        "https://127.1/api/webhooks/1/a",
        "https://[::ffff:127.0.0.1]/api/webhooks/1/a",
        "https://[::1]/api/webhooks/1/a",
        "https://[fe80::1%25eth0]/api/webhooks/1/a",
        "https://localhost/api/webhooks/1/a",
    ],
)
def test_loopback_in_any_spelling_is_refused(url: str) -> None:
    """Numeric spellings are refused as IP addresses or by what they resolve to."""
    assert "IP address" in refused(url) or "private network" in refused(url)


@pytest.mark.parametrize(
    "url",
    ["https://discord.com@127.0.0.1/api/webhooks/1/a", "https://u:p@discord.com/api/webhooks/1/a"],
)
def test_credentials_in_the_url_are_refused(url: str) -> None:
    assert "user name or password" in refused(url)


MENTIONS = "@everyone @here <@123> <@&456> <!channel> <!here> <#789>"


def test_a_player_s_mentions_reach_no_one_through_a_webhook() -> None:
    message = {"content": MENTIONS, "embeds": [{"title": MENTIONS, "description": MENTIONS}]}
    discord = webhook_body(message, "discord")
    assert discord["allowed_mentions"] == {"parse": []}
    slack = str(webhook_body(message, "slack"))
    assert "<!" not in slack and "<@" not in slack and "<#" not in slack


def test_hanging_webhooks_never_crowd_out_discord_s_answers() -> None:
    """A GM's rooms, each with a webhook that never answers, filled with
    public rolls: the outbox's room for deliveries fills with theirs, and a
    slash command's answer (a deferred edit, a hidden roll's placeholder)
    must still be sent, not dropped."""
    sent: list[str] = []
    hang = asyncio.Event()

    async def handle(request: httpx.Request) -> httpx.Response:
        if request.url.host == "discord.test":
            sent.append(str(request.url))
            return httpx.Response(204)
        await hang.wait()  # a receiver that never answers
        return httpx.Response(204)

    box = Outbox(transport=httpx.MockTransport(handle))

    async def run() -> None:
        box.start()
        rooms = outbox_module.MOST_WAITING // outbox_module.MOST_EACH + 1
        for room in range(rooms):
            for seq in range(outbox_module.MOST_EACH):
                hook = f"https://hook{room}.example/h"
                box.send(Delivery(hook, {"seq": seq}, "a webhook", mirrored=True))
        answer = "https://discord.test/webhooks/1/token/messages/@original"
        box.send(Delivery(answer, {"content": "answer"}, "a Discord answer", "PATCH"))
        for _ in range(1000):
            if sent:
                break
            await asyncio.sleep(0.001)
        await box.stop()

    asyncio.run(run())
    assert sent == ["https://discord.test/webhooks/1/token/messages/@original"]
    assert box.counts.dropped > 0  # the webhooks' own were dropped past their bound


def test_a_webhook_s_url_is_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    """Its path is its secret (as an interaction's token is): not in the
    server's log even at INFO, httpx's own line of each request included."""
    caplog.set_level(logging.DEBUG)
    secret = "https://hooks.example/api/webhooks/1/s3cr3t-path"
    answers = iter([500, 404])

    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(next(answers, 204))

    box = Outbox(transport=httpx.MockTransport(handle), first_wait=0.001)

    drained(box, Delivery(secret, {"content": "roll"}, "room r's webhook, roll 1"))
    assert box.counts.retried == 1 and box.counts.failed == 1
    assert "roll 1" in caplog.text  # what was refused is said
    assert "s3cr3t" not in caplog.text


def test_a_redirect_is_not_followed() -> None:
    """A receiver answering 3xx to the table's own network is not followed there."""
    requests: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(307, headers={"location": "http://127.0.0.1:9/admin"})

    box = Outbox(transport=httpx.MockTransport(handle), tries=1)

    drained(box, Delivery(URL, {"content": "roll"}, "a webhook", mirrored=True))
    assert [str(request.url) for request in requests] == [URL]
