"""The public Python API: ``roll``, ``odds``, ``sample``, ``read``, ``table``,
``clear_caches``."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from . import measure, pools
from .engine import compile_roll
from .errors import DiceValueError, LimitError
from .limits import DEFAULT_LIMITS
from .odds import Odds
from .rolls import Roll
from .tables import Table, TableOptions, make_table

if TYPE_CHECKING:
    from .engine import Program
    from .systems.techniques import D100Table

_fresh = random.Random()
"""Source for rolls that ask for no seed (seeded once from the OS)."""


def program_with_table(text: str, d100_table: str | Path | D100Table | None) -> Program:
    """The compiled roll; with ``d100_table``, reading ``@d%`` with that table
    (inline ``"1=-4, 2-6=-3, ..., 00=+4"``, a file path, or a ``D100Table``)."""
    program = compile_roll(text)
    if d100_table is None:
        return program
    from .systems.fudge import use_d100_table

    return use_d100_table(program, d100_table)


def roll(
    text: str,
    seed: int | str | None = None,
    *,
    d100_table: str | Path | D100Table | None = None,
) -> Roll:
    """Roll ``text`` once; the same ``seed`` gives the same roll everywhere.

    >>> 5 <= roll("4d6kh3+2", seed=7).total <= 20
    True
    """
    rng = _fresh if seed is None else random.Random(seed)
    return program_with_table(text, d100_table).roll(rng, seed)


def odds(text: str, *, d100_table: str | Path | D100Table | None = None) -> Odds:
    """The exact distribution of ``text``.

    >>> odds("4dF").probability(0)
    Fraction(19, 81)
    """
    return program_with_table(text, d100_table).odds()


def sample(
    text: str,
    n: int,
    seed: int | str | None = None,
    *,
    d100_table: str | Path | D100Table | None = None,
) -> npt.NDArray[np.int64]:
    """Totals of ``n`` independent rolls of ``text``, vectorised with NumPy.

    >>> sample("3d6", 5, seed=1).shape
    (5,)
    """
    if not isinstance(n, int) or n < 0:
        raise DiceValueError(f"the number of rolls must be a whole number >= 0, not {n!r}")
    if n > DEFAULT_LIMITS.max_samples:
        raise LimitError(f"{n} rolls is more than the limit of {DEFAULT_LIMITS.max_samples}")
    return program_with_table(text, d100_table).sample(n, np.random.default_rng(_numpy_seed(seed)))


def _numpy_seed(seed: int | str | None) -> int | None:
    """NumPy takes whole numbers >= 0; a word is turned into one, as ``roll``
    accepts words too."""
    if isinstance(seed, str):
        return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:16], "big")
    if seed is not None and (not isinstance(seed, int) or seed < 0):
        raise DiceValueError(f"a seed for sample is a whole number >= 0 or a word, not {seed!r}")
    return seed


def read(
    text: str,
    dice: Sequence[str | int] | str,
    *,
    d100_table: str | Path | D100Table | None = None,
) -> Roll:
    """Interpret dice rolled by hand: the faces as written, in the order rolled.

    >>> read("4dF", ["+", "+", "-", "0"]).total
    1
    """
    # "+ + - 0" as one string, and faces given as numbers, read as the CLI reads them
    faces = dice.split() if isinstance(dice, str) else [str(face) for face in dice]
    return program_with_table(text, d100_table).read(faces)


def table(name: str, *, exact: bool = False, to: int | None = None) -> Table:
    """One of the printed tables (``fudgedice table`` lists them)."""
    return make_table(name, TableOptions(exact=exact, to=to))


def clear_caches() -> None:
    """Forget every memoised distribution (parse trees stay cached)."""
    measure.clear_caches()
    pools.plan.cache_clear()
