"""A room's log over two seeds, every visibility in both: whoever exports it,
after the last reveal it verifies whole (every roll re-rolled from its seed),
with the API's ``fudgedice.verify`` and with ``fudgedice verify FILE``; a
tampered copy fails at the entry changed. On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

import fudgedice
from fudgedice.cli import main


def _reveal(served: Any, room: str, gm_token: str) -> None:
    answer = served.client.post(
        f"/api/rooms/{room}/reveal", headers={"Authorization": f"Bearer {gm_token}"}
    )
    assert answer.status_code == 200, answer.text


def _verify_file(log: dict[str, Any], path: Path) -> Any:
    path.write_text(json.dumps(log))
    return CliRunner().invoke(main, ["verify", str(path)])


def test_a_log_over_two_seeds_verifies_whole_for_every_reader(served: Any, tmp_path: Path) -> None:
    created = served.room("two seeds")
    room, gm = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")["token"]
    bob = served.join(room, "Bob")["token"]
    first: list[tuple[str, str, dict[str, Any]]] = [
        (ann, "4dF+1", {"visibility": "public", "label": "sneak"}),
        (ann, "3d6", {"visibility": "gm", "client_seed": "ann's"}),
        (bob, "Good vs Great", {"visibility": "self"}),
        (gm, "2d6+3", {"visibility": "secret", "label": "ambush"}),
    ]
    second: list[tuple[str, str, dict[str, Any]]] = [
        (bob, "4dF", {"visibility": "public"}),
        (gm, "Fair vs Mediocre", {"visibility": "secret"}),
        (ann, "4dF+2", {"visibility": "gm", "faces": ["+", "0", "-", "+"]}),
        (bob, "d6", {"visibility": "self", "client_seed": "bob"}),
    ]
    for token, text, extra in first:
        assert served.roll(room, token, text, **extra).status_code == 201
    _reveal(served, room, gm)
    for token, text, extra in second:
        assert served.roll(room, token, text, **extra).status_code == 201
    _reveal(served, room, gm)

    logs = {who: served.get(f"/api/rooms/{room}/log", token).json() for who, token in
            {"gm": gm, "ann": ann, "bob": bob}.items()}  # fmt: skip
    # one chain, whoever reads it: only the openings shown differ, and after the
    # reveals every hidden roll's opening is shown to everyone
    chains = {who: [entry["hash"] for entry in log["entries"]] for who, log in logs.items()}
    assert chains["gm"] == chains["ann"] == chains["bob"]
    assert [entry["seq"] for entry in logs["bob"]["entries"]] == list(range(1, 9))
    for who, log in logs.items():
        report = fudgedice.verify(log)
        assert report.ok and report.complete, (who, report)
        assert (report.entries, report.checked, report.seeds, report.revealed) == (8, 8, 3, 2)
        assert all("opening" in entry for entry in log["entries"] if entry.get("hidden"))
        verified = _verify_file(log, tmp_path / f"{who}.json")
        assert verified.exit_code == 0, verified.output
        assert "verified: all 8 rolls follow from their revealed seeds" in verified.output

    tampered = json.loads(json.dumps(logs["bob"]))
    secret = tampered["entries"][3]
    assert secret["hidden"] is True and secret["visibility"] == "secret"
    secret["opening"]["entry"]["total"] += 1  # the GM's secret roll, claimed otherwise
    failed = _verify_file(tampered, tmp_path / "tampered.json")
    assert failed.exit_code == 1 and "FAILED at seq 4" in failed.output
    shortened = json.loads(json.dumps(logs["ann"]))
    del shortened["entries"][5]  # a roll left out of the export
    failed = _verify_file(shortened, tmp_path / "shortened.json")
    assert failed.exit_code == 1 and "FAILED at seq" in failed.output
