"""A roll session: commit to a secret server seed, roll into a hash-chained
log, reveal the seed, export the log for anyone to verify.

The session lives in memory; :mod:`.storage` keeps one in a file for the
command line. A table server keeps its entries in a database instead, and
builds them with the same :func:`~.entries.roll_entry`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import DiceValueError
from ..stream import SERVER_SEED_BYTES, new_server_seed
from ..stream import commitment as commitment_of
from .canonical import FORMAT, FORMAT_V1, FORMATS, GENESIS, STREAM, is_hex64
from .entries import Logged, checked_room, roll_entry

CLI_ROOM = "cli"
"""The room id of a command-line session (a table uses its room's id)."""


@dataclass(frozen=True, slots=True)
class Reveal:
    """What a reveal publishes."""

    server_seed: str
    """The seed, 64 hex digits: SHA-256 of its bytes is the commitment."""
    commitment: str
    rolls: int
    """Rolls made under the seed (every roller's nonces together)."""
    head: dict[str, Any]
    """The log's last entry at the reveal: ``{"seq", "hash"}``."""
    next_commitment: str | None
    """The new seed's commitment, if a new seed takes over."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "server_seed": self.server_seed,
            "commitment": self.commitment,
            "rolls": self.rolls,
            "head": self.head,
            "next_commitment": self.next_commitment,
        }


class Session:
    """A GM's rolls from a committed seed, kept in a log anyone can check.

    One writer at a time: a session file's lock (:func:`.storage.updating`)
    is what keeps two processes apart.

    >>> session = Session.new()
    >>> logged = session.roll("4dF+1", roller="GM")
    >>> logged.entry["seq"], logged.entry["nonce"], len(logged.entry["faces"])
    (1, 0, 4)
    >>> session.roll("4dF", roller="Ann").entry["nonce"]  # each roller's own nonces
    0
    >>> hidden = session.roll("Good vs Great", visibility="secret")
    >>> "text" in hidden.entry, hidden.entry["hidden"]
    (False, True)
    >>> revealed = session.reveal()
    >>> from fudgedice import verify
    >>> verify(session.export()).complete
    True
    """

    def __init__(
        self,
        room: str,
        seeds: list[dict[str, Any]],
        entries: list[dict[str, Any]],
        server_seed: bytes | None,
        openings: dict[int, dict[str, Any]],
    ) -> None:
        """Use :meth:`new` or :meth:`from_state`."""
        self.room = room
        self._seeds = seeds
        self._entries = entries
        self._server_seed = server_seed
        self._openings = openings
        self._nonces: dict[str | None, int] = {}
        """The next nonce of each roller (version 2; None: version 1's one counter)."""
        for entry in reversed(self._under_current()):
            if entry.get("nonce") is not None and entry.get("kind", "roll") == "roll":
                self._nonces[self._counter(entry.get("member"))] = entry["nonce"] + 1

    @classmethod
    def new(cls, *, room: str = CLI_ROOM, server_seed: bytes | None = None) -> Session:
        """A session with a fresh server seed (or the one given); publish its
        :attr:`commitment` before the first roll."""
        seed = new_server_seed() if server_seed is None else _seed_bytes(server_seed)
        return cls(checked_room(room), [_unrevealed(seed)], [], seed, {})

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed in force, in hex: what players hold the GM to."""
        return str(self._seeds[-1]["commitment"])

    @property
    def stream(self) -> int:
        """The version of the dice stream the seed in force draws with."""
        return int(self._seeds[-1].get("stream", 1))

    def _counter(self, member: object) -> str | None:
        """Whose nonces a roll takes: its roller's (version 2), or the seed's."""
        return str(member) if self.stream == 2 else None

    @property
    def rolling(self) -> bool:
        """A seed is in force: False once it is revealed with none after it."""
        return self._server_seed is not None

    @property
    def head(self) -> dict[str, Any]:
        """The last entry: ``{"seq", "hash"}`` (seq 0 and the genesis hash if none)."""
        if not self._entries:
            return {"seq": 0, "hash": GENESIS}
        last = self._entries[-1]
        return {"seq": last["seq"], "hash": last["hash"]}

    def __len__(self) -> int:
        return len(self._entries)

    def roll(
        self,
        text: str,
        *,
        roller: str = "GM",
        visibility: str = "public",
        client_seed: str = "",
        at: str | None = None,
    ) -> Logged:
        """Roll ``text`` from the seed in force and append its entry; a hidden
        roll (any visibility but ``public``) enters as a placeholder. The
        roller's name is their member id in the stream's context (version 2),
        and each roller's nonces count their own rolls. A roll that fails once
        its dice are drawn is appended as a failed roll (its
        :attr:`Logged.error` says why)."""
        return self._append(text, roller, visibility, client_seed, at, None)

    def read(
        self,
        text: str,
        faces: Sequence[str],
        *,
        roller: str = "GM",
        visibility: str = "public",
        at: str | None = None,
    ) -> Logged:
        """Append dice rolled by hand (``faces`` as written): the entry takes
        its place in the chain and no nonce; ``verify`` checks the reading."""
        return self._append(text, roller, visibility, "", at, faces)

    def _append(
        self,
        text: str,
        roller: str,
        visibility: str,
        client_seed: str,
        at: str | None,
        read: Sequence[str] | None,
    ) -> Logged:
        if self._server_seed is None:
            raise DiceValueError(
                "this session's seed is revealed, so it rolls no more",
                hint="start a new session, or reveal with a new seed to go on",
            )
        head = self.head
        counter = self._counter(roller)
        logged = roll_entry(
            server_seed=self._server_seed,
            commitment=self.commitment,
            room=self.room,
            seq=head["seq"] + 1,
            nonce=self._nonces.get(counter, 0),
            prev=head["hash"],
            text=text,
            roller=roller,
            visibility=visibility,
            client_seed=client_seed,
            member=counter,
            stream=self.stream,
            at=at,
            read=read,
        )
        self._entries.append(logged.entry)
        if logged.opening is not None:
            self._openings[logged.entry["seq"]] = logged.opening
        if read is None:
            self._nonces[counter] = self._nonces.get(counter, 0) + 1
        return logged

    def reveal(self, *, new_seed: bool | bytes = False) -> Reveal:
        """Publish the seed in force and open every hidden roll made under it;
        with ``new_seed`` (True, or the seed's 32 bytes) a new seed takes over
        and its commitment is in the answer; otherwise the session rolls no more."""
        seed = self._server_seed
        if seed is None:
            raise DiceValueError("this session's seed is already revealed")
        current = self._seeds[-1]
        current["server_seed"] = seed.hex()
        rolls = sum(self._nonces.values())
        current["rolls"] = rolls
        for entry in self._under_current():
            opening = self._openings.pop(entry["seq"], None)
            if opening is not None:
                entry["opening"] = opening
        after = None
        self._server_seed = None
        if new_seed is not False:
            self._server_seed = new_server_seed() if new_seed is True else _seed_bytes(new_seed)
            self._seeds.append(_unrevealed(self._server_seed))
            after = self.commitment
        reveal = Reveal(seed.hex(), str(current["commitment"]), rolls, self.head, after)
        self._nonces = {}
        return reveal

    def _under_current(self) -> list[dict[str, Any]]:
        """The entries made under the seed in force: the log's last ones."""
        current = self._seeds[-1]["commitment"]
        under: list[dict[str, Any]] = []
        for entry in reversed(self._entries):
            if entry.get("commitment") != current:
                break
            under.append(entry)
        return under

    def export(self) -> dict[str, Any]:
        """The log document of docs/fairness.md: what ``fudgedice verify``
        reads. It holds no secret: hidden rolls are placeholders until the
        reveal, and the seed in force is only its commitment."""
        return {
            "format": FORMAT,
            "room": self.room,
            "seeds": [dict(seed) for seed in self._seeds],
            "entries": [dict(entry) for entry in self._entries],
            "head": self.head,
        }

    def state(self) -> dict[str, Any]:
        """Everything, secrets included: what a session file holds."""
        return {
            "server_seed": None if self._server_seed is None else self._server_seed.hex(),
            "openings": {str(seq): opening for seq, opening in self._openings.items()},
            "log": self.export(),
        }

    @classmethod
    def from_state(cls, state: object) -> Session:
        """The session :meth:`state` gave, its shape checked (the chain and the
        dice are for ``verify``)."""
        if not isinstance(state, dict) or not isinstance(state.get("log"), dict):
            raise DiceValueError("not a session: no log")
        log = state["log"]
        seeds, entries = log.get("seeds"), log.get("entries")
        if log.get("format") not in FORMATS or not isinstance(entries, list):
            raise DiceValueError(f"not a session: its log's format is not {FORMAT!r}")
        if (
            not isinstance(seeds, list)
            or not seeds
            or not all(isinstance(s, dict) and is_hex64(s.get("commitment")) for s in seeds)
        ):
            raise DiceValueError("not a session: its log has no seeds")
        if log["format"] == FORMAT_V1:  # its seeds draw with version 1; new ones with 2
            seeds = [{**seed, "stream": 1} for seed in seeds]
        if not all(isinstance(e, dict) and "seq" in e and "hash" in e for e in entries):
            raise DiceValueError("not a session: an entry has no seq or hash")
        raw, openings = state.get("server_seed"), state.get("openings")
        server_seed = None
        if raw is not None:
            if not is_hex64(raw) or commitment_of(bytes.fromhex(raw)) != seeds[-1]["commitment"]:
                raise DiceValueError("the session's server seed does not match its commitment")
            server_seed = bytes.fromhex(raw)
        if not isinstance(openings, dict) or not all(
            key.isdigit() and isinstance(value, dict) for key, value in openings.items()
        ):
            raise DiceValueError("not a session: its openings are not by seq")
        return cls(
            checked_room(log.get("room")),
            seeds,
            entries,
            server_seed,
            {int(key): value for key, value in openings.items()},
        )


def _unrevealed(server_seed: bytes) -> dict[str, Any]:
    return {
        "commitment": commitment_of(server_seed),
        "server_seed": None,
        "rolls": None,
        "stream": STREAM,
    }


def _seed_bytes(value: object) -> bytes:
    if not isinstance(value, bytes) or len(value) != SERVER_SEED_BYTES:
        raise DiceValueError(f"a server seed is {SERVER_SEED_BYTES} random bytes")
    return value
