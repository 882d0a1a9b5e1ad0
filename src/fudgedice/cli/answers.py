"""What the ``roll`` and ``odds`` commands answer, made once for each way of
asking: the click commands (:mod:`fudgedice.cli.commands`) and the assistant's
tools (:mod:`fudgedice.cli.mcp`). A run of rolls from the dice stream, its
JSON, and exact odds with the hint to ``--float``; without click."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import arguments
from ..api import odds as measure_odds
from ..dice.program import Program
from ..exact.odds import Odds
from ..results.roll import Roll
from ..stream import fresh, seeded
from .checks import check_run, suggesting_float

MOST_TIMES = 1_000
"""The most rolls one ``roll -n`` (or the tool's ``n``) makes."""


def rolled(program: Program, seed: str | None, times: int, as_json: bool) -> list[Roll]:
    """A run of rolls from the dice stream: fresh bytes for each, or the
    seed; a run with a seed S rolls S#1, S#2, ..."""
    base = None if seed is None else arguments.seed(_seed(seed))
    rolls: list[Roll] = []
    for index in range(times):
        each = base if times == 1 or base is None else _nth_seed(base, index)
        rolls.append(program.roll(fresh() if each is None else seeded(each), each))
        if index == 0:
            check_run(rolls[0], times, as_json=as_json, program=program)
    return rolls


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _nth_seed(base: int | str, index: int) -> str:
    """Seeds for ``-n``: ``S#1``, ``S#2``, ...: each run has its own rolls (seeds
    1 and 2 share none), and each roll can be replayed alone with ``--seed``."""
    return f"{base}#{index + 1}"


def rolls_json(rolls: Sequence[Roll], logged: Sequence[Mapping[str, Any]] = ()) -> Any:
    """What ``roll --json`` prints: one roll's JSON, or a list for a run;
    each roll made in a session with its log entry (``logged``)."""
    dicts = [roll.to_dict() for roll in rolls]
    for data, entry in zip(dicts, logged, strict=False):
        data["log"] = entry
    return dicts[0] if len(dicts) == 1 else dicts


def measured(text: str, d100_table: str | None) -> Odds:
    """The exact odds of ``text``; refused for their size with the hint to
    ``--float`` when float odds would answer."""
    with suggesting_float(text, d100_table):
        return measure_odds(text, d100_table=d100_table)
