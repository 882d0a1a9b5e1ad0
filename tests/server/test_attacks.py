"""The probing attack, replayed as a player would against a real server: a roll
made to fail on the dice (``1/((4dF+4)/5-1)`` divides by zero exactly when
its 4dF comes up +1 or better) used to be refused with no entry and no nonce
spent, so a player who rolled ``4dF`` publicly after every failing probe
rolled +1 or better every time. Version 2 of the dice stream keeps every roll
whose dice were drawn (docs/fairness.md): each probe is in the log, spends its
nonce, and the player's public rolls after any number of probes are plain
4dF, which a chi-square test checks; and a probe made with another player's
client seed says nothing of their rolls, whose context holds their member id.
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import fudgedice
from fudgedice.stream import room_stream

Table = Any
"""A client of one server (the fixtures' ``Table``)."""

PROBE = "1/((4dF+4)/5-1)"
PUBLIC_ROLLS = 160
"""Public 4dF rolls the prober makes: enough for the test to tell plain 4dF
from the attack's (every roll +1 or better) with room to spare."""

PAGE = 500
"""Rolls read a request (the API's page)."""

FOUR_DF = [1, 4, 10, 16, 19, 16, 10, 4, 1]
"""Ways out of 81 of each 4dF total, -4 .. +4."""
BINS = ((-4, -3), (-2,), (-1,), (0,), (1,), (2,), (3, 4))
"""The totals in each bin of the test: the tails joined, so that every bin
expects about ten or more of the rolls."""
FALSE_ALARM = 1e-4
"""The test fails fair dice once in ten thousand runs (p below this)."""


def chi_square(totals: Iterable[int]) -> tuple[float, float]:
    """Pearson's statistic of 4dF totals against 4dF's distribution in
    :data:`BINS`, and its p-value: with six degrees of freedom (even), the
    chi-square survival function is exp(-x/2) (1 + x/2 + (x/2)^2 / 2)."""
    counted = Counter(totals)
    n = sum(counted.values())
    statistic = 0.0
    for totals_in in BINS:
        expected = n * sum(FOUR_DF[total + 4] for total in totals_in) / 81
        seen = sum(counted[total] for total in totals_in)
        statistic += (seen - expected) ** 2 / expected
    half = statistic / 2
    return statistic, math.exp(-half) * (1 + half + half * half / 2)


def test_the_chi_square_test_catches_the_old_attack() -> None:
    """The old behaviour, replayed offline under version 1 (one nonce for the
    room, a failed probe taking none): its public rolls fail the test."""
    seed, nonce, public = bytes(range(32)), 0, list[int]()
    while len(public) < PUBLIC_ROLLS:
        faces = fudgedice.roll("4dF", stream=room_stream(seed, "room", "", nonce)).tosses
        if sum(faces) >= 1:  # the probe failed, was refused, took no nonce:
            public.append(sum(faces))  # the public 4dF at this nonce draws these very dice
        nonce += 1  # either way, the public roll or the succeeding probe took it
    statistic, p = chi_square(public)
    assert min(public) >= 1
    assert p < 1e-30 and statistic > 100, (statistic, p)
    # and plain 4dF totals, the distribution itself, pass it
    exact = [total - 4 for total, ways in enumerate(FOUR_DF) for _ in range(ways)]
    assert chi_square(exact * 3)[0] < 1e-9


def probe_and_roll(table: Table, room: str, token: str) -> dict[str, Any]:
    """The attack: probe (alternately public and hidden); on a failure, roll 4dF
    publicly; otherwise the probe itself spent the draw. What it saw."""
    seen: dict[str, Any] = {"failed": [], "hidden_failed": [], "public": [], "probes": 0}
    while len(seen["public"]) < PUBLIC_ROLLS:
        hidden = seen["probes"] % 2 == 1
        seen["probes"] += 1
        probe = table.roll(room, token, PROBE, visibility="self" if hidden else "public")
        if probe.status_code == 201:
            continue
        body = probe.json()
        assert probe.status_code == 400 and body["error"].startswith("division by zero"), body
        seen["hidden_failed" if hidden else "failed"].append(body["seq"])
        rolled = table.roll(room, token, "4dF")
        assert rolled.status_code == 201, rolled.text
        seen["public"].append(rolled.json())
    return seen


def test_probes_are_logged_and_public_rolls_stay_fair(
    start_unlimited: Callable[[str], Any], table_of: Callable[[Any], Table], tmp_path: Path
) -> None:
    db = tmp_path / "table.sqlite3"
    table = table_of(start_unlimited(str(db)))
    made = table.room("Probing")
    room, gm = made["room"], made["gm_token"]
    ann = table.join(room, "Ann")
    bo = table.join(room, "Bo")
    seen = probe_and_roll(table, room, ann["token"])

    # every public roll is plain 4dF, however many probes failed before it
    statistic, p = chi_square(roll["total"] for roll in seen["public"])
    assert p > FALSE_ALARM, (statistic, p, Counter(r["total"] for r in seen["public"]))
    # and every probe took its nonce: Ann's nonces run on with no gap
    mine = [r for r in _all_rolls(table, room, ann["token"]) if r["member"] == ann["member"]]
    assert [r["nonce"] for r in mine] == list(range(len(mine)))
    assert len(mine) == seen["probes"] + PUBLIC_ROLLS
    failed = {r["seq"]: r for r in mine if r.get("failed")}
    assert set(failed) == set(seen["failed"]) | set(seen["hidden_failed"])
    assert seen["failed"] and seen["hidden_failed"]
    for roll in failed.values():
        assert roll["total"] is None and sum(roll["tosses"]) >= 1 and len(roll["tosses"]) == 4
    # another member sees the public probes as failed rolls, the hidden ones as placeholders
    by_seq = {r["seq"]: r for r in _all_rolls(table, room, bo["token"])}
    assert all(by_seq[seq]["failed"] and by_seq[seq]["error"] for seq in seen["failed"])
    assert all(by_seq[seq] == _placeholder(by_seq[seq]) for seq in seen["hidden_failed"])

    _another_members_seed_predicts_nothing(table, room, ann, bo)
    assert table.client.post(f"/api/rooms/{room}/reveal", headers=_bearer(gm)).status_code == 200
    _verifies(table, room, gm, tmp_path)
    _seed_in_database_is_the_revealed_one(db, room)


def _all_rolls(table: Table, room: str, token: str) -> list[dict[str, Any]]:
    rolls: list[dict[str, Any]] = []
    while True:
        page = table.rolls(room, token, after=rolls[-1]["seq"] if rolls else 0, limit=PAGE)
        if not page:
            return rolls
        rolls += page


def _placeholder(roll: dict[str, Any]) -> dict[str, Any]:
    """A hidden roll as another member reads it: who and when, nothing drawn."""
    assert roll["hidden"] is True
    assert not {"total", "tosses", "dice", "error", "text", "notation"} & set(roll)
    return roll


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _another_members_seed_predicts_nothing(
    table: Table, room: str, ann: dict[str, Any], bo: dict[str, Any]
) -> None:
    """Ann rolls with Bo's client seed, then Bo with his own: Bo's nonces are
    his alone (Ann's hundreds of rolls moved none), and the same client seed
    and nonce give Ann and Bo different dice (the member is in the context)."""
    bos_seed = "bo's lucky seed"
    for nonce in range(20):
        anns = table.roll(room, ann["token"], "10d6", client_seed=bos_seed).json()
        bos = table.roll(room, bo["token"], "10d6", client_seed=bos_seed).json()
        assert bos["nonce"] == nonce
        assert _values(anns) != _values(bos)


def _values(roll: dict[str, Any]) -> list[int]:
    return [die["value"] for die in roll["dice"]]


def _verifies(table: Table, room: str, gm: str, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from fudgedice.cli import main

    answer = table.get(f"/api/rooms/{room}/log", gm)
    assert answer.status_code == 200, answer.text
    log = tmp_path / "log.json"
    log.write_bytes(answer.content)
    assert answer.json()["format"] == "fudgedice-log/2"
    report = fudgedice.verify(answer.json())
    assert report.complete, report.failure
    result = CliRunner().invoke(main, ["verify", str(log)])
    assert result.exit_code == 0 and "verified: all" in result.output, result.output


def _seed_in_database_is_the_revealed_one(db: Path, room: str) -> None:
    """The host holds the seed (the test reads it where the server keeps it):
    the revealed seed is the one the database held while the rolls were made."""
    with sqlite3.connect(db) as connection:
        (seed,) = connection.execute(
            "SELECT seed FROM seeds WHERE room_id = ? AND epoch = 0", (room,)
        ).fetchone()
        (stream,) = connection.execute(
            "SELECT stream FROM seeds WHERE room_id = ? AND epoch = 0", (room,)
        ).fetchone()
    assert len(bytes.fromhex(seed)) == 32 and stream == 2
