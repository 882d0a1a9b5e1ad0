"""Every tamper of the issue makes ``verify`` fail and name the entry.

Each is tried twice: as a careless forger would (the entry edited, nothing
else) and as a careful one would (the edit made, then every digest, hash and
the head recomputed, and the entries renumbered, so that the chain is whole
again). The careless one is caught by the chain; the careful one by what no
forger can recompute: the dice the revealed seed gives, the nonces, the
commitment and the counts the reveal published.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from fudgedice import Session, verify

SEED = bytes(range(32))
SECOND_SEED = bytes(range(1, 33))

Log = dict[str, Any]


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def rechain(log: Log) -> Log:
    """What a careful forger does after an edit: renumber, re-digest every
    opened placeholder, recompute every hash and the head (the rules of
    docs/fairness.md, written here again)."""
    prev = "0" * 64
    for seq, entry in enumerate(log["entries"], 1):
        entry["seq"] = seq
        opening = entry.get("opening")
        if opening is not None:
            opening["entry"]["seq"] = seq
            salt = bytes.fromhex(opening["salt"])
            entry["digest"] = hashlib.sha256(salt + _canonical(opening["entry"])).hexdigest()
        entry["prev"] = prev
        body = {key: value for key, value in entry.items() if key not in ("hash", "opening")}
        entry["hash"] = prev = hashlib.sha256(prev.encode() + _canonical(body)).hexdigest()
    log["head"] = {"seq": len(log["entries"]), "hash": prev}
    return log


def played() -> Log:
    """Eight rolls under two seeds, three of them hidden, every seed revealed."""
    session = Session.new(server_seed=SEED)
    session.roll("4dF+1", roller="Ann", client_seed="ann-7", at="2025-06-01T19:30:00.000Z")
    session.roll("Good vs Great", roller="Bo", at="2025-06-01T19:31:00.000Z")
    session.roll("d6: 4D+2 vs Moderate", visibility="secret", at="2025-06-01T19:32:00.000Z")
    session.roll("3d6fudge: Good opp Great", roller="Ann", at="2025-06-01T19:33:00.000Z")
    session.roll("power: 4dF+2 adv vs 3", visibility="gm", at="2025-06-01T19:34:00.000Z")
    session.reveal(new_seed=SECOND_SEED)
    session.roll("4dF@3d6", roller="Bo", at="2025-06-01T20:00:00.000Z")
    session.roll("3d6!", visibility="secret", at="2025-06-01T20:01:00.000Z")
    session.roll("4d6kh3", roller="Ann", at="2025-06-01T20:02:00.000Z")
    session.reveal()
    return session.export()


LOG = played()


def test_the_untouched_log_verifies() -> None:
    report = verify(copy.deepcopy(LOG))
    assert report.complete, report.failure
    assert (report.entries, report.checked, report.pending) == (8, 8, 0)
    assert (report.seeds, report.revealed) == (2, 2)
    assert rechain(copy.deepcopy(LOG)) == LOG  # the forger's rules are the log's own


def _face(log: Log) -> None:
    log["entries"][3]["faces"][1] += 1  # seq 4


def _total(log: Log) -> None:
    log["entries"][3]["total"] += 1


def _text(log: Log) -> None:
    log["entries"][1]["text"] = "Great vs Great"  # seq 2: the same dice, a better trait


def _text_of_more_dice(log: Log) -> None:
    log["entries"][5]["text"] = "4dF@4d6"  # seq 6: tosses one die more than listed


def _swap(log: Log) -> None:
    entries = log["entries"]
    # seq 1 and 4, both Ann's: each member's nonces run on (another member's
    # rolls between them draw from streams of their own)
    entries[0], entries[3] = entries[3], entries[0]


def _remove(log: Log) -> None:
    del log["entries"][0]  # seq 1, Ann's first


def _remove_last(log: Log) -> None:
    del log["entries"][-1]  # seq 8


def _seed(log: Log) -> None:
    log["seeds"][0]["server_seed"] = SECOND_SEED.hex()


def _hidden(log: Log) -> None:
    log["entries"][2]["opening"]["entry"]["faces"][0] = 6  # seq 3, a secret roll


def _hidden_total(log: Log) -> None:
    log["entries"][6]["opening"]["entry"]["total"] += 5  # seq 7, a secret roll


TAMPERS: list[tuple[str, Callable[[Log], None], int, str, int, str]] = [
    # name, edit, careless: seq named and why, careful: seq named and why
    ("a face", _face, 4, "hash does not match", 4, "faces"),
    ("a total", _total, 4, "hash does not match", 4, "total"),
    ("a roll text", _text, 2, "hash does not match", 2, "total"),
    ("a roll text with more dice", _text_of_more_dice, 6, "hash does not match", 6, "more dice"),
    ("the order of two entries", _swap, 1, "numbered 4 where 1", 1, "nonce is 1 where 0"),
    ("an entry removed", _remove, 1, "numbered 2 where 1", 3, "nonce is 1 where 0"),
    ("the last entry removed", _remove_last, 8, "revealed after 3 rolls", 8, "after 3 rolls"),
    ("the revealed seed", _seed, 1, "does not hash", 1, "does not hash"),
    ("a hidden roll's revealed entry", _hidden, 3, "digest", 3, "faces"),
    ("a hidden roll's revealed total", _hidden_total, 7, "digest", 7, "total"),
]


@pytest.mark.parametrize(
    ("edit", "seq", "why"),
    [(edit, seq, why) for _, edit, seq, why, _, _ in TAMPERS],
    ids=[f"careless: {name}" for name, *_ in TAMPERS],
)
def test_a_careless_tamper_is_named(edit: Callable[[Log], None], seq: int, why: str) -> None:
    log = copy.deepcopy(LOG)
    edit(log)
    report = verify(log)
    assert report.failure is not None, "the tamper went unseen"
    assert (report.failure.seq, why in report.failure.reason) == (seq, True), report.failure
    assert not report.ok and not report.complete
    assert report.checked == seq - 1


@pytest.mark.parametrize(
    ("edit", "seq", "why"),
    [(edit, seq, why) for _, edit, _, _, seq, why in TAMPERS],
    ids=[f"careful: {name}" for name, *_ in TAMPERS],
)
def test_a_careful_tamper_is_named(edit: Callable[[Log], None], seq: int, why: str) -> None:
    log = copy.deepcopy(LOG)
    edit(log)
    report = verify(rechain(log))
    assert report.failure is not None, "the tamper went unseen"
    assert (report.failure.seq, why in report.failure.reason) == (seq, True), report.failure


def test_a_hidden_roll_without_its_opening_fails_once_revealed() -> None:
    log = copy.deepcopy(LOG)
    del log["entries"][2]["opening"]
    failure = verify(log).failure
    assert failure is not None and failure.seq == 3
    assert "has no opening" in failure.reason


def test_an_opening_must_repeat_its_placeholder() -> None:
    log = copy.deepcopy(LOG)
    log["entries"][2]["opening"]["entry"]["roller"] = "Ann"
    failure = verify(rechain(log)).failure
    assert failure is not None and failure.seq == 3
    assert "roller differ" in failure.reason


def test_a_placeholder_that_shows_its_roll_fails() -> None:
    log = copy.deepcopy(LOG)
    log["entries"][2]["total"] = 3
    failure = verify(rechain(log)).failure
    assert failure is not None and failure.seq == 3
    assert "shows its text, faces or total" in failure.reason


def test_a_roll_under_an_earlier_seed_after_a_later_one_fails() -> None:
    log = copy.deepcopy(LOG)
    entries = log["entries"]
    entries[4], entries[5] = entries[5], entries[4]  # seq 5 (seed 1) after seq 6 (seed 2)
    failure = verify(rechain(log)).failure
    assert failure is not None and failure.seq == 6
    assert "after a later seed took over" in failure.reason


def test_a_log_before_the_reveal_checks_the_chain_only() -> None:
    session = Session.new(server_seed=SEED)
    session.roll("4dF")
    session.roll("3d6", visibility="secret")
    log = session.export()
    report = verify(log)
    assert report.ok and not report.complete
    assert (report.checked, report.pending, report.revealed) == (0, 2, 0)
    log["entries"][0]["faces"][0] = 7
    assert verify(log).failure is not None


def test_ten_thousand_rolls_verify() -> None:
    session = Session.new(server_seed=SEED)
    texts = ("4dF+1", "Good vs Great", "d6: 3D+1", "3d6fudge: Good", "2d6+3")
    for index in range(10_000):
        session.roll(texts[index % 5], visibility="secret" if index % 50 == 0 else "public")
    session.reveal()
    report = verify(session.export())
    assert report.complete, report.failure
    assert report.checked == 10_000


def test_a_rewrite_that_keeps_the_dice_is_caught_by_a_published_hash() -> None:
    """A careful forger may give a roll another text that reads the same dice
    to the same total (another difficulty): the chain, rewritten whole, can't
    tell; a hash shown during play can."""
    published = {2: LOG["entries"][1]["hash"][:16], 8: LOG["head"]["hash"]}
    log = copy.deepcopy(LOG)
    log["entries"][1]["text"] = "Good vs Fair"  # the same dice and total: now a success
    forged = rechain(log)
    assert verify(forged).complete
    failure = verify(forged, published=published).failure
    assert failure is not None and failure.seq == 2
    assert "published for it" in failure.reason
    assert verify(copy.deepcopy(LOG), published=published).complete
    cut = verify(copy.deepcopy(LOG), published={9: "0" * 16}).failure
    assert cut is not None and cut.seq == 9


def test_dice_read_by_hand_take_their_place_and_no_nonce() -> None:
    session = Session.new(server_seed=SEED)
    session.roll("4dF")
    read = session.read("Good vs Great", ["+", "+", "0", "-"], roller="Ann")
    assert read.entry["by_hand"] is True and read.entry["nonce"] is None
    assert read.entry["faces"] == ["+", "+", "0", "-"] and read.entry["total"] == 2
    hidden = session.read("d6: 2D", ["4", "w6", "w2"], visibility="secret")
    assert hidden.entry["nonce"] is None and "faces" not in hidden.entry
    assert session.roll("4dF").entry["nonce"] == 1  # the reads took none
    before = verify(session.export())
    assert before.ok and (before.checked, before.pending, before.by_hand) == (1, 3, 1)
    session.reveal()
    log = session.export()
    report = verify(log)
    assert report.complete and (report.checked, report.by_hand) == (4, 2)
    assert "2 of them were dice read by hand" in str(report)
    assert log["seeds"][0]["rolls"] == 2
    log["entries"][1]["total"] = 3
    failure = verify(rechain(log)).failure
    assert failure is not None and failure.seq == 2 and "reading's total" in failure.reason
    log = session.export()
    log["entries"][1]["nonce"] = 1
    failure = verify(rechain(log)).failure
    assert failure is not None and failure.seq == 2 and "take no nonce" in failure.reason


def test_a_report_of_one_says_so_in_the_singular() -> None:
    """One roll, one entry, one seed: never "1 rolls" nor "1 entries"."""
    session = Session.new(server_seed=SEED)
    session.roll("4dF")
    pending = str(verify(session.export()))
    assert ": 1 entry, 1 seed, 0 revealed" in pending
    assert "0 rolls checked; 1 waits for its seed's reveal (only its place" in pending
    session.reveal()
    revealed = str(verify(session.export()))
    assert "verified: the 1 roll follows from its revealed seed, the hash chain" in revealed
    session = Session.new(server_seed=SEED)
    session.roll("4dF")
    session.roll("4dF")
    session.reveal()
    assert ": 2 entries, 1 seed" in str(verify(session.export()))
    assert "all 2 rolls follow from their revealed seeds" in str(verify(session.export()))
    assert not re.search(r"\b1 [a-z ]*(rolls|entries|seeds)\b", pending + revealed)
