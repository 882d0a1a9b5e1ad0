"""Counters 64 bits wide: every seq, epoch, nonce and sheet version.

A ``BIGINT`` holds any seq the API accepts (below 2**63), so a request that
names a large one is answered, not refused by the driver. SQLite's INTEGER is
64 bits already: only PostgreSQL's columns change.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

COUNTERS = {
    "rooms": ("epoch", "nonce", "last_seq"),
    "seeds": ("epoch",),
    "rolls": ("seq", "epoch", "nonce"),
    "sheets": ("version",),
}


def _retype(wide: bool) -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    new, old = (sa.BigInteger(), sa.Integer()) if wide else (sa.Integer(), sa.BigInteger())
    for table, columns in COUNTERS.items():
        for column in columns:
            op.alter_column(table, column, type_=new, existing_type=old)


def upgrade() -> None:
    _retype(wide=True)


def downgrade() -> None:
    _retype(wide=False)
