"""``fudgedice serve --forwarded-allow-ips``: behind a trusted proxy each
player has the per-address allowances of their own address (the one the proxy
forwards for), and /metrics refuses a forwarded client that is not this
machine's; without the option, a forwarding header is ignored and every
request is its connection's address. Real processes on SQLite."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOMS = ("--address-burst", "2", "--address-rate", "0.01")
"""Two rooms an address, then none for the rest of the test."""


def rooms(server: Any, forwarded: str, count: int) -> list[int]:
    """The statuses of ``count`` rooms made by one client forwarded for ``forwarded``."""
    headers = {"X-Forwarded-For": forwarded}
    return [
        httpx.post(
            f"{server.url}/api/rooms", json={"name": "Table"}, headers=headers, timeout=30
        ).status_code
        for _ in range(count)
    ]


def metrics(server: Any, **headers: str) -> int:
    return httpx.get(f"{server.url}/metrics", headers=headers, timeout=30).status_code


def test_a_trusted_proxy_gives_each_player_their_own_allowance(
    start_server: Callable[..., Any], tmp_path: Path
) -> None:
    server = start_server(str(tmp_path / "t.sqlite3"), *ROOMS, "--forwarded-allow-ips", "127.0.0.1")
    assert rooms(server, "203.0.113.5", 3) == [201, 201, 429]
    assert rooms(server, "203.0.113.6", 2) == [201, 201]
    # the address written first by a client is not believed: the proxy's
    # right-most entry is the client it saw, whose allowance is spent
    assert rooms(server, "198.51.100.9, 203.0.113.5", 1) == [429]
    assert rooms(server, "2001:db8::7", 2) == [201, 201]


def test_metrics_refuse_a_forwarded_client_from_elsewhere(
    start_server: Callable[..., Any], tmp_path: Path
) -> None:
    server = start_server(str(tmp_path / "m.sqlite3"), "--forwarded-allow-ips", "127.0.0.0/8")
    assert metrics(server, **{"X-Forwarded-For": "203.0.113.5"}) == 403
    assert metrics(server, **{"X-Forwarded-For": "127.0.0.1"}) == 200
    assert metrics(server) == 200  # the proxy's own request, for none


def test_without_the_option_the_header_is_ignored(
    start_server: Callable[..., Any], tmp_path: Path
) -> None:
    server = start_server(str(tmp_path / "n.sqlite3"), *ROOMS)
    assert rooms(server, "203.0.113.5", 1) == [201]
    assert rooms(server, "203.0.113.6", 2) == [201, 429]  # one allowance: the connection's
    assert metrics(server, **{"X-Forwarded-For": "203.0.113.5"}) == 200  # loopback's
