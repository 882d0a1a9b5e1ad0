"""The seed's other dice techniques: a 4dF-like result from ordinary dice.

Each technique is a small reader (ordinary faces in, a Fudge result out, with
the words that explain the reading) and an exact distribution. The readers
are what rolling and reading by hand both use; the distributions are closed
forms or tiny maps, checked against brute force in the tests.

* ``@d6``: any number of d6 read one by one (1-2 ``-``, 3-4 blank, 5-6 ``+``);
* ``@3d6``: the sum of 3d6 through the seed's table;
* ``@d%``: d100 through the seed's table, or a game master's own;
* ``@4d6``: two positive and two negative d6, only the lowest value counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ...dice.pools import die_dist
from ...errors import DiceTypeError, DiceValueError, LimitError
from ...exact import dist
from ...exact.dist import Dist
from ...language.tree import D6

if TYPE_CHECKING:
    from pathlib import Path

TECHNIQUES = ("d6", "3d6", "d%", "4d6")
"""Techniques by the name written after ``@``."""


def technique_name(written: str) -> str | None:
    """The technique ``@written`` stands for, or None if there is none (the
    parser has already turned ``@1d6`` into ``d6`` and ``@d100`` into ``d%``)."""
    return written if written in TECHNIQUES else None


# ------------------------------------------------------------------ d6


def fudge_from_d6(face: int) -> int:
    """Seed 000: 1-2 is a ``-``, 3-4 a blank, 5-6 a ``+``."""
    return (face - 1) // 2 - 1


# ----------------------------------------------------------------- 3d6

_THREE_D6 = {3: -4, 4: -4, 5: -3, 6: -2, 7: -2, 8: -1, 9: -1, 10: 0, 11: 0}
_THREE_D6.update({12: 1, 13: 1, 14: 2, 15: 2, 16: 3, 17: 4, 18: 4})


def fudge_from_3d6(total: int) -> int:
    """Seed 001's 3d6 table: 3-4 -4, 5 -3, 6-7 -2, ..., 16 +3, 17-18 +4."""
    return _THREE_D6[total]


def three_d6_range(total: int) -> str:
    """The row of the 3d6 table a sum falls in (``12-13``, ``16``)."""
    row = [rolled for rolled, result in _THREE_D6.items() if result == _THREE_D6[total]]
    return str(row[0]) if len(row) == 1 else f"{row[0]}-{row[-1]}"


def three_d6_dist() -> Dist:
    return dist.apply(dist.repeat(die_dist(D6), 3), fudge_from_3d6)


# ------------------------------------------------------------------ d%


@dataclass(frozen=True, slots=True)
class D100Table:
    """What each d100 roll (1..100; ``00`` is 100) reads as."""

    results: tuple[int, ...]
    """``results[n - 1]`` is the reading of a roll of ``n``."""

    def read(self, roll: int) -> int:
        return self.results[roll - 1]

    def ranges(self) -> list[tuple[int, int, int]]:
        """(first roll, last roll, result) for each run of equal readings."""
        out: list[tuple[int, int, int]] = []
        for roll, result in enumerate(self.results, start=1):
            if out and out[-1][2] == result and out[-1][1] == roll - 1:
                out[-1] = (out[-1][0], roll, result)
            else:
                out.append((roll, roll, result))
        return out

    def range_of(self, roll: int) -> str:
        for first, last, _ in self.ranges():
            if first <= roll <= last:
                return _roll_text(first) if first == last else f"{first}-{_roll_text(last)}"
        raise AssertionError(roll)  # every roll 1..100 lies in a range

    def spec(self) -> str:
        """The table in its inline form (what :func:`parse_d100_table` reads)."""
        return ", ".join(
            f"{_roll_text(a) if a == b else f'{a}-{_roll_text(b)}'}={r:+d}"
            for a, b, r in self.ranges()
        )

    def dist(self) -> Dist:
        weights: dict[int, int] = {}
        for result in self.results:
            weights[result] = weights.get(result, 0) + 1
        return Dist.from_weights(weights, 100)


def _roll_text(roll: int) -> str:
    return "00" if roll == 100 else str(roll)


def _d100_roll(text: str, where: str) -> int:
    word = text.strip()
    if word == "00":
        return 100
    if not re.fullmatch(r"[0-9]{1,3}", word) or not 1 <= int(word) <= 100:
        raise DiceValueError(
            f"d% table: '{text.strip()}' in '{where}' is not a roll from 1 to 100 (or 00)"
        )
    return int(word)


def parse_d100_table(text: str) -> D100Table:
    """A game master's d% table: ``ROLLS=RESULT`` entries, separated by commas,
    semicolons or new lines; ROLLS is a roll or a range (``7-18``, ``95-99``),
    ``00`` is 100, and ``#`` starts a comment. Every roll from 1 to 100 must be
    covered exactly once.

    >>> parse_d100_table("1-50=-1, 51-100=+1").read(73)
    1
    """
    results: dict[int, int] = {}
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    entries = [e.strip() for line in lines for e in line.replace(";", ",").split(",")]
    for entry in filter(None, entries):
        rolls, sep, result_text = entry.partition("=")
        if not sep:
            raise DiceValueError(
                f"d% table: '{entry}' needs the form ROLLS=RESULT",
                hint="for example: 1=-4, 2-6=-3, 7-18=-2, ..., 00=+4",
            )
        # ASCII digits, and few of them: a result is a degree on the ladder
        if not re.fullmatch(r"[+-]?[0-9]{1,4}", result_text.strip()):
            raise DiceValueError(
                f"d% table: '{result_text.strip()}' in '{entry}' is not a whole number "
                "from -9999 to +9999"
            )
        result = int(result_text.strip())
        first_text, dash, last_text = rolls.strip().partition("-")
        first = _d100_roll(first_text, entry)
        last = _d100_roll(last_text, entry) if dash else first
        if last < first:
            raise DiceValueError(f"d% table: the range in '{entry}' runs backwards")
        for roll in range(first, last + 1):
            if roll in results:
                raise DiceValueError(f"d% table: roll {_roll_text(roll)} is given twice")
            results[roll] = result
    missing = [roll for roll in range(1, 101) if roll not in results]
    if missing:
        shown = ", ".join(_roll_text(roll) for roll in missing[:8])
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        raise DiceValueError(
            f"d% table: no result for roll {shown}{more}",
            hint="every roll from 1 to 100 (00) needs a result",
        )
    return D100Table(tuple(results[roll] for roll in range(1, 101)))


SEED_D100 = parse_d100_table(
    "1=-4, 2-6=-3, 7-18=-2, 19-38=-1, 39-62=0, 63-82=+1, 83-94=+2, 95-99=+3, 00=+4"
)
"""Seed 001's d% table, chosen by its author to match 4dF."""


def load_d100_table(spec: str | Path | D100Table) -> D100Table:
    """A custom table from an inline form (text with ``=``), a file path (a
    :class:`~pathlib.Path`, or text without ``=``) holding the same form, or a
    ready :class:`D100Table`."""
    if isinstance(spec, D100Table):
        return spec
    if isinstance(spec, str) and "=" in spec:
        return parse_d100_table(spec)
    from pathlib import Path  # here: only a table read from a file needs it

    if not isinstance(spec, (str, Path)):
        raise DiceTypeError(
            f"a d% table is inline text, a file path or a D100Table, not {type(spec).__name__}"
        )
    return parse_d100_table(_read_table_file(Path(spec)))


MAX_TABLE_FILE = 64 * 1024
"""Bytes a d% table file may hold: a whole table takes a few hundred."""


def _read_table_file(path: Path) -> str:
    """The file's text, read no further than the limit (``/dev/zero`` never
    ends), as UTF-8."""
    hint = "give a file, or the table inline: '1=-4, 2-6=-3, ..., 00=+4'"
    try:
        with path.open("rb") as file:
            data = file.read(MAX_TABLE_FILE + 1)
    except OSError as error:
        raise DiceValueError(
            f"can't read the d% table file '{path}': {error.strerror or error}", hint=hint
        ) from None
    if len(data) > MAX_TABLE_FILE:
        raise LimitError(
            f"the d% table file '{path}' is larger than {MAX_TABLE_FILE // 1024} KiB; "
            "a table takes a few hundred bytes",
            hint=hint,
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise DiceValueError(f"the d% table file '{path}' is not UTF-8 text", hint=hint) from None


# ----------------------------------------------------------------- 4d6


class FourD6(NamedTuple):
    """How a 4d6 roll was read: which dice stayed and the result."""

    result: int
    lowest: int
    removed: tuple[int, ...]
    """Indexes of the dice taken off the table (above the lowest value)."""
    explanation: str


def read_4d6(faces: tuple[int, int, int, int], positive: tuple[bool, ...]) -> FourD6:
    """Seed 001: remove all but the lowest die (or dice); one colour left is
    that many pluses or minuses, both colours left is 0."""
    lowest = min(faces)
    removed = tuple(i for i, face in enumerate(faces) if face > lowest)
    left = [positive[i] for i in range(4) if i not in removed]
    if all(left):
        result, why = lowest, "only positive dice left"
    elif not any(left):
        result, why = -lowest, "only negative dice left"
    else:
        result, why = 0, "both colours left"
    shown = [f"{'p' if positive[i] else 'n'}{faces[i]}" for i in range(4)]
    gone = ", ".join(shown[i] for i in removed) or "none"
    kept = ", ".join(shown[i] for i in range(4) if i not in removed)
    explanation = (
        f"4d6: lowest {lowest}; removed {gone} (above the lowest); "
        f"left {kept}: {why} -> {result:+d}"
    )
    return FourD6(result, lowest, removed, explanation)


def four_d6_dist() -> Dist:
    """Closed form: a colour's two dice have lowest ``v`` in ``13 - 2v`` of 36
    ways and both stay above ``v`` in ``(6 - v)**2``; the result is ``+v`` when
    the positive pair's lowest is ``v`` and both negatives are higher, ``0``
    when the two lowest are equal."""
    weights = {0: sum((13 - 2 * v) ** 2 for v in range(1, 7))}
    for v in range(1, 7):
        ways = (13 - 2 * v) * (6 - v) ** 2
        if ways:
            weights[v] = weights[-v] = ways
    return Dist.from_weights(weights, 6**4)
