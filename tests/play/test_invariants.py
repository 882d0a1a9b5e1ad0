"""Whatever the table does, in any order and by anyone: an action is applied
or refused with a PlayError (403, 404 or 422), never anything else; the state
given is never changed; the new one is plain JSON with no free invoke, pool
or fate point below 0; and the log of everything applied verifies, so that
the rules and the verifier's replay of them agree."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fudgedice
from fudgedice.log.canonical import GENESIS
from fudgedice.log.entries import roll_entry
from fudgedice.log.play_entries import play_entry, spend_fields
from fudgedice.log.spends import spend_entry
from fudgedice.play import (
    Character,
    Played,
    PlayError,
    Rolled,
    Table,
    apply,
    consequence,
    invoke,
    new_state,
)
from fudgedice.stream import commitment

SEED = bytes(range(32))
COMMITMENT = commitment(SEED)
NAMES = {"g": "Gina", "a": "Ann", "b": "Bob", "d": "Dee"}
ACTORS = st.one_of(st.just("@"), st.sampled_from(["g", "a", "b", "d"]))
"""``@``: whoever may take the action (the GM, the compelled player, Ann), so
that a run gets past the refusals."""
MEMBERS = st.one_of(st.sampled_from(["a", "b"]), st.sampled_from(["d", "g", "zz"]))
IDS = st.one_of(st.just("@"), st.sampled_from(["a1", "a2", "c3", "zz"]))
"""``@``: the latest aspect (or compel) of the state, so that a run uses what it made."""
ASPECTS = st.sampled_from(["Fog", "On fire", "Infamous", "Hot-headed", "Nowhere"])

actions = st.one_of(
    st.fixed_dictionaries({"action": st.just("aspect"), "name": ASPECTS,
                           "free": st.integers(0, 3), "boost": st.booleans()}),
    st.fixed_dictionaries({"action": st.just("remove"), "aspect": IDS}),
    st.fixed_dictionaries({"action": st.just("rename"), "aspect": IDS, "name": ASPECTS}),
    st.fixed_dictionaries({"action": st.just("award"), "member": MEMBERS,
                           "count": st.integers(0, 6)}),
    st.fixed_dictionaries({"action": st.just("compel"), "member": MEMBERS, "aspect": ASPECTS}),
    st.fixed_dictionaries({"action": st.sampled_from(["accept", "refuse"]), "compel": IDS}),
    st.fixed_dictionaries({"action": st.just("gm_spend"), "count": st.integers(1, 3)}),
    st.fixed_dictionaries({"action": st.sampled_from(["scene", "session", "end_conflict"])}),
    st.fixed_dictionaries({"action": st.just("initiative"),
                           "mode": st.sampled_from(["notice", "empathy", "elective", "gm"]),
                           "order": st.lists(MEMBERS, max_size=2, unique=True)}),
    st.fixed_dictionaries({"action": st.just("next"), "to": MEMBERS}),
    st.tuples(st.just("advantage"), ASPECTS),
    st.tuples(st.just("invoke"), st.one_of(IDS, ASPECTS), st.booleans()),
    st.tuples(st.just("consequence"), MEMBERS, st.sampled_from(["mild", "moderate"])),
)  # fmt: skip
answers = st.fixed_dictionaries(
    {"action": st.sampled_from(["accept", "refuse"]), "compel": st.just("@")}
)
steps = st.one_of(st.tuples(ACTORS, actions), st.tuples(st.just("@"), answers))
"""A step: who acts, and what; answers to compels are drawn apart, or they seldom
follow a compel."""


class Run:
    """The log and the sheets' points of a run of actions."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.nonces: dict[str, int] = {}
        self.points = {"a": 2, "b": 0}
        self.replayed = 0

    def table(self, actor: str, rolls: dict[int, Rolled] | None = None) -> Table:
        characters = {
            "a": Character("a", "Ann", "fate", self.points["a"], 3, {"Notice": 1}, ("Infamous",),
                           {}),
            "b": Character("b", "Bob", "fatecondensed", self.points["b"], 2, {"Notice": 1},
                           ("Hot-headed",), {}),
            "d": Character("d", "Dee", "d6", None, None, {}, (), {}),
        }  # fmt: skip
        return Table(actor, actor == "g", NAMES, characters, rolls or {}, len(self.entries))

    @property
    def prev(self) -> str:
        return str(self.entries[-1]["hash"]) if self.entries else GENESIS

    def roll(self, actor: str) -> tuple[dict[str, Any], int | None]:
        logged = roll_entry(
            server_seed=SEED, commitment=COMMITMENT, room="room", seq=len(self.entries) + 1,
            nonce=self.nonces.get(actor, 0), prev=self.prev, text="fate: Fair vs Fair",
            roller=NAMES[actor], member=actor,
        )  # fmt: skip
        self.nonces[actor] = self.nonces.get(actor, 0) + 1
        self.entries.append(logged.entry)
        assert logged.roll is not None
        return logged.entry, logged.roll.margin

    def kept(self, played: Played, actor: str, action: str, of: dict[str, Any] | None) -> None:
        for member, (before, after) in played.points.items():
            assert before == self.points[member] and after >= 0
            self.points[member] = after
        if of is not None:
            logged = spend_entry(
                server_seed=SEED, room="room", seq=len(self.entries) + 1, prev=self.prev,
                of=of, point="invoke", extra=spend_fields(played),
            )  # fmt: skip
            self.entries.append(logged.entry)
        else:
            self.entries.append(play_entry(
                commitment=COMMITMENT, seq=len(self.entries) + 1, prev=self.prev,
                roller=NAMES[actor], member=actor, played=played, action=action,
            ))  # fmt: skip
        self.replayed += 1


def step(log: Run, state: dict[str, Any], actor: str, action: Any) -> Played:
    """One action (a roll first, for an advantage or an invoke)."""
    if isinstance(action, dict):
        action = {key: _latest(state, key, value) for key, value in action.items()}
        if actor == "@" and action["action"] in ("accept", "refuse"):
            compel = [each for each in state["compels"] if each["id"] == action["compel"]]
            actor = compel[0]["member"] if compel else "a"  # its player answers it
        return apply(state, action, log.table("g" if actor == "@" else actor))
    actor = "a" if actor == "@" else actor
    if action[0] == "consequence":
        return consequence(state, action[1], action[2], "Bruised", actor)
    entry, margin = log.roll(actor)
    if action[0] == "advantage":
        rolled = Rolled(entry["seq"], actor, None, entry["total"], margin, "fate")
        body = {"action": "advantage", "of": entry["seq"], "name": action[1]}
        return apply(state, body, log.table(actor, {entry["seq"]: rolled}))
    return invoke(state, _latest(state, "aspect", action[1]), action[2], log.table(actor), [])


def _who(actor: str, action: Any, played: Played) -> str:
    """Who took an action whose actor was ``@``: as :func:`step` chose."""
    if actor != "@":
        return actor
    if not isinstance(action, dict):
        return "a"
    if action["action"] in ("accept", "refuse"):
        return str(played.args["member"])
    return "g"


def _latest(state: dict[str, Any], key: str, value: Any) -> Any:
    if value != "@":
        return value
    held = state["compels"] if key == "compel" else state["aspects"]
    return held[-1]["id"] if held else "zz"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(steps, min_size=5, max_size=40))
def test_any_play_keeps_the_invariants_and_verifies(steps: list[tuple[str, Any]]) -> None:
    log, state = Run(), new_state()
    for actor, action in steps:
        kept = copy.deepcopy(state)
        try:
            played = step(log, state, actor, action)
        except PlayError as refused:
            assert refused.status in (403, 404, 422)
            continue
        finally:
            assert state == kept
        assert json.loads(json.dumps(played.state)) == played.state
        state = played.state
        ids = [aspect["id"] for aspect in state["aspects"]]
        assert len(set(ids)) == len(ids)
        assert all(aspect["free"] >= 0 for aspect in state["aspects"]) and state["gm_pool"] >= 0
        name = action["action"] if isinstance(action, dict) else action[0]
        invoked = log.entries[-1] if name == "invoke" else None
        log.kept(played, _who(actor, action, played), name, invoked)
    seed = {"commitment": COMMITMENT, "server_seed": SEED.hex(),
            "rolls": sum(log.nonces.values()), "stream": 2}  # fmt: skip
    document = {
        "format": "fudgedice-log/2", "room": "room", "seeds": [seed], "entries": log.entries,
        "head": {"seq": len(log.entries), "hash": log.prev},
    }  # fmt: skip
    report = fudgedice.verify(document)
    assert report.ok, report
    assert report.played == log.replayed


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 9), st.sampled_from(
        ["a", "g", "zz", "a1", "c2", "@", "Fog", "notice", "perception", "", "\x00"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(["who", "a", "x"]), inner, max_size=2)),
    max_leaves=6,
)  # fmt: skip
KEYS = ["action", "name", "free", "boost", "holder", "of", "aspect", "member", "count",
        "why", "compel", "text", "mode", "order", "to", "npcs"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["aspect", "advantage", "remove", "rename", "award", "compel", "accept",
                     "refuse", "gm_spend", "scene", "session", "initiative", "next", "order",
                     "end_conflict"]),
    st.dictionaries(st.sampled_from(KEYS), json_values, max_size=4),
    ACTORS,
)  # fmt: skip
def test_any_body_is_applied_or_refused(name: str, body: dict[str, Any], actor: str) -> None:
    log, state = Run(), new_state()
    state = apply(state, {"action": "aspect", "name": "Fog"}, log.table("g")).state
    state = apply(state, {"action": "initiative", "mode": "elective"}, log.table("g")).state
    rolls = {3: Rolled(3, "a", "initiative", 12, 1, "fate")}
    try:
        played = apply(state, {**body, "action": name}, log.table(actor, rolls))
    except PlayError as refused:
        assert refused.status in (403, 404, 422)
    else:
        assert json.loads(json.dumps(played.state)) == played.state
