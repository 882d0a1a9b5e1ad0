"""A roll that fails once its dice are drawn, through the API on SQLite and
PostgreSQL: answered 400 with its error and its seq, kept in the history, the
live feed and the log as a failed roll, its nonce spent; a refusal that
depends on no die takes no seq (docs/table.md)."""

from __future__ import annotations

from typing import Any

import fudgedice

PROBE = "1/((4dF+4)/5-1)"
PROBES = 40
"""Probes made: some fail and some roll, but for one run in hundreds of millions."""


def test_a_failed_roll_is_answered_with_its_seq_and_kept(served: Any) -> None:
    created = served.room("Failing")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")
    refused = served.roll(room, ann["token"], "1/0")
    assert refused.status_code == 400 and "seq" not in refused.json()
    with served.live(room, gm) as events:
        assert next(e for e in events if e[0] == "ready")
        answers = [served.roll(room, ann["token"], PROBE) for _ in range(PROBES)]
        fed = [next(d for e, d in events if e == "roll") for _ in range(PROBES)]
    failed = [answer.json() for answer in answers if answer.status_code == 400]
    assert failed and len(failed) < PROBES
    assert all(answer.status_code in (201, 400) for answer in answers)
    rolls = served.rolls(room, gm)
    assert [roll["seq"] for roll in rolls] == list(range(1, PROBES + 1))
    assert [roll["nonce"] for roll in rolls] == list(range(PROBES))  # Ann's own, all spent
    assert fed == rolls
    by_seq = {roll["seq"]: roll for roll in rolls}
    for body in failed:
        assert body["error"] == "division by zero: the divisor came up 0"
        kept: dict[str, Any] = by_seq[body["seq"]]
        assert kept["failed"] is True and kept["error"] == body["error"]
        assert kept["total"] is None and sum(kept["tosses"]) >= 1
    reveal = served.client.post(
        f"/api/rooms/{room}/reveal", headers={"Authorization": f"Bearer {gm}"}
    )
    assert reveal.status_code == 200
    assert all(roll["verified"] is True for roll in served.rolls(room, gm))
    log = served.get(f"/api/rooms/{room}/log", gm).json()
    assert log["format"] == "fudgedice-log/2"
    assert sum("error" in entry for entry in log["entries"]) == len(failed)
    report = fudgedice.verify(log)
    assert report.complete and report.checked == PROBES, report.failure
