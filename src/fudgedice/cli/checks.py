"""What the ``roll`` and ``odds`` commands check and say, without click: the
bound of an ``-n`` run of rolls (with or without a session) and its summary,
and the hint to ``--float`` when exact odds are refused for their size. The
console script's quick way (:mod:`fudgedice.cli.entry`) uses them as the click
commands do, without importing click."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING

from .. import api, budget
from ..dice.program import ROLL_DIE_WORK, Program
from ..errors import LimitError
from ..exact.figures import approximate, decimal
from ..limits import DEFAULT_LIMITS
from ..render.numbers import counted

if TYPE_CHECKING:
    from ..results.roll import Roll

TEXT_DIE_WORK = 1_000
"""Estimated work of explaining one die in text."""
JSON_DIE_WORK = 13_000
"""Estimated work of one die as JSON: its dictionary, and json.dumps of it."""


def check_run(
    first: Roll, times: int, *, as_json: bool = False, program: Program | None = None
) -> None:
    """Refuse an ``-n`` run whose dice, at the first roll's count, would be
    more than one request may roll or show: each roll is in bounds, their sum
    not. The showing is charged now; each roll charges its own dice (as
    ``program`` estimates them: without it, as the slowest dice)."""
    limit = DEFAULT_LIMITS.max_request_dice
    each = max(1, len(first.dice))
    if each * times > limit:
        raise LimitError(
            f"{times} rolls of {first.notation} would roll about {each * times:,} dice, "
            f"more than the limit of {limit:,} in one request",
            hint=f"at most -n {max(1, limit // each)} for this roll",
        )
    shown = each * (JSON_DIE_WORK if as_json else TEXT_DIE_WORK)
    rolled = program.roll_work(each) if program is not None else each * ROLL_DIE_WORK
    what = f"{times} rolls of {first.notation}"

    def fits(left: int) -> str:
        return f"at most -n {max(1, int((left + rolled) // (rolled + shown)))} for this roll"

    budget.check((times - 1) * rolled + times * shown, what, fits)
    budget.charge(times * shown, what, fits)


def run_summary(totals: list[int]) -> str:
    """One line over a run of rolls: every total, their mean and range."""
    mean = approximate(decimal(Fraction(sum(totals), len(totals))))
    return (
        f"{counted(len(totals), 'roll')}: {', '.join(map(str, totals))} "
        f"(mean {mean}, lowest {min(totals)}, highest {max(totals)})"
    )


@contextmanager
def suggesting_float(text: str, d100_table: str | None) -> Iterator[None]:
    """Exact odds refused for their size: say that ``--float`` answers, when it does."""
    try:
        yield
    except LimitError as error:
        if d100_table is None and api.float_ready(text):
            more = f"fudgedice odds '{text}' --float gives float64 odds within a stated bound"
            error.hint = f"{error.hint}; {more}" if error.hint else more
        raise
