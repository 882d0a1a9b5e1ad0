"""Each roll keeps its entry of the room's log (docs/fairness.md), and a
hidden roll its opening, as they were made.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rolls", sa.Column("entry", sa.Text, nullable=True))
    op.add_column("rolls", sa.Column("opening", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("rolls", "opening")
    op.drop_column("rolls", "entry")
