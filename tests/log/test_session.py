"""The session object, and its file: written atomically, locked, bounded."""

from __future__ import annotations

import copy
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

import fudgedice
from fudgedice import DiceError, DiceValueError, LimitError, Session, verify
from fudgedice.log import roll_entry, storage
from fudgedice.log.canonical import GENESIS
from fudgedice.stream import commitment, room_stream

SEED = bytes(range(32))
SRC = Path(__file__).resolve().parents[2] / "src"


def test_a_session_rolls_from_its_committed_seed() -> None:
    session = Session.new(server_seed=SEED)
    assert session.commitment == commitment(SEED)
    assert session.head == {"seq": 0, "hash": GENESIS}
    first = session.roll("4dF+1", roller="Ann", client_seed="lucky")
    second = session.roll("4dF+1", roller="Ann", client_seed="lucky")
    # each roll draws from the room's stream for its roller and its own nonce
    for logged, nonce in ((first, 0), (second, 1)):
        stream = room_stream(SEED, "cli", "lucky", nonce, member="Ann")
        expected = fudgedice.roll("4dF+1", stream=stream)
        assert logged.entry["faces"] == expected.tosses
        assert logged.roll is not None
        assert logged.entry["total"] == logged.roll.total == expected.total
        assert logged.entry["nonce"] == nonce
    assert second.entry["prev"] == first.hash
    assert session.head == {"seq": 2, "hash": second.hash}
    assert len(session) == 2


def test_a_bad_roll_makes_no_entry_and_takes_no_nonce() -> None:
    session = Session.new(server_seed=SEED)
    for bad in ("3d6kh4", "", "Good vs", 7):
        with pytest.raises(DiceError):
            session.roll(bad)  # type: ignore[arg-type]
    for field, value in (("roller", ""), ("roller", "a\nb"), ("client_seed", "x" * 65)):
        with pytest.raises(DiceValueError):
            session.roll("4dF", **{field: value})
    with pytest.raises(DiceValueError, match="visibility is one of"):
        session.roll("4dF", visibility="everyone")
    assert len(session) == 0
    assert session.roll("4dF").entry["nonce"] == 0


def test_hidden_rolls_are_placeholders_until_the_reveal() -> None:
    session = Session.new(server_seed=SEED)
    for visibility in ("gm", "self", "secret"):
        logged = session.roll("Good vs Great", visibility=visibility)
        assert logged.entry["hidden"] is True
        assert {"text", "faces", "total", "client_seed"}.isdisjoint(logged.entry)
        assert logged.opening is not None and logged.opening["entry"]["text"] == "Good vs Great"
    exported = json.dumps(session.export())
    assert "Good vs Great" not in exported
    assert SEED.hex() not in exported
    revealed = session.reveal()
    assert revealed.server_seed == SEED.hex() and revealed.rolls == 3
    assert revealed.next_commitment is None
    assert "Good vs Great" in json.dumps(session.export())
    assert verify(session.export()).complete


def test_a_revealed_session_rolls_no_more_unless_a_new_seed_follows() -> None:
    session = Session.new(server_seed=SEED)
    session.roll("3d6")
    session.reveal()
    assert not session.rolling
    with pytest.raises(DiceValueError, match="revealed, so it rolls no more"):
        session.roll("3d6")
    with pytest.raises(DiceValueError, match="already revealed"):
        session.reveal()
    going_on = Session.new(server_seed=SEED)
    going_on.roll("3d6")
    after = going_on.reveal(new_seed=True).next_commitment
    assert after is not None and after == going_on.commitment != commitment(SEED)
    assert going_on.roll("3d6").entry["nonce"] == 0
    report = verify(going_on.export())
    assert report.ok and (report.checked, report.pending, report.seeds) == (1, 1, 2)
    with pytest.raises(DiceValueError, match="32 random bytes"):
        going_on.reveal(new_seed=b"short")


def test_a_session_survives_its_state() -> None:
    session = Session.new(server_seed=SEED)
    session.roll("4dF", visibility="secret")
    session.roll("d6: 3D")
    state = json.loads(json.dumps(session.state()))
    again = Session.from_state(state)
    assert again.export() == session.export()
    assert again.roll("4dF").entry["nonce"] == 2
    for broken in (
        {},
        {"log": {"format": "x"}},
        {**state, "server_seed": "00" * 32},
        {**state, "openings": {"one": {}}},
        {**state, "log": {**state["log"], "room": "a:b"}},
    ):
        with pytest.raises(DiceValueError):
            Session.from_state(broken)


# -------------------------------------------------------------------- files


def test_a_session_file_is_private_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    storage.create(path, Session.new())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(DiceValueError, match="exists: a session file is never overwritten"):
        storage.create(path, Session.new())
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_an_update_is_whole_or_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    storage.create(path, Session.new(server_seed=SEED))
    with storage.updating(path) as session:
        session.roll("4dF")
    before = path.read_bytes()

    def crash(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with (
        pytest.raises(DiceValueError, match="No space left on device"),
        storage.updating(path) as s,
    ):
        s.roll("4dF")
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"], "a temporary file was left"
    # an error in the block writes nothing either
    with pytest.raises(DiceError), storage.updating(path) as s:
        s.roll("4dF")
        s.roll("3d6kh4")
    assert path.read_bytes() == before
    assert len(storage.load(path)) == 1


_ROLLER = """
import sys
from fudgedice.log import roll_entry, storage
for _ in range(int(sys.argv[2])):
    with storage.updating(sys.argv[1]) as session:
        session.roll("4dF+1", roller=sys.argv[3])
"""


def test_rolls_at_once_all_land(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    storage.create(path, Session.new())
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    writers = [
        subprocess.Popen([sys.executable, "-c", _ROLLER, str(path), "15", f"p{i}"], env=env)
        for i in range(3)
    ]
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0, 0]
    with storage.updating(path) as session:
        session.reveal()
    log = storage.read_log(path)
    assert len(log["entries"]) == 45
    assert verify(log).complete


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not JSON"),
        (b"{", "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[" * 100_000, "not JSON"),
        (b"1" * 5000, "not JSON"),
        (b'{"format": "fudgedice-log/1"}', "not a fudgedice session file"),
        (b"[]", "not a fudgedice session file"),
    ],
)
def test_a_bad_session_file_is_a_clear_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    with pytest.raises(DiceValueError, match=message):
        storage.load(path)
    with pytest.raises(DiceValueError, match=message), storage.updating(path):
        pass


def test_unreadable_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(DiceValueError, match="can't read"):
        storage.load(tmp_path / "missing.json")
    with pytest.raises(DiceValueError, match="can't read"):
        storage.read_log(tmp_path)
    with (
        pytest.raises(DiceValueError, match="can't update"),
        storage.updating(tmp_path / "missing.json"),
    ):
        pass


def test_files_are_read_with_a_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps({"entries": ["x" * 500]}))
    small = fudgedice.limits.Limits(max_log_bytes=100)
    monkeypatch.setattr(storage, "DEFAULT_LIMITS", small)
    with pytest.raises(LimitError, match="larger than the limit"):
        storage.read_log(path)


# -------------------------------------------------- logs nobody can trust


def _log() -> dict[str, Any]:
    session = Session.new(server_seed=SEED)
    session.roll("4dF+1", roller="Ann")
    session.roll("d6: 3D", visibility="secret")
    session.roll("3d6fudge: Good")
    session.reveal()
    return session.export()


LOG = _log()

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.floats(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


PATHS = _paths(LOG)[1:]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), JSON, st.booleans()), min_size=1, max_size=3))
def test_any_mangled_log_gets_a_report(edits: list[tuple[tuple[Any, ...], Any, bool]]) -> None:
    log = copy.deepcopy(LOG)
    for path, value, delete in edits:
        holder: Any = log
        try:
            for step in path[:-1]:
                holder = holder[step]
            if delete and isinstance(holder, dict):
                holder.pop(path[-1], None)
            else:
                holder[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    report = verify(log)  # never raises: whatever is wrong is a failure
    assert report.ok == (report.failure is None)
    if report.failure is not None:
        assert report.failure.reason
        assert report.failure.seq is None or 1 <= report.failure.seq <= 4


@pytest.mark.parametrize(
    "log", [None, [], "log", {}, {"format": "fudgedice-log/1"}, {**LOG, "room": 3}]
)
def test_not_a_log_is_a_failure(log: object) -> None:
    report = verify(log)
    assert report.failure is not None and report.failure.seq is None


@pytest.mark.parametrize("seq", [-1, -(10**20)])
def test_a_head_naming_a_seq_below_zero_is_the_heads_failure(seq: int) -> None:
    """Found by the mangling test above: the head's seq -1 was reported as a
    failure of entry 0, which no log has."""
    log = copy.deepcopy(LOG)
    log["head"]["seq"] = seq
    report = verify(log)
    assert report.failure is not None and report.failure.seq is None
    assert f"its head names seq {seq}" in report.failure.reason


def test_a_log_past_the_limits_is_refused() -> None:
    many = {**LOG, "entries": [{}] * 100_001}
    with pytest.raises(LimitError, match="100,001 entries"):
        verify(many)
    heavy = copy.deepcopy(LOG)
    heavy["entries"][0]["faces"] = [1] * 1_000_001
    with pytest.raises(LimitError, match="faces is more than the limit of 1,000,000"):
        verify(heavy)


def test_a_table_builds_entries_with_fields_of_its_own() -> None:
    """What a server stores per roll (a member id, a label) rides in the entry:
    hashed, hidden with a hidden roll unless shown on purpose."""
    seed = bytes(range(32))
    made = roll_entry(
        server_seed=seed,
        commitment=commitment(seed),
        room="room7",
        seq=1,
        nonce=0,
        prev=GENESIS,
        text="d6: 3D+1",
        roller="Ann",
        visibility="gm",
        member="m-12",
        extra={"label": "<b>sneak</b>"},
    )
    assert made.entry["member"] == "m-12" and "label" not in made.entry
    assert made.opening is not None and made.opening["entry"]["label"] == "<b>sneak</b>"
    revealed = {"commitment": commitment(seed), "server_seed": seed.hex(), "rolls": 1}
    log = {
        "format": "fudgedice-log/2",
        "room": "room7",
        "seeds": [{**revealed, "stream": 2}],
        "entries": [{**made.entry, "opening": made.opening}],
        "head": {"seq": 1, "hash": made.hash},
    }
    assert verify(log).complete
    # drawn without the member in its context, it fails; as a log of version 1, whose
    # seeds draw so, it verifies
    old = roll_entry(
        server_seed=seed, commitment=commitment(seed), room="room7", seq=1, nonce=0,
        prev=GENESIS, text="d6: 3D+1", roller="Ann", member="m-12", stream=1,
    )  # fmt: skip
    assert old.entry["faces"] != made.opening["entry"]["faces"]
    as_v1 = {**log, "format": "fudgedice-log/1", "seeds": [revealed], "entries": [old.entry]}
    assert verify({**as_v1, "head": {"seq": 1, "hash": old.hash}}).complete
    failure = verify({**log, "entries": [old.entry], "head": {"seq": 1, "hash": old.hash}}).failure
    assert failure is not None and "are not those its seed gives" in failure.reason
    with pytest.raises(DiceValueError, match="named as the log's own"):
        roll_entry(
            server_seed=seed,
            commitment=commitment(seed),
            room="room7",
            seq=1,
            nonce=0,
            prev=GENESIS,
            text="4dF",
            roller="Ann",
            extra={"total": 99},
        )
