"""One budget of work per request (``fudgedice.budget``): every costly step
charges its estimate before it starts, the steps of one request add up, and a
refusal names the bound and, where there is one, the largest size that fits.

Nothing here is timed: the estimates are deterministic, so what is accepted
and what is refused is the same on every machine.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import fudgedice
from fudgedice import LimitError, budget
from fudgedice.api import program_with_table
from fudgedice.cli import console, main
from fudgedice.dice.program import ROLL_DIE_WORK
from fudgedice.errors import OverBudget
from fudgedice.exact import kernels
from fudgedice.limits import DEFAULT_LIMITS, Limits
from fudgedice.log.session import Session

LIMIT = DEFAULT_LIMITS.max_request_work


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture
def cold() -> Iterator[None]:
    """Every memoised distribution forgotten before and after the test."""
    fudgedice.clear_caches()
    yield
    fudgedice.clear_caches()


def test_steps_of_one_request_add_up() -> None:
    @budget.within_budget
    def request() -> None:
        budget.charge(LIMIT * 0.6, "the first step")
        budget.charge(LIMIT * 0.6, "the second step")

    with pytest.raises(LimitError) as caught:
        request()
    message = str(caught.value)
    assert message.startswith("the second step would take about 0.36 s of work")
    assert "more than the 0.24 s left of the limit of 0.6 s for one request" in message


def test_each_request_has_its_own_budget() -> None:
    @budget.within_budget
    def request() -> float:
        budget.charge(LIMIT * 0.6, "a step")
        current = budget.current()
        assert current is not None
        return current.spent

    assert request() == request() == LIMIT * 0.6
    assert budget.current() is None


def test_a_request_inside_another_joins_it() -> None:
    @budget.within_budget
    def inner() -> None:
        budget.charge(LIMIT * 0.6, "the inner step")

    @budget.within_budget
    def outer() -> None:
        inner()
        inner()

    with pytest.raises(LimitError, match="the inner step"):
        outer()


def test_a_refusal_offers_what_fits() -> None:
    seen: list[int] = []

    def fits(left: int) -> str:
        seen.append(left)
        return f"at most {left // 1000} widgets"

    @budget.within_budget
    def request() -> None:
        budget.charge(LIMIT / 2, "a step")
        budget.charge(LIMIT, "widgets", fits)

    with pytest.raises(LimitError) as caught:
        request()
    assert seen == [LIMIT // 2]
    assert caught.value.hint == f"at most {LIMIT // 2000} widgets"


def test_a_capped_step_stops_at_its_cap_and_counts_in_the_request() -> None:
    @budget.within_budget
    def request() -> float:
        with pytest.raises(LimitError), budget.capped(LIMIT / 10):
            budget.charge(LIMIT / 20, "a cheap try")
            budget.charge(LIMIT / 10, "too much for the cap")
        current = budget.current()
        assert current is not None
        return current.spent

    assert request() == LIMIT / 20


def test_a_cached_result_charges_what_it_cost() -> None:
    """Served from the cache, a step is refused exactly where it was built:
    whether a request fits never depends on what ran before it."""
    built: list[int] = []

    @budget.costed_cache(maxsize=8)
    def step(size: int) -> int:
        built.append(size)
        budget.charge(size, f"a step of {size}")
        return size

    @budget.within_budget
    def request(before: float, size: int) -> int:
        budget.charge(before, "what came before")
        return step(size)

    assert request(0, LIMIT // 2) == LIMIT // 2
    assert request(0, LIMIT // 2) == LIMIT // 2
    assert built == [LIMIT // 2]  # the second one came from the cache
    with pytest.raises(LimitError, match=f"a step of {LIMIT // 2}"):
        request(LIMIT * 0.6, LIMIT // 2)  # from the cache, and refused all the same
    step.cache_clear()
    with pytest.raises(LimitError, match=f"a step of {LIMIT // 2}"):
        request(LIMIT * 0.6, LIMIT // 2)  # built again: the same refusal


def test_nested_cached_steps_each_record_their_own_charges() -> None:
    """A cached step inside another: the inner one records what it charged,
    the outer one that and what it charged after (fuzz finding: the inner
    step's recorder, equal to the outer's, was taken off in its place)."""

    @budget.costed_cache(maxsize=8)
    def inner(size: int) -> int:
        budget.charge(size, "the inner step")
        return size

    @budget.costed_cache(maxsize=8)
    def outer(size: int) -> int:
        inner(size)
        budget.charge(size, "the outer step after it")
        return size

    @budget.within_budget
    def request(size: int) -> float:
        outer(size)
        current = budget.current()
        assert current is not None and current.recorders == []
        return current.spent

    assert request(1000) == 2000  # built
    assert request(1000) == 2000  # from the cache: both charges again
    assert [what for _, what, _ in outer.store[(1000,)][1]] == [
        "the inner step",
        "the outer step after it",
    ]


def test_odds_notes_of_a_roll_measured_once_charge_the_same(cold: None) -> None:
    """The fuzz finding itself, and a difficulty's notes served from the
    program's cache charge what measuring them did."""
    first = fudgedice.roll(" (d8\t)/9 vs mediocre", seed=4230020684)
    again = fudgedice.roll(" (d8\t)/9 vs mediocre", seed=4230020684)
    assert first.to_dict() == again.to_dict()
    dice = fudgedice.Dice(fudgedice.SYSTEMS)  # its programs are new: nothing measured yet

    @budget.within_budget
    def request() -> float:
        dice.roll("Good vs Great", seed=1)
        current = budget.current()
        assert current is not None
        return current.spent

    measured, served = request(), request()
    assert measured == served > 0


def test_measuring_charges_the_same_whether_cached_or_not(cold: None) -> None:
    text = "+".join(["3d3!!", "2d6!", "4d8kh2"])

    @budget.within_budget
    def spent() -> float:
        fudgedice.odds(text)
        current = budget.current()
        assert current is not None
        return current.spent

    first = spent()
    assert 0 < first == spent()


def test_a_power_past_what_is_left_is_refused_before_any_work(
    monkeypatch: pytest.MonkeyPatch, cold: None
) -> None:
    """238d100 fits alone and is measured; 230d99 after it does not, and is
    refused before its power is computed, offering a pool that fits."""
    powers: list[int] = []
    for name in ("_power_miller", "_power_kronecker"):
        kernel = getattr(kernels, name)

        def counted(base: list[int], n: int, kernel: Any = kernel) -> list[int]:
            powers.append(n)
            result: list[int] = kernel(base, n)
            return result

        monkeypatch.setattr(kernels, name, counted)
    with pytest.raises(LimitError) as caught:
        fudgedice.odds("238d100+230d99")
    assert powers == [238]
    message = str(caught.value)
    assert message.startswith("exact odds of 230d99 would take about")
    assert "left of the limit of 0.6 s for one request" in message
    hint = caught.value.hint or ""
    assert hint.endswith("such dice is the most whose exact odds fit")
    assert 0 < int(hint.split()[0]) < 230


# --- the examples of issue 9, each a clear answer ------------------------------------


def test_a_sum_of_alike_exploding_pools_is_measured(cold: None) -> None:
    twelve = fudgedice.odds("+".join(["3d3!!"] * 12))
    assert twelve.low == 36


def test_big_pool_views_are_exact_or_refused_by_name() -> None:
    odds = fudgedice.odds("10000dF")
    rows = odds.outcomes
    assert len(rows) == 20001
    assert rows[10000].p == odds.probability(0)
    assert sum(row.p for row in rows[9990:10011]) == odds.chance_between(-10, 10).p
    code, output = cli("odds", "10000dF", "--all")
    assert code == 2
    assert "the odds table of 10000dF would take about" in output
    assert "without --all the table shows the rows that hold the probability" in output
    code, output = cli("odds", "10000dF", "--plot", "/dev/null/chart.png")
    assert code == 2 and "there is no folder" in output


def test_views_of_many_rows_are_refused_naming_how_many_fit() -> None:
    odds = fudgedice.odds("d6: 1000D+7 opp 2+3")
    with pytest.raises(LimitError) as caught:
        _ = odds.outcomes
    assert "the exact rows of d6: 1000D+7 opp 2+3 would take about" in str(caught.value)
    hint = caught.value.hint or ""
    assert hint.startswith("at most ") and "such rows fit" in hint
    assert odds.at_least(3500) == odds.chance_between(3500, None).p  # one value still answers


def test_character_points_on_both_sides_are_refused_by_the_budget() -> None:
    with pytest.raises(LimitError, match=r"more than the .* for one request"):
        fudgedice.odds("d6: 10D cp20 opp 10D cp20")
    assert fudgedice.odds("d6: 10D cp5 opp 10D cp5").events["success"] > Fraction(1, 3)


def test_a_sample_too_costly_to_measure_tosses_its_dice() -> None:
    totals = fudgedice.sample("114d100!P<=60 vs Superb", 1000, seed=1)
    assert totals.shape == (1000,)


def test_a_roll_whose_notes_are_past_the_budget_still_rolls() -> None:
    roll = fudgedice.roll("1000d6! vs Good", seed=1)
    assert roll.verdict == "success"


def test_a_log_past_the_budget_is_refused_never_reported_failing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Verifying is charged whole, by its entries and faces, before it starts:
    a roll re-rolled is never refused midway (which would read as an entry
    that fails)."""
    session = Session.new(server_seed=b"\x07" * 32)
    for index in range(40):
        session.roll(("4dF+1", "d6: 3D+1", "2d6+3")[index % 3])
    session.reveal()
    log = session.export()
    assert fudgedice.verify(log).complete
    monkeypatch.setattr(budget, "DEFAULT_LIMITS", Limits(max_request_work=1_000_000))
    with pytest.raises(OverBudget) as caught:
        fudgedice.verify(log)
    assert str(caught.value).startswith("verifying a log of 40 entries and")
    assert (caught.value.hint or "").endswith("such entries can be verified in one request")


def test_a_wide_opposed_d6_roll_is_refused_before_its_tails_are_scaled() -> None:
    with pytest.raises(OverBudget, match="exact odds past the cut-off of the exploding dice"):
        fudgedice.odds("d6: 3D+5 opp 10D+10001")


def test_ten_thousand_dice_of_ten_thousand_faces_read_back() -> None:
    rolled = fudgedice.roll("10000d10000dl3", seed=1)
    faces = [die.face for die in rolled.dice]
    assert fudgedice.read("10000d10000dl3", faces).total == rolled.total


def test_a_request_pauses_the_cyclic_collector_and_restores_it() -> None:
    seen: list[bool] = []

    @budget.within_budget
    def request() -> None:
        seen.append(gc.isenabled())

    assert gc.isenabled()
    request()
    assert seen == [False] and gc.isenabled()
    gc.disable()  # a caller's own choice is left alone
    try:
        request()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_keeping_all_but_a_few_of_a_thousand_dice_is_refused_early() -> None:
    """994 of 1000 kept, each scored 0 (no face of dF is -2): the binomials
    alone took seconds; now built by a recurrence, charged first, and the
    faces refused by what they would cost."""
    with pytest.raises(OverBudget, match="exact odds of keeping 994 of 1000 dice"):
        fudgedice.odds("1000dF=-2dh6")


def test_the_sure_outcomes_of_an_opposed_pool_are_reduced_within_the_budget() -> None:
    """``d6: 5 nowild opp 1000D``: each count holds 3 up to 836 times, a few
    more or less than the one before. Stripped in growing powers, the rows
    took 0.93 s (estimated at 0.52); taken off in one long division after a
    guess from the count before, they are accepted, and exact."""
    odds = fudgedice.odds("d6: 5 nowild opp 1000D")
    rows = odds.outcomes
    total = odds.denominator
    counts = [count for count in odds.dist.counts if count]
    assert len(rows) == len(counts) == 5005
    for row, count in zip(rows[::97], counts[::97], strict=True):
        assert row.p == Fraction(count, total)
    assert rows[-1].at_most == 1 - odds.truncated + sum(
        (tail.p for tail in odds.tails if tail.high is not None and tail.high <= rows[-1].value),
        Fraction(0),
    )


def test_the_odds_as_json_are_charged_for_writing_each_row() -> None:
    """3d9999's 29,995 rows as JSON: their dictionaries and ``json.dumps``
    took 0.5 s more than was charged (0.84 s in all); now refused before any
    row is built, saying how many fit."""
    odds = fudgedice.odds("3d9999")
    with pytest.raises(OverBudget, match="of 3d9999"):
        odds.to_dict()  # the JSON charged (0.56 s), then the rows do not fit
    assert "outcomes" not in vars(odds)
    code, output = cli("odds", "3d9999", "--json")
    assert code == 2
    assert "the exact odds of 3d9999 as JSON would take about" in output
    assert "rows fit as JSON" in output
    assert len(fudgedice.odds("5d999").to_dict()["outcomes"]) == 4991


def test_a_chart_is_charged_by_how_its_values_are_drawn(tmp_path: Path) -> None:
    """d9999*2 charts 9,999 values with gaps, each a line of its own: as an
    SVG that took 1.09 s, charged 0.56 (20 microseconds a value; measured
    67 to 92). Now refused before it is drawn, and nothing written; 3d999's
    2,907 side by side (one outline) are drawn."""
    svg = tmp_path / "gaps.svg"
    code, output = cli("odds", "d9999*2", "--plot", str(svg))
    assert code == 2
    assert "a chart of d9999*2 would take about" in output
    assert not svg.exists()
    png = tmp_path / "outline.png"
    code, output = cli("odds", "3d999", "--plot", str(png))
    assert code == 0 and png.exists()


def test_looking_for_where_a_split_roll_ends_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """``read 'd6: 10001#D+5' 6 6 5 ...`` with 6,000 faces: the label takes
    every word after it, so each of a hundred longer rolls compiled and read
    every face left (1.4 s, nothing charged). The search has a bound of its
    own; past it, the read's own error stands."""
    tried: list[str] = []

    def counted(text: str, table: str | None) -> Any:
        tried.append(text)
        return program_with_table(text, table)

    monkeypatch.setattr(console, "program_with_table", counted)
    faces = [str(1 + index % 6) for index in range(6000)]
    code, output = cli("read", "d6: 10001#D+5", *faces)
    assert code == 2
    assert output.startswith("error: ") and "3333D+2 rolls 3332" in output
    assert "quote a roll" not in output
    assert 1 <= len(tried) <= 1 + console.HINT_WORK // (5_990 * ROLL_DIE_WORK)
    code, output = cli("read", "d6:", "3D+1", "4", "2", "w6")  # the hint still comes
    assert code == 2 and "quote a roll that has spaces" in output
