"""Odds as pandas DataFrames, for notebooks: pandas is the optional extra
``fudgedice[frames]``, imported only when a frame is asked for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..exact.odds import Odds

EXTRA = "fudgedice[frames]"


def pandas() -> Any:
    """The pandas module, or an ImportError that names the extra to install."""
    try:
        import pandas
    except ImportError:
        raise ImportError(
            f"to_frame() needs pandas, which comes with the optional extra {EXTRA}: "
            f"pip install '{EXTRA}'"
        ) from None
    return pandas


def odds_rows(odds: Odds) -> list[dict[str, Any]]:
    """Every listed value: its name (where the system names values), its
    chance, at least and at most as floats, and the exact chance."""
    naming = odds.value_name
    return [
        {
            "value": row.value,
            **({"name": naming(row.value)} if naming is not None else {}),
            "chance": float(row.p),
            "at_least": float(row.at_least),
            "at_most": float(row.at_most),
            "exact": row.p,
        }
        for row in odds.outcomes
    ]


def odds_frame(odds: Odds) -> Any:
    """One row a value; the roll, its mean, spread and events in ``attrs``."""
    frame = pandas().DataFrame(odds_rows(odds))
    frame.attrs.update(
        notation=odds.notation,
        system=odds.system,
        mean=odds.mean,
        stdev=odds.stdev,
        events=dict(odds.events),
    )
    return frame


def comparison_frame(labels: Sequence[str], odds: Sequence[Odds]) -> Any:
    """The rows of each roll's frame one after another, labelled: the long
    form that ``pivot`` or a plotting library takes."""
    module = pandas()
    rows = [
        {"label": label, **row}
        for label, each in zip(labels, odds, strict=True)
        for row in odds_rows(each)
    ]
    return module.DataFrame(rows)
