"""Odds and rolls in a notebook: a short repr, the CLI's own table and dice
as HTML (every text of the user's escaped), ``Odds.text``, ``Odds.plot``
and ``Odds.to_frame`` (pandas, an optional extra)."""

from __future__ import annotations

import builtins
import os
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import fudgedice
from fudgedice import Odds
from fudgedice.exact.dist import Dist
from fudgedice.render.odds_table import odds_layout, odds_text

HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def test_a_roll_has_a_short_repr() -> None:
    roll = fudgedice.roll("d6: 30D fast vs 100", seed=3)
    assert repr(roll) == f"Roll('d6: 30D fast vs 100', total={roll.total}, result={roll.result!r})"
    assert len(repr(roll)) < 120
    plain = fudgedice.roll("3d6", seed=1)
    assert repr(plain) == f"Roll('3d6', total={plain.total})"  # no result in words


def test_a_roll_in_html_is_its_explanation_escaped() -> None:
    roll = fudgedice.roll(f"Good vs Great # {HOSTILE}", seed=4)
    html = roll._repr_html_()
    assert html is not None
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    head, *rest = roll.text.splitlines()
    plain = html.replace("&lt;", "<").replace("&gt;", ">").replace("&#x27;", "'")
    assert f"<strong>{head}</strong>" in plain
    assert all(line in plain for line in rest)


def test_odds_show_their_table() -> None:
    odds = fudgedice.odds("Good vs Great")
    assert odds.text == odds_text(odds)
    assert repr(odds) == "Odds('Good vs Great', mean=1, stdev=1.633)"
    assert fudgedice.odds("4dF") == fudgedice.odds("4dF")


@pytest.mark.parametrize("text", ["Good vs Great", "d6: 3D vs 10", "3d6fudge: Good", "10d6"])
def test_odds_in_html_hold_the_cells_the_command_line_prints(text: str) -> None:
    odds = fudgedice.odds(text)
    html = odds._repr_html_()
    assert html is not None
    layout = odds_layout(odds)
    assert all(f">{name}</th>" in html for name in layout.columns)
    position = 0
    for row in layout.rows:
        for cell in row:
            position = html.index(f">{cell}</td>", position)  # in the table's order
    for line in [*layout.notes, *layout.footer]:
        assert f">{line}</p>" in html.replace("&#x27;", "'")


def test_odds_in_html_escape_the_roll_text() -> None:
    html = fudgedice.odds(f"4dF # {HOSTILE}")._repr_html_()
    assert html is not None
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_odds_built_by_hand_say_how_to_show_them() -> None:
    odds = Odds("2d2", "fudge", Dist.from_weights({2: 1, 3: 2, 4: 1}))
    assert odds._repr_html_() is None
    with pytest.raises(ValueError, match="built by hand"):
        odds.text  # noqa: B018
    assert "2d2" in odds_text(odds)


def test_a_frame_of_the_odds() -> None:
    pytest.importorskip("pandas")
    odds = fudgedice.odds("Good vs Great")
    frame = odds.to_frame()
    assert list(frame.columns) == ["value", "name", "chance", "at_least", "at_most", "exact"]
    assert list(frame["value"]) == list(range(-3, 6))
    assert list(frame["exact"]) == [odds.probability(value) for value in range(-3, 6)]
    assert frame["at_least"].tolist() == [float(odds.at_least(v)) for v in range(-3, 6)]
    assert frame["name"].tolist()[4] == "Good"
    assert frame.attrs["events"]["success"] == Fraction(31, 81)
    plain = fudgedice.odds("3d6").to_frame()
    assert "name" not in plain.columns and plain["chance"].sum() == pytest.approx(1)
    compared = fudgedice.compare("4dF", "3d6").to_frame()
    assert compared.groupby("label")["chance"].sum().to_dict() == pytest.approx(
        {"4dF": 1, "3d6": 1}
    )


def test_without_pandas_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_pandas(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "pandas", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match=r"fudgedice\[frames\]"):
        fudgedice.odds("4dF").to_frame()
    with pytest.raises(ImportError, match=r"pip install 'fudgedice\[frames\]'"):
        fudgedice.compare("4dF", "3d6").to_frame()


def test_plot_returns_the_axes_it_drew_on() -> None:
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    odds = fudgedice.odds("4dF")
    axes = odds.plot()
    assert isinstance(axes, Axes)
    assert axes.get_xlabel() == "rolled degree"
    _, mine = plt.subplots()
    assert odds.plot(ax=mine) is mine
    assert len(mine.patches) == 9  # a bar a value


def test_showing_odds_as_text_or_html_imports_no_chart_or_frame_library() -> None:
    # the command line's cold start and a notebook's first table pay for
    # matplotlib and pandas only when a chart or a frame is asked for
    script = (
        "import sys, fudgedice\n"
        "fudgedice.odds('Good vs Great')._repr_html_()\n"
        "fudgedice.roll('4dF', seed=1)._repr_html_()\n"
        "fudgedice.compare('4dF', '3d6')._repr_html_()\n"
        "print(sorted(m for m in ('matplotlib', 'pandas') if m in sys.modules))\n"
    )
    source = str(Path(fudgedice.__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": source},
        check=True,
        timeout=120,
    )
    assert done.stdout.strip() == "[]"
