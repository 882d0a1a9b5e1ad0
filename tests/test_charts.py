"""Charts worth printing, read from their matplotlib axes: whole-number
ticks, ladder words, a check's difficulty line and shaded success, a legend
clear of the data, PNG and SVG; and the odds table's one-line shape."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

import fudgedice
from fudgedice.render.numbers import percent
from fudgedice.render.odds_table import odds_text
from fudgedice.render.plot import plot_odds
from fudgedice.render.sparkline import heights, sparkline


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def drawn(text: str) -> Any:
    axes = fudgedice.odds(text).plot()
    axes.figure.canvas.draw()  # lays out the ticks and the legend
    return axes


def tick_texts(axes: Any) -> list[str]:
    return [label.get_text() for label in axes.get_xticklabels() if label.get_text()]


@pytest.mark.parametrize("text", ["d6: 3D", "2d6", "d6: 3D opp 2D", "10d6", "1000dF"])
def test_value_ticks_are_whole_numbers(text: str) -> None:
    axes = drawn(text)
    ticks = axes.get_xticks()
    shown = [tick for tick in ticks if axes.get_xlim()[0] <= tick <= axes.get_xlim()[1]]
    assert shown and all(float(tick).is_integer() for tick in shown)
    assert all("." not in label for label in tick_texts(axes))


def test_ladder_words_are_on_the_axis() -> None:
    axes = drawn("4dF")
    assert tick_texts(axes) == [
        f"{value:+d}\n{fudgedice.odds('4dF').value_name(value)}"  # type: ignore[misc]
        for value in range(-4, 5)
    ]
    assert tick_texts(axes)[4] == "+0\nFair"
    assert axes.get_xlabel() == "rolled degree"
    assert tick_texts(drawn("fate: Good vs Great"))[-1] == "+7\nEpic\nsucceed\nwith style"
    assert drawn("d6: 3D").get_xlabel() == "total"


@pytest.mark.parametrize(
    ("text", "difficulty", "first_success", "label"),
    [
        ("Good vs Great", 2, 2, "difficulty +2 Great"),
        ("power: 4dF+2 adv vs Superhuman", 7, 7, "difficulty +7 Superhuman"),  # out of reach
        ("power: 4dF+2 adv vs Superb", 3, 3, "difficulty +3 Superb"),
        ("d6: 3D vs 12", 12, 12, "difficulty 12"),
        ("fate: Good vs Great", 4, 5, "opposition +4 Great"),
        ("3d6fudge: Good", 0, 0, "the skill"),
        ("Good opp Fair", 0, 1, "a tie"),
    ],
)
def test_a_check_has_its_difficulty_line_and_shaded_success(
    text: str, difficulty: int, first_success: int, label: str
) -> None:
    odds = fudgedice.odds(text)
    axes = drawn(text)
    lines = [line for line in axes.get_lines() if line.get_label() == label]
    assert len(lines) == 1 and list(lines[0].get_xdata()) == [difficulty, difficulty]
    success = odds.events.get("success", odds.events.get("win"))
    assert success is not None and success == odds.at_least(first_success)
    shaded = [patch for patch in axes.patches if patch.get_label().startswith("success")]
    assert len(shaded) == 1
    assert shaded[0].get_x() == first_success - 0.5  # from the first value that succeeds
    last_bar = max(bar.get_x() + bar.get_width() for bar in axes.containers[0])
    assert shaded[0].get_x() + shaded[0].get_width() >= last_bar  # to the last value charted
    assert shaded[0].get_label() == f"success ({percent(success)})"


def test_a_roll_without_a_check_has_no_line() -> None:
    axes = drawn("4dF")
    labels = [line.get_label() for line in axes.get_lines()]
    assert not any(label.startswith(("difficulty", "success")) for label in labels)


@pytest.mark.parametrize("text", ["4dF", "Good vs Great", "d6: 3D vs 10", "1000dF"])
def test_the_legend_covers_no_data(text: str) -> None:
    axes = drawn(text)
    legend = axes.get_legend()
    assert legend is not None
    renderer = axes.figure.canvas.get_renderer()
    box, plotted = legend.get_window_extent(renderer), axes.get_window_extent(renderer)
    assert box.y0 >= plotted.y1 - 1  # above the axes, under the title
    names = [entry.get_text() for entry in legend.get_texts()]
    assert names[:2] == ["exactly", "at least"]


def test_long_rolls_wrap_and_keep_the_chart_its_width(tmp_path: Path) -> None:
    """Two rolls with a difficulty of 131 digits (fuzz seed 21): their legend
    row was wider than the figure, and matplotlib's "Tight layout not
    applied" warning is an error here. Wrapped, the names fit, and a long
    title keeps the odds chart its width."""
    from PIL import Image

    from fudgedice.render.plot import plot_comparison

    huge = "9" * 131
    rolls = [f"4dF vs {huge}", f"4dF@3d6 vs {huge}"]
    target = plot_comparison(rolls, [fudgedice.odds(roll) for roll in rolls], tmp_path / "a.png")
    wide = plot_odds(fudgedice.odds(f"4dF vs 3 # {'a long label ' * 12}"), tmp_path / "b.png")
    plain = plot_odds(fudgedice.odds("4dF vs 3"), tmp_path / "c.png")
    with Image.open(target) as chart:
        assert chart.width <= 1000
    with Image.open(wide) as chart, Image.open(plain) as short:
        assert chart.width <= short.width + 40


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_files_of_both_kinds(tmp_path: Path, suffix: str) -> None:
    target = plot_odds(fudgedice.odds("Good vs Great"), tmp_path / f"chart{suffix}")
    data = target.read_bytes()
    if suffix == ".png":
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert b"<svg" in data and b"difficulty +2 Great" in data


def test_heights_round_to_eight_levels() -> None:
    assert heights([0, 1, 2, 4, 8]) == [0, 1, 2, 4, 8]
    assert heights([1, 1000]) == [1, 8]  # a chance however small shows
    assert heights(list(range(1, 121)), width=60) == heights(
        [a + b for a, b in zip(range(1, 121, 2), range(2, 121, 2), strict=True)], width=60
    )
    assert sparkline([0, 1, 8]) == " ▁█"


def test_a_long_table_ends_with_its_shape() -> None:
    short = odds_text(fudgedice.odds("4dF"))
    assert "shape:" not in short
    long = odds_text(fudgedice.odds("10d6")).splitlines()
    shape = next(line for line in long if line.startswith("shape: "))
    low, marks, high = shape.removeprefix("shape: ").split(" ")
    assert (low, high) == ("14", "56")  # values of 1 in 100,000 or more
    assert len(marks) == 43 and marks[len(marks) // 2] == "█"
    assert marks == marks[::-1]  # 10d6 is symmetric
    wide = odds_text(fudgedice.odds("1000dF"))
    assert "(each mark 4 values)" in wide


def shown_texts(figure: Any) -> list[tuple[str, Any]]:
    """Every text of a drawn figure as matplotlib draws it, and whether as math."""
    from matplotlib.text import Text

    figure.canvas.draw()
    texts = [text for text in figure.findobj(Text) if text.get_visible() and text.get_text()]
    return [text._preprocess_math(text.get_text()) for text in texts]


def test_a_dollar_in_a_label_is_text_not_math(tmp_path: Path) -> None:
    text = "fate: Good opp Fair # costs $5 or $6"
    figure = drawn(text).figure
    said = shown_texts(figure)
    assert all(math is False for _, math in said), [shown for shown, math in said if math]
    assert any("# costs $5 or $6" in shown for shown, _ in said)
    compared = fudgedice.compare("4dF # $5", "4dF@3d6 # $6").plot()[0].figure
    legend = [shown for shown, math in shown_texts(compared) if not math]
    assert any(shown.startswith("$5 (mean") for shown in legend)  # a label names its roll
    assert all(math is False for _, math in shown_texts(compared))
    svg = plot_odds(fudgedice.odds(text), tmp_path / "dollars.svg").read_text("utf-8")
    assert "costs $5 or $6" in svg  # a title written as text, dollars and all


@pytest.mark.parametrize(
    "text", ["fate: Good opp Fair", "fate: Good+4 opp Mediocre", "12dF", "8dF"]
)
def test_crowded_ticks_break_no_word_and_overlap_none(text: str) -> None:
    odds = fudgedice.odds(text)
    axes = drawn(text)
    naming = odds.value_name
    assert naming is not None
    words = {word for value in range(-30, 31) for word in naming(value).replace(":", "").split()}
    labels = [label for label in axes.get_xticklabels() if label.get_text()]
    assert len(labels) > 9
    for label in labels:
        number, *lines = label.get_text().replace(" ", "\n", 1).split("\n")
        assert re.fullmatch(r"[+-]\d+", number)
        assert all(word in words for line in lines for word in line.split()), label.get_text()
    renderer = axes.figure.canvas.get_renderer()
    boxes = sorted((label.get_window_extent(renderer) for label in labels), key=lambda box: box.x0)
    for left, right in pairwise(boxes):
        assert left.x1 <= right.x0 + 0.5, (left, right)
