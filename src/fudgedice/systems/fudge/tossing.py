"""The dice a checked Fudge side tosses, as :mod:`.rolling` tosses them, told
before rolling: the quick rolls' schedule (:mod:`fudgedice.dice.quick`) and the
dice limit's check (:mod:`fudgedice.dice.tosses`), which odds make too, without
loading the rolling itself."""

from __future__ import annotations

from ...dice.pools import plan
from ...dice.schedule import Schedule, Toss
from ...language.tree import D6, D100, Pool, walk
from .checking import SidePlan
from .techniques import technique_name


def side_schedule(left: SidePlan, right: SidePlan | None) -> Schedule | None:
    """Each side's pools, the left side first, when none is read by a
    technique or has a modifier (advantage tosses its dice as they are; a
    pool taking zero tosses none): see :mod:`fudgedice.dice.quick`."""
    tosses: list[Toss] = []
    for side in (left, right):
        if side is None:
            continue
        for node in walk(side.expr):
            if not isinstance(node, Pool):
                continue
            if node is side.fudge_pool and side.options.take_zero:
                continue
            if node.technique is not None or not plan(node).plain:
                return None
            tossed = node.die.tossed
            tosses.append((len(tossed), tossed, node.count, None, None))
    return tuple(tosses)


def side_tossed(side: SidePlan) -> list[Pool]:
    """The pools ``side`` tosses, as :func:`roll_side` tosses them: a technique
    its ordinary dice, a pool taking zero none (:mod:`fudgedice.dice.tosses`)."""
    tossed: list[Pool] = []
    for node in walk(side.expr):
        if not isinstance(node, Pool):
            continue
        if node is side.fudge_pool and side.options.take_zero:
            continue
        technique = technique_name(node.technique) if node.technique else None
        if technique is None:
            tossed.append(node)
        else:
            tossed.append(_TECHNIQUE_DICE.get(technique) or Pool(node.count, D6, node.source))
    return tossed


_TECHNIQUE_DICE = {"3d6": Pool(3, D6, "3d6"), "d%": Pool(1, D100, "d%"), "4d6": Pool(4, D6, "4d6")}
"""What a technique that reads a fixed set of dice tosses (``@d6``: a d6 a Fudge die)."""
