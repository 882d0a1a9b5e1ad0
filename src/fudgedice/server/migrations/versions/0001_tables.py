"""Rooms, seeds, members and rolls.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("system", sa.String(32), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("nonce", sa.Integer, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("last_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "seeds",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("epoch", sa.Integer, primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("revealed_at", sa.String(40), nullable=True),
    )
    op.create_table(
        "members",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("gm", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_members_room_id", "members", ["room_id"])
    op.create_table(
        "rolls",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("member_id", sa.String(16), sa.ForeignKey("members.id"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("visibility", sa.String(8), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("nonce", sa.Integer, nullable=True),
        sa.Column("client_seed", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("label", sa.Text, nullable=True),
        sa.Column("faces", sa.Text, nullable=True),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("salt", sa.String(64), nullable=True),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("verified", sa.Boolean, nullable=True),
    )
    op.create_index("rolls_by_member", "rolls", ["room_id", "member_id", "seq"])


def downgrade() -> None:
    op.drop_table("rolls")
    op.drop_table("members")
    op.drop_table("seeds")
    op.drop_table("rooms")
