"""Idempotent requests (docs/table.md, "Retries"): the ``Idempotency-Key`` of
a roll, a spend or a message, kept with the entry it made, so that the same
request sent again, to any process, is answered that entry.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "roll_keys",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("member_id", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("request", sa.String(64), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_index("ix_roll_keys_at", "roll_keys", ["at"])


def downgrade() -> None:
    op.drop_index("ix_roll_keys_at", table_name="roll_keys")
    op.drop_table("roll_keys")
