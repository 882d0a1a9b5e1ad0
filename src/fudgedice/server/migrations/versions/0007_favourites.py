"""Favourite rolls (docs/table.md, "Favourite rolls"): each member's list of
roll texts to roll again in one click, as JSON, kept by the server so that it
follows the member to another device.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "favourites",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("member_id", sa.String(16), sa.ForeignKey("members.id"), primary_key=True),
        sa.Column("entries", sa.Text, nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("favourites")
