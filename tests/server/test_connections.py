"""Slow and many connections against a real ``fudgedice serve``: half-sent
requests from one address do not keep another client from being served and
are closed after the header timeout; a body trickled slowly is cut off; one
address, and the process, hold at most so many connections (docs/table.md,
"Limits")."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from fudgedice.server.connections import most_connections

WAIT = 15.0
"""Seconds a socket waits for the server's answer before the test fails (the
server's timeouts here are a second or two; this only bounds a broken run)."""


def half_sent(port: int, source: str, text: bytes) -> socket.socket:
    """A connection from ``source`` (any 127.x.y.z is this machine) that sends
    ``text`` and no more."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=(source, 0))
    if text:
        sock.sendall(text)
    return sock


def answer_and_close(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return received
        received += chunk


def unanswered(sock: socket.socket) -> bool:
    """Open, and nothing sent to it yet."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    finally:
        sock.settimeout(WAIT)
    return False


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


@contextmanager
def closing_all(socks: list[socket.socket]) -> Iterator[list[socket.socket]]:
    try:
        yield socks
    finally:
        for sock in socks:
            sock.close()


HEAD = b"GET /api/health HTTP/1.1\r\nHost: table\r\nX-Slow: "


def test_half_sent_requests_do_not_stall_another_client(
    start_server: Callable[..., Any], tmp_path: Any
) -> None:
    server = start_server(
        str(tmp_path / "t.sqlite3"), "--header-timeout", "4", "--per-address", "20"
    )
    socks = [half_sent(server.port, "127.0.0.2", HEAD) for _ in range(25)]
    with closing_all(socks):
        # past the address's 20, a connection is answered 429 and closed at once
        refused = [answer_and_close(sock) for sock in socks[20:]]
        assert [status(answer) for answer in refused] == [429] * 5
        assert b'"error"' in refused[0]
        # another address is served while the 20 wait (still open, unanswered)
        health = httpx.get(f"{server.url}/api/health", timeout=WAIT)
        assert health.status_code == 200
        assert all(unanswered(sock) for sock in socks[:20])
        # each of the 20 is answered 408 and closed: none is held for good
        timed_out = [answer_and_close(sock) for sock in socks[:20]]
        assert [status(answer) for answer in timed_out] == [408] * 20
        assert b"headers" in timed_out[0]
    # and the address may connect again
    with closing_all([half_sent(server.port, "127.0.0.2", b"")]) as (again,):
        again.sendall(b"GET /api/health HTTP/1.1\r\nHost: table\r\nConnection: close\r\n\r\n")
        assert status(answer_and_close(again)) == 200


def test_a_connection_that_sends_nothing_is_closed(
    start_server: Callable[..., Any], tmp_path: Any
) -> None:
    server = start_server(str(tmp_path / "t.sqlite3"), "--header-timeout", "1")
    with closing_all([half_sent(server.port, "127.0.0.2", b"")]) as (idle,):
        assert status(answer_and_close(idle)) == 408


def test_a_body_trickled_slowly_is_cut_off(start_server: Callable[..., Any], tmp_path: Any) -> None:
    server = start_server(str(tmp_path / "t.sqlite3"), "--body-timeout", "1")
    head = (
        b"POST /api/rooms HTTP/1.1\r\nHost: table\r\nContent-Type: application/json\r\n"
        b"Content-Length: 200\r\n\r\n"
    )
    with closing_all([half_sent(server.port, "127.0.0.2", head)]) as (slow,):
        sent = 0
        slow.settimeout(0.25)
        answer = b""
        while sent < 200:  # a byte every quarter second: 50 s for the whole body
            try:
                slow.sendall(b" ")
                sent += 1
                answer = slow.recv(65536)
            except TimeoutError:
                continue
            except OSError:  # closed under us (a reset): read what was answered
                break
            if answer:
                break
        slow.settimeout(WAIT)
        answer += answer_and_close(slow) if answer else b""
        assert sent < 200, "the whole body was taken"
        assert status(answer) == 408 and b"body" in answer, answer


def test_the_process_holds_at_most_so_many_connections(
    start_server: Callable[..., Any], tmp_path: Any
) -> None:
    server = start_server(
        str(tmp_path / "t.sqlite3"), "--connections", "4", "--header-timeout", "2"
    )
    socks = [half_sent(server.port, f"127.0.0.{n}", HEAD) for n in range(2, 7)]
    with closing_all(socks):
        assert status(answer_and_close(socks[4])) == 503
        assert [status(answer_and_close(sock)) for sock in socks[:4]] == [408] * 4
    assert httpx.get(f"{server.url}/api/health", timeout=WAIT).status_code == 200


def test_connections_leave_files_for_the_database() -> None:
    assert most_connections(None, 1024) == 1024 - 128
    assert most_connections(None, 1_048_576) == 4096
    assert most_connections(100, 1024) == 100
    assert most_connections(5000, 1024) == 1024 - 128
    assert most_connections(20_000, 1_048_576) == 20_000
