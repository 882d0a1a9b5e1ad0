"""Play at the table as entries of the log: a session's play verifies, and
``verify`` replays its arithmetic, so that each kind of tampering is named at
its entry (a spend without a point, a free invoke that is not there, points
that do not go on, an advantage's free invokes, a D6 order)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fudgedice
from fudgedice.errors import DiceValueError
from fudgedice.log.canonical import GENESIS
from fudgedice.log.entries import roll_entry, roll_label
from fudgedice.log.play_entries import play_entry, play_fields_error, spend_fields
from fudgedice.log.sheet_entries import sheet_entry
from fudgedice.log.spends import spend_entry
from fudgedice.play import (
    Character,
    Played,
    Rolled,
    Table,
    apply,
    consequence,
    invoke,
    new_state,
    recover,
)
from fudgedice.stream import commitment

Rechain = Callable[[dict[str, Any]], dict[str, Any]]
"""The ``rechained`` fixture: a log with every hash made again."""

SEED = bytes(range(32))
COMMITMENT = commitment(SEED)
ROOM = "room"
NAMES = {"g": "Gina", "a": "Ann", "b": "Bob"}


class Room:
    """A room's log and play state, made action by action as a table makes them."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.own: dict[int, dict[str, Any]] = {}
        self.nonces: dict[str, int] = {}
        self.state = new_state()
        self.points = {"a": 2, "b": 1}
        self.margins: dict[int, int | None] = {}

    @property
    def prev(self) -> str:
        return str(self.entries[-1]["hash"]) if self.entries else GENESIS

    def table(self, actor: str, rolls: dict[int, Rolled] | None = None) -> Table:
        characters = {
            "a": Character("a", "Cynere", "fate", self.points["a"], 3, {}, ("Infamous",), {}),
            "b": Character("b", "Landon", "fate", self.points["b"], 3, {}, ("Hot-headed",), {}),
        }
        return Table(actor, actor == "g", NAMES, characters, rolls or {}, len(self.entries))

    def roll(
        self, text: str, member: str, visibility: str = "public", label: str | None = None
    ) -> int:
        logged = roll_entry(
            server_seed=SEED, commitment=COMMITMENT, room=ROOM, seq=len(self.entries) + 1,
            nonce=self.nonces.get(member, 0), prev=self.prev, text=text, roller=NAMES[member],
            visibility=visibility, member=member, extra=None if label is None else {"label": label},
        )  # fmt: skip
        self.nonces[member] = self.nonces.get(member, 0) + 1
        assert logged.roll is not None
        seq = self._keep(logged.entry, logged.opening)
        self.margins[seq] = logged.roll.margin
        return seq

    def rolled(self, seq: int) -> Rolled:
        own = self.own[seq]
        label = roll_label(own["text"], own.get("label")) or None
        return Rolled(seq, own["member"], label, own["total"], self.margins[seq], "fate")

    def invoke(self, of: int, aspect: str, free: bool, used: tuple[str, ...] = ()) -> int:
        member = self.own[of]["member"]
        played = invoke(self.state, aspect, free, self.table(member), used)
        self._settle(played)
        logged = spend_entry(
            server_seed=SEED, room=ROOM, seq=len(self.entries) + 1, prev=self.prev,
            of=self.own[of], point="invoke", extra=spend_fields(played),
        )  # fmt: skip
        assert logged.roll is not None
        seq = self._keep(logged.entry, logged.opening)
        self.margins[seq] = logged.roll.margin
        return seq

    def play(self, actor: str, rolls: tuple[int, ...] = (), **action: Any) -> int:
        table = self.table(actor, {seq: self.rolled(seq) for seq in rolls})
        return self.log(actor, apply(self.state, action, table), action["action"])

    def log(self, actor: str, played: Played, action: str) -> int:
        self._settle(played)
        entry = play_entry(
            commitment=COMMITMENT, seq=len(self.entries) + 1, prev=self.prev,
            roller=NAMES[actor], member=actor, played=played, action=action,
        )  # fmt: skip
        return self._keep(entry, None)

    def change(self, member: str, points: int) -> int:
        self.points[member] = points
        entry, opening = sheet_entry(
            commitment=COMMITMENT, seq=len(self.entries) + 1, prev=self.prev,
            roller=NAMES[member], action="edit", character="Landon", change="edited",
            sheet_text=f"fate_points = {points}", extra_shown={"member": member},
        )  # fmt: skip
        return self._keep(entry, opening)

    def _settle(self, played: Played) -> None:
        self.state = played.state
        for member, (_, after) in played.points.items():
            self.points[member] = after

    def _keep(self, entry: dict[str, Any], opening: dict[str, Any] | None) -> int:
        if opening is not None:
            entry = {**entry, "opening": opening}
        self.entries.append(entry)
        self.own[entry["seq"]] = entry if opening is None else opening["entry"]
        return int(entry["seq"])

    def document(self) -> dict[str, Any]:
        seed = {"commitment": COMMITMENT, "server_seed": SEED.hex(),
                "rolls": sum(self.nonces.values()), "stream": 2}  # fmt: skip
        return {
            "format": "fudgedice-log/2", "room": ROOM, "seeds": [seed],
            "entries": copy.deepcopy(self.entries),
            "head": {"seq": len(self.entries), "hash": self.prev},
        }  # fmt: skip


def a_session() -> tuple[Room, dict[str, int]]:
    """A scene of play: every kind of entry, at its seq."""
    room, at = Room(), {}
    at["scene"] = room.play("g", action="scene", name="The docks")
    at["aspect"] = room.play("g", action="aspect", name="Fog", free=1)
    at["create"] = room.roll("fate: Superb vs Terrible # create an advantage", "a")
    at["advantage"] = room.play("a", (at["create"],), action="advantage", of=at["create"],
                                name="Cornered")  # fmt: skip
    at["fight"] = room.roll("fate: Fair vs Great # fight", "a")
    at["free1"] = room.invoke(at["fight"], "a2", True)
    at["free2"] = room.invoke(at["free1"], "a2", True, ("Cornered",))
    at["paid"] = room.invoke(at["free2"], "Infamous", False, ("Cornered",))
    at["compel"] = room.play("g", action="compel", member="a", aspect="Infamous")
    at["accept"] = room.play("a", action="accept", compel="c3")
    at["hidden"] = room.roll("fate: Good vs Good", "b", visibility="self")
    at["hidden_invoke"] = room.invoke(at["hidden"], "Hot-headed", False)
    at["edit"] = room.change("b", 4)
    at["hurt"] = room.log("g", consequence(room.state, "b", "mild", "Bruised", "a"), "consequence")
    at["rename"] = room.play("b", action="rename", aspect="a4", name="Cracked ribs")
    at["remove"] = room.play("g", action="remove", aspect="a1")
    at["gm_spend"] = room.play("g", action="gm_spend")
    at["gm_roll"] = room.roll("fate: Good vs Fair # an NPC", "g")
    at["gm_invoke"] = room.invoke(at["gm_roll"], "Hot-headed", False)  # from the GM's pool
    at["init"] = room.play("g", action="initiative", mode="perception")
    at["roll_a"] = room.roll("d6: 3D # initiative", "a")
    at["roll_b"] = room.roll("d6: 3D+20 # initiative", "b")
    at["roll_g"] = room.roll("d6: 1D", "g", label="initiative: Orc")  # by its Label field
    at["order"] = room.play("g", (at["roll_a"], at["roll_b"], at["roll_g"]), action="order")
    at["session"] = room.play("g", action="session")
    return room, at


def failure_of(document: dict[str, Any], rechained: Rechain) -> tuple[int | None, str]:
    failure = fudgedice.verify(rechained(document)).failure
    assert failure is not None
    return failure.seq, failure.reason


def test_a_sessions_play_verifies() -> None:
    room, at = a_session()
    report = fudgedice.verify(room.document())
    assert report.ok and report.complete, report
    # 12 play entries and 5 named invokes (the hidden one is opened); 1 sheet change
    assert (report.played, report.waiting) == (17, 0), report
    assert "their fate points and free invokes add up" in str(report) and report.changes == 1
    entry = room.entries[at["advantage"] - 1]
    assert entry["args"]["free"] == 2 and entry["kind"] == "play" and entry["nonce"] is None
    assert room.entries[at["paid"] - 1]["points"] == [2, 1]
    assert room.entries[at["order"] - 1]["args"]["order"][0]["who"] == "b"


def test_an_unopened_hidden_spend_waits() -> None:
    room, _ = a_session()
    document = room.document()
    for entry in document["entries"]:
        entry.pop("opening", None)
    document["seeds"][0].update(server_seed=None, rolls=None)
    report = fudgedice.verify(document)
    assert report.ok and report.waiting == 1, report
    assert "1 hidden spend not opened yet" in str(report)


def tampered(rechained: Rechain, at: int, **fields: Any) -> tuple[int | None, str]:
    room, _ = a_session()
    document = room.document()
    entry = document["entries"][at - 1]
    for name, value in fields.items():
        if name == "args":
            entry["args"].update(value)
        elif value is None and name.startswith("no_"):
            entry.pop(name[3:])
        else:
            entry[name] = value
    return failure_of(document, rechained)


@pytest.mark.parametrize(
    ("where", "fields", "reason"),
    [
        ("paid", {"points": [1, 1]}, "spend without a point"),
        ("paid", {"no_points": None}, "names none paid"),
        (
            "accept",
            {"points": {"a": [5, 6]}},
            "starts a's fate points at 5, and seq 8 left them at 1",
        ),
        ("paid", {"free": True, "aspect_id": "a2", "no_points": None}, "a2, which has none left"),
        ("free2", {"aspect_id": "a9"}, "an aspect the log has not"),
        ("paid", {"aspect": "Cornered"}, "pays to invoke Cornered again on the same roll"),
        ("accept", {"points": {"a": [0, 1]}}, "starts a's fate points at 0"),
        ("accept", {"points": {"a": [1, 3]}}, "go from 1 to 3 on an accept"),
        ("compel", {"points": {"a": [1, 2]}}, "a compel changes no fate points"),
        ("advantage", {"args": {"free": 1}}, "gives a situation with 2 free invoke"),
        ("advantage", {"args": {"shifts": 9}}, "has 9 shifts, and seq 3 rolled"),
        ("advantage", {"args": {"of": 5}}, "no roll of its actor's"),
        ("gm_spend", {"gm_pool": [3, 2]}, "starts the GM's pool at 3, and seq 1 left it at 2"),
        ("gm_spend", {"gm_pool": [2, 0]}, "takes its count off the GM's pool"),
        ("aspect", {"gm_pool": [2, 1]}, "an aspect does not change the GM's pool"),
        ("gm_invoke", {"gm_pool": [2, 1]}, "starts the GM's pool at 2, and seq 17 left it at 1"),
        ("gm_invoke", {"gm_pool": [0, 0]}, "spend without a point"),
        ("hurt", {"args": {"free": 2}}, "a consequence is an aspect with 1 free invoke"),
        ("remove", {"args": {"aspect": "a2x"}}, "names the aspect 'a2x', which the log has not"),
        ("rename", {"args": {"aspect": ["a4"]}}, "names the aspect ['a4']"),
        ("session", {"points": {"a": [1, 3]}}, "starts a's fate points at 1, and seq 10 left"),
        ("session", {"args": {"refresh": {"a": 2}}}, "refreshes a's fate points"),
        ("order", {"args": {"ties": [["b", "a"]]}}, "its ties are not those of its totals"),
        ("aspect", {"visibility": "gm"}, "a play entry is public"),
        ("aspect", {"action": "steal"}, "its action is not one of"),
        ("aspect", {"points": {"a": [0, -1]}}, "whole numbers from 0"),
    ],
)
def test_tampered_play_is_named(
    rechained: Rechain, where: str, fields: dict[str, Any], reason: str
) -> None:
    _, at = a_session()
    seq, why = tampered(rechained, at[where], **fields)
    assert seq == at[where] and reason in why, why


def test_a_wrong_order_is_named(rechained: Rechain) -> None:
    room, at = a_session()
    document = room.document()
    order = document["entries"][at["order"] - 1]["args"]["order"]
    order.reverse()
    assert failure_of(document, rechained) == (
        at["order"], "its order does not run from the highest total down"
    )  # fmt: skip
    document = room.document()
    place = document["entries"][at["order"] - 1]["args"]["order"][1]
    place["totals"] = [place["totals"][0] + 1]
    seq, why = failure_of(document, rechained)
    assert seq == at["order"] and f"lists seq {at['roll_a']} with" in why
    document = room.document()
    document["entries"][at["order"] - 1]["args"]["order"][1]["rolls"] = [at["fight"]]
    seq, why = failure_of(document, rechained)
    assert seq == at["order"] and f"lists seq {at['fight']}, which is no roll of the round" in why


def test_a_label_given_beside_the_text_orders_and_is_checked(rechained: Rechain) -> None:
    room, at = a_session()
    listed = room.entries[at["order"] - 1]["args"]["order"]
    assert {"who": "Orc", "rolls": [at["roll_g"]]}.items() <= listed[-1].items()
    assert room.entries[at["roll_g"] - 1]["label"] == "initiative: Orc"
    for label in ("ambush", "initiatives: Orc"):  # the label the roll was made with, changed
        document = room.document()
        document["entries"][at["roll_g"] - 1]["label"] = label
        assert failure_of(document, rechained) == (
            at["order"], f"its order lists seq {at['roll_g']}, which is no initiative roll"
        )  # fmt: skip


def test_a_sheet_change_between_lets_points_start_anew(rechained: Rechain) -> None:
    room, at = a_session()
    # Bob's sheet was edited to 4 after his hidden invoke: the consequence and session
    # entries need not follow the invoke's [1, 0]
    assert room.points["b"] == 4
    document = room.document()
    document["entries"][at["edit"] - 1]["kind"] = "roll"  # no longer a sheet change
    seq, _ = failure_of(document, rechained)
    assert seq == at["edit"]  # (its fields are a sheet's: the roll fails its own check first)
    # with no sheet change between, the next entry must start where the last left them
    later = Room()
    later.play("g", action="award", member="b")
    later.points["b"] = 7  # changed behind the log's back
    later.play("g", action="award", member="b")
    seq, why = failure_of(later.document(), rechained)
    assert seq == 2 and "starts b's fate points at 7, and seq 1 left them at 2" in why


def a_conflict() -> tuple[Room, dict[str, int]]:
    """A conflict: a consequence before it, two in it, one healed, Bob concedes."""
    room, at = Room(), {}
    at["before"] = room.log("g", consequence(room.state, "a", "mild", "Tired", "g"), "consequence")
    at["start"] = room.play("g", action="initiative", mode="notice")
    at["again"] = room.play("g", action="initiative", mode="gm", order=["b", "a"])
    at["cut"] = room.log("g", consequence(room.state, "a", "moderate", "Cut", "b"), "consequence")
    at["winded"] = room.log("g", consequence(room.state, "b", "mild", "Winded", "a"), "consequence")
    at["heal"] = room.log("g", recover(room.state, "a", ["mild", "moderate"]), "recover")
    at["end"] = room.play("g", action="end_conflict", conceded=["b"])
    return room, at


def test_a_conflicts_end_and_a_recovery_verify(rechained: Rechain) -> None:
    room, at = a_conflict()
    report = fudgedice.verify(room.document())
    assert report.ok and report.played == 7, report
    end = room.entries[at["end"] - 1]
    assert end["args"]["taken"] == {"a": 1, "b": 1}
    assert end["points"] == {"a": [2, 3], "b": [1, 3]}
    assert room.entries[at["heal"] - 1]["args"]["aspects"] == ["a1", "a2"]
    # an end as older tables logged it (no args, no points) still verifies
    older = Room()
    older.play("g", action="initiative", mode="notice")
    older.log("g", consequence(older.state, "a", "mild", "Cut", "b"), "consequence")
    ended = older.play("g", action="end_conflict")
    document = older.document()
    document["entries"][ended - 1].update(args={}, points={})
    assert fudgedice.verify(rechained(document)).ok


@pytest.mark.parametrize(
    ("where", "fields", "reason"),
    [
        ("heal", {"args": {"aspects": ["a1", "a9"]}}, "heals the consequence 'a9'"),
        ("heal", {"args": {"slots": ["mild", "mild"]}}, "of 'a' ('mild'), which the log has"),
        ("heal", {"args": {"aspects": []}}, "it heals no consequence"),
        ("end", {"args": {"taken": {"a": 2, "b": 1}}}, "the log has {'a': 1, 'b': 1}"),
        ("end", {"args": {"conceded": []}}, "it awards b 2 fate points, and the conflict gives 1"),
        ("end", {"points": {"a": [2, 4], "b": [1, 3]}}, "go from 2 to 4 on an end_conflict"),
        ("end", {"args": {"awarded": {"a": 2, "b": 2}}, "points": {"a": [2, 4], "b": [1, 3]}},
         "it awards a 2 fate points, and the conflict gives 1"),
        ("end", {"args": {"conceded": ["b", "b"]}}, "name one twice"),
        ("end", {"points": {"a": [2, 3]}}, "not those of its characters' points"),
        ("winded", {"points": {"b": [1, 2]}}, "a consequence changes no fate points"),
    ],
)  # fmt: skip
def test_a_tampered_conflict_is_named(
    rechained: Rechain, where: str, fields: dict[str, Any], reason: str
) -> None:
    room, at = a_conflict()
    document = room.document()
    entry = document["entries"][at[where] - 1]
    for name, value in fields.items():
        if name == "args":
            entry["args"].update(value)
        else:
            entry[name] = value
    seq, why = failure_of(document, rechained)
    assert seq == at[where] and reason in why, why


def test_play_entries_fields() -> None:
    played = apply(new_state(), {"action": "aspect", "name": "Dark"},
                   Table("g", True, NAMES, {}))  # fmt: skip
    entry = play_entry(commitment=COMMITMENT, seq=1, prev=GENESIS, roller="Gina", member="g",
                       played=played, action="aspect", at="2026-01-01T00:00:00Z")  # fmt: skip
    assert entry["args"] == {"aspect": "a1", "name": "Dark", "kind": "situation", "free": 0,
                             "holder": None, "by": "g", "scene": 1}  # fmt: skip
    assert (entry["points"], entry["gm_pool"], entry["lines"]) == ({}, None, [played.lines[0]])
    assert play_fields_error({**entry, "lines": "x"}) == "its lines are not a list of at most 100"
    assert play_fields_error({**entry, "nonce": 0}) is not None
    assert "lacks args" in str(play_fields_error({k: v for k, v in entry.items() if k != "args"}))
    with pytest.raises(DiceValueError, match="a play entry's fields"):
        play_entry(commitment=COMMITMENT, seq=1, prev=GENESIS, roller="Gina", member="g",
                   played=played, action="steal")  # fmt: skip


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 30), st.sampled_from(
        ["a", "b", "a1", "a2", "zz", "Fog", "mild", "initiative", ""])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(["a", "b", "who", "rolls", "totals"]),
                                            inner, max_size=3)),
    max_leaves=8,
)  # fmt: skip
FIELDS = ["args", "points", "gm_pool", "aspect", "aspect_id", "free", "member", "action"]
SESSION = a_session()[0].document()
"""A session's log, made once: the tampering below changes copies of it."""
CONFLICT = a_conflict()[0].document()
"""A conflict's log (recoveries and an end), likewise."""


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([SESSION, CONFLICT]),
    st.integers(0, 100),
    st.sampled_from(FIELDS),
    st.one_of(st.sampled_from(["aspect", "of", "free", "shifts", "count", "pool", "order",
                               "ties", "since", "refresh", "member", "kind", "aspects",
                               "slots", "taken", "conceded", "awarded"]), st.none()),
    json_values,
)  # fmt: skip
def test_any_tampered_play_is_a_failure_never_an_exception(
    rechained: Rechain,
    made: dict[str, Any],
    index: int,
    field: str,
    key: str | None,
    value: Any,
) -> None:
    document = copy.deepcopy(made)
    entry = document["entries"][index % len(document["entries"])]
    if key is not None and isinstance(entry.get(field), dict):
        entry[field][key] = value
    else:
        entry[field] = value
    report = fudgedice.verify(rechained(document))
    assert report.ok or report.failure is not None


# ------------------------------------------------- forged by a cheating server
# Logs of play forged by a server that cheats, each entry made by the rules
# from a state tampered with between two actions, every hash right: ``verify``
# names each at its entry (a roll's second advantage, an advantage from an
# earlier scene's roll, a compel answered that was never offered, a free
# invoke used by who does not hold it, a D6 order that gives one actor
# another's roll).


def failure(room: Room, rechained: Rechain) -> tuple[int | None, str]:
    found = fudgedice.verify(rechained(room.document())).failure
    assert found is not None
    return found.seq, found.reason


def test_a_roll_made_to_give_two_advantages_is_named(rechained: Rechain) -> None:
    room = Room()
    rolled = room.roll("fate: Superb vs Terrible", "a")
    room.play("a", (rolled,), action="advantage", of=rolled, name="Cornered")
    room.play("a", action="remove", aspect="a1")
    assert fudgedice.verify(rechained(room.document())).failure is None
    room.state["advantages"] = []  # the state forgets the roll made one
    again = room.play("a", (rolled,), action="advantage", of=rolled, name="Cornered again")
    seq, why = failure(room, rechained)
    assert seq == again and f"roll {rolled} made an advantage already" in why


def test_an_advantage_from_an_earlier_scenes_roll_is_named(rechained: Rechain) -> None:
    room = Room()
    rolled = room.roll("fate: Superb vs Terrible", "a")
    room.play("g", action="scene", name="Later")
    room.state["scene_since"] = 0  # the state forgets where the scene began
    late = room.play("a", (rolled,), action="advantage", of=rolled, name="Cornered")
    seq, why = failure(room, rechained)
    assert seq == late and "made before the scene began" in why


def test_a_compel_answered_that_was_never_offered_is_named(rechained: Rechain) -> None:
    room = Room()
    room.state["compels"].append({"id": "c9", "member": "a", "aspect": "Infamous", "text": ""})
    accepted = room.play("a", action="accept", compel="c9")  # a fate point from nothing
    seq, why = failure(room, rechained)
    assert seq == accepted and "c9" in why


def test_a_compel_answered_twice_is_named(rechained: Rechain) -> None:
    room = Room()
    room.play("g", action="compel", member="a", aspect="Infamous")
    offered = dict(room.state["compels"][0])
    room.play("a", action="accept", compel=offered["id"])
    room.state["compels"].append(offered)  # offered once, taken twice
    again = room.play("a", action="accept", compel=offered["id"])
    seq, why = failure(room, rechained)
    assert seq == again and offered["id"] in why


def test_a_free_invoke_used_by_who_does_not_hold_it_is_named(rechained: Rechain) -> None:
    room = Room()
    room.play("g", action="aspect", name="Fog", free=1, holder="b")
    rolled = room.roll("fate: Fair vs Great", "a")
    room.state["aspects"][0]["holder"] = "a"  # Bob's free invoke handed to Ann
    used = room.invoke(rolled, "a1", True)
    seq, why = failure(room, rechained)
    assert seq == used and "Bob" not in why and "b's" in why


def test_an_order_that_gives_one_actor_anothers_roll_is_named(rechained: Rechain) -> None:
    _, at = a_session()
    room, _ = a_session()
    document = room.document()
    order = document["entries"][at["order"] - 1]["args"]["order"]
    assert [place["who"] for place in order] == ["b", "a", "Orc"]
    order[0]["who"], order[1]["who"] = "a", "b"  # Ann takes Bob's +20, still highest first
    found = fudgedice.verify(rechained(document)).failure
    assert found is not None and found.seq == at["order"]
    assert f"seq {at['roll_b']}, which is b's roll, not a's" in found.reason


def test_an_order_from_a_players_roll_for_a_character_by_name_is_named(
    rechained: Rechain,
) -> None:
    room = Room()
    room.play("g", action="initiative", mode="perception")
    rolled = room.roll("d6: 3D+20 # initiative: Orc", "a")  # Ann rolls for the GM's Orc
    cheat = Table("a", True, NAMES, {}, {rolled: room.rolled(rolled)}, len(room.entries))
    ordered = room.log("g", apply(room.state, {"action": "order"}, cheat), "order")
    seq, why = failure(room, rechained)
    assert seq == ordered and "a character's roll by name not the GM's" in why


def test_a_consequence_whose_free_invoke_is_its_own_players_is_named(rechained: Rechain) -> None:
    room = Room()
    played = consequence(room.state, "b", "mild", "Bruised", "a")
    played.args["holder"] = played.state["aspects"][0]["holder"] = "b"  # Bob's on his own
    hurt = room.log("g", played, "consequence")
    seq, why = failure(room, rechained)
    assert seq == hurt and "held by its own character's player" in why
