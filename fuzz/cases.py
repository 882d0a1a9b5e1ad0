"""The cases the fuzzer runs: plain data, sent to a worker and run there
(:mod:`fuzz.checks`), and :class:`CaseMaker`, which draws them from one seed.

Every case has an input ``text`` (a roll, a table name) that the minimiser may
shorten with ``with_text``, and ``shown()``, the input as a person would retype it.
"""

from __future__ import annotations

import random
import re
import shlex
from collections import deque
from dataclasses import dataclass, replace

from .grammar import RollGrammar
from .mutate import mutate_text

SEED_ROLLS = (
    "4d6kh3",
    "3d6!+2",
    "4dF+1",
    "3d6!",
    "Good vs Great",
    "Good opp Fair",
    "4dF@4d6",
    "4dF@d%",
    "4dF@3d6",
    "2dF@d6",
    "power: 4dF+2 adv vs Superhuman",
    "power: 4dF+2 take0",
    "power: 4dF+1 adv opp 4dF+2",
    "3d6fudge: Good opp Great",
    "3d6fudge: Good-1",
    "3d6fudge: Abysmal opp 12",
    "d6: 4D+2 vs Moderate",
    "d6: 30D fast",
    "d6: 10D wildonly",
    "d6: 4D+1 crit=cancel",
    "d6: 3D opp 2D+2",
    "d6: 4D cp2 fp allow=cpfp",
    "d6: 10D cp2 crit=cancel opp 10D cp2",
    "5d10>=8f1",
    "5d10!>=8>=8",
    "5d10!! >=8kh2",
    "d6!>=5",
    "d6! >=5",
    "3d6!!kh1",
    "3d6!p",
    "4d6r1",
    "4d6ro1",
    "d6!r1",
    "4dFr-1",
    "4dF>=1f-1",
    "d6/(d3-1)",
    "(2d6+1)*2",
    "-7/2",
    "4dF coin",
    "Poor vs Terrible-1",
    "Good + 4dF@3d6 vs Great",
    "d20+5 # attack",
    "10000dF",
    "d4!>=2",
    "4dF.1",
    "d%",
    "4dF!!",
    "300d6!",
    "1000dF!",
    "50d10!!kh3",
    "d6: 100D cp5 crit=cancel opp 100D",
    "fate: Good+2 vs Great",
    "fate: Good reroll2=tie opp Fair",
    "fatecondensed: Catastrophic reroll=style vs Fair",
    "d6: 5D+1 dmg 3D+2",
    "d6: 5D+1 actions=3 cp2 cpcap=2 vs Moderate",
    "d6: 4D+2 opp 3D+1 ties=meet",
)

SYSTEM = re.compile(r"\s*([A-Za-z][A-Za-z0-9]*|[0-9]+[A-Za-z][A-Za-z0-9]*)\s*:")


def system_of(text: str | None) -> str:
    """The system a roll names (``fudge`` when it names none): for grouping findings."""
    if not text:
        return ""
    match = SYSTEM.match(text)
    return match.group(1).lower() if match else "fudge"


def shown_for(case: object, entry: str) -> str:
    """The input of ``case`` as a person would retype it, for the call ``entry``."""
    if isinstance(case, TextCase):
        return case.call(entry)
    if isinstance(case, ReadCase | CliCase | TableCase | WrongTypeCase):
        return case.shown()
    return repr(case)


def case_system(case: object) -> str:
    """The system of a case's roll text; "" for a case whose text is no roll."""
    if isinstance(case, TextCase | ReadCase):
        return system_of(case.text)
    if isinstance(case, CliCase) and case.command in ("roll", "odds", "read"):
        return system_of(case.text)
    return ""


@dataclass(frozen=True)
class TextCase:
    """One roll text through the Python API: roll (twice, for the seed), odds and
    its views, read of the roll's own faces, sample; and the checks between them."""

    text: str
    seed: int | str
    sample_n: int
    sample_seed: int | str | None
    probes: tuple[int, ...]

    def with_text(self, text: str) -> TextCase:
        return replace(self, text=text)

    def shown(self) -> str:
        return (
            f"text={self.text!r} seed={self.seed!r} "
            f"sample_n={self.sample_n} sample_seed={self.sample_seed!r}"
        )

    def call(self, entry: str) -> str:
        """The one call of this case behind ``entry``, as Python."""
        roll = f"fudgedice.roll({self.text!r}, seed={self.seed!r})"
        odds = f"fudgedice.odds({self.text!r})"
        views = {
            "odds.outcomes": ".outcomes",
            "odds.to_dict": ".to_dict()",
            "odds.at_least": f".at_least(v) / .at_most(v) / .probability(v) for v in {self.probes}",
            "odds.events": ".events",
            "odds.stats": ".mean / .variance / .stdev / repr()",
        }
        if entry == "roll":
            return roll
        if entry == "odds":
            return odds
        if entry in views:
            return odds + views[entry]
        if entry == "read":
            return f"fudgedice.read({self.text!r}, <the faces of {roll}>)"
        if entry == "sample":
            return f"fudgedice.sample({self.text!r}, {self.sample_n}, seed={self.sample_seed!r})"
        return self.shown()


@dataclass(frozen=True)
class ReadCase:
    """``read`` of a roll's faces, changed (``fuzz.mutate.mutate_faces``)."""

    text: str
    seed: int
    mutation_seed: int

    def with_text(self, text: str) -> ReadCase:
        return replace(self, text=text)

    def shown(self) -> str:
        return f"read {self.text!r}, faces of its roll with seed {self.seed}, mutated"


@dataclass(frozen=True)
class CliCase:
    """One run of the ``fudgedice`` command, in the worker (click's CliRunner) or,
    with ``subprocess``, in a fresh interpreter."""

    command: str
    text: str | None
    split: bool
    """Pass the roll as the shell would unquoted: one argument per word."""
    before: tuple[str, ...]
    after: tuple[str, ...]
    seed: str | None = None
    """--seed, kept apart to compare the roll with the API's."""
    times: int | None = None
    read_seed: int | None = None
    """read: the faces are those of this seed's roll of ``text``..."""
    mutation_seed: int | None = None
    """... changed with this seed (None: as rolled)."""
    plot: str | None = None
    """odds --plot: the file's suffix (the file goes to a temporary folder)."""
    subprocess: bool = False

    def with_text(self, text: str) -> CliCase:
        return replace(self, text=text)

    def argv(self, faces: list[str] | None = None, plot_path: str | None = None) -> list[str]:
        args = [self.command] if self.command else []
        args += self.before
        if self.seed is not None:
            args += ["--seed", self.seed]
        if self.times is not None:
            args += ["-n", str(self.times)]
        if plot_path is not None:
            args += ["--plot", plot_path]
        if self.text is not None:
            args += self.text.split() if self.split and self.text.split() else [self.text]
        if faces is not None:
            args += faces
        args += self.after
        return args

    def shown(self) -> str:
        faces = None
        if self.read_seed is not None:
            faces = [f"<faces of seed {self.read_seed}{' mutated' if self.mutation_seed else ''}>"]
        plot = f"<tmp>/chart{self.plot}" if self.plot is not None else None
        how = "subprocess: " if self.subprocess else ""
        return how + "fudgedice " + " ".join(shlex.quote(a) for a in self.argv(faces, plot))


@dataclass(frozen=True)
class TableCase:
    """``fudgedice.table`` or ``fudgedice.ladder``, and the table's JSON and text."""

    function: str
    text: str
    exact: bool = False
    to: int | None = None

    def with_text(self, text: str) -> TableCase:
        return replace(self, text=text)

    def shown(self) -> str:
        if self.function == "ladder":
            return f"fudgedice.ladder({self.text!r})"
        return f"fudgedice.table({self.text!r}, exact={self.exact}, to={self.to!r})"


@dataclass(frozen=True)
class WrongTypeCase:
    """An API function given arguments of the wrong type."""

    function: str
    args: tuple[object, ...]
    kwargs: tuple[tuple[str, object], ...] = ()

    @property
    def text(self) -> None:
        return None

    def shown(self) -> str:
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs]
        return f"fudgedice.{self.function}({', '.join(parts)})"


Case = TextCase | ReadCase | CliCase | TableCase | WrongTypeCase

CASE_WEIGHTS = (("text", 52), ("cli", 28), ("read", 9), ("table", 7), ("wrong", 4))

WRONG_VALUES: tuple[object, ...] = (
    None,
    3,
    1.5,
    b"3d6",
    ["3d6"],
    ("4dF",),
    {"a": 1},
    True,
    float("nan"),
    10**309,
    -1,
)


class CaseMaker:
    """Draws cases from one seed: the n-th case is the same on every machine."""

    def __init__(
        self,
        seed: int,
        table_names: tuple[str, ...],
        ladders: tuple[str, ...],
        subprocess_every: int = 1000,
    ) -> None:
        self.rng = random.Random(seed)
        self.grammar = RollGrammar(self.rng)
        self.table_names = table_names
        self.ladders = ladders
        self.subprocess_every = subprocess_every
        self.recent: deque[str] = deque(SEED_ROLLS, maxlen=64)
        self.kinds = [kind for kind, _ in CASE_WEIGHTS]
        self.weights = [weight for _, weight in CASE_WEIGHTS]

    def roll_text(self) -> str:
        """A generated roll (most), a mutated one, or one of the documented examples."""
        roll = self.rng.random()
        if roll < 0.55:
            text = self.grammar.text()
        elif roll < 0.9:
            base = self.grammar.text() if self.rng.random() < 0.6 else self.rng.choice(self.recent)
            text = mutate_text(self.rng, base, self.rng.choice(self.recent))
        else:
            text = self.rng.choice(SEED_ROLLS)
        if len(self.recent) and self.rng.random() < 0.3:
            self.recent.append(text)
        return text

    def seed(self) -> int | str:
        roll = self.rng.random()
        if roll < 0.85:
            return self.rng.randrange(2**32)
        if roll < 0.93:
            return self.rng.choice(("wolf", "", "12", " 7", "✓", "seed#1"))
        return self.rng.choice((-1, 2**64, 10**309, -(10**30)))

    def next(self, index: int) -> Case:
        kind = self.rng.choices(self.kinds, self.weights)[0]
        if self.subprocess_every and index % self.subprocess_every == self.subprocess_every - 1:
            return replace(self.cli(), subprocess=True)
        if kind == "text":
            return self.text_case()
        if kind == "cli":
            return self.cli()
        if kind == "read":
            return ReadCase(self.roll_text(), self.rng.randrange(2**32), self.rng.randrange(2**32))
        if kind == "table":
            return self.table()
        return self.wrong_type()

    def text_case(self) -> TextCase:
        roll = self.rng.random()
        if roll < 0.7:
            n = self.rng.randint(1, 200)
        elif roll < 0.85:
            n = 0
        elif roll < 0.95:
            n = self.rng.randint(1000, 20000)
        else:
            n = self.rng.choice((-1, 10**8 + 1, 2**63, 10**309))
        sample_seed: int | str | None = self.seed()
        if self.rng.random() < 0.1:
            sample_seed = None
        probes = tuple(
            self.rng.choice((self.rng.randint(-10, 40), 10**309, -(10**309), 2**63))
            for _ in range(3)
        )
        return TextCase(self.roll_text(), self.seed(), n, sample_seed, probes)

    def table_name(self, names: tuple[str, ...]) -> str:
        name = self.rng.choice(names)
        roll = self.rng.random()
        if roll < 0.2:
            return mutate_text(self.rng, name)
        if roll < 0.3:
            return self.rng.choice(("", " ", name.upper(), f" {name} ", "d6", "techniques\u212a"))
        return name

    def table(self) -> TableCase:
        if self.rng.random() < 0.3:
            return TableCase("ladder", self.table_name(self.ladders))
        to = self.rng.choice(
            (None, None, self.rng.randint(1, 80), 0, -1, 10000, 10001, 10**6, 10**309)
        )
        return TableCase("table", self.table_name(self.table_names), self.rng.random() < 0.4, to)

    def cli(self) -> CliCase:
        command = self.rng.choices(
            ("roll", "odds", "read", "compare", "table", "ladder", "other"),
            (30, 25, 20, 7, 9, 7, 9),
        )[0]
        rng = self.rng
        flag = rng.random
        if command == "roll":
            text = self.roll_text()
            seed = None if flag() < 0.15 else str(self.seed())
            times = None
            if flag() < 0.3:
                times = rng.choice((1, 2, 3, 5, 0, 1001, -1))
            extra = ["--json"] if flag() < 0.5 else []
            if flag() < 0.03:
                extra += [
                    "--d100-table",
                    rng.choice(("1-50=-1, 51-00=+1", "1=4", "/nonexistent", "1-00=0")),
                ]
            before, after = self._place(extra)
            return CliCase("roll", text, flag() < 0.3, before, after, seed=seed, times=times)
        if command == "odds":
            extra = [
                o for o, p in (("--json", 0.4), ("--exact", 0.3), ("--all", 0.3)) if flag() < p
            ]
            plot = None
            if flag() < 0.08:
                plot = rng.choice((".png", ".svg", ".png", ".svg", ".pdf", "", ".SVG", "/x.png"))
            before, after = self._place(extra)
            return CliCase("odds", self.roll_text(), flag() < 0.3, before, after, plot=plot)
        if command == "compare":
            # the first roll is the case's text (the minimiser shortens it); the
            # others follow it, and two alike are a refusal to check too
            others = tuple(self.roll_text() for _ in range(rng.choice((0, 1, 1, 1, 2, 3))))
            extra = [o for o, p in (("--json", 0.4), ("--exact", 0.3)) if flag() < p]
            plot = rng.choice((".png", ".svg")) if flag() < 0.05 else None
            return CliCase("compare", self.roll_text(), False, tuple(extra), others, plot=plot)
        if command == "read":
            extra = ["--json"] if flag() < 0.6 else []
            mutation = rng.randrange(1, 2**32) if flag() < 0.3 else None
            return CliCase(
                "read",
                self.roll_text(),
                False,
                tuple(extra),
                (),
                read_seed=rng.randrange(2**32),
                mutation_seed=mutation,
            )
        if command == "table":
            name: str | None = self.table_name(self.table_names) if flag() < 0.9 else None
            extra = [o for o, p in (("--json", 0.4), ("--exact", 0.4)) if flag() < p]
            if flag() < 0.3:
                extra += ["--to", str(rng.choice((1, 5, 50, 0, 10000, 10001, -3, 10**30)))]
            return CliCase("table", name, False, tuple(extra), ())
        if command == "ladder":
            system = self.table_name(self.ladders) if flag() < 0.9 else None
            return CliCase("ladder", system, False, ("--json",) if flag() < 0.4 else (), ())
        odd = rng.choice(
            (
                (),
                ("--help",),
                ("--version",),
                ("roll",),
                ("roll", "--help"),
                ("bogus",),
                ("odds", "--plot"),
                ("table", "--to", "x"),
                ("read",),
                ("roll", "-n", "x", "3d6"),
                ("roll", "--", "-1+4dF"),
            )
        )
        return CliCase("", None, False, tuple(odd), ())

    def _place(self, options: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Options before or after the roll: click takes both."""
        if self.rng.random() < 0.5:
            return tuple(options), ()
        return (), tuple(options)

    def wrong_type(self) -> WrongTypeCase:
        rng = self.rng
        value = rng.choice(WRONG_VALUES)
        function = rng.choice(("roll", "odds", "read", "sample", "table", "ladder", "parse"))
        text = rng.choice(SEED_ROLLS)
        if function in ("roll", "odds", "parse", "ladder"):
            if function == "roll" and rng.random() < 0.5:
                return WrongTypeCase("roll", (text,), (("seed", value),))
            return WrongTypeCase(function, (value,))
        if function == "read":
            return rng.choice(
                (
                    WrongTypeCase("read", (value, ["+"])),
                    WrongTypeCase("read", ("4dF", value)),
                    WrongTypeCase("read", ("4dF", [value, "+", "-", "0"])),
                )
            )
        if function == "sample":
            return rng.choice(
                (
                    WrongTypeCase("sample", (text, value)),
                    WrongTypeCase("sample", (value, 5)),
                    WrongTypeCase("sample", (text, 5), (("seed", value),)),
                )
            )
        return rng.choice(
            (
                WrongTypeCase("table", (value,)),
                WrongTypeCase("table", ("techniques",), (("to", value),)),
                WrongTypeCase("table", ("techniques",), (("exact", value),)),
            )
        )
