"""Running a case in a worker: each call to fudgedice under its budget
(:class:`Meter`), then the checks between the calls' results.

An error of the ``DiceError`` family is an answer, never a finding. Anything else
raised by fudgedice is; so is a result that disagrees with another (a rolled total
the odds call impossible, a read of the roll's own faces with another total, a
seeded roll that changes).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np
from click.testing import CliRunner

from fudgedice import DiceError, Odds, Roll
from fudgedice.cli import main as cli_main
from fudgedice.render.table import table_text

from .agreement import disagreement, of_the_arguments, sample_only
from .cases import Case, CliCase, ReadCase, TableCase, TextCase, WrongTypeCase
from .faces import hand_faces
from .findings import Problem, from_exception
from .limits import CHECK, CPU_SECONDS, SUBPROCESS_WALL_SECONDS, CpuLimit, cpu_budget, cpu_now
from .mutate import mutate_faces

T = TypeVar("T")

TRACEBACK = "Traceback (most recent call last)"


class Broken(Exception):
    """A check failed inside a call: a finding of ``kind``; ``message`` is the same
    for every instance of it, ``detail`` holds the particulars."""

    def __init__(self, kind: str, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.detail = detail


@dataclass
class Answer(Generic[T]):
    """What one call gave: a value, the project's refusal, or neither (a finding)."""

    value: T | None = None
    refused: DiceError | None = None
    failed: bool = False

    @property
    def ok(self) -> bool:
        return not self.failed and self.refused is None


@dataclass
class Meter:
    """Runs calls under the CPU budget and keeps what they did."""

    notify: Callable[[str], None]
    cpu_seconds: float | None = CPU_SECONDS
    calls: list[tuple[str, float]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    skips: list[str] = field(default_factory=list)
    shown: dict[str, str] = field(default_factory=dict)
    """The concrete input of a call, where the case's own description leaves
    something out (faces read, a temporary file)."""
    recycle: bool = False
    """Set after a MemoryError: the worker is replaced."""
    slowest: tuple[float, str] | None = None
    """The CPU time and entry of the slowest call that was answered (not
    refused, no finding): how close accepted work comes to the budget."""

    def call(self, entry: str, work: Callable[[], T], *, budget: bool = True) -> Answer[T]:
        self.notify(entry)
        limit = self.cpu_seconds if budget else None
        start = cpu_now()
        answer: Answer[T] = Answer()
        try:
            with cpu_budget(limit):
                answer.value = work()
        except DiceError as error:
            answer.refused = error
        except CpuLimit as error:
            answer.failed = True
            self.problems.append(from_exception("slow", entry, error))
        except MemoryError as error:
            answer.failed = True
            self.recycle = True
            self.problems.append(from_exception("memory", entry, error))
        except Broken as error:
            answer.failed = True
            self.problems.append(Problem(error.kind, entry, str(error), detail=error.detail))
        except Warning as error:
            answer.failed = True
            self.problems.append(from_exception("warning", entry, error))
        except Exception as error:
            answer.failed = True
            self.problems.append(from_exception("exception", entry, error))
        used = cpu_now() - start
        self.calls.append((entry, used))
        if budget and answer.ok and (self.slowest is None or used > self.slowest[0]):
            self.slowest = (used, entry)
        if limit is not None and used > limit and not answer.failed:
            answer.failed = True
            self.problems.append(
                Problem("slow", entry, f"over {limit:g} s of CPU", detail=f"{used:.2f} s")
            )
        return answer

    def check(self, entry: str, work: Callable[[], None]) -> None:
        """A check of the fuzzer's own on what ``entry`` returned: outside the CPU
        budget (its cost is not fudgedice's), not counted as a call."""
        self.notify(CHECK + entry)
        try:
            work()
        except Broken as error:
            self.problems.append(Problem(error.kind, entry, str(error), detail=error.detail))
        except DiceError as error:
            self.problems.append(
                Problem("invariant", entry, "a view of a result refused", detail=str(error))
            )
        except MemoryError as error:
            self.recycle = True
            self.problems.append(from_exception("memory", entry, error))
        except Exception as error:
            self.problems.append(from_exception("exception", entry, error))

    def problem(self, kind: str, entry: str, message: str, detail: str = "") -> None:
        self.problems.append(Problem(kind, entry, message, detail=detail))


def run_case(case: Case, meter: Meter, api: Any) -> None:
    if isinstance(case, TextCase):
        run_text(case, meter, api)
    elif isinstance(case, ReadCase):
        run_read(case, meter, api)
    elif isinstance(case, CliCase):
        run_cli(case, meter, api)
    elif isinstance(case, TableCase):
        run_table(case, meter, api)
    else:
        run_wrong_type(case, meter, api)


# the Python API on one text ---------------------------------------------------------------


def roll_view(roll: Roll) -> dict[str, Any]:
    """Everything a caller may read off a roll, built (and checked as JSON)."""
    if not isinstance(roll.total, int):
        raise Broken("invariant", "a roll's total is not an int", type(roll.total).__name__)
    data = roll.to_dict()
    _json(data)
    str(roll)
    if roll.verdict is not None and roll.verdict not in roll.events:
        raise Broken(
            "invariant", "a roll's verdict is not among its events", f"{roll.verdict} {roll.events}"
        )
    return data


def _json(data: Any) -> str:
    try:
        return json.dumps(data, allow_nan=False, ensure_ascii=False)
    except (ValueError, TypeError) as error:
        raise Broken("invalid-json", f"to_dict() is not JSON: {error}") from None


def run_text(case: TextCase, meter: Meter, api: Any) -> None:
    text = case.text
    first = meter.call("roll", lambda: _rolled(api.roll(text, seed=case.seed)))
    again = meter.call("roll", lambda: _rolled(api.roll(text, seed=case.seed)))
    _same_roll(meter, first, again, "roll")
    measured = meter.call("odds", lambda: api.odds(text))
    if not first.failed and not measured.failed:
        wrong = disagreement(first.refused, measured.refused)
        if wrong is not None:
            meter.problem("roll-odds-disagree", "roll", *wrong)
    odds = measured.value if measured.ok else None
    if odds is not None:
        _check_odds(meter, odds, case.probes)
    roll = first.value[0] if first.ok and first.value else None
    if roll is not None or odds is not None:
        _ascii_only(meter, "roll" if roll is not None else "odds", text)
    if roll is not None and odds is not None:
        _in_support(meter, "roll", "roll-outside-odds", roll.total, odds)
        unknown = [e for e in roll.events if e not in odds.events]
        if unknown:
            meter.problem(
                "invariant",
                "roll",
                "a roll's events are not among the odds' events",
                f"{unknown}, odds: {list(odds.events)}",
            )
    if roll is not None:
        _read_back(meter, api, text, roll)
    elif first.refused is not None:
        meter.skips.append("read: the roll itself was refused")
    alike = (
        first.refused if measured.refused and str(first.refused) == str(measured.refused) else None
    )
    _sample(meter, api, case, odds, alike)


def _ascii_only(meter: Meter, entry: str, text: str) -> None:
    """The language is ASCII (a label aside): a roll accepted with another character
    was read through a case-insensitive match (the Kelvin sign as 'k')."""
    roll = text.split("#", 1)[0]
    odd = sorted({c for c in roll if not c.isascii()})
    if odd:
        names = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in odd)
        meter.problem(
            "non-ascii-accepted",
            entry,
            f"a roll with {names} outside its label is accepted",
            text,
        )


def _rolled(roll: Roll) -> tuple[Roll, dict[str, Any]]:
    return roll, roll_view(roll)


def _same_roll(
    meter: Meter,
    first: Answer[tuple[Roll, dict[str, Any]]],
    again: Answer[tuple[Roll, dict[str, Any]]],
    entry: str,
) -> None:
    if first.failed or again.failed:
        return
    if first.ok != again.ok:
        meter.problem(
            "not-reproducible", entry, "the same text and seed rolled once and was refused once"
        )
    elif first.ok and first.value and again.value and first.value[1] != again.value[1]:
        a, b = first.value[0], again.value[0]
        meter.problem(
            "not-reproducible",
            entry,
            "the same text and seed rolled two ways",
            f"totals {a.total} and {b.total}",
        )
    elif first.refused and again.refused and str(first.refused) != str(again.refused):
        meter.problem("not-reproducible", entry, "the same text and seed was refused two ways")


def _in_support(meter: Meter, entry: str, kind: str, value: int, odds: Odds) -> bool:
    """False (and a finding) when ``value`` can't happen by ``odds``. Beyond the range
    of an odds cut off at 1e-12 a value is possible: the tail was left out."""
    if odds.probability(value) > 0:
        return True
    if odds.truncated and not odds.low <= value <= odds.high:
        return True
    meter.problem(
        kind,
        entry,
        "a total came up that the odds of the same text give chance 0",
        f"{value} came up; outcomes {odds.low}..{odds.high}, truncated {float(odds.truncated):.2g}",
    )
    return False


def _check_odds(meter: Meter, odds: Odds, probes: tuple[int, ...]) -> None:
    if meter.call("odds.outcomes", lambda: odds.outcomes).ok:
        meter.check("odds.outcomes", lambda: _check_outcomes(odds))
    points = meter.call("odds.at_least", lambda: _points(odds, probes))
    if points.ok and points.value is not None:
        table = points.value
        meter.check("odds.at_least", lambda: _check_points(odds, table))
    if meter.call("odds.events", lambda: odds.events).ok:
        meter.check("odds.events", lambda: _check_events(odds))
    meter.call("odds.to_dict", lambda: _json(odds.to_dict()))
    stats = meter.call("odds.stats", lambda: (odds.mean, odds.variance, odds.stdev, repr(odds)))
    if stats.ok:
        meter.check("odds.stats", lambda: _check_stats(odds))


HEAVY_BITS = 20_000_000
"""Past this many bits of fractions, the fuzzer doesn't add up every outcome."""


def _check_outcomes(odds: Odds) -> None:
    outcomes = odds.outcomes
    if not outcomes:
        raise Broken("invariant", "the odds list no outcome")
    values = [o.value for o in outcomes]
    if values != sorted(set(values)):
        raise Broken("invariant", "outcomes are not in increasing order, or repeat")
    if values[0] != odds.low or values[-1] != odds.high:
        raise Broken(
            "invariant",
            "the outcomes' range is not low..high",
            f"{values[0]}..{values[-1]}, {odds.low}..{odds.high}",
        )
    if any(not 0 < o.p <= 1 for o in outcomes):
        raise Broken("invariant", "an outcome's chance is not in (0, 1]")
    # the tails past the cut-off count wherever they surely lie (docs/results.md)
    lowest, highest = odds.chance_between(odds.low, None), odds.chance_between(None, odds.high)
    if outcomes[0].at_least != lowest.p or outcomes[-1].at_most != highest.p:
        raise Broken(
            "invariant", "the lowest row's at_least or the highest's at_most is not its chance"
        )
    if len(outcomes) * odds.denominator.bit_length() > HEAVY_BITS:
        return
    total = sum((o.p for o in outcomes), Fraction(0))
    if total + odds.truncated != 1:
        raise Broken(
            "invariant",
            "the outcomes and the truncated tail don't sum to 1",
            f"{total} + {odds.truncated}",
        )


Point = tuple[Fraction, Fraction, Fraction, Fraction]


def _points(odds: Odds, probes: tuple[int, ...]) -> dict[int, Point]:
    """probability, at_least, at_most and at_most of the value below, at a few values."""
    values = {odds.low - 1, odds.low, odds.high, odds.high + 1, (odds.low + odds.high) // 2}
    return {
        v: (odds.probability(v), odds.at_least(v), odds.at_most(v), odds.at_most(v - 1))
        for v in sorted(values | set(probes))
    }


def _check_points(odds: Odds, points: dict[int, Point]) -> None:
    for value, (p, above, below, below_before) in points.items():
        if not all(0 <= x <= 1 for x in (p, above, below)):
            raise Broken("invariant", "a chance outside [0, 1]", f"at {value}")
        # a tail that straddles v may count on neither side: what is uncertain
        straddling = odds.chance_between(value, None).uncertain
        if above + below_before + straddling != 1:
            raise Broken(
                "invariant", "at_least(v) + at_most(v - 1) + what straddles v != 1", f"v={value}"
            )
        if not odds.tails and p != below - below_before:
            raise Broken("invariant", "probability(v) != at_most(v) - at_most(v - 1)", f"v={value}")


EVENT_GROUPS = (("success", "failure", "tie"), ("win", "loss", "stand-off"), ("even", "odd"))


def _check_events(odds: Odds) -> None:
    for name, p in odds.events.items():
        if not isinstance(name, str) or not 0 <= p <= 1:
            raise Broken("invariant", "an event's chance is outside [0, 1]", f"{name!r}: {p}")
    for group in EVENT_GROUPS:
        present = [odds.events[name] for name in group if name in odds.events]
        if len(present) >= 2:
            total = sum(present, Fraction(0))
            uncertain = max((odds.uncertain.get(name, Fraction(0)) for name in group), default=0)
            if total not in (1, 1 - odds.truncated, 1 - uncertain):
                raise Broken(
                    "invariant", "complementary events don't sum to 1", f"{group}: {total}"
                )


def _check_stats(odds: Odds) -> None:
    if odds.variance < 0:
        raise Broken("invariant", "a negative variance", str(odds.variance))
    if not odds.truncated and not odds.low <= odds.mean <= odds.high:
        raise Broken("invariant", "the mean is outside low..high", f"{odds.mean}")
    if odds.stdev != odds.stdev:
        raise Broken("invariant", "stdev is NaN")


def _read_back(meter: Meter, api: Any, text: str, roll: Roll) -> None:
    faces = hand_faces(roll)
    read = meter.call("read", lambda: api.read(text, faces.written))
    if read.failed:
        return
    if read.refused is not None and faces.plain is not None:
        # an opposed roll: try the order without 'opp' (docs/fudge.md, docs/3d6fudge.md)
        plain = meter.call("read", lambda: api.read(text, faces.plain))
        if plain.ok:
            meter.problem(
                "read-refused",
                "read",
                f"{roll.system}: an opposed roll's faces with 'opp' between the two sides "
                "are refused; without 'opp' they are read",
                f"faces {short(faces.written)}: {read.refused}",
            )
            read = plain
        elif plain.refused is not None:
            meter.problem(
                "read-refused",
                "read",
                f"{roll.system}: an opposed roll's own faces are refused, "
                "with 'opp' between the sides and without",
                f"faces {short(faces.written)}\nwith 'opp': {read.refused}\n"
                f"without: {plain.refused}",
            )
            return
    if read.refused is not None:
        message = read.refused.message
        if "by hand" in message:
            meter.skips.append(f"read: {message}")
        else:
            meter.problem(
                "read-refused",
                "read",
                "the roll's own faces are refused: " + message.split(":")[0].split("(")[0].strip(),
                f"faces {short(faces.written)}: {read.refused}",
            )
        return
    again = read.value
    if again is not None and (again.total, again.verdict) != (roll.total, roll.verdict):
        meter.problem(
            "read-mismatch",
            "read",
            "read of a roll's own faces gives another result",
            f"read {again.total} ({again.verdict}), rolled {roll.total} ({roll.verdict}); "
            f"faces {short(faces.written)}",
        )


def _sample(
    meter: Meter, api: Any, case: TextCase, odds: Odds | None, refused: DiceError | None
) -> None:
    """``refused``: the refusal roll and odds gave alike, which sample must give too."""
    text, n, seed = case.text, case.sample_n, case.sample_seed
    drawn = meter.call("sample", lambda: np.asarray(api.sample(text, n, seed=seed)))
    wrong = _sample_disagrees(drawn.refused, refused) if not drawn.failed else None
    if wrong is not None:
        meter.problem("sample-disagrees", "sample", wrong, f"sample: {drawn.refused}")
    if not drawn.ok or drawn.value is None:
        return
    values = drawn.value
    if values.shape != (n,) or (n and values.dtype.kind != "i"):
        meter.problem(
            "invariant",
            "sample",
            "sample's array has another shape or type",
            f"{values.shape} {values.dtype}",
        )
        return
    if odds is not None:

        def supported() -> None:
            for value in np.unique(values)[:10_000]:
                if not _in_support(meter, "sample", "sample-outside-odds", int(value), odds):
                    break

        meter.check("sample", supported)
    if seed is not None and n <= 5000:
        again = meter.call("sample", lambda: np.asarray(api.sample(text, n, seed=seed)))
        if again.ok and again.value is not None and not np.array_equal(values, again.value):
            meter.problem("not-reproducible", "sample", "the same text and seed sampled two ways")


def _sample_disagrees(sampled: DiceError | None, refused: DiceError | None) -> str | None:
    if sampled is not None and of_the_arguments(sampled):
        return None
    if refused is not None and (sampled is None or str(sampled) != str(refused)):
        return "a text roll and odds refuse alike is not refused alike by sample"
    if refused is None and sampled is not None and not sample_only(sampled):
        return "sample refuses a text that roll or odds accept"
    return None


# read with faces gone wrong -----------------------------------------------------------------


def short(value: object) -> str:
    """repr, with a long run of one character written as a product: '9' * 5000."""
    if isinstance(value, str) and len(value) > 60:
        head = value.rstrip(value[-1])
        run = len(value) - len(head)
        if run > 40:
            return f"{head!r} + {value[-1]!r} * {run}" if head else f"{value[-1]!r} * {run}"
    if isinstance(value, list):
        return "[" + ", ".join(short(v) for v in value) + "]"
    return repr(value)


def run_read(case: ReadCase, meter: Meter, api: Any) -> None:
    rolled = meter.call("roll", lambda: api.roll(case.text, seed=case.seed))
    if not rolled.ok or rolled.value is None:
        return
    faces = mutate_faces(random.Random(case.mutation_seed), hand_faces(rolled.value).written)
    meter.shown["read(mutated faces)"] = f"fudgedice.read({case.text!r}, {short(faces)})"
    read = meter.call("read(mutated faces)", lambda: roll_view(api.read(case.text, faces)))
    del read


# the command line ---------------------------------------------------------------------------


def _cli_seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def run_cli(case: CliCase, meter: Meter, api: Any) -> None:
    faces: list[str] | None = None
    own_faces = False
    rolled: Roll | None = None
    if case.command == "read" and case.text is not None and case.read_seed is not None:
        form = case.text
        seed = case.read_seed
        roll = meter.call("roll", lambda: api.roll(form, seed=seed))
        if roll.failed:
            return
        if roll.value is None:
            faces = ["+", "-", "0", "0"]
        else:
            rolled = roll.value
            faces = hand_faces(rolled).written
            own_faces = case.mutation_seed is None
            if case.mutation_seed is not None:
                faces = mutate_faces(random.Random(case.mutation_seed), faces)
    with tempfile.TemporaryDirectory(prefix="fuzz-plot-") as folder:
        plot_path = None
        if case.plot is not None:
            plot_path = str(
                Path(folder) / ("missing" + case.plot if "/" in case.plot else "chart" + case.plot)
            )
        argv = case.argv(faces, plot_path)
        entry = "cli " + (case.command or "(no command)")
        if case.subprocess:
            entry = "cli(subprocess) " + (case.command or "-")
        if faces is not None or plot_path is not None:
            meter.shown[entry] = (
                ("subprocess: " if case.subprocess else "")
                + "fudgedice "
                + " ".join(short(a) if len(a) > 60 else _quote(a) for a in argv)
            )
        if case.subprocess:
            _run_subprocess(meter, entry, argv)
            return
        result = meter.call(entry, lambda: CliRunner().invoke(cli_main, argv))
        if not result.ok or result.value is None:
            return
        run = result.value
        if not _clean_exit(meter, entry, run):
            return
        if run.output.startswith("Usage:"):
            _usage_for_a_roll(meter, api, case, run)
            return
        if run.exit_code != 0:
            return
        if case.command == "roll" and case.seed is not None and "--json" in argv:
            _compare_roll(meter, api, case, run.stdout)
        elif case.command in ("odds", "compare") and "--json" in argv:
            meter.check(entry, lambda: _strict_json(run.stdout))
        elif case.command == "read" and own_faces and rolled is not None and "--json" in argv:
            total = rolled.total

            def same_total() -> None:
                data = _strict_json(run.stdout)
                if data.get("total") != total:
                    raise Broken(
                        "read-mismatch",
                        "fudgedice read of a roll's own faces prints another total",
                        f"printed {data.get('total')}, rolled {total}",
                    )

            meter.check(entry, same_total)
        if plot_path is not None and not (
            Path(plot_path).exists() and Path(plot_path).stat().st_size
        ):
            meter.problem("invariant", entry, "--plot exited 0 but wrote no chart")


def _usage_for_a_roll(meter: Meter, api: Any, case: CliCase, run: Any) -> None:
    """The CLI answered a roll with its help (exit 0) or a usage error, where no
    option asked for either: a word of the roll starting with '-' read as options
    ('-4d6kh3' holds -h; '-1 vs Legendary' holds -n)."""
    if case.command not in ("roll", "odds", "read") or case.text is None:
        return
    options = case.before + case.after
    if "-h" in options or "--help" in options or "--d100-table" in options:
        return
    if case.times is not None and not 1 <= case.times <= 1000:
        return
    words = case.text.split() if case.split and case.text.split() else [case.text]
    if any(word in ("-h", "--help", "--") for word in words):
        return
    # "--Mediocre" is read as a long option on purpose (a mistyped option must
    # be "no such option"); such a roll is written after "--"
    if any(word.startswith("--") and word[2:3].isalpha() for word in words):
        return
    if run.exit_code == 0:
        meter.problem(
            "cli-api-mismatch",
            "cli " + case.command,
            f"fudgedice {case.command} printed its help for a roll starting with '-'",
            run.output.strip().splitlines()[0][:200],
        )
        return
    if case.command == "read":
        return
    text = " ".join(words).strip()
    function = api.roll if case.command == "roll" else api.odds
    ours = meter.call(case.command, lambda: function(text))
    if ours.ok:
        meter.problem(
            "cli-api-mismatch",
            "cli " + case.command,
            f"fudgedice {case.command} stopped with a usage error for a roll "
            f"that fudgedice.{case.command} accepts",
            run.output.strip().splitlines()[-1][:200],
        )


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


def _clean_exit(meter: Meter, entry: str, run: Any) -> bool:
    """A CLI run ends with its output and exit code 0, 1 (click's own errors) or 2
    (usage errors and DiceError), never with a traceback."""
    error = run.exception
    if error is not None and not isinstance(error, SystemExit):
        kind = (
            "memory"
            if isinstance(error, MemoryError)
            else "warning"
            if isinstance(error, Warning)
            else "cli-traceback"
        )
        problem = from_exception(kind, entry, error)
        meter.problems.append(problem)
        return False
    if run.exit_code not in (0, 1, 2):
        meter.problem("cli-traceback", entry, "an unexpected exit code", str(run.exit_code))
        return False
    if TRACEBACK in run.output:
        meter.problem("cli-traceback", entry, "printed a traceback", run.output[-600:])
        return False
    return True


def _strict_json(text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise Broken("invalid-json", "the CLI printed a non-finite number in its JSON", constant)

    try:
        return json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as error:
        raise Broken(
            "invalid-json", "the CLI printed no valid JSON", f"{error}: {text[:200]}"
        ) from None


def _compare_roll(meter: Meter, api: Any, case: CliCase, printed: str) -> None:
    assert case.seed is not None and case.text is not None
    words = case.text.split() if case.split and case.text.split() else [case.text]
    text = " ".join(words).strip()
    try:
        data = _strict_json(printed)
    except Broken as error:
        meter.problem(error.kind, "cli roll", str(error), error.detail)
        return
    rolls = data if isinstance(data, list) else [data]
    base = _cli_seed(case.seed)
    times = case.times or 1
    # the same d% table as the CLI was given, if any (4dF@d100 reads it)
    options = case.before + case.after
    table: dict[str, str] = {}
    if "--d100-table" in options[:-1]:
        table["d100_table"] = options[options.index("--d100-table") + 1]
    for index, printed_roll in enumerate(rolls[:5]):
        if times == 1:
            seed: int | str = base
        else:
            seed = f"{base}#{index + 1}"  # each roll of an -n run: S#1, S#2, ...
        ours = meter.call(
            "roll",
            lambda s=seed: api.roll(text, seed=s, **table),  # type: ignore[misc]
        )
        if ours.failed:
            return
        total = None if ours.value is None else ours.value.total
        if not isinstance(printed_roll, dict) or printed_roll.get("total") != total:
            shown = printed_roll.get("total") if isinstance(printed_roll, dict) else printed_roll
            meter.problem(
                "cli-api-mismatch",
                "cli roll",
                "fudgedice roll --json and fudgedice.roll give other totals for one seed",
                f"roll {index + 1}: the CLI printed total {shown}, fudgedice.roll gives "
                + (f"{total}" if ours.refused is None else f"an error: {ours.refused.message}"),
            )
            return


def _run_subprocess(meter: Meter, entry: str, argv: list[str]) -> None:
    """The command in a fresh interpreter (its own hash seed, its own imports)."""
    if any("\x00" in arg for arg in argv):
        # no shell passes a NUL in an argument (the in-process run had it)
        meter.skips.append("cli(subprocess): a NUL can't be in a process's arguments")
        return
    source = str(Path(sys.modules["fudgedice"].__file__ or "").parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = source + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONHASHSEED", None)
    command = [sys.executable, "-c", "from fudgedice.cli import main; main()", *argv]

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=env,
            timeout=SUBPROCESS_WALL_SECONDS - 5,
            stdin=subprocess.DEVNULL,
            check=False,
        )

    done = meter.call(entry, run, budget=False)
    if done.failed or done.value is None:
        return
    out = done.value
    if out.returncode not in (0, 1, 2):
        meter.problem(
            "cli-traceback",
            entry,
            "an unexpected exit code",
            f"{out.returncode}: {out.stderr[-600:]}",
        )
    elif TRACEBACK in out.stderr or TRACEBACK in out.stdout:
        last = out.stderr.strip().splitlines()[-1:] or [""]
        meter.problem("cli-traceback", entry, f"printed a traceback: {last[0]}", out.stderr[-2000:])


# tables, and the API given wrong types --------------------------------------------------------


def run_table(case: TableCase, meter: Meter, api: Any) -> None:
    def show() -> None:
        if case.function == "ladder":
            table = api.ladder(case.text)
        else:
            table = api.table(case.text, exact=case.exact, to=case.to)
        _json(table.to_dict())
        table_text(table)

    meter.call(case.function, show)


def _consume(result: Any) -> None:
    """Read what a call gave, as a caller would."""
    if isinstance(result, Roll):
        roll_view(result)
    elif isinstance(result, Odds):
        _json(result.to_dict())
    elif isinstance(result, np.ndarray):
        result.tolist()
    elif hasattr(result, "to_dict"):
        _json(result.to_dict())


def run_wrong_type(case: WrongTypeCase, meter: Meter, api: Any) -> None:
    function = getattr(api, case.function)
    meter.call(
        f"{case.function}(wrong type)",
        lambda: _consume(function(*case.args, **dict(case.kwargs))),
    )
