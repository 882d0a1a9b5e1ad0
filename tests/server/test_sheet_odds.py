"""A sheet's page (every trait with its chance) is measured once a version
of the sheet, within one request's budget, through the gate of the table's
measures: a read waits a little for its place, and past that answers the
sheet without its page (never an old version, nor none)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from fudgedice import sheets
from fudgedice.server import connect
from fudgedice.server.guards import RateLimit
from fudgedice.server.odds import OddsGate
from fudgedice.server.problems import Problem
from fudgedice.server.sheet_pages import SheetPages
from fudgedice.server.sheet_store import Stored

SHEET = sheets.new_sheet("d6", "Jax")
PATIENT = 120.0
"""Seconds a test's server waits for a sheet's page being measured: the
measuring process, new in each test's server, may take longer than the
table's own wait to start on a loaded machine (what happens then is tested
apart)."""


def heavy(traits: int, dice: int = 1000) -> str:
    """A D6 sheet of ``traits`` attributes of about ``dice`` dice each: its
    page would take seconds of CPU unbounded."""
    lines = ['system = "d6"', 'name = "Heavy"', "[attributes]"]
    lines += [f'A{n} = "{dice - n}D"' for n in range(traits)]
    return "\n".join(lines) + "\n"


def _path(room: str, member: str) -> str:
    return f"/api/rooms/{room}/members/{member}/sheet"


def _attach(table: Any, room: str, member: dict[str, Any], text: str, version: int = 0) -> Any:
    answer = table.client.put(
        _path(room, member["member"]),
        json={"text": text, "version": version},
        headers={"Authorization": f"Bearer {member['token']}"},
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_sheets_page_is_measured_once_a_version(tmp_path: Path, served_here: Any) -> None:
    db = connect(str(tmp_path / "table.sqlite3"))
    with served_here(db) as table:
        pages = table.app.state.sheet_pages
        pages.within = PATIENT
        created = table.room("sheets", system="d6")
        room, gm = created["room"], created["gm_token"]
        ann = table.join(room, "Ann")
        attached = _attach(table, room, ann, SHEET)
        assert "Dodge" in attached["sheet"]["page"] and pages.measured == 1
        reads = [
            table.get(_path(room, ann["member"]), token).json()
            for token in (ann["token"], gm, ann["token"])
        ]
        listed = table.get(f"/api/rooms/{room}/sheets", gm).json()["sheets"]
        assert pages.measured == 1  # every read since: the page kept
        assert {read["sheet"]["page"] for read in reads} == {attached["sheet"]["page"]}
        assert listed[0]["sheet"]["page"] == attached["sheet"]["page"]
        edited = SHEET.replace('Dodge = "Agility+1D"', 'Dodge = "Agility+2D"')
        again = _attach(table, room, ann, edited, version=1)
        assert pages.measured == 2 and again["version"] == 2
        assert again["sheet"]["page"] != attached["sheet"]["page"]
        read = table.get(_path(room, ann["member"]), ann["token"]).json()
        assert read["sheet"]["page"] == again["sheet"]["page"] and pages.measured == 2
    db.dispose()


def test_a_heavy_sheet_is_measured_within_one_requests_budget(
    tmp_path: Path, served_here: Any
) -> None:
    db = connect(str(tmp_path / "table.sqlite3"))
    with served_here(db) as table:
        table.app.state.sheet_pages.within = PATIENT
        created = table.room("heavy", system="d6")
        ann = table.join(created["room"], "Ann")
        page = _attach(table, created["room"], ann, heavy(60))["sheet"]["page"]
        lines = [line for line in page.splitlines() if line.startswith("  A")]
        assert len(lines) == 60 and lines[0].endswith("%")
        refused = [line for line in lines if "for one request" in line]
        assert refused and lines[-1] in refused  # the traits past the budget say so
        assert "more than the" in refused[-1] and "limit of 0.6 s" in refused[-1]
    db.dispose()


def test_a_read_that_cannot_measure_soon_answers_the_sheet_without_its_page(
    tmp_path: Path, served_here: Any
) -> None:
    db = connect(str(tmp_path / "table.sqlite3"))
    with served_here(db) as table:
        pages = table.app.state.sheet_pages
        pages.wait = 0.2  # a sheet's page waits a little for the gate (WAIT), then is refused
        pages.within = PATIENT
        gate = pages.gate
        created = table.room("busy", system="d6")
        room, gm = created["room"], created["gm_token"]
        ann = table.join(room, "Ann")
        with gate.slot("elsewhere"):  # another measure under way
            attached = _attach(table, room, ann, SHEET)  # made, its page not measured
            assert attached["sheet"]["page"] is None and "busy" in attached["sheet"]["page_error"]
            for token in (ann["token"], gm):  # the sheet is there: its page comes later
                busy = table.get(_path(room, ann["member"]), token)
                assert busy.status_code == 200 and busy.json()["version"] == 1, busy.text
                shown = busy.json()["sheet"]
                assert shown["name"] == "Jax" and {t["name"] for t in shown["traits"]} >= {"Dodge"}
                assert shown["page"] is None and "busy measuring odds" in shown["page_error"]
            refused = table.get("/api/odds", text="4dF")
            assert refused.status_code == 503 and refused.headers["Retry-After"]
            listed = table.get(f"/api/rooms/{room}/sheets", gm).json()["sheets"]
            assert listed[0]["sheet"]["page"] is None and listed[0]["sheet"]["page_error"]
        read = table.get(_path(room, ann["member"]), ann["token"])  # the gate free again
        assert read.status_code == 200 and "Dodge" in read.json()["sheet"]["page"]
        assert "page_error" not in read.json()["sheet"]
    db.dispose()


def test_each_measure_spends_the_addresss_allowance_of_odds(
    tmp_path: Path, served_here: Any
) -> None:
    db = connect(str(tmp_path / "table.sqlite3"))
    with served_here(db, address_rate=0.001, address_burst=3) as table:
        created = table.room("allowance", system="d6")  # the address's "rooms"
        room = created["room"]
        ann = table.join(room, "Ann")  # and its "joins": each allowance apart
        for version in range(3):  # each new version measured once
            _attach(table, room, ann, SHEET.replace("Jax", f"Jax{version}"), version=version)
            kept = table.get(_path(room, ann["member"]), ann["token"])
            assert kept.status_code == 200  # kept: it costs no measure
        made = _attach(table, room, ann, SHEET, version=3)
        assert "too many requests from your address" in made["sheet"]["page_error"]
        kept = table.get(_path(room, ann["member"]), ann["token"])  # the sheet, not its page
        assert kept.status_code == 200 and kept.json()["version"] == 4
        assert "too many requests from your address" in kept.json()["sheet"]["page_error"]
        assert table.get("/api/odds", text="4dF").status_code == 429
    db.dispose()


def test_the_sheets_kept_are_bounded() -> None:
    pages = SheetPages(OddsGate(RateLimit(1000, 1000)), size=2)
    kept = [Stored(f"m{n}", SHEET.replace("Jax", f"Jax{n}"), 1, "") for n in range(3)]
    for stored in kept:
        pages.shown("room", stored, "a")
    assert pages.measured == 3
    pages.shown("room", kept[2], "a")
    pages.shown("room", kept[1], "a")
    assert pages.measured == 3  # the last two, kept
    assert "Jax0" in pages.shown("room", kept[0], "a")["page"]
    assert pages.measured == 4  # the least read went first
    edited = Stored("m1", kept[1].text.replace("Jax1", "Jay"), 1, "")  # another text
    assert "Jay" in pages.shown("room", edited, "a")["page"] and pages.measured == 5


def test_members_reading_one_sheet_together_both_get_its_page_measured_once() -> None:
    """The owner's page and the GM's party view read a sheet's new version
    at the same moment: the one behind waits for the gate, and finds the page
    the first one measured."""
    pages = SheetPages(OddsGate(RateLimit(1000, 1000)))
    stored = Stored("m", SHEET, 2, "")
    held = threading.Event()
    answers: list[Any] = []

    def read() -> None:
        answers.append(pages.shown("room", stored, "a"))

    with pages.gate.slot("elsewhere"):  # the first reader's measure, under way
        behind = threading.Thread(target=read)
        behind.start()
        held.wait(0.3)  # it waits for the gate (WAIT), not refused at once
        assert not answers
    behind.join(timeout=30)
    read()
    assert len(answers) == 2 and all("Dodge" in shown["page"] for shown in answers)
    assert pages.measured == 1


def test_the_gate_lets_only_a_few_wait_and_each_for_a_while() -> None:
    gate = OddsGate(RateLimit(1000, 1000), waiting=1)
    refused: list[str] = []

    def ask(wait: float) -> None:
        try:
            with gate.slot("a", wait):
                pass
        except Problem as problem:
            refused.append(f"{problem.status} {problem.error}")

    with gate.slot("a"):
        waiting = threading.Thread(target=ask, args=(30.0,))
        waiting.start()
        while gate._waiting == 0:  # the first waiter is in
            time.sleep(0.01)
        ask(30.0)  # a second waiter past ``waiting``: refused at once
        ask(0.05)  # so would it be, waiting or not
        assert len(refused) == 2 and all(r.startswith("503 ") for r in refused)
    waiting.join(timeout=30)  # the place it waited for came free
    assert len(refused) == 2 and not waiting.is_alive()


def test_a_page_measured_past_the_wait_is_kept_once_it_ends() -> None:
    """The measuring process slow to start (a new interpreter loading the
    engine on a loaded machine): the sheet is answered without its page, the
    measure goes on holding the gate's place, and its page is kept when it
    ends, served to the next read without another measure."""
    gate = OddsGate(RateLimit(1000, 1000), isolated=True)
    pages = SheetPages(gate)
    pages.within = 0.001  # far less than any interpreter takes to start
    stored = Stored("m", SHEET, 1, "")
    try:
        first = pages.shown("room", stored, "a")
        assert first["name"] == "Jax" and first["page"] is None
        assert "still being measured" in first["page_error"]
        deadline = time.monotonic() + 120
        while pages.measured == 0 and time.monotonic() < deadline:
            try:  # one measure at a time: none other while it runs
                with gate.slot("b"):
                    assert pages.measured == 1  # its place freed only once it ended
            except Problem as busy:
                assert busy.status == 503
            time.sleep(0.05)
        assert pages.measured == 1
        kept = pages.shown("room", stored, "a")
        assert "Dodge" in kept["page"] and "page_error" not in kept and pages.measured == 1
    finally:
        gate.close()
