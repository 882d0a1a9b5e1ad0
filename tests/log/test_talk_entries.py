"""Talk and blind rolls in the log: a message's words checked, a hidden one
chained as a placeholder whose opening matches its digest; a log of talk and
a blind roll verifies before and after its seed's reveal, a private message
never opened by the reveal; each kind of tampering named at its entry."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

import fudgedice
from fudgedice.errors import DiceValueError
from fudgedice.log.canonical import FORMAT, GENESIS
from fudgedice.log.entries import roll_entry
from fudgedice.log.talk_entries import MAX_TALK, checked_talk, talk_entry, talk_fields_error
from fudgedice.stream import commitment

Rechain = Callable[[dict[str, Any]], dict[str, Any]]

SEED = bytes(range(32))
COMMITMENT = commitment(SEED)
ROOM = "room"


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("hello", "hello"),
        ("  two\r\nlines \n", "two\nlines"),
        ("x" * MAX_TALK, "x" * MAX_TALK),
        (" " + "é" * MAX_TALK + " ", "é" * MAX_TALK),
    ],
)
def test_a_messages_words_are_stripped(given: str, kept: str) -> None:
    assert checked_talk(given) == kept


@pytest.mark.parametrize("given", ["", "   ", "\n\n", "x" * (MAX_TALK + 1), "a\tb", "a\x00b",
                                   "a\rb", "a\x1bb", "a\x85b", "a\x7fb"])  # fmt: skip
def test_a_message_empty_too_long_or_with_a_control_character_is_refused(given: str) -> None:
    with pytest.raises(DiceValueError):
        checked_talk(given)


def _talk(seq: int, prev: str, **given: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    arguments = {"roller": "Ann", "member": "a1", "text": f"words {seq}", **given}
    return talk_entry(commitment=COMMITMENT, seq=seq, prev=prev, at="2026-11-27T00:00:00.000Z",
                      **arguments)  # fmt: skip


def test_a_public_message_is_its_fields_and_a_hidden_one_a_placeholder() -> None:
    public, none = _talk(1, GENESIS)
    assert none is None and public["kind"] == "talk" and public["text"] == "words 1"
    assert public["to"] is None and public["nonce"] is None and talk_fields_error(public) is None
    for visibility, to in (("gm", None), ("self", None), ("secret", None), ("whisper", "b2")):
        hidden, opening = _talk(2, public["hash"], visibility=visibility, to=to)
        assert opening is not None and opening["entry"]["to"] == to
        assert hidden["hidden"] is True and hidden["kind"] == "talk"
        assert not {"text", "to"} & set(hidden), hidden
        assert talk_fields_error(opening["entry"]) is None


@pytest.mark.parametrize(
    "given",
    [
        {"visibility": "whisper"},  # to no one
        {"visibility": "whisper", "to": "a1"},  # to oneself
        {"visibility": "public", "to": "b2"},  # to someone, and not whispered
        {"visibility": "blind"},  # words are read by whoever says them
        {"visibility": "loud"},
        {"text": " "},
        {"member": "a:1"},
    ],
)
def test_a_message_that_is_no_message_is_refused(given: dict[str, Any]) -> None:
    with pytest.raises(DiceValueError):
        _talk(1, GENESIS, **given)


def test_a_roll_is_never_whispered() -> None:
    with pytest.raises(DiceValueError, match="visibility"):
        roll_entry(server_seed=SEED, commitment=COMMITMENT, room=ROOM, seq=1, nonce=0,
                   prev=GENESIS, text="4dF", roller="Ann", member="a1",
                   visibility="whisper")  # fmt: skip


def _log() -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """A log of a blind roll, a public message and three hidden ones, under
    a seed not revealed yet; and each hidden entry's opening, by seq."""
    entries: list[dict[str, Any]] = []
    openings: dict[int, dict[str, Any]] = {}
    blind = roll_entry(server_seed=SEED, commitment=COMMITMENT, room=ROOM, seq=1, nonce=0,
                       prev=GENESIS, text="4dF+1", roller="Ann", member="a1",
                       visibility="blind")  # fmt: skip
    assert blind.opening is not None and blind.entry["visibility"] == "blind"
    entries.append(blind.entry)
    openings[1] = blind.opening
    for seq, given in enumerate(
        [{}, {"visibility": "whisper", "to": "b2"}, {"visibility": "gm"},
         {"visibility": "secret", "member": "g0", "roller": "GM"}], start=2,
    ):  # fmt: skip
        entry, opening = _talk(seq, entries[-1]["hash"], **given)
        entries.append(entry)
        if opening is not None:
            openings[seq] = opening
    seeds = [{"commitment": COMMITMENT, "server_seed": None, "rolls": None, "stream": 2}]
    head = {"seq": len(entries), "hash": entries[-1]["hash"]}
    return {"format": FORMAT, "room": ROOM, "seeds": seeds, "entries": entries,
            "head": head}, openings  # fmt: skip


def _revealed(log: dict[str, Any]) -> dict[str, Any]:
    log = copy.deepcopy(log)
    log["seeds"][0].update(server_seed=SEED.hex(), rolls=1)
    return log


def test_talk_and_a_blind_roll_verify_before_and_after_the_reveal() -> None:
    log, openings = _log()
    before = fudgedice.verify(log)
    assert before.ok and (before.talk, before.pending, before.checked) == (4, 1, 0), before
    assert "4 messages of talk" in str(before) and before.to_dict()["talk"] == 4
    # a reader of the whisper (its sender, or the one it is to) checks its words
    for entry in log["entries"]:
        entry["opening"] = openings.get(entry["seq"])
        if entry["opening"] is None:
            del entry["opening"]
    assert fudgedice.verify(log).ok

    after = _revealed(log)
    report = fudgedice.verify(after)
    assert report.ok and report.complete and (report.checked, report.talk) == (1, 4), report
    # a reader who may read no message: the blind roll is opened at the reveal, talk is not
    for entry in after["entries"][1:]:
        entry.pop("opening", None)
    report = fudgedice.verify(after)
    assert report.ok and report.complete and report.checked == 1, report
    del after["entries"][0]["opening"]
    failed = fudgedice.verify(after).failure
    assert failed is not None and failed.seq == 1 and "no opening" in failed.reason


def test_a_changed_message_fails_at_its_entry(rechained: Rechain) -> None:
    log, openings = _log()
    log["entries"][2]["opening"] = copy.deepcopy(openings[3])
    log["entries"][2]["opening"]["entry"]["text"] = "other words"
    failed = fudgedice.verify(log).failure
    assert failed is not None and failed.seq == 3 and "digest" in failed.reason

    public = copy.deepcopy(log)
    del public["entries"][2]["opening"]
    public["entries"][1]["text"] = "said otherwise"
    failed = fudgedice.verify(public).failure
    assert failed is not None and failed.seq == 2 and "hash" in failed.reason


@pytest.mark.parametrize(
    ("seq", "change", "reason"),
    [
        (2, {"text": "a\tb"}, "control character"),
        (2, {"text": " padded "}, "not stripped"),
        (2, {"to": "b2"}, "only a whisper"),
        (2, {"visibility": "blind", "hidden": True, "digest": "0" * 64}, "placeholder"),
        (2, {"nonce": 0}, "nonce"),
        (3, {"to": "b2"}, "whom it is to"),
        (3, {"text": "psst"}, "shows its text"),
        (4, {"visibility": "blind"}, "visibility"),
        (1, {"visibility": "whisper"}, "visibility"),
    ],
)
def test_a_forged_talk_or_blind_entry_is_named(
    rechained: Rechain, seq: int, change: dict[str, Any], reason: str
) -> None:
    log, _ = _log()
    log["entries"][seq - 1].update(change)
    failed = fudgedice.verify(rechained(log)).failure
    assert failed is not None and failed.seq == seq and reason in failed.reason, failed
