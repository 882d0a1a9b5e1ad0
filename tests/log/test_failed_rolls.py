"""Drawn dice are never thrown away (docs/fairness.md, version 2): a roll that
fails once its dice are drawn is a failed roll of the log, with its faces and
its error, and spends its nonce; ``verify`` draws it again and checks that it
fails so."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from fudgedice import DiceError, Session, verify

Rechain = Callable[[dict[str, Any]], dict[str, Any]]
"""The ``rechained`` fixture: a log with every hash made again."""

SEED = bytes(range(32))
PROBE = "1/((4dF+4)/5-1)"
"""Fails (a division by zero) exactly when its 4dF comes up +1 or better."""


def played() -> tuple[Session, list[Any]]:
    session = Session.new(server_seed=SEED, room="room")
    made = [session.roll(PROBE, roller="Ann", client_seed="x") for _ in range(12)]
    made.append(session.roll(PROBE, roller="Ann", visibility="self", client_seed="x"))
    return session, made


def test_a_roll_that_fails_on_its_dice_is_logged_and_spends_its_nonce() -> None:
    session, made = played()
    failed = [logged for logged in made if logged.error is not None]
    assert 0 < len(failed) < len(made), "the seed gives both kinds"
    for nonce, logged in enumerate(made):
        fields = logged.entry if logged.opening is None else logged.opening["entry"]
        assert fields["nonce"] == nonce
        if logged.error is None:
            assert "error" not in fields and fields["total"] == logged.roll.total
            continue
        assert logged.roll is None
        assert fields["error"] == "division by zero: the divisor came up 0"
        assert fields["total"] is None and sum(fields["faces"]) >= 1 and len(fields["faces"]) == 4
    session.reveal()
    report = verify(session.export())
    assert report.complete and report.checked == len(made), report.failure


def test_a_refusal_that_depends_on_no_die_makes_no_entry() -> None:
    session = Session.new(server_seed=SEED)
    for text in ("1/0", "3d6kh4", "4dF +"):
        with pytest.raises(DiceError):
            session.roll(text)
    assert len(session) == 0


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda fields: fields.update(error="something else"), "is not its roll's"),
        (lambda fields: fields["faces"].append(1), "are not those its seed gives"),
        (lambda fields: fields.update(error=None), "its total is not a whole number"),
        (lambda fields: fields.update(total=1), "a failed roll has no total"),
    ],
)
def test_a_failed_roll_tampered_with_is_named(edit: Any, why: str, rechained: Rechain) -> None:
    session, made = played()
    session.reveal()
    log = session.export()
    seq = next(logged.entry["seq"] for logged in made if logged.error is not None)
    fields = log["entries"][seq - 1]
    edit(fields)
    if fields.get("error") is None:
        del fields["error"]
    failure = verify(rechained(copy.deepcopy(log))).failure
    assert failure is not None and failure.seq == seq and why in failure.reason, failure


def test_a_roll_listed_as_failed_that_rolls_is_named(rechained: Rechain) -> None:
    session, made = played()
    session.reveal()
    log = session.export()
    seq = next(logged.entry["seq"] for logged in made if logged.error is None)
    fields = log["entries"][seq - 1]
    fields.update(error="division by zero: the divisor came up 0", total=None)
    failure = verify(rechained(log)).failure
    assert failure is not None and failure.seq == seq
    assert "listed as failed, and its roll text rolls" in failure.reason


@pytest.mark.parametrize("text", ["20000d6", "6000d6+6000d6", "5000d6!+4000d6!"])
def test_a_roll_past_the_dice_limit_before_drawing_makes_no_entry(text: str) -> None:
    """The dice a roll may toss are counted from its text before any is drawn,
    explosions included (docs/notation.md): a roll that could pass the limit
    draws nothing, so no face of it is read, and it needs no entry."""
    session = Session.new(server_seed=SEED)
    with pytest.raises(DiceError, match="more than the limit of 10000"):
        session.roll(text)
    assert len(session) == 0
