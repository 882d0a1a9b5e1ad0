"""Points spent on a roll and sheet changes as entries of the log: the texts a
spend makes, its dice drawn again from the roll's own stream, and verify's
checks of both kinds, hidden or public (docs/fairness.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import fudgedice
from fudgedice.errors import DiceValueError
from fudgedice.log.canonical import GENESIS
from fudgedice.log.entries import roll_entry
from fudgedice.log.sheet_entries import sheet_entry
from fudgedice.log.spends import spend_entry, spent_text
from fudgedice.stream import commitment

Rechain = Callable[[dict[str, Any]], dict[str, Any]]
"""The ``rechained`` fixture: a log with every hash made again."""

SEED = bytes(range(32))
COMMITMENT = commitment(SEED)
ROOM = "room"


@pytest.mark.parametrize(
    ("text", "point", "spent"),
    [
        ("d6: 4D+1 vs 15", "cp", "d6: 4D+1 cp1 vs 15"),
        (
            "d6: 4D+1 cp2 wound=severely vs 15 # Jax",
            "cp",
            "d6: 4D+1 cp3 wound=severely vs 15 # Jax",
        ),
        ("d6: 3D", "cp", "d6: 3D cp1"),
        (
            "fate: Great vs Great # Cynere, Fight",
            "invoke",
            "fate: Great+2 vs Great # Cynere, Fight",
        ),
        ("fate: Great reroll=tie opp Good", "invoke", "fate: Great+2 reroll=tie opp Good"),
        ("fate: Great+2 vs Good", "reroll", "fate: Great+2 reroll=style vs Good"),
    ],
)
def test_the_text_of_a_spend(text: str, point: str, spent: str) -> None:
    assert spent_text(text, point) == spent


@pytest.mark.parametrize(
    ("text", "point", "why"),
    [
        ("4dF+1 vs Fair", "cp", "spent on a d6 roll, not a fudge one"),
        ("d6: 4D vs 15", "invoke", "spent on a fate roll, not a d6 one"),
        ("fate: Good reroll vs Great", "reroll", "spent its reroll invoke already"),
        ("fate: Good vs Great", "luck", "no point spent after a roll"),
    ],
)
def test_a_spend_a_roll_cannot_take(text: str, point: str, why: str) -> None:
    with pytest.raises(DiceValueError, match=why):
        spent_text(text, point)


class Log:
    """A room's log made entry by entry, as a table makes it."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.own: dict[int, dict[str, Any]] = {}
        self.nonces: dict[str, int] = {}
        """Each member's next nonce."""

    @property
    def nonce(self) -> int:
        """Nonces taken, every member's together: a revealed seed's rolls."""
        return sum(self.nonces.values())

    @property
    def prev(self) -> str:
        return str(self.entries[-1]["hash"]) if self.entries else GENESIS

    def roll(self, text: str, roller: str = "Ann", visibility: str = "public") -> int:
        seq, member = len(self.entries) + 1, roller.lower()
        logged = roll_entry(
            server_seed=SEED, commitment=COMMITMENT, room=ROOM, seq=seq,
            nonce=self.nonces.get(member, 0), prev=self.prev, text=text, roller=roller,
            visibility=visibility, member=member,
        )  # fmt: skip
        self.nonces[member] = self.nonces.get(member, 0) + 1
        return self._keep(logged.entry, logged.opening)

    def spend(self, of: int, point: str) -> int:
        logged = spend_entry(
            server_seed=SEED, room=ROOM, seq=len(self.entries) + 1, prev=self.prev,
            of=self.own[of], point=point,
        )  # fmt: skip
        return self._keep(logged.entry, logged.opening)

    def change(self, roller: str, visibility: str = "gm") -> int:
        entry, opening = sheet_entry(
            commitment=COMMITMENT, seq=len(self.entries) + 1, prev=self.prev, roller=roller,
            action="hit", character="Jax", change="Jax took a hit", sheet_text="name = 'Jax'",
            visibility=visibility,
        )  # fmt: skip
        return self._keep(entry, opening)

    def _keep(self, entry: dict[str, Any], opening: dict[str, Any] | None) -> int:
        if opening is not None:
            entry = {**entry, "opening": opening}
        self.entries.append(entry)
        self.own[entry["seq"]] = entry if opening is None else opening["entry"]
        return int(entry["seq"])

    def document(self, revealed: bool = True) -> dict[str, Any]:
        seed: dict[str, Any] = {
            "commitment": COMMITMENT, "server_seed": None, "rolls": None, "stream": 2
        }  # fmt: skip
        if revealed:
            seed.update(server_seed=SEED.hex(), rolls=self.nonce)
        return {
            "format": "fudgedice-log/2",
            "room": ROOM,
            "seeds": [seed],
            "entries": self.entries,
            "head": {"seq": len(self.entries), "hash": self.prev},
        }


def test_spends_and_changes_verify_hidden_or_public() -> None:
    log = Log()
    first = log.roll("d6: 4D+1 vs 15")
    cp = log.spend(first, "cp")
    again = log.spend(cp, "cp")
    fight = log.roll("fate: Great vs Superb", visibility="self")
    invoked = log.spend(fight, "invoke")
    log.change("Ann")
    log.roll("3d6", roller="Bob")
    own = log.own
    assert own[cp]["text"] == "d6: 4D+1 cp1 vs 15" and own[again]["text"].endswith("cp2 vs 15")
    assert own[cp]["faces"][: len(own[first]["faces"])] == own[first]["faces"]
    assert len(own[cp]["faces"]) > len(own[first]["faces"])
    assert own[invoked]["total"] == own[fight]["total"] + 2
    assert own[invoked]["faces"] == own[fight]["faces"]
    hidden = log.entries[invoked - 1]
    assert hidden["hidden"] and hidden["kind"] == "spend" and hidden["of"] == fight
    assert "text" not in hidden and "faces" not in hidden

    report = fudgedice.verify(log.document())
    assert report.ok and report.complete, report
    assert (report.entries, report.checked, report.changes, report.pending) == (7, 6, 1, 0)
    assert "1 sheet change: in their place in the chain" in str(report)
    # nothing revealed or opened: every entry waits (rolls for the seed, hidden ones for
    # their openings), and nothing fails
    unopened = Log()
    unopened.entries = [{k: v for k, v in e.items() if k != "opening"} for e in log.entries]
    unopened.nonces = log.nonces
    pending = fudgedice.verify(unopened.document(revealed=False))
    assert pending.ok and (pending.checked, pending.pending) == (0, 7), pending


def test_a_spend_must_be_its_rollers_and_its_rolls(rechained: Rechain) -> None:
    log = Log()
    ann = log.roll("d6: 3D vs 10")
    log.roll("d6: 3D vs 10", roller="Bob")
    log.spend(ann, "cp")
    good = log.document()
    assert fudgedice.verify(good).ok

    stolen = rechained({**good, "entries": [dict(e) for e in good["entries"]]})
    stolen["entries"][2].update(of=2)  # Ann's spend claimed on Bob's roll
    failure = fudgedice.verify(rechained(stolen)).failure
    assert (
        failure is not None and failure.seq == 3 and "roller is not that of seq 2" in failure.reason
    )

    skipped = {**good, "entries": [dict(e) for e in good["entries"]]}
    skipped["entries"][2].update(nonce=1)  # its own nonce, as if the spend were a new roll
    failure = fudgedice.verify(rechained(skipped)).failure
    assert (
        failure is not None and failure.seq == 3 and "nonce is not that of seq 1" in failure.reason
    )


def test_spends_the_dice_refuse() -> None:
    log = Log()
    # an opposed roll's Character Point dice come after both sides' other dice: a
    # die spent after the roll comes last, unless the other side has some, whose
    # draws it would take
    opposed = log.roll("d6: 3D opp 3D")
    spent = log.spend(opposed, "cp")
    assert log.own[spent]["faces"][:-1] == log.own[opposed]["faces"]
    both = log.roll("d6: 3D opp 3D cp1")
    with pytest.raises(DiceValueError, match="the other side spends Character Points too"):
        log.spend(both, "cp")
    # a reroll of a roll that already succeeds with style rolls nothing new
    styled = log.roll("fate: Legendary+5 vs Mediocre")
    with pytest.raises(DiceValueError, match="already succeeds with style"):
        log.spend(styled, "reroll")


def test_a_sheet_changes_placeholder_shows_nothing_of_it(rechained: Rechain) -> None:
    log = Log()
    log.change("Ann")
    placeholder = log.entries[0]
    assert placeholder["hidden"] and placeholder["kind"] == "sheet"
    assert not {"change", "character", "action", "sheet"} & set(placeholder)
    leaked = {**log.document(), "entries": [{**placeholder, "change": "Jax took a hit"}]}
    failure = fudgedice.verify(rechained(leaked)).failure
    assert failure is not None and failure.seq == 1
