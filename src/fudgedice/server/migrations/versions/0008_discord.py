"""Where groups already play (docs/discord.md): a Discord channel bound to the
room its slash commands roll in, its users' members, and a room's outgoing
webhook that mirrors its public rolls.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "discord_channels",
        sa.Column("channel_id", sa.String(32), primary_key=True),
        sa.Column("guild_id", sa.String(32), nullable=True),
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False, unique=True),
        sa.Column("gm_user_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "discord_users",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column(
            "member_id", sa.String(16), sa.ForeignKey("members.id"), nullable=False, unique=True
        ),
    )
    op.create_table(
        "webhooks",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("webhooks")
    op.drop_table("discord_users")
    op.drop_table("discord_channels")
