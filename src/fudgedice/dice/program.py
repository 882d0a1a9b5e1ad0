"""From a whole parsed roll to a Roll, Odds or samples: the generic dice
language, which every system builds on.

The expression interpreters (:mod:`.roller`, :mod:`.measure`, :mod:`.sampling`)
know only dice and arithmetic; a :class:`Program` knows what a system adds
around them. It is built once per text (and cached by the API), so
everything that can be checked without rolling is checked once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache, cached_property
from typing import TYPE_CHECKING

from .. import budget
from ..errors import DiceValueError, LimitError
from ..exact.dist import Dist
from ..language.diagnostics import suggest_other
from ..language.tree import BinOp, Damage, Expression, Opposed, Pool, Word, walk
from ..language.words import Vocabulary
from ..limits import DEFAULT_LIMITS, Limits
from ..stream import Stream, seeded
from .arithmetic import WordValue, fixed
from .checks import check_generic
from .measure import exploding_dice, measure
from .outcomes import NO_OUTCOMES, Outcomes
from .pools import plan
from .schedule import Schedule, plain_tosses, possible_outcomes
from .tosses import check_tosses

if TYPE_CHECKING:  # NumPy is imported by the samplers alone, when a sample is asked for;
    # float odds by their own programs (a roll never loads them)
    import numpy as np
    import numpy.typing as npt

    from ..exact.odds import Odds
    from ..render.explain import roll_text
    from ..results.dice import pools_of
    from ..results.float_odds import FloatOdds
    from ..results.roll import Roll
    from ..results.sampled import Sampled
    from .quick import QuickRolls
    from .roller import Roller, roll_node


class Program:
    """A checked roll, ready to be rolled, read, measured or sampled.

    Systems subclass it and override :meth:`_check`, :meth:`roll_with`,
    :meth:`dist`, :meth:`odds` and :meth:`sample` as they need."""

    toss_work: float = 15
    """Estimated work of a die tossed when sampling, with its share of the
    passes for explosions, keeps and counts (10d6 three million times: 0.4 s;
    10000dF three thousand: 0.27 s). A system whose dice explode more says so."""

    def __init__(self, expression: Expression, vocabulary: Vocabulary = frozenset()) -> None:
        self.expression = expression
        self.vocabulary = vocabulary
        """The words a misspelling is compared with."""
        self.word_value: WordValue = self._no_words
        self._check()

    def _no_words(self, word: Word) -> int:
        raise DiceValueError(
            f"unknown word '{word.text}'",
            text=self.expression.text,
            position=word.position,
            hint=suggest_other(word.text, self.vocabulary),
        )

    def _check(self) -> None:
        """Refuse what the generic dice language does not define (a system
        overrides this, calling the helpers of :mod:`.checks` it needs)."""
        check_generic(self.expression, self.vocabulary, self.word_value)

    def tossed_pools(self) -> list[Pool]:
        """Every pool a roll tosses, as the roller tosses it (:mod:`.tosses`).
        A system that tosses dice its text does not write (a trait's default
        dice, a Wild Die, the d6 a technique reads) or leaves a pool unrolled
        says so here."""
        return [node for node in walk(self.expression.side.expr) if isinstance(node, Pool)]

    def check_divisors(self) -> None:
        """Refuse, before any die is drawn or any odds computed, a division by
        a divisor that is 0 whatever the dice show. A divisor that is 0 on
        some draws only is the dice's doing: a roll fails when it comes up
        0, and odds, which would need every draw, refuse the text."""
        check = self.expression.check
        sides = [self.expression.side.expr]
        if isinstance(check, Opposed | Damage):
            sides.append(check.other.expr)
        for side in sides:
            for node in walk(side):
                if (
                    isinstance(node, BinOp)
                    and node.op == "/"
                    and fixed(node.right, self.word_value) == 0
                ):
                    raise DiceValueError(
                        "division by zero: the divisor is 0", text=self.expression.text
                    )

    def check_dice(self, limit: int = DEFAULT_LIMITS.max_dice) -> None:
        """Refuse, before any die is drawn or any odds computed, a roll that
        would toss more than ``limit`` dice (:mod:`.tosses`): the one check of
        the dice a roll tosses, whoever asks (roll, read, odds, sample, a table)."""
        check_tosses(self.tossed_pools(), limit)

    def roll(self, stream: Stream, seed: int | str | None, limits: Limits = DEFAULT_LIMITS) -> Roll:
        """Roll with every toss drawn from ``stream``; ``seed`` is only recorded.
        The roll's :attr:`~Roll.tosses` are the faces drawn, in order."""
        if limits is DEFAULT_LIMITS:
            quick = self.quick
            if quick is not None:
                return quick.roll(stream, seed)
        if not _ROLLING:
            _load_rolling()
        roller = Roller(stream, limits)
        result = self.roll_with(roller, seed)
        result.tosses = roller.drawn
        return self.charged(_explained(result))

    @cached_property
    def quick(self) -> QuickRolls | None:
        """This program's outcomes, explained once each (:mod:`.quick`), if
        its draws can be told in advance and are few enough to keep."""
        from .quick import MOST_OUTCOMES, QuickRolls

        schedule = self.schedule()
        if schedule is None or possible_outcomes(schedule) > MOST_OUTCOMES:
            return None
        return QuickRolls(self, schedule)

    def schedule(self) -> Schedule | None:
        """Every toss a roll makes, in order, when it can be told before
        rolling (plain pools): see :mod:`.quick`. None: it can't."""
        return plain_tosses([self.expression.side.expr])

    def explained(self, result: Roll) -> Roll:
        """``result`` (from :meth:`roll_with`), explained by the one renderer."""
        return _explained(result)

    def read(self, faces: Sequence[str]) -> Roll:
        """Interpret dice rolled by hand: ``faces`` as written, in the order rolled."""
        from .hand import HandRoller

        roller = HandRoller(faces)
        result = self.roll_with(roller, None)
        roller.finish()
        return self.charged(_explained(result))

    def roll_work(self, dice: int) -> float:
        """Estimated work of a roll that tossed ``dice`` dice: the plain pools
        as written take the roller's fast path, every other die its walk."""
        plain = min(self._plain_dice, dice)
        return plain * PLAIN_DIE_WORK + (dice - plain) * ROLL_DIE_WORK

    @cached_property
    def _plain_dice(self) -> int:
        """Dice of the pools with no modifier, as written (counted once: the
        tree never changes, and every roll asks)."""
        return sum(
            node.count
            for node in walk(self.expression.side.expr)
            if isinstance(node, Pool) and plan(node).plain
        )

    def charged(self, result: Roll) -> Roll:
        """The roll's dice, charged to the request (after the roll: one roll
        is bounded by the dice limit, and what it tossed is known only now)."""
        if not _ROLLING:
            _load_rolling()
        if result.sides:
            dice = len(result.dice)
        else:  # len(result.dice) without building the list: the common case
            dice = sum([len(pool.dice) for pool in pools_of(result.parts)])
        budget.charge(self.roll_work(dice), f"rolling {result.notation}")
        return result

    def roll_with(self, roller: Roller, seed: int | str | None) -> Roll:
        """Roll with any source of faces: random (:meth:`roll`) or by hand (:meth:`read`).

        Systems override this one method, so rolling and reading never differ."""
        if not _ROLLING:
            _load_rolling()
        expression = self.expression
        part = roll_node(expression.side.expr, roller, self.word_value)
        rolled = Roll(
            expression.text, expression.system, part.total, part, seed=seed, label=expression.label
        )
        outcomes = self.outcomes
        if outcomes.bands:  # a system that declares its outcomes over the total
            rolled.verdict, rolled.events = outcomes.resolve(part.total)
        return rolled

    def dist(self) -> Dist:
        node = self.expression.side.expr
        return measure(node, self.word_value, exploding_dice(node))

    def odds(self) -> Odds:
        made = odds_type()
        odds = made(self.expression.text, self.expression.system, self.dist())
        if not self.outcomes.bands and not self.outcomes.facts:
            return odds
        events, uncertain = self.declared_chances(odds)
        return made(odds.notation, odds.system, odds.dist, events, uncertain=uncertain)

    # outcomes: stated once (:mod:`.outcomes`), applied to rolls, odds and samples

    def declare(self) -> Outcomes:
        """The verdict and events of this program's rolls, over the total and
        the facts :meth:`fact_chances` and :meth:`sample_facts` report. A
        system states them here once; a plain roll has none."""
        return NO_OUTCOMES

    @cached_property
    def outcomes(self) -> Outcomes:
        """:meth:`declare`, asked once per program."""
        return self.declare()

    def fact_chances(self) -> dict[str, Fraction]:
        """The exact chance of each fact the declaration names (none here)."""
        return {}

    def declared_chances(self, odds: Odds) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
        """Each declared event's chance under ``odds``, and how much more it
        may be (a cut-off tail straddling it)."""
        outcomes = self.outcomes
        return outcomes.chances(odds, self.fact_chances() if outcomes.facts else None)

    def float_odds(self) -> FloatOdds:
        """Float64 odds by FFT, each chance within a stated bound of exact
        (``odds(text, exact=False)``): for sums of pools too large to count."""
        from .floats import sum_odds  # NumPy, when asked for

        expression = self.expression
        return sum_odds(expression.text, expression.system, expression.side.expr, self.word_value)

    def float_ready(self) -> bool:
        """Whether :meth:`float_odds` reads this roll (checked without measuring)."""
        from .floats import is_sum  # NumPy, when asked for

        return is_sum(self.expression.side.expr)

    def sample(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        from .sampling import sample_exactly, sample_node  # NumPy: see SAMPLERS

        node = self.expression.side.expr
        # one draw a roll needs a total of ways below 2**62: dice as many as
        # that allows (measuring 10000dF to find its total too large is waste)
        ways = sum(
            sub.count * plan(sub).toss.total.bit_length()
            for sub in walk(node)
            if isinstance(sub, Pool)
        )
        if exploding_dice(node) == 0 and ways <= 64:
            exact = sample_exactly(self.dist, n, rng)
            if exact is not None:
                return exact
        self.check_tosses(n)
        return sample_node(node, rng, n, self.word_value)

    def sample_facts(
        self, n: int, rng: np.random.Generator
    ) -> tuple[npt.NDArray[np.int64], dict[str, npt.NDArray[np.bool_]]]:
        """Totals of ``n`` rolls, and which rolls showed each declared fact.
        A system whose declaration names facts samples them here."""
        return self.sample(n, rng), {}

    def sample_events(self, n: int, rng: np.random.Generator) -> Sampled:
        """Totals of ``n`` rolls and, for each event :meth:`odds` names, which
        rolls it happened in: the declaration applied to the samples."""
        from ..results.sampled import Sampled  # here: a roll or odds never makes one

        totals, facts = self.sample_facts(n, rng)
        return Sampled(totals, self.outcomes.sampled(totals, facts))

    def check_tosses(self, n: int) -> None:
        """Refuse, before any work, a sample that would toss too many dice:
        as many a roll as one roll made here tossed, or as a roll tosses on
        average (rerolls and explosions), whichever is more; a toss that
        rerolls or explodes costs more than a plain one, and keeping sorts."""
        from .sampling import expected_tosses, extra_work  # NumPy: see SAMPLERS

        limit = DEFAULT_LIMITS.max_sample_tosses
        sides = [self.expression.side.expr]
        check = self.expression.check
        if isinstance(check, Opposed | Damage):
            sides.append(check.other.expr)
        expected = sum(expected_tosses(side) for side in sides)
        each = max(len(self.roll(seeded(0), None).tosses), math.ceil(expected), 1)
        if n * each > limit:
            raise LimitError(
                f"sampling {n:,} rolls of {self.expression.text} tosses about "
                f"{n * each:,} dice, more than the limit of {limit:,}",
                hint=f"at most {max(1, limit // each):,} rolls of it can be sampled at once",
            )
        work = each * self.toss_work + sum(extra_work(side, self.toss_work) for side in sides)

        def fits(left: int) -> str:
            most = max(1, int(left // work))
            return f"at most {most:,} rolls of it can be sampled at once"

        budget.charge(n * work, f"sampling {n:,} rolls of {self.expression.text}", fits)


ROLL_DIE_WORK = 6_000
"""Estimated work of rolling or reading one die and keeping its story (the
slowest pools, with keep or a count, take about 6 microseconds a die)."""
PLAIN_DIE_WORK = 1_500
"""The same for a die of a pool with no modifier (about 0.7 microseconds)."""


def _roll_html(roll: Roll) -> str:
    """The roll's explanation as HTML, for a notebook."""
    from ..render.html import roll_html  # here: a command that starts never shows HTML

    return roll_html(roll)


def _explained(result: Roll) -> Roll:
    """The roll, and each of its sides, explained by the one renderer."""
    if not _ROLLING:
        _load_rolling()
    result.render, result.render_html = roll_text, _roll_html
    if result.sides:
        for side in result.sides:
            side.render, side.render_html = roll_text, _roll_html
    return result


@cache
def odds_type() -> type[Odds]:
    """:class:`~fudgedice.exact.odds.Odds`, imported on the first measure (a roll
    measures no odds) and kept: an import statement in a function costs microseconds
    at every call, a cold measure's tenth."""
    from ..exact.odds import Odds

    return Odds


_ROLLING = False
"""Whether :func:`_load_rolling` has run."""


def _load_rolling() -> None:
    """The modules a roll is rolled with, which odds never load, imported on the
    first roll into this module's names: an import statement in a function costs
    microseconds at every call, and a log's verifier rolls thousands."""
    global _ROLLING, Roll, Roller, pools_of, roll_node, roll_text
    from ..render.explain import roll_text
    from ..results.dice import pools_of
    from ..results.roll import Roll
    from .roller import Roller, roll_node

    _ROLLING = True
