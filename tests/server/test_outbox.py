"""The outbox (server/outbox.py) against httpx's MockTransport: a delivery is
sent once the receiver takes it, tried again with back-off on a 5xx or a 429
(its ``retry_after`` honoured), given up on another 4xx; one address's
deliveries go in order; past its bounds a delivery is dropped and counted.
The waits between tries are recorded, not timed: ``asyncio.sleep`` is
replaced for the test by one that notes how long it was asked to wait."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import Any

import httpx
import pytest

from fudgedice.server import outbox as outbox_module
from fudgedice.server.outbox import Delivery, Outbox

URL = "https://hooks.example/hook"
REAL_SLEEP = asyncio.sleep
"""The event loop's own sleep, which the test's waits use."""


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def recording_sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The seconds each retry asked to wait; the wait itself skipped."""
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await REAL_SLEEP(0)

    monkeypatch.setattr(asyncio, "sleep", sleep)  # the outbox's waits between tries
    return waits


async def settled(box: Outbox) -> None:
    """Until nothing waits in ``box`` (bounded: a test that never settles fails)."""
    for _ in range(10_000):
        if box.waiting() == 0:
            return
        await REAL_SLEEP(0.001)
    raise AssertionError("the outbox never settled")


def answering(*statuses: tuple[int, dict[str, Any]]) -> tuple[list[httpx.Request], Outbox]:
    """An outbox whose receiver answers ``statuses`` in turn (then 204)."""
    requests: list[httpx.Request] = []
    answers = list(statuses)

    def handle(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        status, body = answers.pop(0) if answers else (204, {})
        return httpx.Response(status, json=body)

    return requests, Outbox(transport=httpx.MockTransport(handle), first_wait=0.5)


def test_a_5xx_is_tried_again_and_delivered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    waits = recording_sleeps(monkeypatch)
    requests, box = answering((500, {}), (502, {}))

    async def go() -> None:
        box.start()
        box.send(Delivery(URL, {"content": "roll 1"}, "roll 1"))
        await settled(box)
        await box.stop()

    run(go)
    assert [json.loads(each.content) for each in requests] == [{"content": "roll 1"}] * 3
    assert (box.counts.sent, box.counts.retried, box.counts.failed) == (1, 2, 0)
    # back-off: the first wait 0.5 s and the next twice that, each within a jitter of
    # 20 % (so the second may be as little as 0.8 / 0.6 of the first: never 1.5x for sure)
    assert len(waits) == 2 and 0.4 <= waits[0] <= 0.6 and 0.8 <= waits[1] <= 1.2


def test_a_429_waits_as_long_as_it_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    waits = recording_sleeps(monkeypatch)
    requests, box = answering((429, {"retry_after": 7.5, "global": False}))

    async def go() -> None:
        box.start()
        box.send(Delivery(URL, {"content": "x"}, "x"))
        await settled(box)
        await box.stop()

    run(go)
    assert len(requests) == 2 and box.counts.sent == 1
    assert waits == [7.5]


def test_a_404_is_given_up_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    waits = recording_sleeps(monkeypatch)
    requests, box = answering((404, {"message": "Unknown Webhook"}))

    async def go() -> None:
        box.start()
        box.send(Delivery(URL, {"content": "x"}, "x"))
        box.send(Delivery(URL, {"content": "y"}, "y"))
        await settled(box)
        await box.stop()

    run(go)
    # the first refused for good, the next one still sent
    assert [json.loads(each.content)["content"] for each in requests] == ["x", "y"]
    assert (box.counts.failed, box.counts.sent, waits) == (1, 1, [])


def test_one_address_in_order_and_the_bounds_drop_and_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recording_sleeps(monkeypatch)
    monkeypatch.setattr(outbox_module, "MOST_EACH", 5)
    monkeypatch.setattr(outbox_module, "MOST_WAITING", 8)
    seen: list[str] = []
    gate = asyncio.Event()

    async def handle(request: httpx.Request) -> httpx.Response:
        await gate.wait()  # the receiver hangs until the test lets it answer
        seen.append(f"{request.url.path} {json.loads(request.content)['n']}")
        return httpx.Response(204)

    box = Outbox(transport=httpx.MockTransport(handle))

    async def go() -> None:
        box.start()
        for n in range(7):  # 5 wait for /a, 2 dropped
            box.send(Delivery("https://hooks.example/a", {"n": n}, f"a {n}"))
        for n in range(5):  # 3 more fit in all, 2 dropped
            box.send(Delivery("https://hooks.example/b", {"n": n}, f"b {n}"))
        await REAL_SLEEP(0)
        assert box.waiting() == 8 and box.counts.dropped == 4
        gate.set()
        await settled(box)
        await box.stop()

    run(go)
    assert [each for each in seen if each.startswith("/a")] == [f"/a {n}" for n in range(5)]
    assert [each for each in seen if each.startswith("/b")] == [f"/b {n}" for n in range(3)]
    assert box.counts.sent == 8
