"""What a roll's outcome means, stated once per program: the verdict and
every event, as a table over a small resolved state (the total, and the few
facts a total alone does not tell, such as a Wild Die's first 1).

A system declares :class:`Outcomes`; the base program applies the one
declaration to a roll (:meth:`Outcomes.resolve`), to exact odds
(:meth:`Outcomes.chances`) and to samples (:meth:`Outcomes.sampled`), so the
three cannot name or bound an event differently; a roll's facts come from
the roll, a fact's chance and samples from the system, and
``tests/systems/test_outcome_agreement.py`` holds all three equal for every
system.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # NumPy is imported by the samplers alone
    import numpy as np
    import numpy.typing as npt

    from ..exact.odds import Odds
    from ..results.roll import Verdict


class Band:
    """An event that happens when the total lies from ``low`` to ``high``
    (None: no bound) and, with ``parity``, has that remainder mod 2; a
    ``verdict`` band's event is the roll's verdict (``success``, ``tie``, ...)."""

    # Plain classes, not dataclasses: a declaration made while a command
    # starts (a roll's first) compiles no __init__ it would not use.
    __slots__ = ("event", "high", "low", "parity", "verdict")

    def __init__(
        self,
        event: str,
        low: int | None = None,
        high: int | None = None,
        verdict: bool = False,
        parity: int | None = None,
    ) -> None:
        self.event, self.low, self.high = event, low, high
        self.verdict, self.parity = verdict, parity

    def holds(self, total: int) -> bool:
        if self.low is not None and total < self.low:
            return False
        if self.high is not None and total > self.high:
            return False
        return self.parity is None or total % 2 == self.parity


class Fact:
    """Something a roll shows beyond its total (a Wild Die's first 1, a
    reroll invoke spent), and the events it makes happen. ``told``: a roll
    lists them among its own events (False for one it tells in its details
    instead, as a Fate roll its reroll invokes spent)."""

    __slots__ = ("events", "name", "told")

    def __init__(self, name: str, events: tuple[str, ...], told: bool = True) -> None:
        self.name, self.events, self.told = name, events, told


class Outcomes:
    """The verdict and events of a program's rolls: bands over the total, in
    the order the odds list them, then the facts' events."""

    __slots__ = ("bands", "facts")

    def __init__(self, bands: tuple[Band, ...] = (), facts: tuple[Fact, ...] = ()) -> None:
        self.bands, self.facts = bands, facts

    def resolve(self, total: int, facts: Sequence[str] = ()) -> tuple[Verdict | None, list[str]]:
        """The verdict and the events of a roll: the verdict first, the other
        bands that hold in order, then the events of each fact shown."""
        verdict: Verdict | None = None
        events: list[str] = []
        for band in self.bands:
            if band.verdict and verdict is None and band.holds(total):
                verdict = band.event  # type: ignore[assignment]  # a verdict band's names
                events.insert(0, band.event)
        for band in self.bands:
            if not band.verdict and band.event not in events and band.holds(total):
                events.append(band.event)
        for fact in self.facts:
            if fact.told and fact.name in facts:
                events.extend(event for event in fact.events if event not in events)
        return verdict, events

    def names(self, rolled: bool = False) -> list[str]:
        """Every event, in the odds' order (``rolled``: those a roll lists)."""
        names = [band.event for band in self.bands]
        facts = [fact for fact in self.facts if fact.told or not rolled]
        names += [event for fact in facts for event in fact.events]
        return list(dict.fromkeys(names))

    def chances(
        self, odds: Odds, facts: Mapping[str, Fraction] | None = None
    ) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
        """Each event's exact chance under ``odds`` (of the total), and how
        much more it may be where a cut-off tail straddles its band; a fact's
        events take the fact's chance from ``facts``."""
        from ..exact.odds import Chance  # here: a roll measures no odds

        events: dict[str, Fraction] = {}
        uncertain: dict[str, Fraction] = {}
        for band in self.bands:
            low, high = band.low, band.high
            if band.parity is not None:
                chance = odds.chance_where(band.holds)
            elif low is not None and high is not None and low > high:
                chance = Chance(Fraction(0), Fraction(0))  # an empty band
            else:
                chance = odds.chance_between(low, high)
            events[band.event], uncertain[band.event] = chance.p, chance.uncertain
        for fact in self.facts:
            if facts is None or fact.name not in facts:
                raise ValueError(f"no chance measured for the fact {fact.name!r}")
            for event in fact.events:
                events[event] = facts[fact.name]
        return events, uncertain

    def sampled(
        self, totals: npt.NDArray[np.int64], facts: Mapping[str, npt.NDArray[np.bool_]]
    ) -> dict[str, npt.NDArray[np.bool_]]:
        """Which of the sampled rolls each event happened in."""
        events: dict[str, npt.NDArray[np.bool_]] = {}
        for band in self.bands:
            held = totals == totals if band.low is None else totals >= band.low
            if band.high is not None:
                held = held & (totals <= band.high)
            if band.parity is not None:
                held = held & (totals % 2 == band.parity)
            events[band.event] = held
        for fact in self.facts:
            if fact.name not in facts:
                # a sampler that forgets a fact would leave its events silently empty
                raise ValueError(f"the sample did not report the fact {fact.name!r}")
            for event in fact.events:
                events[event] = facts[fact.name]
        return events


NO_OUTCOMES = Outcomes()
"""A plain roll: a total, and no verdict or event."""
