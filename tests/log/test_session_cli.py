"""``session new`` / ``roll --session`` / ``session reveal`` / ``session
export`` / ``verify`` through click's runner, as a GM and the players would."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from fudgedice.cli import main
from fudgedice.stream import commitment


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    ok("session", "new", str(path))
    return path


def test_a_whole_session_verifies(game: Path, tmp_path: Path) -> None:
    published = re.search(
        r"commitment: ([0-9a-f]{64})", run("session", "new", str(tmp_path / "x")).output
    )
    assert published is not None
    data = json.loads(game.read_text())
    announced = data["log"]["seeds"][0]["commitment"]

    shown = ok("roll", "--session", str(game), "--as", "Ann", "Good vs Great").output
    assert shown.startswith("Good vs Great = ")
    line = shown.splitlines()[-1]
    assert re.fullmatch(r"logged: seq 1, nonce 0, hash [0-9a-f]{16}", line), line
    hidden = ok("roll", "--session", str(game), "--secret", "4dF+2").output
    # the GM's first roll: nonces are each roller's own
    assert "seq 2, nonce 0" in hidden and "placeholder until the reveal" in hidden
    ok("roll", "--session", str(game), "-n", "3", "--client-seed", "bo's dice", "d6: 3D")

    pending = run("verify", str(game))
    assert pending.exit_code == 3
    assert "5 wait for their seed's reveal" in pending.output

    export = tmp_path / "early.json"
    ok("session", "export", str(game), "-o", str(export))
    assert "4dF+2" not in export.read_text()
    assert json.loads(export.read_text())["seeds"][0]["server_seed"] is None

    revealed = ok("session", "reveal", str(game)).output
    seed = re.search(r"server seed: ([0-9a-f]{64})", revealed)
    assert seed is not None and commitment(bytes.fromhex(seed.group(1))) == announced
    assert "rolls: 5" in revealed

    refused = run("roll", "--session", str(game), "4dF")
    assert refused.exit_code == 2
    assert "this session's seed is revealed, so it rolls no more" in refused.output

    log = tmp_path / "log.json"
    ok("session", "export", str(game), "-o", str(log))
    assert "4dF+2" in log.read_text()
    assert log.stat().st_mode & 0o044 == 0o044  # a log is for everyone to read
    for path in (log, game):
        report = ok("verify", str(path))
        assert "verified: all 5 rolls follow from their revealed seeds" in report.output
    data = json.loads(ok("verify", str(log), "--json").output)
    assert data == {
        "ok": True,
        "complete": True,
        "room": "cli",
        "entries": 5,
        "checked": 5,
        "pending": 0,
        "seeds": 1,
        "revealed": 1,
        "failure": None,
        "by_hand": 0,
        "changes": 0,
        "played": 0,
        "waiting": 0,
        "talk": 0,
    }
    first_hash = line.rsplit(" ", 1)[1]
    ok("verify", str(log), "--hash", f"1:{first_hash}")
    wrong = run("verify", str(log), "--hash", f"2:{first_hash}")
    assert wrong.exit_code == 1 and "FAILED at seq 2" in wrong.output


def test_a_tampered_log_fails_and_names_the_entry(game: Path, tmp_path: Path) -> None:
    for text in ("4dF", "3d6", "d6: 2D"):
        ok("roll", "--session", str(game), text)
    ok("session", "reveal", str(game))
    log = tmp_path / "log.json"
    ok("session", "export", str(game), "-o", str(log))
    data: dict[str, Any] = json.loads(log.read_text())
    data["entries"][1]["total"] += 1
    log.write_text(json.dumps(data))
    failed = run("verify", str(log))
    assert failed.exit_code == 1
    assert "FAILED at seq 2: its hash does not match its content" in failed.output
    assert "1 entry checked before it" in failed.output
    report = json.loads(run("verify", str(log), "--json").output)
    assert report["failure"] == {
        "seq": 2,
        "reason": "its hash does not match its content: the entry was changed",
    }


def test_a_new_seed_goes_on(game: Path) -> None:
    ok("roll", "--session", str(game), "4dF")
    going_on = json.loads(ok("session", "reveal", str(game), "--new-seed", "--json").output)
    assert going_on["rolls"] == 1 and going_on["next_commitment"]
    rolled = json.loads(ok("roll", "--session", str(game), "4dF", "--json").output)
    assert rolled["log"]["nonce"] == 0 and rolled["log"]["seq"] == 2
    assert rolled["log"]["commitment"] == going_on["next_commitment"]
    assert run("verify", str(game)).exit_code == 3
    ok("session", "reveal", str(game))
    assert "2 rolls follow" in ok("verify", str(game)).output


def test_runs_into_a_session_are_one_entry_a_roll(game: Path) -> None:
    rolled = json.loads(ok("roll", "--session", str(game), "-n", "3", "3d6", "--json").output)
    assert [each["log"]["seq"] for each in rolled] == [1, 2, 3]
    assert [each["log"]["faces"] for each in rolled] == [
        [int(die["face"]) for die in each["dice"]] for each in rolled
    ]
    assert all(each["seed"] is None for each in rolled)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--seed", "3"), "--seed can't go with --session"),
        (("--d100-table", "1-100=0"), "--d100-table can't go with --session"),
    ],
)
def test_what_a_log_cannot_record_is_refused(
    game: Path, args: tuple[str, ...], message: str
) -> None:
    result = run("roll", "--session", str(game), *args, "4dF@d%")
    assert result.exit_code == 2 and message in result.output
    assert json.loads(game.read_text())["log"]["entries"] == []


def test_a_gm_rolls_blind_for_a_player(game: Path, tmp_path: Path) -> None:
    shown = ok("roll", "--session", str(game), "--as", "Ann", "--blind", "4dF+1 #notice").output
    # the GM, who runs the command, reads the roll; the log holds its placeholder
    assert shown.startswith("notice: 4dF+1 = "), shown
    assert "blind: the log, Ann's copy too, shows a placeholder until the reveal" in shown
    export = tmp_path / "early.json"
    ok("session", "export", str(game), "-o", str(export))
    entry = json.loads(export.read_text())["entries"][0]
    assert entry["visibility"] == "blind" and entry["hidden"] and "text" not in entry
    assert "notice" not in export.read_text()
    ok("session", "reveal", str(game))
    log = tmp_path / "log.json"
    ok("session", "export", str(game), "-o", str(log))
    assert "4dF+1" in log.read_text()  # opened at the reveal, as any hidden roll
    report = json.loads(ok("verify", str(log), "--json").output)
    assert (report["ok"], report["complete"], report["checked"]) == (True, True, 1)


def test_blind_is_a_players_roll_and_one_visibility(game: Path) -> None:
    alone = run("roll", "--session", str(game), "--blind", "4dF")
    assert alone.exit_code == 2 and "--blind rolls for a player (--as NAME)" in alone.output
    both = run("roll", "--session", str(game), "--as", "Ann", "--blind", "--secret", "4dF")
    assert both.exit_code == 2 and "choose one" in both.output
    assert json.loads(game.read_text())["log"]["entries"] == []


@pytest.mark.parametrize(
    "option", [("--as", "Ann"), ("--secret",), ("--blind",), ("--client-seed", "x")]
)
def test_session_options_need_a_session(option: tuple[str, ...]) -> None:
    result = run("roll", *option, "4dF")
    assert result.exit_code == 2
    assert "only go with a roll into a --session FILE" in result.output


def test_bad_files_are_messages(tmp_path: Path, game: Path) -> None:
    again = run("session", "new", str(game))
    assert again.exit_code == 2 and "never overwritten" in again.output
    missing = run("roll", "--session", str(tmp_path / "none.json"), "4dF")
    assert missing.exit_code == 2 and "can't update" in missing.output
    junk = tmp_path / "junk.json"
    junk.write_text("not json")
    for args in (("verify", str(junk)), ("session", "reveal", str(junk))):
        result = run(*args)
        assert result.exit_code == 2 and "is not JSON" in result.output
    log = tmp_path / "log.json"
    ok("session", "export", str(game), "-o", str(log))
    wrong = run("roll", "--session", str(log), "4dF")
    assert wrong.exit_code == 2 and "not a fudgedice session file" in wrong.output
    assert "for 'fudgedice verify'" in wrong.output
    bad_hash = run("verify", str(log), "--hash", "x:abc")
    assert bad_hash.exit_code == 2 and "--hash takes SEQ:HASH" in bad_hash.output
    short = run("verify", str(log), "--hash", "1:abc")
    assert short.exit_code == 2 and "16 to 64 lowercase hex digits" in short.output


def test_a_bad_roll_into_a_session_changes_nothing(game: Path) -> None:
    before = game.read_bytes()
    result = run("roll", "--session", str(game), "3d6kh4")
    assert result.exit_code == 2 and "can't keep 4 of 3 dice" in result.output
    result = run("roll", "--session", str(game), "--as", "a\tb", "3d6")
    assert result.exit_code == 2 and "control character" in result.output
    assert game.read_bytes() == before


def test_each_roll_takes_a_fresh_client_seed_and_a_failed_roll_is_kept(game: Path) -> None:
    for _ in range(2):
        ok("roll", "--session", str(game), "4dF")
    ok("roll", "--session", str(game), "--client-seed", "mine", "4dF")
    # fails when its 4dF comes up +1 or better: some of twenty rolls do
    failed = run("roll", "--session", str(game), "-n", "20", "1/((4dF+4)/5-1)")
    assert failed.exit_code == 2, failed.output
    assert "division by zero" in failed.output and "a failed roll, logged: seq" in failed.output
    entries = json.loads(game.read_text())["log"]["entries"]
    seeds = [entry["client_seed"] for entry in entries]
    assert all(re.fullmatch(r"[0-9a-f]{32}", seed) for seed in seeds[:2]) and seeds[2] == "mine"
    assert len(set(seeds)) == len(seeds)
    assert entries[-1]["error"].startswith("division by zero") and entries[-1]["total"] is None
    assert [entry["nonce"] for entry in entries] == list(range(len(entries)))
    ok("session", "reveal", str(game))
    assert f"all {len(entries)} rolls follow" in ok("verify", str(game)).output
