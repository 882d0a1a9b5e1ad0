"""The table's tables: rooms, their seeds, members and rolls (SQLAlchemy Core).

The migrations in ``migrations/versions`` create these; this module is what the
queries are written against. A roll's ``seq`` is its room's own counter, kept
in ``rooms.last_seq`` and advanced only inside a transaction that holds the
room (a row lock on PostgreSQL, the write lock on SQLite), so it has no gaps.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", Text, nullable=False),
    Column("system", String(32), nullable=False),
    Column("created_at", String(40), nullable=False),
    # the current seed's number: 0, then one more at each reveal
    Column("epoch", BigInteger, nullable=False),
    # the current server seed (hex), secret until revealed, and its commitment
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    # version 1 of the dice stream: the next roll's nonce under the current
    # seed (version 2 counts each member's in member_nonces)
    Column("nonce", BigInteger, nullable=False),
    # the version of the dice stream the current seed draws with (1 or 2)
    Column("stream", Integer, nullable=False, server_default="1"),
    Column("last_seq", BigInteger, nullable=False),
    # the hash of the log's last entry: the next entry's "prev"
    Column("last_hash", String(64), nullable=False),
    # when the room last had an entry (made at its making, then with each
    # entry's transaction): ``serve --keep-days`` deletes the rooms idle longer
    Column("active_at", String(40), nullable=True),
)

Index("rooms_by_activity", rooms.c.active_at)

seeds = Table(
    "seeds",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("epoch", BigInteger, primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("revealed_at", String(40), nullable=True),
    Column("stream", Integer, nullable=False, server_default="1"),
)

member_nonces = Table(
    "member_nonces",
    metadata,
    # version 2 of the dice stream: each member's next nonce under each seed
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("member_id", String(16), ForeignKey("members.id"), primary_key=True),
    Column("epoch", BigInteger, primary_key=True),
    Column("next_nonce", BigInteger, nullable=False),
)

members = Table(
    "members",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("room_id", String(32), ForeignKey("rooms.id"), nullable=False, index=True),
    Column("name", Text, nullable=False),
    # SHA-256 of the token: the token itself is never stored
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("gm", Boolean, nullable=False),
    Column("created_at", String(40), nullable=False),
)

rolls = Table(
    "rolls",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("seq", BigInteger, primary_key=True),
    Column("member_id", String(16), ForeignKey("members.id"), nullable=False),
    # the roller's name, as it was: names never change, and the feed needs no join
    Column("name", Text, nullable=False),
    Column("visibility", String(8), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("commitment", String(64), nullable=False),
    # None for dice read by hand: they draw nothing from the stream
    Column("nonce", BigInteger, nullable=True),
    Column("client_seed", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("label", Text, nullable=True),
    # the faces given by hand (JSON), for a roll read rather than rolled
    Column("faces", Text, nullable=True),
    # why the roll failed once its dice were drawn; null for a roll that did not
    Column("error", Text, nullable=True),
    # the roll's JSON, as Roll.to_dict() gives it
    Column("result", Text, nullable=False),
    Column("at", String(40), nullable=False),
    # for a hidden roll: the salt of its placeholder's digest
    Column("salt", String(64), nullable=True),
    Column("hash", String(64), nullable=False),
    # once its seed is revealed: whether the roll follows from it
    Column("verified", Boolean, nullable=True),
    # the roll's entry in the log (JSON; a hidden roll's placeholder), and a
    # hidden roll's opening (JSON: its salt and whole entry)
    Column("entry", Text, nullable=True),
    Column("opening", Text, nullable=True),
)

Index("rolls_by_member", rolls.c.room_id, rolls.c.member_id, rolls.c.seq)

roll_keys = Table(
    "roll_keys",
    metadata,
    # a request's Idempotency-Key (server/keys.py): each member's own, in one room,
    # written in the transaction of the entry it made; kept a day, then swept.
    # No foreign key: a key outlives nothing it names, and expires by itself
    Column("room_id", String(32), primary_key=True),
    Column("member_id", String(16), primary_key=True),
    # SHA-256 of the key as sent: one width whatever the client sends
    Column("key", String(64), primary_key=True),
    # SHA-256 of what the request asked: the same key asking otherwise is refused
    Column("request", String(64), nullable=False),
    # the entry the request made, in the room's log
    Column("seq", BigInteger, nullable=False),
    Column("at", String(40), nullable=False, index=True),
)

sheets = Table(
    "sheets",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("member_id", String(16), ForeignKey("members.id"), primary_key=True),
    # the sheet's TOML as its owner wrote it, comments and all
    Column("text", Text, nullable=False),
    # 1 when attached, one more at each change: a write names the version it
    # was made to, and one made to an older version is refused (409)
    Column("version", BigInteger, nullable=False),
    Column("updated_at", String(40), nullable=False),
)

play = Table(
    "play",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    # the room's play state (fudgedice.play) as JSON: scene, aspects, compels,
    # the GM pool, initiative; no row until the first action of play
    Column("state", Text, nullable=False),
    # 1 at the first action, one more at each
    Column("version", BigInteger, nullable=False),
)

favourites = Table(
    "favourites",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("member_id", String(16), ForeignKey("members.id"), primary_key=True),
    # the member's favourite rolls, in their order, as JSON: [{"text", "label"?}];
    # a member reads and writes only their own (server/favourites.py bounds them)
    Column("entries", Text, nullable=False),
    Column("updated_at", String(40), nullable=False),
)

discord_channels = Table(
    "discord_channels",
    metadata,
    # a Discord channel (its snowflake, as text) and the room its commands roll in:
    # made at the channel's first command, kept across restarts
    Column("channel_id", String(32), primary_key=True),
    # None for a direct message's channel
    Column("guild_id", String(32), nullable=True),
    Column("room_id", String(32), ForeignKey("rooms.id"), nullable=False, unique=True),
    # the Discord user who first used the channel: its room's GM
    Column("gm_user_id", String(32), nullable=False),
    Column("created_at", String(40), nullable=False),
)

discord_users = Table(
    "discord_users",
    metadata,
    # each Discord user who has rolled in a channel's room is one member of it
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("user_id", String(32), primary_key=True),
    Column("member_id", String(16), ForeignKey("members.id"), nullable=False, unique=True),
)

webhooks = Table(
    "webhooks",
    metadata,
    # the incoming webhook a room's public rolls are mirrored to (one a room):
    # its URL is a secret of its own (anyone holding it posts to the channel),
    # kept as given since it is used, and never shown back whole
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("url", Text, nullable=False),
    # the body it takes: "discord" ({"content", "embeds"}) or "slack" ({"text", "blocks"})
    Column("kind", String(16), nullable=False),
    Column("updated_at", String(40), nullable=False),
)
