"""Rolling a program again without walking its tree again: its outcomes,
explained once each.

A roll is a function of the faces it draws. For a program whose draws can be
told in advance (a :data:`~.schedule.Schedule`: so many tosses of such a die, and chains
of a die that rolls again on one face), :class:`QuickRolls` draws the faces,
looks the outcome up, and returns a :class:`~fudgedice.results.deferred.DeferredRoll`
holding what that outcome came to (total, result, text). An outcome not seen
yet is rolled by the general path (:meth:`Program.roll_with
<fudgedice.dice.program.Program.roll_with>`) on a copy of the stream rewound to
where the roll began, and kept only if that path asked the stream for exactly
the draws the schedule made. So every value served here is one the general
path wrote for those very draws; a schedule that is wrong is found on its
first outcome and turns itself off. Nothing here measures odds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import budget
from ..limits import DEFAULT_LIMITS
from ..memory import reserve
from ..results.deferred import DeferredRoll
from ..results.roll import Roll
from ..stream import WORD_RANGE, Position, Stream, fresh, fresh_start
from .roller import Roller
from .schedule import LONGEST_CHAIN, Schedule, asks, cut, draw, merged, pool_line

if TYPE_CHECKING:
    from .program import Program

MOST_OUTCOMES = 8_192
"""Outcomes a program keeps, and the most a program may have to be served this
way (counted by :func:`.schedule.possible_outcomes`): 4dF has 81, 3d6 216, the D6
System's 5D (a pool of four kept by its sum, and a Wild Die) 252 (some 460 met
in practice, with chains of several 6s), two sides of 4dF 6,561; 6d6 (46,656)
rolls the long way every time."""
MOST_KEPT = 32_768
"""Outcomes all programs keep together (about 600 bytes each: some 20 MB at
most); past it, every program starts afresh."""

reserve("kept outcomes", MOST_KEPT, 1000)

MOST_REFUSED = 16
"""Outcomes a program may fail to keep before it rolls the long way for good
(a note that measures odds, charged on every roll, keeps every outcome out)."""

_Served = tuple["_Explained", tuple[int, ...], str]
"""A roll's outcome, its dice and its text."""

_kept = [0, 0]
"""Outcomes kept by every program, and the generation (bumped when cleared)."""


class _Asked(Stream):
    """A rewound stream that notes the ``n`` of every draw the general path asks."""

    __slots__ = ("asked",)

    asked: list[int]

    def below(self, n: int) -> int:
        self.asked.append(n)
        return super().below(n)

    def draws(self, n: int, count: int) -> list[int]:
        self.asked.extend([n] * count)
        return super().draws(n, count)

    def word(self) -> int:
        self.asked.append(0)  # never in a schedule: such a roll is not kept
        return super().word()


class _Explained:
    """What one outcome came to, as the general path wrote it."""

    __slots__ = ("fields", "head", "pieces", "what", "work")

    def __init__(self, roll: Roll, pieces: tuple[str, ...], work: float, what: str) -> None:
        # the plain fields, copied now: the roll itself goes to its caller,
        # who may change it (its dice records are never shared)
        self.fields = (
            roll.notation,
            roll.system,
            roll.total,
            roll.label,
            roll.verdict,
            roll.margin,
            roll.result,
            roll.title,
            roll.quick_read,
            roll.render,
            roll.render_html,
        )
        self.pieces = pieces
        """The text, cut where the lines of pools kept by their sums go."""
        self.work = work
        self.what = what
        self.head = (
            roll.notation,
            roll.total,
            roll.result,
            roll.label,
            roll.title,
            roll.quick_read,
        )


class QuickRolls:
    """The outcomes of one program, each explained once by the general path."""

    __slots__ = (
        "again",
        "first",
        "generation",
        "in_block",
        "outcomes",
        "pool_and_chain",
        "program",
        "refused",
        "said",
        "schedule",
        "served",
    )

    def __init__(self, program: Program, schedule: Schedule) -> None:
        self.program = program
        tosses = merged(schedule)
        self.schedule: Schedule | None = tosses
        self.outcomes: dict[tuple[int, ...], _Explained] = {}
        self.generation = _kept[1]
        self.refused = 0
        """Outcomes not kept for what they charged or wrote."""
        self.pool_and_chain = (
            len(tosses) == 2
            and tosses[0][3] is None
            and tosses[1][2] == 1
            and tosses[1][3] is not None
            and tosses[1][:2] == tosses[0][:2]
        )
        """A pool, then one die of the same kind rolling again on a face (the
        D6 System's dice and its Wild Die): drawn in one go, then the chain."""
        self.served: dict[tuple[int, ...], _Served] = {}
        """What :meth:`roll_fresh` serves for a first block's draws (each below
        ``n``) with no chain: the roll's fields, its dice and its text."""
        self.said: dict[tuple[int, ...], tuple[int, str]] = {}
        """Such a pool's faces, their sum and their line."""
        first = tosses[0] if tosses else (1, (0,), 0, None, None)
        n, tossed, count, _, line = first
        self.in_block = (
            self.pool_and_chain or (len(tosses) == 1 and first[3] is None is first[4])
        ) and 0 < count < 8
        """A fresh stream's first block holds the first tosses (:meth:`roll_fresh`)."""
        again = tosses[1][3] if self.pool_and_chain else None
        need = count + 1 if self.pool_and_chain else count
        self.first = (n, tossed, need, again, count, line, WORD_RANGE - WORD_RANGE % n)
        """What :meth:`roll_fresh` draws first: ``n``, the faces, the draws it
        takes from the block, the face the chain goes on from (None: no chain),
        the pool's dice, its line, and the words below which a draw is kept."""
        self.again = self._again
        """What a deferred roll calls to build its records (made once here)."""

    def roll(self, stream: Stream, seed: int | str | None) -> Roll:
        schedule = self.schedule
        mark = (stream._block, stream._words, stream._next)  # stream.mark(), inline
        if schedule is None:
            return self._general(stream, mark, seed, None)
        lines: list[str] | None = None
        if len(schedule) == 1 and schedule[0][4] is None is schedule[0][3]:
            # one plain pool: the commonest roll of all
            n, tossed, count, _, _ = schedule[0]
            faces = [tossed[index] for index in stream.draws(n, count)]
            key = tuple(faces)
        elif self.pool_and_chain:
            (n, tossed, count, _, line), (_, _, _, again, _) = schedule
            # the pool and the chain's first toss are draws of one kind: one call
            faces = [tossed[index] for index in stream.draws(n, count + 1)]
            face = faces[-1]
            chain = 0
            while face == again:
                chain += 1
                if chain >= LONGEST_CHAIN:
                    return self._general(stream, mark, seed, None)
                face = tossed[stream.below(n)]
                faces.append(face)
            key, lines = self._by_sum(faces, count, line)
        else:
            drawn = draw(schedule, stream)
            if drawn is None:
                return self._general(stream, mark, seed, None)
            faces, keyed, lines = drawn
            key = tuple(keyed)
        return self._serve(key, faces, lines, seed, stream, mark)

    def roll_fresh(self) -> Roll:
        """A roll with no seed (:func:`~fudgedice.stream.fresh`), its draws
        read from its stream's first block, the stream built only if they
        are not all there (or the outcome is new, or its records are read)."""
        schedule = self.schedule
        if schedule is None or not self.in_block:
            return self.roll(fresh(), None)
        key_bytes, words = fresh_start()
        n, tossed, need, again, count, line, limit = self.first
        taken = words[:need]
        if max(taken) >= limit:  # a word discarded: the stream's own loop
            return self.roll(Stream(key_bytes), None)
        drawn = tuple([word % n for word in taken])
        served = self.served.get(drawn)
        if served is not None and self.generation == _kept[1]:
            # these very draws served before: the commonest roll of all
            outcome, faces_drawn, text = served
            budget.charge(outcome.work, outcome.what)
            roll = self._kept_roll(outcome, None)
            roll.tosses = list(faces_drawn)
            roll._text = text
            roll._replay = (key_bytes, None, None)
            return roll
        faces = [tossed[index] for index in drawn]
        if again is None:
            return self._serve(tuple(faces), faces, None, None, key_bytes, None, drawn)
        face = faces[-1]
        if face != again and line is not None:  # no chain: five rolls in six of a d6
            said = self.said.get(tuple(faces[:count]))
            if said is not None:
                by_sum = (said[0], face)
                return self._serve(by_sum, faces, [said[1]], None, key_bytes, None, drawn)
        while face == again:  # fewer than LONGEST_CHAIN: the block's words end first
            if need == len(words) or words[need] >= limit:
                return self.roll(Stream(key_bytes), None)
            face = tossed[words[need] % n]
            need += 1
            faces.append(face)
        key, lines = self._by_sum(faces, count, line)
        no_chain = drawn if len(faces) == len(drawn) else None
        return self._serve(key, faces, lines, None, key_bytes, None, no_chain)

    def _kept_roll(self, outcome: _Explained, seed: int | str | None) -> DeferredRoll:
        """A roll of a kept outcome's fields, to be given its dice and text."""
        roll = _new(DeferredRoll)
        (
            roll.notation,
            roll.system,
            roll.total,
            roll.label,
            roll.verdict,
            roll.margin,
            roll.result,
            roll.title,
            roll.quick_read,
            roll.render,
            roll.render_html,
        ) = outcome.fields
        roll.seed = seed
        roll._head = outcome.head
        roll._expand = self.again
        return roll

    def _by_sum(
        self, faces: list[int], count: int, line: str | None
    ) -> tuple[tuple[int, ...], list[str] | None]:
        """The key of a pool and a chain, the pool kept by its sum if it has a
        line (and that line)."""
        if line is None:
            return tuple(faces), None
        plain = tuple(faces[:count])
        said = self.said.get(plain)
        if said is None:
            said = pool_line(plain, line)
            if len(self.said) < MOST_OUTCOMES:
                self.said[plain] = said
        return (said[0], *faces[count:]), [said[1]]

    def _serve(
        self,
        key: tuple[int, ...],
        faces: list[int],
        lines: list[str] | None,
        seed: int | str | None,
        source: Stream | bytes,
        mark: Position | None,
        drawn: tuple[int, ...] | None = None,
    ) -> Roll:
        """The kept outcome of ``key`` as a roll, or the general path's roll
        of a new one; ``source`` is the stream the faces came from, standing
        at ``mark`` before them, or (``mark`` None) a fresh stream's key and
        the ``drawn`` first block's draws, then served as this roll is."""
        if self.generation != _kept[1]:
            self.outcomes = {}
            self.served = {}
            self.generation = _kept[1]
        outcome = self.outcomes.get(key)
        if outcome is None:
            stream = Stream(source) if isinstance(source, bytes) else source
            start = stream.mark() if mark is None else mark
            return self._general(stream, start, seed, key, faces, lines)
        budget.charge(outcome.work, outcome.what)
        roll = self._kept_roll(outcome, seed)
        roll.tosses = faces
        pieces = outcome.pieces
        if not lines:
            roll._text = pieces[0]
        elif len(lines) == 1:  # one side's pool: the D6 System's commonest roll
            roll._text = pieces[0] + lines[0] + pieces[1]
        else:
            roll._text = pieces[0] + "".join(
                [line + piece for line, piece in zip(lines, pieces[1:], strict=True)]
            )
        roll._replay = (source, mark, seed)
        if drawn is not None and len(self.served) < MOST_OUTCOMES and _kept[0] < MOST_KEPT:
            self.served[drawn] = (outcome, tuple(faces), roll._text)
            _kept[0] += 1
        return roll

    @budget.within_budget
    def _general(
        self,
        stream: Stream,
        mark: Position,
        seed: int | str | None,
        key: tuple[int, ...] | None,
        faces: list[int] | None = None,
        lines: list[str] | None = None,
    ) -> Roll:
        """The general path on a rewound copy of ``stream``; ``stream`` then
        stands where that path left its copy. The outcome is kept if the
        path asked for exactly the draws the schedule made, and charged the
        roll's dice alone (a note measured, charged again on every roll, is
        not kept: a kept roll charges what the general path would)."""
        program = self.program
        asked = stream.rewound(mark, _Asked)
        asked.asked = []
        roller = Roller(asked, DEFAULT_LIMITS)
        with budget.recorded() as charges:
            result = program.roll_with(roller, seed)
            result.tosses = roller.drawn
            stream.follow(asked)
            roll = program.charged(program.explained(result))
        schedule = self.schedule
        if key is None or schedule is None:
            return roll
        if faces != roller.drawn or asks(schedule, faces) != asked.asked:
            self.schedule = None  # the schedule misread this program: roll it the long way
            return roll
        pieces = cut(roll.text, lines or [])
        if len(charges) != 1 or pieces is None:
            # more charged than the dice, or a line not found once in the text
            self.refused += 1
            if self.refused > MOST_REFUSED:
                self.schedule = None
            return roll
        if len(self.outcomes) < MOST_OUTCOMES:
            if _kept[0] >= MOST_KEPT:
                _kept[0] = 0
                _kept[1] += 1
                self.outcomes = {}
                self.served = {}
                self.generation = _kept[1]
            work, what, _ = charges[0]
            self.outcomes[key] = _Explained(roll, pieces, work, what)
            _kept[0] += 1
        return roll

    def _again(self, source: Stream | bytes, mark: Position | None, seed: int | str | None) -> Roll:
        """The general path's roll of the draws from ``mark`` on (or of a
        fresh stream's key): a deferred roll's records."""
        if isinstance(source, Stream) and mark is not None:
            again = source.rewound(mark, Stream)
        else:
            assert isinstance(source, bytes)
            again = Stream(source)
        roller = Roller(again, DEFAULT_LIMITS)
        result = self.program.roll_with(roller, seed)
        result.tosses = roller.drawn
        return self.program.explained(result)


_new: Callable[[type[DeferredRoll]], DeferredRoll] = object.__new__
