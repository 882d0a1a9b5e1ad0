"""What ``sample(text, n, events=True)`` returns: plain data, its NumPy types
named for the type checker only (NumPy is imported when a sample is made)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


class Sampled(NamedTuple):
    """The totals of the rolls, and for each event that ``odds(text).events``
    names, which of the rolls it happened in."""

    totals: npt.NDArray[np.int64]
    events: dict[str, npt.NDArray[np.bool_]]
