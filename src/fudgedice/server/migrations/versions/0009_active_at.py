"""Rooms kept and cleaned (docs/table.md, "Deleting rooms"): when each room was
last active, so that ``fudgedice serve --keep-days N`` can delete the rooms
left idle longer than that, oldest first, through an index.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("active_at", sa.String(40), nullable=True))
    # a room made before: active when its last entry was made, or when it was made
    op.execute(
        "UPDATE rooms SET active_at = COALESCE("
        "(SELECT MAX(rolls.at) FROM rolls WHERE rolls.room_id = rooms.id), created_at)"
    )
    op.create_index("rooms_by_activity", "rooms", ["active_at"])


def downgrade() -> None:
    op.drop_index("rooms_by_activity", "rooms")
    op.drop_column("rooms", "active_at")
