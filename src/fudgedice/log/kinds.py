"""What ``verify`` checks of an entry by its kind, besides its place in the
chain and its dice (:mod:`.verifier`): a spend names an earlier roll of its
roller's and draws from its stream (:mod:`.spends`); a sheet change, a
play entry and a message (talk) draw nothing; the arithmetic of play runs
through all of them (:mod:`.play_checks`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .document import Failed, whole
from .play_checks import Ledger
from .play_rolls import PlayFailed
from .spends import spend_error


class KindChecks:
    """The checks by kind along the walk, and what they keep of earlier entries."""

    def __init__(self) -> None:
        self.earlier: dict[int, tuple[Mapping[str, Any], Mapping[str, Any] | None]] = {}
        """Each roll and spend so far, by seq: its link of the chain and its
        own fields (None while hidden), for the spends and plays that name it."""
        self.ledger = Ledger()

    def entry(
        self, position: int, entry: Mapping[str, Any], fields: Mapping[str, Any] | None
    ) -> None:
        """Checks the entry (its fields' shapes already checked) by its kind."""
        kind = entry.get("kind", "roll")
        try:
            if kind == "spend":
                self._spend(position, entry, fields)
            elif kind == "sheet":
                self.ledger.sheet(entry)
            elif kind == "play" and fields is not None:
                self.ledger.play(position, fields, self.earlier)
        except PlayFailed as failed:
            raise Failed(position, str(failed)) from None
        if kind in ("roll", "spend"):
            self.earlier[position] = (entry, fields)

    def rolled(self, position: int, margin: int | None) -> None:
        """A roll made again from its revealed seed: its shifts, for an advantage."""
        self.ledger.margins[position] = margin

    def _spend(
        self, position: int, entry: Mapping[str, Any], fields: Mapping[str, Any] | None
    ) -> None:
        """A point spent on an earlier roll of the same roller, from that
        roll's stream: its text is the roll's with the point, its faces
        begin with the roll's (docs/fairness.md); an invoke's arithmetic."""
        of = entry.get("of")
        earlier = self.earlier.get(of) if whole(of) else None
        of_entry, of_fields = earlier if earlier is not None else (None, None)
        wrong = spend_error(entry, fields, of_entry, of_fields, position)
        if wrong is not None:
            raise Failed(position, wrong)
        if fields is None:
            self.ledger.hidden_spend(entry)
        elif whole(of):  # spend_error found it a roll's
            self.ledger.spend(position, fields, self._root(of))

    def _root(self, seq: int) -> int:
        """The first roll of the chain of the roll ``seq`` (spends follow spends)."""
        while True:
            entry = self.earlier[seq][0]
            if entry.get("kind") != "spend":
                return seq
            seq = entry["of"]
