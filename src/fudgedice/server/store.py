"""The table's reads and writes: rooms, members, rolls, reveals (rolls are
written by :mod:`.writer`).

Every write that gives a roll its ``seq`` and nonce holds the room (see
:mod:`.db`) from reading ``last_seq`` to the commit, and the API answers 201
only once that commit has returned.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, and_, bindparam, func, insert, select, text, update

from ..errors import DiceError
from ..log.canonical import DRAWLESS, GENESIS, STREAM
from ..names import name_keys, same_name
from . import fair, rolling
from .db import NOTIFY_CHANNEL, Database
from .kept import Member, RollRecord, Room, json_text
from .prepared import Prepared
from .problems import Problem, not_found, unauthorized
from .schema import members, rolls, rooms, seeds


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def token_hash(token: str) -> str:
    """Tokens carry 256 random bits: one SHA-256 is enough to keep them unreadable."""
    return hashlib.sha256(token.encode()).hexdigest()


def _new_token() -> str:
    return secrets.token_urlsafe(32)


Then = Callable[[Connection, Member], None]
"""What else a room's making or a member's joining writes, in its transaction
(a Discord channel's binding, a Discord user's member)."""


def create_room(
    db: Database, name: str, system: str, gm_name: str, then: Then | None = None
) -> tuple[Room, Member, str]:
    """A room with its first seed committed, and its GM's member and token."""
    room_id = secrets.token_urlsafe(16)  # the share link: as hard to guess as a token
    seed = fair.new_server_seed()
    commitment = fair.commitment(seed)
    at = now()
    token = _new_token()
    gm = Member(secrets.token_urlsafe(6), room_id, gm_name, True)
    with db.write() as connection:
        connection.execute(
            insert(rooms).values(
                id=room_id, name=name, system=system, created_at=at, epoch=0, seed=seed.hex(),
                commitment=commitment, nonce=0, last_seq=0, last_hash=GENESIS, stream=STREAM,
                active_at=at,
            )
        )  # fmt: skip
        connection.execute(
            insert(seeds).values(
                room_id=room_id, epoch=0, seed=seed.hex(), commitment=commitment, stream=STREAM
            )
        )
        _insert_member(connection, gm, token, at)
        if then is not None:
            then(connection, gm)
    return Room(room_id, name, system, 0, commitment, 0, at), gm, token


def _insert_member(connection: Connection, member: Member, token: str, at: str) -> None:
    connection.execute(
        insert(members).values(
            id=member.id, room_id=member.room, name=member.name, token_hash=token_hash(token),
            gm=member.gm, created_at=at,
        )
    )  # fmt: skip


def new_token(db: Database, member_id: str) -> tuple[str, str]:
    """A fresh token for ``member_id`` (a Discord user's seat at the page, shown
    to that user alone), which replaces the old one: the new token and the
    old one's hash (which the caller's caches forget)."""
    token = _new_token()
    with db.write() as connection:
        old = connection.execute(
            select(members.c.token_hash).where(members.c.id == member_id)
        ).scalar_one()
        connection.execute(
            update(members).where(members.c.id == member_id).values(token_hash=token_hash(token))
        )
        if db.postgres:  # every process's cache forgets the old token at once
            notify(connection, f"token {member_id} {old}")
    return token, old


MAX_MEMBERS = 500
"""Members of one room: joining is open to anyone with the link, so it is bounded."""


def join(db: Database, room_id: str, name: str, then: Then | None = None) -> tuple[Member, str]:
    token = _new_token()
    member = Member(secrets.token_urlsafe(6), room_id, name, False)
    name_keys(name)  # ICU's first load (some 0.2 s) is not spent holding the database
    with db.write() as connection:
        # PostgreSQL: the room kept (FOR KEY SHARE, as the member's foreign key
        # would take at its insert) from here to the commit, or found deleted
        held = select(rooms.c.id).where(rooms.c.id == room_id).with_for_update(key_share=True)
        if connection.execute(held).first() is None:
            raise not_found()
        names = connection.execute(
            select(members.c.name).where(members.c.room_id == room_id)
        ).scalars()
        taken = list(names)
        if len(taken) >= MAX_MEMBERS:
            raise Problem(429, f"a room has at most {MAX_MEMBERS} members")
        _not_taken(name, taken)
        _insert_member(connection, member, token, now())
        if then is not None:
            then(connection, member)
        if db.postgres:  # every process's live feed tells its watchers
            notify(connection, f"member {room_id} {member.id}")
    return member, token


GM_MARK = "(GM)"
"""What the page writes after the GM's name in its lists of members (the
log's filter, the seats, whom to whisper to)."""


def _not_taken(name: str, taken: list[str]) -> None:
    """Refuse (409) a name that reads as one of ``taken`` or as "GM", or that
    ends as the GM's is marked (:func:`fudgedice.names.same_name`): a player
    must not pass for another member, the GM above all, in the history, where
    rolls show their roller's name, nor in a list of members (a player named
    ``Gemma (GM)`` would be a second ``Gemma (GM)`` to whisper to)."""
    for other in ("GM", *taken):
        if same_name(name, other):
            shown = "as the GM is shown" if other == "GM" else "a name a member here already has"
            raise Problem(
                409, f"'{name}' reads as '{other}', {shown}", hint="choose a name of your own"
            )
    compact = "".join(name.split())  # "( GM )" is marked as well
    if any(same_name(compact[-size:], GM_MARK) for size in range(3, 8)):
        raise Problem(
            409,
            f"'{name}' reads as the GM's name, which the page marks with '{GM_MARK}'",
            hint="choose a name of your own",
        )


def room_row(connection: Connection, room_id: str, lock: bool = False) -> Row[Any] | None:
    query = select(rooms).where(rooms.c.id == room_id)
    return connection.execute(query.with_for_update() if lock else query).first()


def _room(row: Row[Any]) -> Room:
    return Room(
        row.id, row.name, row.system, row.epoch, row.commitment, row.last_seq, row.created_at
    )


def room(db: Database, room_id: str) -> Room:
    with db.read() as connection:
        row = room_row(connection, room_id)
    if row is None:
        raise not_found()
    return _room(row)


def authenticate(db: Database, room_id: str, token: str | None) -> tuple[Room, Member]:
    """The room and the member whose token this is: 404 for an unknown room or
    a token of another room, 401 for a missing or unknown token."""
    with db.read() as connection:
        row = room_row(connection, room_id)
        if row is None:
            raise not_found()
        if not token:
            raise unauthorized("this needs a member token")
        wanted = token_hash(token)
        found = connection.execute(select(members).where(members.c.token_hash == wanted)).first()
    if found is None or not hmac.compare_digest(found.token_hash, wanted):
        raise unauthorized("unknown token")
    if found.room_id != room_id:
        raise not_found()  # says nothing of the other room, not even that the token is good
    return _room(row), Member(found.id, found.room_id, found.name, found.gm)


def room_members(db: Database, room_id: str) -> list[Member]:
    with db.read() as connection:
        rows = connection.execute(
            select(members).where(members.c.room_id == room_id).order_by(members.c.created_at)
        ).all()
    return [Member(row.id, row.room_id, row.name, row.gm) for row in rows]


_NOTIFY = select(func.pg_notify(NOTIFY_CHANNEL, bindparam("payload")))


def notify(connection: Connection, payload: str) -> None:
    """Delivered to every listening process when the transaction commits
    (PostgreSQL's ``NOTIFY``)."""
    connection.execute(_NOTIFY, {"payload": payload})


_NOTIFY_ALL = Prepared(
    text(f"SELECT pg_notify('{NOTIFY_CHANNEL}', :payload)").bindparams(bindparam("payload"))
)


def notify_all(connection: Connection, payloads: Sequence[str]) -> None:
    """:func:`notify` each of ``payloads``, in order, as one statement run
    once a payload (psycopg sends them all at once, in a pipeline): the
    writer's transaction holds its rooms one round trip the shorter."""
    if payloads:
        _NOTIFY_ALL.run(connection, [{"payload": payload} for payload in payloads])


def record_of(row: Row[Any]) -> RollRecord:
    """A roll as stored, from its row."""
    return RollRecord(
        row.room_id, row.seq, row.member_id, row.name, row.visibility, row.epoch, row.commitment,
        row.nonce, row.client_seed, row.text, row.label,
        None if row.faces is None else json.loads(row.faces), json.loads(row.result), row.at,
        row.salt, row.hash, row.verified,
        None if row.entry is None else json.loads(row.entry),
        None if row.opening is None else json.loads(row.opening), row.error,
    )  # fmt: skip


ROW = tuple(column.name for column in rolls.columns if column.name != "verified")
"""The columns a roll's row fills: all but ``verified``, which its seed's reveal sets."""
_INSERT_ROLLS = Prepared(insert(rolls).values({name: bindparam(name) for name in ROW}))


def insert_rolls(connection: Connection, records: Sequence[RollRecord]) -> None:
    """Store each roll as its row of ``rolls``: one statement for them all."""
    _INSERT_ROLLS.run(connection, [_row(record) for record in records])


def _row(record: RollRecord) -> dict[str, Any]:
    """:func:`record_of` the other way: a roll's row, its JSON fields as text."""
    opening = None if record.opening is None else json_text(record.opening)
    return {
        "room_id": record.room, "seq": record.seq, "member_id": record.member,
        "name": record.name, "visibility": record.visibility, "epoch": record.epoch,
        "commitment": record.commitment, "nonce": record.nonce,
        "client_seed": record.client_seed, "text": record.text, "label": record.label,
        "faces": None if record.faces is None else json_text(record.faces),
        "error": record.error, "result": json_text(record.result), "at": record.at,
        "salt": record.salt, "hash": record.hash, "entry": json_text(record.entry),
        "opening": opening,
    }  # fmt: skip


def list_rolls(
    db: Database,
    room_id: str,
    *,
    after: int = 0,
    before: int | None = None,
    limit: int = 100,
    member: str | None = None,
) -> list[RollRecord]:
    """Rolls in ascending ``seq``: the first ``limit`` after ``after``, or,
    with ``before``, the last ``limit`` before it (paging back)."""
    where = [rolls.c.room_id == room_id, rolls.c.seq > after]
    if before is not None:
        where.append(rolls.c.seq < before)
    if member is not None:
        where.append(rolls.c.member_id == member)
    order = rolls.c.seq.desc() if before is not None else rolls.c.seq
    with db.read() as connection:
        rows = connection.execute(select(rolls).where(and_(*where)).order_by(order).limit(limit))
        found = [record_of(row) for row in rows]
    return sorted(found, key=lambda record: record.seq)


def rolls_between(db: Database, wanted: dict[str, tuple[int, int]]) -> dict[str, list[RollRecord]]:
    """Each room's rolls from the first ``seq`` to the last of its range, in
    order, through one connection."""
    found: dict[str, list[RollRecord]] = {}
    with db.read() as connection:
        for room_id, (first, last) in wanted.items():
            rows = connection.execute(
                select(rolls)
                .where(rolls.c.room_id == room_id, rolls.c.seq.between(first, last))
                .order_by(rolls.c.seq)
            )
            found[room_id] = [record_of(row) for row in rows]
    return found


def reveal(db: Database, room_id: str) -> dict[str, Any]:
    """Publish the current seed, mark each of its rolls verified or not, and
    commit to a new seed, of version 2 of the stream (every member's nonces
    start again at 0)."""
    fresh = fair.new_server_seed()
    next_commitment = fair.commitment(fresh)
    with db.write() as connection:
        row = room_row(connection, room_id, lock=True)
        if row is None:
            raise not_found()
        seed = bytes.fromhex(row.seed)
        revealed = connection.execute(
            select(rolls).where(rolls.c.room_id == room_id, rolls.c.epoch == row.epoch)
        ).all()
        for each in map(record_of, revealed):
            connection.execute(
                update(rolls)
                .where(rolls.c.room_id == room_id, rolls.c.seq == each.seq)
                .values(verified=_verify(each, seed, row.system, row.stream))
            )
        at = now()
        connection.execute(
            update(seeds)
            .where(seeds.c.room_id == room_id, seeds.c.epoch == row.epoch)
            .values(revealed_at=at)
        )
        connection.execute(
            insert(seeds).values(
                room_id=room_id,
                epoch=row.epoch + 1,
                seed=fresh.hex(),
                commitment=next_commitment,
                stream=STREAM,
            )
        )
        connection.execute(
            update(rooms)
            .where(rooms.c.id == room_id)
            .values(
                epoch=row.epoch + 1,
                seed=fresh.hex(),
                commitment=next_commitment,
                nonce=0,
                stream=STREAM,
                active_at=at,
            )
        )
        if db.postgres:
            notify(connection, f"reveal {room_id} {row.epoch}")
    return {
        "server_seed": seed.hex(),
        "commitment": row.commitment,
        "next_commitment": next_commitment,
        "epoch": row.epoch,
        "revealed_at": at,
    }


def _verify(record: RollRecord, seed: bytes, system: str, stream: int) -> bool | None:
    """Whether the stored roll follows from the revealed seed (or, read by
    hand, from the faces given; a failed roll: fails so on its faces); None
    for an entry that draws nothing (a sheet's change, play, talk). A point
    spent on a roll draws from its roll's nonce; under version 2 of the
    stream, from its member's."""
    kind = record.result.get("kind")
    if kind in DRAWLESS:
        return None
    nonce = record.entry.get("nonce") if kind == "spend" and record.entry else record.nonce
    member = record.member if stream == 2 else None
    try:
        program = rolling.program(record.text, system)
        if record.faces is not None:
            again = program.read(record.faces).to_dict()
            return fair.faces(again) == fair.faces(record.result)
        context = fair.context(record.room, record.client_seed, nonce or 0, member)
        if record.error is not None:
            return fair.fails_so(program, seed, context, record.result)
        return fair.reproduces(program, seed, context, record.result)
    except (DiceError, Problem):
        return False


def seed_list(db: Database, room_id: str) -> list[dict[str, Any]]:
    """Every seed of the room in order: revealed ones with the seed itself."""
    with db.read() as connection:
        rows = connection.execute(
            select(seeds).where(seeds.c.room_id == room_id).order_by(seeds.c.epoch)
        ).all()
    return [
        {
            "epoch": row.epoch,
            "commitment": row.commitment,
            "server_seed": row.seed if row.revealed_at else None,
            "revealed_at": row.revealed_at,
            "stream": row.stream,
        }
        for row in rows
    ]
