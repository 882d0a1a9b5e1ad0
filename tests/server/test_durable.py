"""Nothing is lost and nothing is out of order: a 201 survives SIGKILL, seq and
nonce have no gaps under concurrency (also across two processes on one
PostgreSQL), and each member's rolls are rate-limited."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

import fudgedice

WRITERS = 8
ROLLS_EACH = 25


def _sqlite(tmp_path: Path) -> str:
    return str(tmp_path / "table.sqlite3")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return _sqlite(tmp_path)
    pg = request.getfixturevalue("postgres")
    name = (
        f"durable_{request.node.name}".lower().replace("[", "_").replace("]", "").replace("-", "_")
    )
    url: str = pg.create_database(name)
    return url


def test_an_accepted_roll_survives_sigkill(
    database: str, start_server: Callable[..., Any], table_of: Callable[[Any], Any]
) -> None:
    first = start_server(database)
    table = table_of(first)
    created = table.room("durable")
    answer = table.roll(created["room"], created["gm_token"], "4dF+1", label="kept")
    assert answer.status_code == 201
    first.kill()  # straight after the 201: no shutdown runs
    again = table_of(start_server(database))
    rolls = again.rolls(created["room"], created["gm_token"])
    assert rolls == [answer.json()]
    assert again.roll(created["room"], created["gm_token"], "4dF").json()["seq"] == 2


def _hammer(tables: list[Any], room: str, tokens: list[str]) -> list[dict[str, Any]]:
    """Each writer rolls ROLLS_EACH times at once with the others."""
    made: list[dict[str, Any]] = []
    failures: list[str] = []
    lock = threading.Lock()

    def writer(index: int) -> None:
        table = tables[index % len(tables)]
        for _ in range(ROLLS_EACH):
            answer = table.roll(room, tokens[index], "4dF")
            with lock:
                if answer.status_code == 201:
                    made.append(answer.json())
                else:
                    failures.append(answer.text)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures[:3]
    return made


def _nonces_by(made: list[dict[str, Any]], *keys: str) -> dict[tuple[Any, ...], list[int]]:
    """Each member's nonces (by ``keys``: the member, the seed), in seq order."""
    nonces: dict[tuple[Any, ...], list[int]] = {}
    for roll in sorted(made, key=lambda roll: roll["seq"]):
        nonces.setdefault(tuple(roll[key] for key in keys), []).append(roll["nonce"])
    return nonces


def _no_gaps(made: list[dict[str, Any]], stored: list[dict[str, Any]]) -> None:
    total = WRITERS * ROLLS_EACH
    assert sorted(r["seq"] for r in made) == list(range(1, total + 1))
    # each member's nonces run 0, 1, 2, ... in the order of their seqs
    each = _nonces_by(made, "member")
    assert len(each) == WRITERS
    assert all(nonces == list(range(ROLLS_EACH)) for nonces in each.values()), each
    assert [r["seq"] for r in stored] == list(range(1, total + 1))
    assert {r["seq"]: r for r in stored} == {r["seq"]: r for r in made}


def test_seq_has_no_gaps_under_concurrency(
    database: str, start_unlimited: Callable[[str], Any], table_of: Callable[[Any], Any]
) -> None:
    table = table_of(start_unlimited(database))
    created = table.room("crowd")
    tokens = [table.join(created["room"], f"P{i}")["token"] for i in range(WRITERS)]
    made = _hammer([table], created["room"], tokens)
    _no_gaps(made, table.rolls(created["room"], created["gm_token"], limit=500))


def test_rolls_go_on_while_members_join_and_the_gm_reveals(
    database: str, start_unlimited: Callable[[str], Any], table_of: Callable[[Any], Any]
) -> None:
    """Other writes of the process (joining, revealing) take the database while
    rolls are made: every roll is still accepted, in order, and checkable."""
    table = table_of(start_unlimited(database))
    created = table.room("busy")
    room, gm = created["room"], created["gm_token"]
    tokens = [table.join(room, f"P{i}")["token"] for i in range(WRITERS)]
    done = threading.Event()
    others: list[int] = []

    as_gm = {"Authorization": f"Bearer {gm}"}

    def meanwhile() -> None:
        while not done.is_set() and len(others) < 200:
            joined = table.client.post(
                f"/api/rooms/{room}/members", json={"name": f"J{len(others)}"}
            )
            revealed = table.client.post(f"/api/rooms/{room}/reveal", headers=as_gm)
            others.extend((joined.status_code, revealed.status_code))

    thread = threading.Thread(target=meanwhile)
    thread.start()
    try:
        made = _hammer([table], room, tokens)
    finally:
        done.set()
        thread.join()
    assert others and set(others) <= {200, 201}
    stored = table.rolls(room, gm, limit=500)
    assert [r["seq"] for r in stored] == list(range(1, WRITERS * ROLLS_EACH + 1))
    assert {r["seq"]: r["hash"] for r in stored} == {r["seq"]: r["hash"] for r in made}
    # each member's nonces under each seed run from 0 with no gap, and the whole log
    # checks out
    by_seed = _nonces_by(stored, "commitment", "member")
    assert all(n == list(range(len(n))) for n in by_seed.values()), by_seed
    table.client.post(f"/api/rooms/{room}/reveal", headers=as_gm)
    report = fudgedice.verify(table.get(f"/api/rooms/{room}/log", gm).json())
    assert report.ok and report.complete, report


def test_two_processes_on_one_postgresql(
    postgres: Any, start_unlimited: Callable[[str], Any], table_of: Callable[[Any], Any]
) -> None:
    url = postgres.create_database("two_processes")
    one = table_of(start_unlimited(url))
    two = table_of(start_unlimited(url))
    created = one.room("two doors")
    room = created["room"]
    ann = two.join(room, "Ann")
    with (
        one.live(room, created["gm_token"]) as through_one,
        two.live(room, ann["token"]) as through_two,
    ):
        assert next(e for e in through_one if e[0] == "ready")
        assert next(e for e in through_two if e[0] == "ready")
        by_ann = two.roll(room, ann["token"], "4dF+1").json()
        assert next(d for e, d in through_one if e == "roll") == by_ann
        assert next(d for e, d in through_two if e == "roll") == by_ann
        by_gm = one.roll(room, created["gm_token"], "3d6", visibility="secret").json()
        assert next(d for e, d in through_two if e == "roll")["hidden"] is True
        assert next(d for e, d in through_one if e == "roll") == by_gm
    tokens = [(one if i % 2 else two).join(room, f"P{i}")["token"] for i in range(WRITERS)]
    made = _hammer([one, two], room, tokens)
    stored = one.rolls(room, created["gm_token"], limit=500)[2:]
    assert [r["seq"] for r in stored] == list(range(3, 3 + WRITERS * ROLLS_EACH))
    assert sorted(r["seq"] for r in made) == [r["seq"] for r in stored]
    each = _nonces_by(made, "member")
    assert len(each) == WRITERS
    assert all(nonces == list(range(ROLLS_EACH)) for nonces in each.values()), each
    # the two processes' rolls are one hash chain: revealed, the whole log verifies
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    assert one.client.post(f"/api/rooms/{room}/reveal", headers=gm).status_code == 200
    log = one.client.get(f"/api/rooms/{room}/log", headers=gm).json()
    assert [entry["seq"] for entry in log["entries"]] == list(range(1, len(made) + 3))
    report = fudgedice.verify(log)
    assert report.ok and report.complete, report


def test_each_member_is_rate_limited(
    tmp_path: Path, start_server: Callable[..., Any], table_of: Callable[[Any], Any]
) -> None:
    table = table_of(start_server(_sqlite(tmp_path), "--rate", "0.01", "--burst", "3"))
    created = table.room("slow down")
    ann = table.join(created["room"], "Ann")
    assert [table.roll(created["room"], ann["token"], "4dF").status_code for _ in range(3)] == [
        201
    ] * 3
    refused = table.roll(created["room"], ann["token"], "4dF")
    assert refused.status_code == 429 and refused.json()["error"]
    assert refused.headers["retry-after"]
    # another member's allowance is their own
    assert table.roll(created["room"], created["gm_token"], "4dF").status_code == 201
    assert len(table.rolls(created["room"], ann["token"])) == 4


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                # the parent is the 4th field after the command, which may hold spaces
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(entry.name))
    return found


def test_a_killed_server_leaves_no_measuring_process(
    tmp_path: Path, start_server: Callable[..., Any]
) -> None:
    server = start_server(_sqlite(tmp_path))
    assert (
        httpx.get(f"{server.url}/api/odds", params={"text": "4dF"}, timeout=30).status_code == 200
    )
    helpers = _children(server.process.pid)
    assert helpers, "the odds are measured in a process of the server's own"
    server.kill()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in helpers):
        time.sleep(0.2)
    left = {pid for pid in helpers if Path(f"/proc/{pid}").exists()}
    for pid in left:  # not to leave them to the next test
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert not left, "the measuring process outlived its server"
