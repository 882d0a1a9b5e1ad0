"""The rolling interpreter: a parse tree and a dice stream to a result
that records every die's story.

The :class:`~fudgedice.stream.Stream` is passed in, so the same seed gives the
same roll on every machine and in any other implementation of the stream
(docs/fairness.md); the :class:`Roller` draws every toss from it in the order
the explanation lists the dice, keeps the faces it drew, counts every die it
tosses and stops at the limit.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import LimitError, TooManyDice
from ..language.tree import BinOp, Die, Group, Neg, Node, Number, Pool, Word
from ..limits import DEFAULT_LIMITS, Limits
from ..memory import memoize
from ..results.dice import (
    DieRoll,
    GroupRoll,
    Mark,
    NegRoll,
    NumberRoll,
    OpRoll,
    Part,
    PoolRoll,
    WordRoll,
)
from ..stream import Stream
from .arithmetic import WordValue, operate
from .pools import plan

# the flags as plain ints on the hot path (see DieRoll.flags)
_REROLLED = Mark.REROLLED.value
_COMPOUNDED = Mark.COMPOUNDED.value
_FROM_EXPLOSION = Mark.FROM_EXPLOSION.value
_PENETRATING = Mark.PENETRATING.value
_EXPLODED = Mark.EXPLODED.value


class Roller:
    """Tosses dice from ``stream`` and refuses to toss more than the limit."""

    __slots__ = ("drawn", "limits", "stream", "tossed")

    by_hand = False
    """True for :class:`.hand.HandRoller`: faces come from the table."""

    def __init__(self, stream: Stream, limits: Limits = DEFAULT_LIMITS) -> None:
        self.stream = stream
        self.limits = limits
        self.tossed = 0
        self.drawn: list[int] = []
        """Every face drawn from the stream, in order: what a log records."""

    def toss(self, die: Die) -> int:
        self.tossed += 1
        if self.tossed > self.limits.max_dice:
            self._too_many()
        faces = die.tossed
        face = faces[self.stream.below(len(faces))]
        self.drawn.append(face)
        return face

    def below(self, n: int) -> int:
        """A draw below ``n`` from the stream, for a number no die shows."""
        return self.stream.below(n)

    def between_sides(self) -> None:
        """An opposed roll moves on to its right side (dice read by hand may
        mark the place; random ones need nothing)."""

    def take(self, count: int) -> None:
        """Account for ``count`` dice tossed outside :meth:`toss`."""
        self.tossed += count
        if self.tossed > self.limits.max_dice:
            self._too_many()

    def _too_many(self) -> None:
        raise TooManyDice(
            f"this roll needed more than {self.limits.max_dice} dice "
            "(explosions and rerolls included)"
        )


def _toss_kept(pool: Pool, roller: Roller, story: list[DieRoll]) -> int:
    """One toss with the pool's reroll rule; rerolled tosses join the story."""
    die = pool.die
    face = roller.toss(die)
    reroll = pool.reroll
    if reroll is None:
        return face
    tosses = 1
    while reroll.on.matches(face):
        story.append(DieRoll(die, face, die.face_label(face), _REROLLED, str(reroll.on)))
        face = roller.toss(die)
        tosses += 1
        if reroll.once:
            break
        if tosses > roller.limits.max_chain:
            raise LimitError(f"{pool.source} rerolled more than {roller.limits.max_chain} times")
    return face


def roll_die(pool: Pool, roller: Roller) -> tuple[int, list[DieRoll]]:
    """One die of a pool: (its value for keep/drop, its tosses in order).

    The one explosion walk (``!``, ``!!``, ``!p``, with rerolls): random rolls
    and dice read by hand (a :class:`.hand.HandRoller` for ``roller``) alike,
    and any system whose dice explode, such as the D6 System's Wild Die, a
    one-die pool exploding on 6. Errors name the die by ``pool.source``."""
    die = pool.die
    story: list[DieRoll] = []
    face = _toss_kept(pool, roller, story)
    explode = pool.explode
    if explode is None or not explode.on.matches(face):
        story.append(DieRoll(die, face, die.face_label(face)))
        return face, story
    if explode.mode == "!!":
        faces = [face]
        labels = [die.face_label(face)]
        while explode.on.matches(faces[-1]):
            if len(faces) >= roller.limits.max_chain:
                raise LimitError(
                    f"{pool.source} exploded more than {roller.limits.max_chain} times"
                )
            rerolled: list[DieRoll] = []
            faces.append(_toss_kept(pool, roller, rerolled))
            # a toss rerolled inside the chain stays in its label, in brackets,
            # where it came: the chain reads back in the order it was thrown
            labels.extend(f"({entry.face})" for entry in rerolled)
            labels.append(die.face_label(faces[-1]))
        total = sum(faces)
        story.append(DieRoll(die, total, "+".join(labels), _COMPOUNDED))
        return total, story
    penetrate = explode.mode == "!p"
    value_sum = 0
    index = 0
    # Each toss joins the story as it lands, after the tosses it rerolled, so
    # the explanation reads in the order the dice were thrown.
    while True:
        value = face - 1 if penetrate and index else face
        marks = 0
        if index:
            marks = _FROM_EXPLOSION | (_PENETRATING if penetrate else 0)
        going_on = explode.on.matches(face)
        if going_on:
            marks |= _EXPLODED
        story.append(DieRoll(die, value, die.face_label(face), marks))
        value_sum += value
        if not going_on:
            return value_sum, story
        index += 1
        if index >= roller.limits.max_chain:
            raise LimitError(f"{pool.source} exploded more than {roller.limits.max_chain} times")
        face = _toss_kept(pool, roller, story)


def _roll_plain(pool: Pool, roller: Roller) -> PoolRoll:
    """A pool with no modifiers: the common case, kept lean."""
    die = pool.die
    count = pool.count
    roller.take(count)
    tossed = _tossed(die)
    drawn = [tossed[index] for index in roller.stream.draws(len(tossed), count)]
    faces = [face for face, _ in drawn]
    roller.drawn += faces
    return PoolRoll(pool, [DieRoll(die, face, label) for face, label in drawn], sum(faces))


@memoize("faces of a die", 256)
def _tossed(die: Die) -> tuple[tuple[int, str], ...]:
    """The faces the stream picks from, each with its label, worked out once
    per kind of die rather than once per toss."""
    return tuple((face, die.face_label(face)) for face in die.tossed)


def roll_pool(pool: Pool, roller: Roller) -> PoolRoll:
    pool_plan = plan(pool)
    if pool_plan.plain and not roller.by_hand:
        return _roll_plain(pool, roller)
    units = [roll_die(pool, roller) for _ in range(pool.count)]
    if pool.keep is not None:
        highest, kept = pool.keep.kept(pool.count)
        # Sort stably by value so ties drop the later die, as a player would.
        order = sorted(range(len(units)), key=lambda i: units[i][0], reverse=highest)
        dropped = order[kept:]
        word = "lowest" if highest else "highest"
        for index in dropped:
            for entry in units[index][1]:
                if entry.kept:
                    entry.set_aside(Mark.DROPPED, word)
    counting = pool.counting
    total = 0
    dice: list[DieRoll] = []
    for value, story in units:
        dice.extend(story)
        live = [entry for entry in story if entry.kept]
        if not live:
            continue
        if counting is None:
            total += value
            continue
        scored = live if pool_plan.counts_tosses else [live[-1]]
        for entry in scored:
            score = counting.score(entry.value if pool_plan.counts_tosses else value)
            if score > 0:
                entry.mark(Mark.SUCCESS)
            elif score < 0:
                entry.mark(Mark.FAILURE)
            total += score
    return PoolRoll(pool, dice, total)


PoolRoller = Callable[[Pool, Roller], PoolRoll]


def roll_node(
    node: Node,
    roller: Roller,
    word_value: WordValue,
    pool_roller: PoolRoller | None = None,
) -> Part:
    """Roll an expression node. A system that rolls some pools its own way
    passes ``pool_roller``; the arithmetic around the pools stays this one walk."""
    if isinstance(node, Pool):
        return roll_pool(node, roller) if pool_roller is None else pool_roller(node, roller)
    if isinstance(node, Number):
        return NumberRoll(node.value)
    if isinstance(node, Group):
        inner = roll_node(node.inner, roller, word_value, pool_roller)
        return GroupRoll(inner, inner.total)
    if isinstance(node, Neg):
        operand = roll_node(node.operand, roller, word_value, pool_roller)
        return NegRoll(operand, -operand.total)
    if isinstance(node, Word):
        return WordRoll(node, word_value(node))
    assert isinstance(node, BinOp)
    left = roll_node(node.left, roller, word_value, pool_roller)
    right = roll_node(node.right, roller, word_value, pool_roller)
    return OpRoll(node, left, right, operate(node.op, left.total, right.total))
