"""``fudgedice compare`` and ``fudgedice.compare``: rolls of any systems side
by side, checked against each roll's own exact odds and seed 001's table."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import fudgedice
from fudgedice import DiceTypeError, DiceValueError, LimitError
from fudgedice.cli import main
from fudgedice.render.compare_table import comparison_layout, comparison_text
from fudgedice.render.numbers import percent

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TECHNIQUES = ("4dF", "4dF@3d6", "4dF@d%", "4dF@4d6")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def block(text: str, title: str) -> dict[str, list[str]]:
    """The rows of one block of the printed table: value -> cells."""
    lines = text.splitlines()
    start = lines.index(title) + 1
    rows: dict[str, list[str]] = {}
    for line in lines[start:]:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) == 1:
            break  # the next block's title
        rows[cells[0]] = cells[1:]
    return rows


def test_the_four_techniques_side_by_side_with_a_chart(tmp_path: Path) -> None:
    chart = tmp_path / "cmp.png"
    result = run("compare", *TECHNIQUES, "--plot", str(chart))
    assert result.exit_code == 0, result.output
    header = re.split(r"\s{2,}", result.stdout.splitlines()[0].strip())
    assert header == ["rolled degree", *TECHNIQUES]
    # seed 001's success-rate table ("X or better"), as docs/fudge.md prints
    # it, its columns (4dF, d%, 3d6, 4d6) put in the order of TECHNIQUES
    seed = {
        "+1 Good": ["38.27%", "37.50%", "38.00%", "38.97%"],
        "+2 Great": ["18.52%", "16.20%", "18.00%", "17.75%"],
        "-2 Poor": ["93.83%", "95.37%", "94.00%", "93.36%"],
    }
    at_least = block(result.stdout, "chance of at least")
    for value, cells in seed.items():
        assert at_least[value] == cells
    exactly = block(result.stdout, "chance of exactly")
    assert exactly["+5 Superb+2"] == ["0%", "0%", "0%", percent(Fraction(1, 432))]
    spread = block(result.stdout, "spread")
    assert spread["mean"] == ["0", "0", "0", "0"]
    assert spread["stdev"][0] == "1.633"
    assert chart.read_bytes()[:8] == PNG_MAGIC
    assert f"chart written to {chart}" in result.stdout


def test_every_cell_is_each_rolls_own_exact_odds() -> None:
    forms = ("Good vs Great", "3d6fudge: Good", "d6: 3D vs 10", "fate: Good vs Great")
    compared = fudgedice.compare(*forms)
    layout = comparison_layout(compared, show_exact=True)
    odds = [fudgedice.odds(form) for form in forms]
    rows = iter(layout.rows)
    measures = {
        "chance of exactly": fudgedice.Odds.probability,
        "chance of at least": fudgedice.Odds.at_least,
        "chance of at most": fudgedice.Odds.at_most,
    }
    checked = 0
    measure = None
    for row in rows:
        if len(row) == 1:
            measure = measures.get(row[0])
            continue
        if measure is not None:
            value = int(row[0].split()[0])
            assert [Fraction(cell) for cell in row[1:]] == [measure(o, value) for o in odds]
            checked += 1
        elif row[0] in ("success", "failure", "critical failure", "tie"):
            cells = [None if cell == "-" else Fraction(cell) for cell in row[1:]]
            assert cells == [o.events.get(row[0]) for o in odds]
            checked += 1
    assert checked > 3 * 20
    # different ladders name their values differently: the number alone
    assert layout.columns[0] == "value"


def test_two_rolls_get_their_difference() -> None:
    result = run("compare", "power: 4dF # plain", "power: 4dF adv # advantage", "--exact")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert re.split(r"\s{2,}", lines[0].strip()) == ["result", "plain", "advantage", "difference"]
    at_least = block(result.stdout, "chance of at least")
    plain, advantage = fudgedice.odds("power: 4dF"), fudgedice.odds("power: 4dF adv")
    gap = advantage.at_least(1) - plain.at_least(1)
    assert gap == Fraction(49 - 31, 81)  # docs/fudge.md: 31/81 plain
    assert at_least["+1 Good"] == ["31/81", "49/81", "+2/9"]
    assert block(result.stdout, "spread")["mean"][2] == "+0.8025"
    assert lines[-1] == "difference: advantage less plain"


def test_events_of_different_systems_stand_side_by_side() -> None:
    text = comparison_text(fudgedice.compare("3d6fudge: Good", "d6: 3D vs 10"))
    events = block(text, "events")
    assert events["success"][:2] == [percent(Fraction(37, 54)), percent(Fraction(827, 1296))]
    assert events["critical success"] == ["0.93%", "-", "-"]
    assert events["complication"] == ["-", "16.67%", "-"]


def test_json_holds_each_rolls_odds_and_the_exact_difference() -> None:
    result = run("compare", "--json", "Good vs Great", "Great vs Great")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [form["label"] for form in data["forms"]] == ["Good vs Great", "Great vs Great"]
    assert data["forms"][0]["events"]["success"]["exact"] == "31/81"
    assert data["difference"]["events"]["success"]["exact"] == "19/81"  # 50/81 - 31/81
    assert data["difference"]["mean"]["exact"] == "1/1"
    assert data["difference"]["mean"]["p"] == 1.0


def test_json_writes_a_difference_past_the_float_range_as_text() -> None:
    # fuzz seed 21: float() of this mean's difference overflowed, a traceback
    huge = "fudge:+1" + "0" * 320
    result = run("compare", "--json", huge, "d6:8d+ 1-5")
    assert result.exit_code == 0, result.output
    mean = json.loads(result.stdout)["difference"]["mean"]
    assert mean["p"].startswith("-1.0000000000000000e+320") and mean["exact"].startswith("-")


def test_svg_chart(tmp_path: Path) -> None:
    chart = tmp_path / "cmp.svg"
    result = run("compare", "4dF", "3d6fudge: Good", "--plot", str(chart))
    assert result.exit_code == 0, result.output
    assert "<svg" in chart.read_text("utf-8")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("4dF",), "compare takes two rolls or more, not 1"),
        (("4dF", "4dF@3d7"), "roll 2 of 2: "),
        (("4dF", "Gret vs Good"), "roll 2 of 2: 'Gret' is not a word of the fudge ladder"),
        (("4dF", "4dF"), "two rolls are called '4dF'"),
        (("4dF # a", "3d6 # a"), "two rolls are called 'a'"),
        (tuple(f"{n}dF" for n in range(1, 10)), "compare takes at most 8 rolls, not 9"),
        (("4dF", "3d6", "--plot", "cmp.pdf"), ".png or .svg"),
    ],
)
def test_bad_input_is_a_message(args: tuple[str, ...], said: str) -> None:
    result = run("compare", *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert said in result.stderr


@pytest.mark.parametrize("bad", ["4dF@3d7", "Good vs Gret", "3d6kh4"])
def test_a_bad_roll_is_pointed_at_as_odds_points_at_it(bad: str) -> None:
    compared, alone = run("compare", "4dF", bad), run("odds", bad)
    assert compared.stderr.splitlines()[0] == alone.stderr.splitlines()[0].replace(
        "error: ", "error: roll 2 of 2: "
    )
    assert compared.stderr.splitlines()[1:] == alone.stderr.splitlines()[1:]
    assert "^" in compared.stderr


def test_the_api_refuses_like_the_command_line() -> None:
    with pytest.raises(DiceValueError, match="two rolls or more"):
        fudgedice.compare()
    with pytest.raises(DiceTypeError, match="roll 2 of 2"):
        fudgedice.compare("4dF", 3)  # type: ignore[arg-type]
    with pytest.raises(LimitError, match="at most 8"):
        fudgedice.compare(*(f"{n}dF" for n in range(1, 10)))


def test_labels_and_lookup() -> None:
    compared = fudgedice.compare("4dF  +1", "Good # skill")
    assert compared.labels == ["4dF +1", "skill"]
    assert compared["skill"] == fudgedice.odds("Good # skill")
    assert repr(compared) == "Comparison('4dF +1', 'skill')"
    with pytest.raises(KeyError):
        compared["nothing"]


def test_the_chart_overlays_every_roll() -> None:
    compared = fudgedice.compare(*TECHNIQUES)
    top, bottom = compared.plot()
    assert len(top.get_lines()) == len(bottom.get_lines()) == 4
    legend = [text.get_text() for text in top.get_legend().get_texts()]
    assert [label.split(" (")[0] for label in legend] == list(TECHNIQUES)
    words = [label.get_text() for label in bottom.get_xticklabels()]
    assert words[0] == "-5\nTerrible-2" and "+1\nGood" in words
    assert bottom.get_xlabel() == "rolled degree"
    single = compared.plot(ax=top.figure.add_subplot(3, 1, 3))
    assert len(single.get_lines()) == 4


def test_a_notebook_shows_the_same_table() -> None:
    compared = fudgedice.compare("4dF # <b>plain</b>", "4dF@3d6")
    html = compared._repr_html_()
    assert html is not None
    assert "<b>plain" not in html and "&lt;b&gt;plain&lt;/b&gt;" in html
    for row in comparison_layout(compared).rows:
        assert all(f">{cell}<" in html for cell in row if "<" not in cell)
    assert compared.text == comparison_text(compared)


def test_identical_lines_are_told_apart() -> None:
    """Two rolls with the same chances: the later line, drawn over the
    earlier, is dashed with hollow markers, and the legend says whose twin it is."""
    top, bottom = fudgedice.compare("4dF", "4dF # again", "4dF@3d6").plot()
    first, twin, other = top.get_lines()
    assert list(first.get_ydata()) == list(twin.get_ydata())
    assert first.get_linestyle() == "-" and twin.get_linestyle() != "-"
    assert twin.get_fillstyle() == "none" and twin.get_markersize() > first.get_markersize()
    assert twin.get_zorder() > first.get_zorder()
    assert other.get_linestyle() == "-" and other.get_marker() != first.get_marker()
    assert bottom.get_lines()[1].get_linestyle() == twin.get_linestyle()
    legend = [text.get_text() for text in top.get_legend().get_texts()]
    assert legend[1].replace("\n", " ").endswith("identical to 4dF")
    assert "identical" not in legend[0] + legend[2]
