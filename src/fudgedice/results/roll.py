"""The public result of a roll: one shape for every system."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from .dice import DieRoll, Part, pools_of

Verdict = Literal["success", "failure", "tie", "win", "loss", "stand-off"]
"""How a check or an opposed roll came out; None for a plain roll.

``success``/``failure`` for a check against a difficulty (and a D6 System
opposed roll, whose ties go to the initiator); ``success``/``tie``/``failure``
for a Fudge opposed action, from the left side; ``win``/``loss``/``stand-off``
for a 3d6 Fudge opposed round."""


class Details(Protocol):
    """A system's own figures behind a result (a skill, a die code), typed."""

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(slots=True, repr=False)
class Roll:
    """A rolled expression: its total, every die's story, and what it means.

    Every system fills the same fields: ``verdict`` and ``margin`` for a
    check or an opposed roll, ``events`` named as in :attr:`Odds.events`
    (``success``, ``critical failure``, ...), ``sides`` holding both sides of
    an opposed roll, and ``details`` for the system's own figures.
    """

    notation: str
    system: str
    total: int
    """The result: a total, a rolled degree, or for an opposed roll the margin
    of the left side over the right."""
    parts: Part
    seed: int | str | None = None
    label: str | None = None
    verdict: Verdict | None = None
    margin: int | None = None
    events: list[str] = field(default_factory=list)
    result: str | None = None
    """The result in words: the ladder's name for it, or the verdict
    (``+3 Superb``, ``success vs 12 (+0)``)."""
    steps: list[str] = field(default_factory=list)
    """The steps a player would want spelled out (``ignored one - (advantage)``)."""
    sides: list[Roll] = field(default_factory=list)
    """Both sides of an opposed roll, left (initiator) first; empty otherwise."""
    details: Details | None = None
    title: str | None = None
    """How the head line names this roll (the notation, or one side of it)."""
    quick_read: bool = False
    """Explain Fudge dice the seeds' quick way (cancel +/- pairs) when shown."""
    tosses: list[int] = field(default_factory=list, repr=False)
    """Every face drawn from the dice stream, in the order drawn (which is the
    order the explanation lists the dice); empty for dice read by hand."""
    render: Callable[[Roll], str] | None = field(default=None, repr=False, compare=False)
    """The renderer that writes :attr:`text`; set by the program that rolled it,
    so results never import rendering."""
    render_html: Callable[[Roll], str] | None = field(default=None, repr=False, compare=False)
    """The renderer of the same explanation as HTML, for notebooks."""

    def apart(self) -> list[Roll]:
        """The sides whose dice the roll's own expression does not show: they
        are told on their own (a Fudge opposed action's right side), where a
        D6 System opposed roll shows both codes in one sum."""
        if not self.sides:
            return []
        own = {id(pool) for pool in pools_of(self.parts)}
        return [side for side in self.sides if not any(id(p) in own for p in pools_of(side.parts))]

    @property
    def dice(self) -> list[DieRoll]:
        """Every toss, in the order the expression shows them (sides included)."""
        own = [die for pool in pools_of(self.parts) for die in pool.dice]
        return own + [die for side in self.apart() for die in side.dice]

    @property
    def text(self) -> str:
        """The explanation: each die as it came up and what happened to it."""
        if self.render is None:
            raise ValueError("this roll was built by hand; fudgedice.render explains it")
        return self.render(self)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of docs/results.md: the same keys in every system."""
        out = self._core()
        out["sides"] = [side._core() for side in self.sides]
        out["seed"] = self.seed
        out["label"] = self.label
        out["text"] = self.text
        return out

    def _core(self) -> dict[str, Any]:
        return {
            "notation": self.title or self.notation,
            "system": self.system,
            "total": self.total,
            "verdict": self.verdict,
            "margin": self.margin,
            "result": self.result,
            "events": list(self.events),
            "dice": [die.to_dict() for die in self.dice],
            "steps": list(self.steps),
            "details": None if self.details is None else self.details.to_dict(),
        }

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        """One line: the roll and what it came to (``text`` tells every die)."""
        said = f", result={self.result!r}" if self.result is not None else ""
        return f"Roll({self.notation!r}, total={self.total}{said})"

    def _repr_html_(self) -> str | None:
        """The explanation as HTML, for Jupyter (None: a roll built by hand)."""
        return None if self.render_html is None else self.render_html(self)
