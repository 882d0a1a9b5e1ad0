"""``fudgedice.sample``: many rolls at once with NumPy, and which events each
roll had, through the same API's compiled rolls (apart from :mod:`.api`,
which stays within its 400 lines); NumPy is imported on the first sample."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Literal, overload

from . import arguments
from .api import D100Table, program_with_table
from .budget import within_budget
from .errors import DiceValueError, LimitError
from .limits import DEFAULT_LIMITS
from .results.sampled import Sampled as Sampled

if TYPE_CHECKING:  # NumPy is imported when a sample is asked for
    import numpy as np
    import numpy.typing as npt


@overload
def sample(
    text: str,
    n: int,
    seed: int | str | None = None,
    *,
    d100_table: str | Path | D100Table | None = None,
    events: Literal[False] = False,
) -> npt.NDArray[np.int64]: ...
@overload
def sample(
    text: str,
    n: int,
    seed: int | str | None = None,
    *,
    d100_table: str | Path | D100Table | None = None,
    events: Literal[True],
) -> Sampled: ...
@within_budget
def sample(
    text: str,
    n: int,
    seed: int | str | None = None,
    *,
    d100_table: str | Path | D100Table | None = None,
    events: bool = False,
) -> npt.NDArray[np.int64] | Sampled:
    """Totals of ``n`` independent rolls of ``text``, vectorised with NumPy;
    with ``events=True``, a :class:`Sampled` of the totals and, for each event
    ``odds(text).events`` names, a boolean array of the rolls it happened in.

    >>> sample("3d6", 5, seed=1).shape
    (5,)
    >>> totals, happened = sample("Good vs Great", 5, seed=1, events=True)
    >>> sorted(happened), happened["success"].dtype
    (['failure', 'success'], dtype('bool'))
    """
    n = arguments.count(n, "the number of rolls")
    if n > DEFAULT_LIMITS.max_samples:
        raise LimitError(f"{n} rolls is more than the limit of {DEFAULT_LIMITS.max_samples}")
    program = program_with_table(text, d100_table)
    import numpy as np  # only sampling needs it: a roll or odds starts faster without

    rng = np.random.default_rng(_numpy_seed(seed))
    if arguments.flag(events, "events"):
        return program.sample_events(n, rng)
    return program.sample(n, rng)


def _numpy_seed(seed: object) -> int | None:
    """NumPy takes whole numbers >= 0; a word is turned into one, as ``roll``
    accepts words too."""
    seed = arguments.seed(seed)
    if isinstance(seed, str):
        return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:16], "big")
    if seed is not None and (not isinstance(seed, int) or seed < 0):
        raise DiceValueError(f"a seed for sample is a whole number >= 0 or a word, not {seed!r}")
    return seed
